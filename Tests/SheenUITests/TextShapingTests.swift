import Foundation
import SheenPlatform
import SheenRaster
import SheenText
import SheenUI
import Testing

/// A card whose tap shows a badge: the texts that do not change must not be shaped again, on the
/// release frame or when their views are made again.
private struct BadgeCard: View {
  let id: String
  @State var liked = false
  var body: some View {
    VStack(alignment: .leading) {
      Text("Title \(id)").font(.headline)
      Text("A subtitle long enough to wrap over two lines in a narrow card \(id)")
        .font(.subheadline).foregroundColor(.secondary)
      Button("Like") { liked.toggle() }
      if liked { Text("Liked \(id)").font(.caption).padding(4).background(Color.yellow) }
    }
    .padding()
  }
}

/// Counts, with a tally of its own (other tests shape at the same time), what texts the work
/// in `body` shaped, the drawing of the hosting view included.
private func shapings<V: View>(_ h: Harness<V>, _ body: () -> Void) throws -> Int {
  let tally = ShapingTally()
  try tally.counting {
    body()
    _ = try h.host.renderImage(scale: 1)
  }
  return tally.shapings
}

@Suite struct TextShapingTests {
  @Test func aTapShapesOnlyTheTextThatAppearsAndATextMadeAgainShapesNothing() throws {
    let id = UUID().uuidString
    let h = Harness(BadgeCard(id: id), width: 240, height: 300)
    _ = try h.host.renderImage(scale: 1)
    let button = try #require(h.label("Like"))
    let p = h.center(button)
    let pt = Point(x: Double(p.x), y: Double(p.y))

    // The press changes no text.
    let press = try shapings(h) {
      h.send(.pointerDown(pt, button: .left, modifiers: []))
      h.step()
    }
    #expect(press == 0)
    // The release runs the card's body again: its title, subtitle and button are the same texts
    // (no shaping); the badge's text is new: laid out (shaped) once for each box it is laid out
    // in: measured at the width the stack proposes, at its label's width, and in its text
    // layer's box (the label's width and the text's height): at most 3 (10 before labels laid
    // out only with a height; a parallel run has counted 2, the text layer's box laid out off
    // this task).
    let release = try shapings(h) {
      h.send(.pointerUp(pt, button: .left, modifiers: []))
      h.step()
    }
    #expect(h.label("Liked \(id)") != nil)
    #expect(release >= 1 && release <= 3)

    // Hidden and shown again: the badge's label is a new one, with the same text, font and
    // width: it shapes nothing (it finds the layouts the first one made).
    // (The card is centred in the host: the badge moved the button.)
    h.step(30)
    h.tap(h.center(button))
    h.step(30)
    #expect(h.label("Liked \(id)") == nil)
    let again = try shapings(h) {
      h.tap(h.center(button))
      h.step(30)
    }
    #expect(h.label("Liked \(id)") != nil)
    #expect(again == 0)
  }

  @Test func rowsMadeAgainInALazyListShapeNothing() throws {
    struct Long: View {
      let id: String
      var body: some View {
        ScrollView {
          LazyVStack(spacing: 0) {
            ForEach(0..<400) { i in Text("Row \(i) of \(id)").frame(height: 40) }
          }
        }
      }
    }
    let id = UUID().uuidString
    let h = Harness(Long(id: id), width: 300, height: 400)
    _ = try h.host.renderImage(scale: 1)
    let scroll = try #require(h.views().first { $0 is UIScrollView } as? UIScrollView)
    scroll.contentOffset = CGPoint(x: 0, y: 12_000)
    h.step()
    _ = try h.host.renderImage(scale: 1)
    #expect(h.label("Row 0 of \(id)") == nil, "the first rows were given back")
    // Back to the top: the first rows are made again, with the texts they had.
    let back = try shapings(h) {
      scroll.contentOffset = .zero
      h.step()
    }
    #expect(h.label("Row 0 of \(id)") != nil)
    #expect(back == 0)
  }
}
