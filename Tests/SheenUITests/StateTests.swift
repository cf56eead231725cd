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

/// A thousand rows of 40 points in a lazy stack that scrolls.
struct ThousandLazyRows: View {
  var body: some View {
    ScrollView {
      LazyVStack(spacing: 0) {
        ForEach(0..<1000) { i in Row(id: i).frame(height: 40) }
      }
    }
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
    let h = Harness(ThousandLazyRows(), width: 300, height: 400)
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

  /// Rows far out of view are given back: their views go (the list holds about what a screen
  /// and its margins show, however far it was scrolled), their heights stay (the content does
  /// not move), and a row made again has the state it had.
  @Test func lazyRowsFarOutOfViewAreGivenBackKeepingTheirState() throws {
    struct Long: View {
      var body: some View {
        ScrollView {
          LazyVStack(spacing: 0) {
            ForEach(0..<300) { i in
              Counter().frame(height: i % 3 == 0 ? 60 : 80)
            }
          }
        }
      }
    }
    let h = Harness(Long(), width: 300, height: 400)
    let scroll = try #require(h.views().first { $0 is UIScrollView } as? UIScrollView)
    let fresh = h.views().count
    // Two taps on the first row's button.
    for _ in 0..<2 { h.tap(h.center(try #require(h.labels().first { $0.text == "Add" }))) }
    #expect(h.label("Count 2") != nil)
    // Down the whole list, a screen at a time: every row is made, and those far above go.
    var y: CGFloat = 0
    var most = 0
    while y < scroll.contentSize.height - 400 {
      y = min(scroll.contentSize.height - 400, y + 300)
      scroll.contentOffset = CGPoint(x: 0, y: y)
      h.step()
      most = max(most, h.views().count)
    }
    // Every row was measured, and those given back keep their heights: 100 of 60, 200 of 80.
    #expect(scroll.contentSize.height == 22_000)
    #expect(h.host.bodyEvaluations(of: Counter.self) >= 300)
    #expect(h.label("Count 2") == nil)
    // A screen, its 200-point margins and a screen kept each side: 1600 points of rows, where
    // the first frame made 600 (all 300 rows: 21,000).
    #expect(most <= fresh * 4, "\(most) views at most, \(fresh) at first")
    // Back to the top: the first row again, with its count.
    let before = h.host.bodyEvaluations(of: Counter.self)
    scroll.contentOffset = .zero
    h.step()
    #expect(scroll.contentSize.height == 22_000)
    #expect(h.host.bodyEvaluations(of: Counter.self) > before)
    #expect(h.label("Count 2") != nil)
    #expect(h.labels().filter { $0.text == "Count 0" }.count >= 4)
    // Its state is live: another tap counts on.
    h.tap(h.center(try #require(h.labels().first { $0.text == "Add" })))
    #expect(h.label("Count 3") != nil)
  }
}

// MARK: - Which bodies a state change asks for

/// A model value that is `Equatable` but not plain bytes (its strings are made anew each time).
struct Profile: Equatable {
  var name: String
  var tags: [String]
}

/// A child with inputs of every kind SwiftUI compares: plain data, a string, an `Equatable`
/// model, a binding, and a state of its own.
struct ProfileCard: View {
  let index: Int
  let title: String
  let profile: Profile
  @Binding var selected: Bool
  @State var expanded = false
  var body: some View {
    VStack {
      Text("\(title) \(index) \(profile.name)")
      Text(selected ? "selected" : "not selected")
      if expanded { Text(profile.tags.joined(separator: ", ")) }
      Button("Expand \(index)") { expanded.toggle() }
    }
  }
}

/// A child whose only input is a closure: never the same as before (as in SwiftUI).
struct ClosureChild: View {
  let action: () -> Void
  var body: some View { Text("closure child") }
}

/// A view that compares itself: only `id` matters for its body.
struct EquatableChild: View, Equatable {
  let id: Int
  let noise: Int
  var body: some View { Text("equatable \(id)") }
  static func == (a: EquatableChild, b: EquatableChild) -> Bool { a.id == b.id }
}

struct ProfileParent: View {
  @State var counter = 0
  @State var selected = false
  @State var name = "Ada"
  var body: some View {
    VStack {
      Text("Counter \(counter)")
      Button("Count") { counter += 1 }
      Button("Select") { selected.toggle() }
      Button("Rename") { name = "Grace" }
      // Inputs made anew in every body: a long string (on the heap), an array, a binding.
      ProfileCard(
        index: 1, title: String(repeating: "Title ", count: 4),
        profile: Profile(name: name + "", tags: ["a long tag number one", "two"]),
        selected: $selected)
      ProfileCard(
        index: 2, title: "Other",
        profile: Profile(name: "Fixed name that is long enough", tags: []),
        selected: .constant(false))
      ClosureChild { counter += 1 }
      EquatableChild(id: 7, noise: counter)
    }
  }
}

/// Sections of rows in a scrolling lazy list, as the demo's twin: a tap deep in the list.
struct DeepList: View {
  var body: some View {
    ScrollView {
      LazyVStack(spacing: 0) {
        ForEach(0..<6) { s in
          Section(s: s)
        }
      }
    }
  }
  struct Section: View {
    let s: Int
    var body: some View {
      VStack(spacing: 0) {
        Text("Section \(s)")
        ForEach(0..<4) { r in
          Row(id: s * 10 + r).frame(height: 24)
        }
      }
    }
  }
}

@Suite struct BodyEvaluationTests {
  @Test func aParentChangeLeavesChildrenWithTheSameInputsAlone() throws {
    let h = Harness(ProfileParent(), width: 400, height: 600)
    #expect(h.host.bodyEvaluations(of: ProfileCard.self) == 2)
    #expect(h.host.bodyEvaluations(of: ClosureChild.self) == 1)
    #expect(h.host.bodyEvaluations(of: EquatableChild.self) == 1)
    // The parent's own state changes: its body runs again and makes every child anew, with
    // equal inputs. Only the child holding a closure (which cannot be compared) runs again.
    h.tap(h.center(try #require(h.label("Count"))))
    #expect(h.label("Counter 1") != nil)
    #expect(h.host.bodyEvaluations(of: ProfileParent.self) == 2)
    #expect(h.host.bodyEvaluations(of: ProfileCard.self) == 2)
    #expect(h.host.bodyEvaluations(of: EquatableChild.self) == 1, "== says the same, though noise changed")
    #expect(h.host.bodyEvaluations(of: ClosureChild.self) == 2)
    // The value a binding shows changes: the card holding it runs again, not the other.
    h.tap(h.center(try #require(h.label("Select"))))
    #expect(h.label("selected") != nil)
    #expect(h.host.bodyEvaluations(of: ProfileCard.self) == 3)
    // An `Equatable` input changes: that card runs again.
    h.tap(h.center(try #require(h.label("Rename"))))
    #expect(h.label("Title Title Title Title  1 Grace") != nil)
    #expect(h.host.bodyEvaluations(of: ProfileCard.self) == 4)
    // A child's own state: that child only.
    let parents = h.host.bodyEvaluations(of: ProfileParent.self)
    h.tap(h.center(try #require(h.label("Expand 1"))))
    #expect(h.label("a long tag number one, two") != nil)
    #expect(h.host.bodyEvaluations(of: ProfileCard.self) == 5)
    #expect(h.host.bodyEvaluations(of: ProfileParent.self) == parents)
    #expect(h.host.bodyEvaluations(of: ClosureChild.self) == 4)
  }

  @Test func aTapDeepInALazyListAsksOneRow() throws {
    let h = Harness(DeepList(), width: 300, height: 400)
    let sections = h.host.bodyEvaluations(of: DeepList.Section.self)
    let rows = h.host.bodyEvaluations(of: Row.self)
    #expect(sections >= 3 && rows == sections * 4)
    let all = h.host.bodyEvaluationCount
    let views = h.views()
    // Row 21: section 2's second row.
    let label = try #require(h.label("Row 21"))
    let tap = h.labels().filter { $0.text == "Tap" }.min {
      abs(h.center($0).y - h.center(label).y) < abs(h.center($1).y - h.center(label).y)
    }
    h.tap(h.center(try #require(tap)))
    #expect(h.labels().filter { $0.text == "1" }.count == 1)
    #expect(h.host.bodyEvaluations(of: Row.self) == rows + 1)
    #expect(h.host.bodyEvaluations(of: DeepList.Section.self) == sections)
    #expect(h.host.bodyEvaluations(of: DeepList.self) == 1)
    // The row, and its button's style for the press and for the release.
    #expect(h.host.bodyEvaluationCount - all == 1 + 2)
    let after = h.views()
    #expect(after.count == views.count && zip(after, views).allSatisfy { $0 === $1 })
  }
}

/// A scrolling column of `count` rows, each with its own state (not lazy: every row is made).
struct LongList: View {
  let count: Int
  var body: some View {
    ScrollView {
      VStack(spacing: 0) {
        ForEach(0..<count, id: \.self) { i in Row(id: i) }
      }
    }
  }
}

@Suite struct PlacementTests {
  /// Taps row 1's button and counts the nodes placed by the press and by the release.
  func placementsForATap(rows: Int) throws -> (press: Int, release: Int, total: Int) {
    let h = Harness(LongList(count: rows), width: 300, height: 400)
    h.step(2)
    let total = h.host.nodePlacementCount
    let button = try #require(h.labels().filter { $0.text == "Tap" }.dropFirst().first)
    let views = h.views()
    let p = h.center(button)
    let before = h.host.nodePlacementCount
    h.send(.pointerDown(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: []))
    h.step()
    let press = h.host.nodePlacementCount - before
    h.send(.pointerUp(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: []))
    h.step()
    let release = h.host.nodePlacementCount - before - press
    #expect(h.labels().filter { $0.text == "1" }.count == 1, "the tap counted")
    let after = h.views()
    #expect(after.count == views.count && zip(after, views).allSatisfy { $0 === $1 })
    // Frames with nothing new place nothing.
    let still = h.host.nodePlacementCount
    h.step(3)
    #expect(h.host.nodePlacementCount == still)
    return (press, release, total)
  }

  @Test func aTapPlacesOnlyTheChangedRowAndThePathToIt() throws {
    let short = try placementsForATap(rows: 10)
    let long = try placementsForATap(rows: 80)
    // The first layout places every node: 8 times the rows, about 8 times the nodes.
    #expect(long.total > 6 * short.total)
    // A press and a release place the row's button (its style's body) and the row, and the path
    // from them to the root: the same nodes whatever the list's length, a few dozen at most.
    #expect(long.press == short.press)
    #expect(long.release == short.release)
    #expect(short.press > 0 && short.press <= 40, "press placed \(short.press)")
    #expect(short.release > 0 && short.release <= 60, "release placed \(short.release)")
  }
}

/// Sections of rows, each section's rows a lazy stack of their own inside the list's lazy stack.
struct NestedLazyList: View {
  var body: some View {
    ScrollView {
      LazyVStack(spacing: 0) {
        ForEach(0..<40) { s in
          VStack(spacing: 0) {
            Text("Section \(s)").frame(height: 30)
            LazyVStack(spacing: 0) {
              ForEach(0..<10) { r in Counter().frame(height: 50) }
            }
          }
        }
      }
    }
  }
}

@Suite struct LazyPrefetchTests {
  /// The window's idle time makes the rows half a screen beyond the margin, in the direction of
  /// scrolling; a frame that scrolls them in then makes none.
  @Test func idleTimeMakesTheRowsAheadOfScrolling() throws {
    let h = Harness(ThousandLazyRows(), width: 300, height: 400)
    let scroll = try #require(h.views().first { $0 is UIScrollView } as? UIScrollView)
    // 400 points and the 200-point margin below: rows 0-14.
    let made = h.host.bodyEvaluations(of: Row.self)
    #expect(made == 15)
    #expect(h.window.hasIdleWork)
    while h.window.performIdleWork(until: .infinity) {}
    // Half a screen (200 points) more: rows 15-19, made, laid out and placed where they go.
    #expect(h.host.bodyEvaluations(of: Row.self) == made + 5)
    #expect(h.label("Row 19") != nil && h.label("Row 20") == nil)
    let ahead = try #require(h.label("Row 19"))
    // Scrolled 200 points down: rows to 19 are in view or in the margin: the frame makes none,
    // and shows the label made ahead.
    scroll.contentOffset = CGPoint(x: 0, y: 200)
    h.step()
    #expect(h.host.bodyEvaluations(of: Row.self) == made + 5)
    #expect(h.label("Row 19") === ahead)
    while h.window.performIdleWork(until: .infinity) {}
    #expect(h.host.bodyEvaluations(of: Row.self) == made + 10)
    // Back up: nothing above is missing; rows below stay made.
    scroll.contentOffset = CGPoint(x: 0, y: 100)
    h.step()
    #expect(!h.window.performIdleWork(until: .infinity))
    #expect(h.host.bodyEvaluations(of: Row.self) == made + 10)
  }

  /// A lazy stack in a lazy row makes its own rows as they come into view, and a row given back
  /// keeps the state of the rows of the lazy stack inside it.
  @Test func nestedLazyRowsKeepTheirStateWhenTheirSectionIsGivenBack() throws {
    let h = Harness(NestedLazyList(), width: 300, height: 400)
    let scroll = try #require(h.views().first { $0 is UIScrollView } as? UIScrollView)
    let fresh = h.views().count
    // Section 0 (530 points): its title and the rows in view and the margin, not all ten.
    let first = h.host.bodyEvaluations(of: Counter.self)
    #expect(first >= 11 && first <= 13, "\(first) rows made")
    // Every section is as tall as the first, estimated from its first row: 40 x 530.
    #expect(scroll.contentSize.height == 21_200)
    h.tap(h.center(try #require(h.labels().first { $0.text == "Add" })))
    h.tap(h.center(try #require(h.labels().first { $0.text == "Add" })))
    #expect(h.label("Count 2") != nil)
    // Down to the end a screen at a time (section 0 given back), then to the top again.
    var y: CGFloat = 0
    var most = 0
    while y < scroll.contentSize.height - 400 {
      y = min(scroll.contentSize.height - 400, y + 300)
      scroll.contentOffset = CGPoint(x: 0, y: y)
      h.step()
      most = max(most, h.views().count)
    }
    #expect(h.label("Count 2") == nil)
    #expect(h.label("Section 39") != nil)
    scroll.contentOffset = .zero
    h.step()
    #expect(h.label("Count 2") != nil, "the first row's count came back with its section")
    #expect(scroll.contentSize.height == 21_200)
    // Views alive at most: a screen, its margins and a screen kept each side (2,000 points),
    // where the first frame made 600.
    #expect(most <= fresh * 4, "\(most) views at most, \(fresh) at first")
  }
}
