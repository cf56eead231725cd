import Foundation
import SheenDemo
import SheenKit
import SheenLayers
import SheenPlatform
import SheenRaster
import Testing

/// The SwiftUI twin's first pass with the window's idle time given to its lazy stacks between
/// frames (as `ColdPassTests` for the UIKit list): every row of cards is made, laid out and
/// drawn into the renderer's caches before it scrolls in (the twin's lazy rows are its sections),
/// so no frame of the pass makes a section, draws a `draw(_:)` view or rasterizes a shape, a
/// glyph or an image.
@Suite struct SwiftUIColdPassTests {
  @Test func rowsComeInWithTheirWorkDoneAhead() throws {
    let made = DemoApp.makeWindow(size: PixelSize(width: 660, height: 400), scale: 1, ui: .swiftui)
    let w = try #require(made as? SwiftUIDemoWindow)
    w.overlay.isHidden = true
    w.advance(to: 0)
    let surface = try Surface(width: 660, height: 400)
    let context = w.renderer.context
    w.renderFrame(into: surface, time: 0)
    var rowsAhead = 0
    var late: [String] = []
    for frame in 1...130 {
      // Idle time after the previous frame (a whole frame's, as on a quiet machine).
      let before = w.rowsShown
      while w.performIdleWork(until: .infinity) {}
      rowsAhead += w.rowsShown - before
      DemoScript.scroll(w, frame: frame)
      context.resetStatistics()
      let rows = w.rowsShown
      let draws = w.displayCount
      let glyphs = context.textRenderer.cache.statistics.rasterizations
      w.renderFrame(into: surface, time: Double(frame) / 60)
      let s = context.statistics
      let g = context.textRenderer.cache.statistics.rasterizations - glyphs
      if w.rowsShown != rows || w.displayCount != draws || s.shapeRasterizations > 0 || g > 0
        || s.imageResamples > 0 || s.blurs > 0
      {
        late.append(
          "frame \(frame): \(w.rowsShown - rows) rows, \(w.displayCount - draws) draws, "
            + "\(s.shapeRasterizations) shapes, \(g) glyphs, \(s.imageResamples) images, \(s.blurs) blurs")
      }
    }
    // 130 frames of 25 points: 3250 points, into the second section (made ahead).
    #expect(rowsAhead >= 1)
    #expect(late.isEmpty, "\(late)")
  }
}
