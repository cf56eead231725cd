import Foundation
import SheenPlatform
import SheenRaster
import SheenUI
import Testing

/// A card with a tap count, tags, a shadow and a button, as a list of cards has them.
struct VisitCard: View {
  let id: Int
  @State var taps = 0
  var body: some View {
    ZStack(alignment: .topLeading) {
      Color.white
      VStack(alignment: .leading, spacing: 4) {
        HStack {
          Text("Card \(id)").font(.headline)
          Spacer()
          Text("\(taps)").opacity(taps > 0 ? 1 : 0)
        }
        Text("A line about card \(id)").foregroundColor(.gray).lineLimit(1)
        HStack(spacing: 6) {
          ForEach(0..<3) { k in
            Text("tag \(k)").font(.caption).padding(4)
              .background(Capsule().fill(Color.blue.opacity(0.2)))
          }
          Spacer()
          Button("Tap") { taps += 1 }
        }
      }
      .padding(12)
    }
    .frame(height: 110)
    .cornerRadius(12)
    .shadow(color: .black.opacity(0.2), radius: 4, x: 0, y: 2)
  }
}

/// A header, then `count` cards made as they scroll into view.
struct LazyVisitCards: View {
  let count: Int
  var body: some View {
    ScrollView {
      LazyVStack(alignment: .leading, spacing: 8) {
        Text("Cards").font(.title).padding(.bottom, 4)
        ForEach(0..<count) { i in VisitCard(id: i) }
      }
      .padding(16)
    }
  }
}

/// A row that grows a line when tapped (so the rows below it move).
struct GrowingRow: View {
  let id: Int
  @State var open = false
  var body: some View {
    VStack(alignment: .leading, spacing: 0) {
      Button("Row \(id)") { open.toggle() }.frame(height: 30)
      if open { Text("More about row \(id)").frame(height: 20) }
    }
  }
}

struct GrowingRows: View {
  var body: some View {
    ScrollView {
      LazyVStack(alignment: .leading, spacing: 0) {
        ForEach(0..<500) { i in GrowingRow(id: i) }
      }
    }
  }
}

@Suite struct UpdateVisitTests {
  /// What the press and the release of card 1's button visited, in a list of `count` cards.
  func tapVisits(count: Int) throws -> (
    press: HostingView<LazyVisitCards>.UpdateVisits, release: HostingView<LazyVisitCards>.UpdateVisits
  ) {
    let h = Harness(LazyVisitCards(count: count), width: 360, height: 480)
    h.step(3)
    let button = try #require(h.labels().filter { $0.text == "Tap" }.dropFirst().first)
    let p = h.center(button)
    let start = h.host.updateVisits
    h.send(.pointerDown(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: []))
    h.step()
    let pressed = h.host.updateVisits
    h.send(.pointerUp(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: []))
    h.step()
    let released = h.host.updateVisits
    #expect(h.host.bodyEvaluations(of: VisitCard.self) > 0)
    #expect(h.labels().contains { $0.text == "1" }, "the tap counted")
    // Frames with nothing new visit nothing.
    h.step(3)
    #expect(h.host.updateVisits == released)
    return (pressed - start, released - pressed)
  }

  /// A tap visits what it changed and the path to it: the tapped card's nodes (its body asked
  /// again), the button's, and the nodes from them to the root; never the other cards, and
  /// never every entry of the lazy list. The same visits whether the list has 20 cards or
  /// 20,000 (before, the lazy stack measured all of its entries again at every tap: 20,000
  /// entry visits for the long list).
  @Test func aTapVisitsTheSameNodesWhateverTheListsLength() throws {
    let short = try tapVisits(count: 20)
    let long = try tapVisits(count: 20_000)
    #expect(short.press == long.press, "press: \(short.press) against \(long.press)")
    #expect(short.release == long.release, "release: \(short.release) against \(long.release)")
    // The release asks the card's body (and the button style's) again: the card's nodes are
    // reconciled once each (38). A press asks only the button style's body.
    #expect(long.release.bodies <= 3, "\(long.release)")
    #expect(long.press.bodies == 1, "\(long.press)")
    #expect(long.release.reconciled <= 50, "\(long.release)")
    #expect(long.press.reconciled <= 10, "\(long.press)")
    // Only what changed is laid out and placed again, with the path to it: the badge's text
    // and the nodes above it (20 invalidated; every container of the card and the path above
    // each, 200-odd, when containers were laid out again at each update), the nodes placed the
    // path and what changed (18; every node reconciled and the path, 50-odd, before).
    #expect(long.release.invalidations <= 40, "\(long.release)")
    #expect(long.release.placed <= 30, "\(long.release)")
    #expect(long.press.invalidations <= 20, "\(long.press)")
    #expect(long.press.placed <= 25, "\(long.press)")
    // The lazy stack measures the tapped row again and places the rows it made: a few entries,
    // not the list's (20,008 when it measured itself again).
    #expect(long.release.lazyEntries <= 16, "\(long.release)")
    #expect(long.press.lazyEntries <= 16, "\(long.press)")
    #expect(long.release.total <= 200, "\(long.release)")
    #expect(long.press.total <= 60, "\(long.press)")
  }

  /// A row that changes its height moves the rows below it (the lazy stack measures itself
  /// again when a row's height changed, not only the row).
  @Test func aRowThatGrowsMovesTheRowsBelow() throws {
    let h = Harness(GrowingRows(), width: 300, height: 400)
    h.step(2)
    let row3 = try #require(h.labels().first { $0.text == "Row 3" })
    let row5 = try #require(h.labels().first { $0.text == "Row 5" })
    let y3 = h.center(row3).y
    let y5 = h.center(row5).y
    #expect(y5 - y3 == 60)
    h.tap(h.center(row3))
    h.step(30)
    #expect(h.labels().contains { $0.text == "More about row 3" })
    #expect(h.center(row3).y == y3)
    #expect(h.center(row5).y == y5 + 20, "the rows below moved down by the new line")
    h.tap(h.center(row3))
    h.step(30)
    #expect(h.center(row5).y == y5)
  }

  /// A change inside a frame of fixed width and height lays out what is in the frame, not its
  /// row, the lazy stack and the scroll view: the same tap in a frame of fixed height only
  /// (whose width follows its content) invalidates more nodes and works out more sizes, and
  /// the rows below stay where they are.
  @Test func aChangeInAFixedFrameLaysOutOnlyWhatIsInIt() throws {
    func visits(fixed: Bool) throws -> HostingView<FramedCards>.UpdateVisits {
      let h = Harness(FramedCards(fixed: fixed), width: 360, height: 480)
      h.step(3)
      let button = try #require(h.label("Grow 1"))
      let below = try #require(h.label("Grow 2"))
      let y = h.center(below).y
      let start = h.host.updateVisits
      h.tap(h.center(button))
      let v = h.host.updateVisits - start
      #expect(h.label("Grow 1 more") != nil, "the tap changed the text")
      #expect(h.center(below).y == y)
      return v
    }
    let fixed = try visits(fixed: true)
    let flexible = try visits(fixed: false)
    #expect(fixed.invalidations < flexible.invalidations, "fixed \(fixed), flexible \(flexible)")
    #expect(fixed.sizesComputed < flexible.sizesComputed, "fixed \(fixed), flexible \(flexible)")
  }

  /// Above such a frame, a stack aligning by text baselines lays out again (a text in the frame
  /// that grows moves its baseline): the tree changed by a tap is laid out as one made with the
  /// new value.
  @Test func aStackAligningByBaselinesAboveAFixedFrameLaysOutAgain() throws {
    let h = Harness(BaselineRow(big: false), width: 300, height: 200)
    h.tap(h.center(try #require(h.label("A"))))
    h.step(30)
    let fresh = Harness(BaselineRow(big: true), width: 300, height: 200)
    fresh.step(30)
    let b = try #require(h.label("B"))
    let freshB = try #require(fresh.label("B"))
    #expect(b.convert(b.bounds, to: nil) == freshB.convert(freshB.bounds, to: nil))
    for text in ["A", "C"] {
      let v = try #require(h.label(text))
      let f = try #require(fresh.label(text))
      #expect(v.convert(v.bounds, to: nil) == f.convert(f.bounds, to: nil), "\(text)")
    }
  }
}

/// Cards in a lazy list, each in a frame of fixed height and, when `fixed`, fixed width; a tap
/// lengthens the button's title.
struct FramedCards: View {
  let fixed: Bool
  var body: some View {
    ScrollView {
      LazyVStack(alignment: .leading, spacing: 8) {
        ForEach(0..<40) { i in FramedCard(id: i, fixed: fixed) }
      }
    }
  }
}

struct FramedCard: View {
  let id: Int
  let fixed: Bool
  @State var more = false
  var body: some View {
    VStack(alignment: .leading) {
      Text("Card \(id)")
      Button(more ? "Grow \(id) more" : "Grow \(id)") { more = true }
    }
    .frame(width: fixed ? 200 : nil, height: 60)
  }
}

/// A text in a frame of fixed size beside a larger one, the row aligned by their first
/// baselines, and a text below; a tap makes the framed text larger (its baseline moves down,
/// and the row is less tall).
struct BaselineRow: View {
  @State var big: Bool
  var body: some View {
    VStack(alignment: .leading, spacing: 0) {
      // The row's top is B's (reaching above A's frame) while A is small, A's frame's then.
      HStack(alignment: .firstTextBaseline, spacing: 0) {
        Text("A").font(.system(size: big ? 40 : 12)).onTapGesture { big = true }
          .frame(width: 60, height: 60, alignment: .top)
        Text("B").font(.system(size: 40))
      }
      Text("C")
    }
  }
}
