import Foundation
import SheenPlatform
import SheenRaster
import SheenUI
import Testing

/// A window hosting a SheenUI view, driven by platform events on a virtual clock.
final class Harness<V: View> {
  let window: UIWindow
  let host: HostingView<V>
  var time: Double = 0

  init(_ view: V, width: CGFloat = 300, height: CGFloat = 400) {
    window = UIWindow(frame: CGRect(x: 0, y: 0, width: width, height: height))
    host = HostingView(rootView: view, frame: window.bounds)
    window.addSubview(host)
    window.advance(to: 0)
  }

  func step(_ frames: Int = 1) {
    for _ in 0..<frames {
      time += 1.0 / 60
      window.advance(to: time)
    }
  }

  func send(_ e: PlatformEvent) { window.dispatch(e, time: time) }

  func tap(_ p: CGPoint) {
    send(.pointerDown(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: []))
    step()
    send(.pointerUp(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: []))
    step()
  }

  /// Every view of the tree, depth first.
  func views() -> [UIView] {
    var out: [UIView] = []
    func walk(_ v: UIView) {
      out.append(v)
      for s in v.subviews { walk(s) }
    }
    walk(host)
    return out
  }

  func labels() -> [UILabel] { views().compactMap { $0 as? UILabel } }
  func label(_ text: String) -> UILabel? { labels().first { $0.text == text } }
  func center(_ v: UIView) -> CGPoint { v.convert(CGPoint(x: v.bounds.midX, y: v.bounds.midY), to: nil) }
}

struct Counter: View {
  @State var count = 0
  var body: some View {
    VStack {
      Text("Count \(count)")
      Button("Add") { count += 1 }
    }
  }
}

/// One row with its own state; its body counts how many times it was asked for.
struct Row: View, Identifiable {
  let id: Int
  @State var taps = 0
  var body: some View {
    HStack {
      Text("Row \(id)")
      Spacer()
      Text("\(taps)")
      Button("Tap") { taps += 1 }
    }
    .padding(4)
  }
}

struct Rows: View {
  var body: some View {
    VStack(spacing: 0) {
      ForEach(0..<5) { i in Row(id: i) }
    }
  }
}

struct Toggler: View {
  @State var on = false
  var body: some View {
    VStack {
      if on {
        Text("On")
      } else {
        Color.red.frame(width: 10, height: 10)
      }
      Child(on: $on)
    }
  }
}

struct Child: View {
  @Binding var on: Bool
  var body: some View {
    Text(on ? "Switch off" : "Switch on").onTapGesture { on.toggle() }
  }
}

@Suite struct StateTests {
  @Test func stateChangeUpdatesTheText() throws {
    let h = Harness(Counter())
    let label = try #require(h.label("Count 0"))
    let button = try #require(h.label("Add"))
    h.tap(h.center(button))
    #expect(h.label("Count 1") === label, "the same label shows the new text")
    h.tap(h.center(button))
    #expect(label.text == "Count 2")
  }

  @Test func aTapRebuildsOnlyTheRowWhoseStateChanged() throws {
    let h = Harness(Rows())
    #expect(h.host.bodyEvaluations(of: Row.self) == 5)
    let before = h.views()
    let rowsBefore = h.host.bodyEvaluationCount
    // Tap row 2's button.
    let buttons = h.labels().filter { $0.text == "Tap" }
    #expect(buttons.count == 5)
    h.tap(h.center(buttons[2]))
    #expect(h.labels().filter { $0.text == "1" }.count == 1)
    // Row 2's body once; no other row's, not the list's; and the button's style body twice:
    // for the press, and for the release (made with the row's new body, in the same update).
    #expect(h.host.bodyEvaluations(of: Row.self) == 6)
    #expect(h.host.bodyEvaluations(of: Rows.self) == 1)
    #expect(h.host.bodyEvaluationCount - rowsBefore == 1 + 2)
    // The layer tree is the same objects: nothing was made again.
    let after = h.views()
    #expect(after.count == before.count && zip(after, before).allSatisfy { $0 === $1 })
  }

  @Test func ifElseSwitchesBranchesAndBindingWritesBack() throws {
    let h = Harness(Toggler())
    #expect(h.label("On") == nil)
    let sw = try #require(h.label("Switch on"))
    h.tap(h.center(sw))
    #expect(h.label("On") != nil)
    #expect(h.label("Switch off") === sw)
    h.tap(h.center(sw))
    #expect(h.label("On") == nil)
  }

  @Test func withAnimationMovesOnTheHostsClock() throws {
    struct Mover: View {
      @State var right = false
      var body: some View {
        Color.blue.frame(width: 20, height: 20).offset(x: right ? 100 : 0)
          .onTapGesture { withAnimation(.easeInOut(duration: 0.5)) { right.toggle() } }
      }
    }
    let h = Harness(Mover())
    let square = try #require(h.views().dropFirst().first { $0.backgroundColor != nil })
    let start = square.layer.sheenLayer.frame.minX
    h.tap(h.center(square))
    // Half-way through (15 frames of 30) it is between; at the end, 100 points over.
    h.step(14)
    let mid = square.layer.sheenLayer.frame.minX
    #expect(mid > start + 10 && mid < start + 90)
    h.step(20)
    #expect(abs(square.layer.sheenLayer.frame.minX - (start + 100)) < 0.001)
  }

  @Test func springAnimationOvershoots() throws {
    struct Grower: View {
      @State var big = false
      var body: some View {
        Color.blue.frame(width: 20, height: 20).scaleEffect(big ? 2 : 1)
          .onTapGesture { big = true }
          .animation(.spring(response: 0.4, dampingFraction: 0.4), value: big)
      }
    }
    let h = Harness(Grower())
    let square = try #require(h.views().first { $0.backgroundColor != nil })
    h.tap(h.center(square))
    var peak = 0.0
    for _ in 0..<60 {
      h.step()
      var v: UIView? = square
      while let x = v, x !== h.host {
        peak = max(peak, x.layer.sheenLayer.transform.scaleX)
        v = x.superview
      }
    }
    #expect(peak > 2.05, "an underdamped spring goes past its end")
  }

  @Test func buttonPressAnimatesItsStyle() throws {
    struct Pressy: ButtonStyle {
      func makeBody(configuration: Configuration) -> some View {
        configuration.label.padding(8).background(Color.orange)
          .scaleEffect(configuration.isPressed ? 0.9 : 1)
      }
    }
    let h = Harness(Button("Press") {}.buttonStyle(Pressy()))
    let label = try #require(h.label("Press"))
    let p = h.center(label)
    func shown() -> Double {
      var v: UIView? = label
      var s = 1.0
      while let x = v, x !== h.host {
        s *= x.layer.sheenLayer.transform.scaleX
        v = x.superview
      }
      return s
    }
    h.send(.pointerDown(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: []))
    h.step(3)
    let pressing = shown()
    #expect(pressing < 1 && pressing > 0.9)
    h.step(10)
    #expect(abs(shown() - 0.9) < 0.001)
    h.send(.pointerUp(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: []))
    h.step(30)
    #expect(abs(shown() - 1) < 0.001)
  }

  @Test func lazyStackMakesRowsAsTheyAppear() throws {
    struct Long: View {
      var body: some View {
        ScrollView {
          LazyVStack(spacing: 0) {
            ForEach(0..<1000) { i in Row(id: i).frame(height: 40) }
          }
        }
      }
    }
    let h = Harness(Long(), width: 300, height: 400)
    // 400 points and a margin of 200 below: 15 rows of 40.
    let made = h.host.bodyEvaluations(of: Row.self)
    #expect(made >= 10 && made <= 20)
    let scroll = try #require(h.views().first { $0 is UIScrollView } as? UIScrollView)
    #expect(scroll.contentSize.height == 40_000)
    scroll.contentOffset = CGPoint(x: 0, y: 4000)
    h.step()
    let now = h.host.bodyEvaluations(of: Row.self)
    #expect(now > made && now <= made + 30)
    #expect(h.label("Row 105") != nil)
    #expect(h.label("Row 500") == nil)
  }
}
