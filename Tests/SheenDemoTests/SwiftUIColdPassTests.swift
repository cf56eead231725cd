import Foundation
import SheenKit
import SheenLayers
import SheenPlatform
import SheenRaster
import Testing

@testable import SheenDemo

/// The SwiftUI twin's first pass with the window's idle time given to its lazy stacks between
/// frames (as `ColdPassTests` for the UIKit list): every row of cards is made, laid out and
/// drawn into the renderer's caches before it scrolls in, so no frame of the pass makes a row,
/// draws a `draw(_:)` view or rasterizes a shape, a glyph or an image; and that work comes in
/// pieces of at most one row of cards (the lazy stack's rows are the titles and the rows of
/// cards, as the UIKit list's collection view items), each short enough to fit between frames.
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
    var bigPieces: [String] = []
    for frame in 1...130 {
      // Idle time after the previous frame (a whole frame's, as on a quiet machine).
      let before = w.rowsShown
      var more = true
      while more {
        let rows = w.rowsShown
        let cards = w.host.bodyEvaluations(of: SwiftUICardView.self)
        more = w.performIdleWork(until: .infinity)
        // A piece makes one row of cards at most: 2 cards in 620 points.
        let madeRows = w.rowsShown - rows
        let madeCards = w.host.bodyEvaluations(of: SwiftUICardView.self) - cards
        if madeRows > 1 || madeCards > 2 {
          bigPieces.append("frame \(frame): \(madeRows) rows, \(madeCards) cards")
        }
      }
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
    // 130 frames of 25 points: 3250 points, into the third section: 15 rows or so made ahead.
    #expect(rowsAhead >= 10)
    #expect(late.isEmpty, "\(late)")
    #expect(bigPieces.isEmpty, "\(bigPieces)")
  }
}
