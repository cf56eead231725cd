import Foundation
import SheenRaster
import Testing

@testable import SheenKit

/// Cells made ahead of scrolling in the window's idle time (`UIWindow.performIdleWork`), as
/// UIKit's prefetching collection view does: the frame that shows them makes no cell and
/// rasterizes nothing, and shows the same pixels as a window that made them on the spot. In the
/// collection view suite, which is serialized: both count the cells made (`CountingCell.made`).
extension CollectionViewTests {
  /// A window of 330x200 points holding a collection view of 60 items, 100x50, 10 apart.
  func makePrefetchWindow(_ source: Source) -> (UIWindow, UICollectionView) {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 330, height: 200))
    let cv = makeCollectionView(source) { l in
      l.itemSize = CGSize(width: 100, height: 50)
      l.minimumLineSpacing = 10
      l.minimumInteritemSpacing = 10
    }
    source.text = { "Item \($0.item) of the list" }
    window.addSubview(cv)
    return (window, cv)
  }

  @Test func idleTimeMakesAndDrawsTheCellsAboutToScrollIn() throws {
    let source = Source([60])
    let (window, cv) = makePrefetchWindow(source)
    let surface = try Surface(width: 330, height: 200)
    window.renderFrame(into: surface, time: 0)
    let shown = source.asked
    #expect(shown.count == 12, "\(shown)")
    // Idle time: the next half screen's cells (y 200-300: the row at 240, items 12-14) are
    // made, not shown, not visible.
    while window.performIdleWork(until: .infinity) {}
    let ahead = source.asked.dropFirst(shown.count).map(\.item)
    #expect(ahead == Array(12..<15), "\(ahead)")
    #expect(source.displayed.count == shown.count)
    #expect(cv.visibleCells.count == 12)
    #expect(!window.performIdleWork(until: .infinity))

    // Scrolling 100 points shows items 12-14: the cells made ahead, and nothing is rasterized.
    source.asked.removeAll()
    let context = window.renderer.context
    context.resetStatistics()
    let glyphs = context.textRenderer.cache.statistics.rasterizations
    let draws = window.displayCount
    cv.contentOffset = CGPoint(x: 0, y: 100)
    window.renderFrame(into: surface, time: 1.0 / 60)
    #expect(source.asked.isEmpty, "\(source.asked)")
    #expect(Set(source.displayed.suffix(3).map(\.item)) == Set(12..<15))
    #expect(context.statistics.shapeRasterizations == 0)
    #expect(context.textRenderer.cache.statistics.rasterizations == glyphs)
    #expect(window.displayCount == draws)

    // The same pixels as a window that made those cells as they came in.
    let fresh = Source([60])
    let (other, otherView) = makePrefetchWindow(fresh)
    let expected = try Surface(width: 330, height: 200)
    other.renderFrame(into: expected, time: 0)
    otherView.contentOffset = CGPoint(x: 0, y: 100)
    other.renderFrame(into: expected, time: 1.0 / 60)
    #expect(fresh.asked.count > 12)
    #expect(surface.pixels == expected.pixels)
  }

  @Test func cellsMadeAheadGoBackToTheQueueWhenTheScrollTurns() throws {
    let source = Source([200])
    let (window, cv) = makePrefetchWindow(source)
    let surface = try Surface(width: 330, height: 200)
    cv.contentOffset = CGPoint(x: 0, y: 3000)
    window.renderFrame(into: surface, time: 0)
    cv.contentOffset = CGPoint(x: 0, y: 3060)
    window.renderFrame(into: surface, time: 1.0 / 60)
    while window.performIdleWork(until: .infinity) {}
    let made = CountingCell.made
    // Far up: the cells made below are out of reach and reused for the rows shown there.
    cv.contentOffset = CGPoint(x: 0, y: 600)
    window.renderFrame(into: surface, time: 2.0 / 60)
    #expect(CountingCell.made == made, "new cells made instead of reusing \(CountingCell.made - made)")
    #expect(cv.visibleCells.count == 12)
    #expect(cv.subviews.filter { $0 is CountingCell && !$0.isHidden }.count == 12)
    // Scrolling up, the rows above are made ahead (y 460-560: the rows at 420 and 480).
    cv.contentOffset = CGPoint(x: 0, y: 560)
    window.renderFrame(into: surface, time: 3.0 / 60)
    source.asked.removeAll()
    while window.performIdleWork(until: .infinity) {}
    #expect(Set(source.asked.map(\.item)) == Set(21..<27), "\(source.asked)")
  }

  @Test func withoutPrefetchingNoCellIsMadeAhead() throws {
    let source = Source([60])
    let (window, cv) = makePrefetchWindow(source)
    cv.isPrefetchingEnabled = false
    let surface = try Surface(width: 330, height: 200)
    window.renderFrame(into: surface, time: 0)
    #expect(!window.performIdleWork(until: .infinity))
    #expect(source.asked.count == 12)
  }
}
