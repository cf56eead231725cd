import Foundation
import SheenDemo
import SheenKit
import SheenRaster
import Testing

/// The cards' small charts, drawn in `draw(_:)`: drawn once when they show, redrawn only when a
/// reused card brings other values, never in steady frames.
@Suite struct SparklineTests {
  @Test func chartsDrawOnceAndSteadyFramesDrawNothing() throws {
    let w = makeDemo(width: 420, height: 600)
    var t = 0.0
    func frame() throws -> Surface {
      t += 1.0 / 60
      return try render(w, at: t)
    }
    // Scroll to the first card with a chart.
    let first = try #require((0..<DemoContent.cardCount).first { CardContent(index: $0).trend != nil })
    var s = try frame()
    while w.cards.cardView(at: first) == nil && w.list.contentOffset.y < w.list.contentSize.height {
      w.list.contentOffset.y += 500
      s = try frame()
    }
    let start = w.list.contentOffset.y
    let charted = w.cards.visibleCards.filter { !$0.sparkline.isHidden }
    try #require(!charted.isEmpty, "a card with a chart is in view")
    for card in charted {
      #expect(card.sparkline.values.map { Double($0) } == card.content.trend)
      // Its drawing is its layer's contents, and shows: the line is white over the header colour.
      #expect(card.sparkline.layer.sheenLayer.contents != nil)
      let origin = card.sparkline.convert(CGPoint.zero, to: nil)
      var white = 0
      for y in 0..<44 {
        for x in 0..<104 {
          let px = Int(origin.x) + x
          let py = Int(origin.y) + y
          guard px >= 0, py >= 0, px < s.width, py < s.height else { continue }
          if luminance(s[px, py]) > 245 { white += 1 }
        }
      }
      #expect(white > 40, "card \(card.content.index): \(white) white pixels")
    }
    #expect(w.cards.visibleCards.contains { $0.content.trend == nil && $0.sparkline.isHidden })
    // Steady frames, still and scrolling by less than a row: no draw(_:) at all.
    let draws = w.displayCount
    for _ in 0..<10 { s = try frame() }
    for i in 0..<10 {
      w.list.contentOffset = CGPoint(x: 0, y: start + CGFloat(i))
      s = try frame()
    }
    #expect(w.displayCount == draws)
    // Further down, reused cards show other cards' charts: each is drawn again.
    let shown = w.cards.visibleCards.map(\.content.index).max() ?? 0
    let next = try #require(
      ((shown + 12)..<DemoContent.cardCount).first { CardContent(index: $0).trend != nil })
    while w.cards.cardView(at: next) == nil && w.list.contentOffset.y < w.list.contentSize.height {
      w.list.contentOffset.y += 500
      s = try frame()
    }
    let later = try #require(w.cards.cardView(at: next))
    #expect(!later.sparkline.isHidden && later.sparkline.values.map { Double($0) } == later.content.trend)
    #expect(w.displayCount > draws)
    let after = w.displayCount
    for _ in 0..<5 { s = try frame() }
    #expect(w.displayCount == after)
  }
}
