import Foundation
import SheenDemo
import SheenKit
import SheenLayers
import SheenRaster
import Testing

/// The first pass through the demo's list (`sheen bench --cold`) with the window's idle time
/// given to the collection view between frames, as `FrameLoop` gives it: every row is made,
/// laid out and drawn into the renderer's caches before it scrolls in, so no frame of the pass
/// (those that show a new row, or more of one) draws a `draw(_:)` view or rasterizes a shape, a
/// glyph or an image.
@Suite struct ColdPassTests {
  @Test func rowsComeInWithTheirWorkDoneAhead() throws {
    let w = makeDemo(width: 660, height: 400)
    let surface = try Surface(width: 660, height: 400)
    let context = w.renderer.context
    w.renderFrame(into: surface, time: 0)
    var rowFrames = 0
    var late: [String] = []
    for frame in 1...130 {
      // Idle time after the previous frame (a whole frame's, as on a quiet machine).
      while w.performIdleWork(until: .infinity) {}
      DemoScript.scroll(w, frame: frame)
      context.resetStatistics()
      let rows = w.rowsShown
      let draws = w.displayCount
      let glyphs = context.textRenderer.cache.statistics.rasterizations
      w.renderFrame(into: surface, time: Double(frame) / 60)
      if w.rowsShown != rows { rowFrames += 1 }
      let s = context.statistics
      let g = context.textRenderer.cache.statistics.rasterizations - glyphs
      if w.displayCount != draws || s.shapeRasterizations > 0 || g > 0 || s.imageResamples > 0 || s.blurs > 0
      {
        late.append(
          "frame \(frame): \(w.displayCount - draws) draws, \(s.shapeRasterizations) shapes, \(g) glyphs, "
            + "\(s.imageResamples) images, \(s.blurs) blurs")
      }
    }
    // 130 frames of 25 points: 3250 points, a dozen rows and the second section's header.
    #expect(rowFrames >= 10)
    #expect(late.isEmpty, "\(late)")
  }
}
