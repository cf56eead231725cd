import Foundation
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// A shadow taken from a layer's alpha is kept while what changes lies wholly on the layer's own
/// opaque background (the alpha is 1 there whatever is drawn on it), and made again as soon as a
/// change reaches past it.
@Suite struct OpaqueBackgroundShadowTests {
  @Test func changesOnAnOpaqueBackgroundKeepTheShadow() throws {
    let card = Layer()
    card.frame = Rect(x: 20.5, y: 24.25, width: 90, height: 70)
    card.backgroundColor = .white
    card.cornerRadius = 10
    card.shadowOpacity = 0.6
    card.shadowRadius = 3
    card.shadowOffset = Size(width: 1.5, height: 2.5)
    // A triangle standing out of the top: the alpha is not rounded rectangles, so it is blurred.
    let tab = ShapeLayer()
    tab.frame = Rect(x: 60, y: -12, width: 20, height: 14)
    var p = Path()
    p.move(to: Point(x: 0, y: 14))
    p.addLine(to: Point(x: 10, y: 0))
    p.addLine(to: Point(x: 20, y: 14))
    p.closeSubpath()
    tab.path = p
    tab.fillColor = .white
    card.addSublayer(tab)
    let dot = Layer()
    dot.frame = Rect(x: 20, y: 29, width: 24, height: 12)
    dot.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.7)
    dot.cornerRadius = 3
    dot.shadowOpacity = 0.5
    dot.shadowRadius = 1
    dot.shadowOffset = Size(width: 0, height: 1)
    card.addSublayer(dot)
    let compositor = Compositor()
    _ = try render([card], width: 140, height: 110, compositor: compositor)
    #expect(card.alphaShapes == nil)
    #expect(compositor.context.statistics.blurs >= 1)
    let inside: [(String, () -> Void)] = [
      ("scaled", { dot.transform = LayerTransform(scale: 0.93) }),
      ("turned", { dot.transform = LayerTransform(scaleX: 1.1, scaleY: 1.1, rotation: 0.3) }),
      ("moved", { dot.frame.origin.x += 7.25 }),
      ("faded", { dot.opacity = 0.4 }),
      ("its shadow moved", { dot.shadowOffset = Size(width: 1, height: 2) }),
      ("recoloured", { dot.backgroundColor = .testBlue }),
    ]
    for (what, change) in inside {
      compositor.context.resetStatistics()
      change()
      let drawn = try render([card], width: 140, height: 110, compositor: compositor)
      #expect(compositor.context.statistics.blurs == 0, "\(what)")
      let fresh = try render([card], width: 140, height: 110)
      #expect(drawn.pixels == fresh.pixels, "\(what)")
    }
    // Past the background (to its rounded corner, then out of it): the shadow is made again.
    for (what, x, y) in [("in the corner", 1.0, 1.0), ("outside", -14.0, 30.0)] {
      compositor.context.resetStatistics()
      dot.frame.origin = Point(x: x, y: y)
      let drawn = try render([card], width: 140, height: 110, compositor: compositor)
      #expect(compositor.context.statistics.blurs >= 1, "\(what)")
      let fresh = try render([card], width: 140, height: 110)
      #expect(drawn.pixels == fresh.pixels, "\(what)")
    }
    // A translucent background lets the sublayers' alpha through: every change counts.
    dot.frame.origin = Point(x: 20, y: 29)
    card.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.5)
    _ = try render([card], width: 140, height: 110, compositor: compositor)
    compositor.context.resetStatistics()
    dot.transform = LayerTransform(scale: 0.8)
    let drawn = try render([card], width: 140, height: 110, compositor: compositor)
    #expect(compositor.context.statistics.blurs >= 1)
    let fresh = try render([card], width: 140, height: 110)
    #expect(drawn.pixels == fresh.pixels)
  }
}
