import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster
@testable import SheenText

/// Text under a transform the glyph cache does not serve (rotated, skewed, scaled unevenly) is
/// recorded as the coverage of its outlines, once, and drawn again as one fill.
@Suite struct TransformedTextTests {
  func label(_ transform: LayerTransform) -> TextLayer {
    let t = TextLayer()
    t.frame = Rect(x: 40, y: 60, width: 180, height: 30)
    t.string = "Rotated label, drawn again"
    t.fontSize = 17
    t.foregroundColor = .black
    t.transform = transform
    return t
  }

  @Test(arguments: [
    LayerTransform(rotation: 0.4), LayerTransform(scaleX: 1.3, scaleY: 0.8), LayerTransform(rotation: -2.5),
  ])
  func drawnAgainWithoutFillingOutlines(_ transform: LayerTransform) throws {
    let context = RenderContext()
    let compositor = Compositor(context: context)
    let l = label(transform)
    _ = try render([l], width: 260, height: 200, compositor: compositor)
    let first = context.textRenderer.cache.statistics.outlineFills
    #expect(first > 0)
    // Moved by whole pixels: the recording is drawn again, nothing is filled or recorded.
    let recorded = context.statistics.shapeRasterizations
    l.frame = l.frame.offsetBy(dx: 7, dy: -3)
    let moved = try render([l], width: 260, height: 200, compositor: compositor)
    #expect(context.textRenderer.cache.statistics.outlineFills == first)
    #expect(context.statistics.shapeRasterizations == recorded)

    // The same pixels, within a level, as the outlines filled straight onto a canvas (Pango
    // would place them the same way: no hinting under a rotation).
    let direct = try Surface(width: 260, height: 200)
    let canvas = Canvas(surface: direct)
    canvas.clear(.white)
    canvas.transform = l.transformToSuperlayer
    canvas.clip(to: l.bounds)
    canvas.drawText(try #require(l.layout), at: .zero, color: .black, renderer: TextRenderer())
    var maxDiff = 0
    var ink = 0
    for y in 0..<200 {
      for x in 0..<260 {
        let a = rgba(moved[x, y]).g
        let b = rgba(direct[x, y]).g
        maxDiff = max(maxDiff, abs(a - b))
        ink += 255 - b
      }
    }
    #expect(maxDiff <= 2)
    #expect(ink > 255 * 60)
  }

  @Test func animatedRotationRecordsEachAngleOnce() throws {
    let context = RenderContext()
    let compositor = Compositor(context: context)
    let l = label(.identity)
    for angle in [0.1, 0.2, 0.3] {
      l.transform = LayerTransform(rotation: angle)
      _ = try render([l], width: 260, height: 200, compositor: compositor)
    }
    let fills = context.textRenderer.cache.statistics.outlineFills
    // Back to angles already seen: recorded coverage, no outline fill.
    for angle in [0.1, 0.2, 0.3] {
      l.transform = LayerTransform(rotation: angle)
      _ = try render([l], width: 260, height: 200, compositor: compositor)
    }
    #expect(context.textRenderer.cache.statistics.outlineFills == fills)
  }
}
