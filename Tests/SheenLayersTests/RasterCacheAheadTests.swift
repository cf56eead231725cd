import Testing

@testable import SheenLayers
@testable import SheenRaster

/// The raster cache's bitmaps at the frame's edges and made ahead (RasterCache.swift): a subtree
/// the frame culls in part (a row scrolling in or out) is composited from the bitmap made of it
/// whole while nothing in it changed, and a renderer drawing ahead (`FrameRenderer.rendersAhead`,
/// the idle work of `UIWindow.warmRendererCaches`) makes the bitmaps the frames that show the
/// subtree then use, counting no frame.
@Suite struct RasterCacheAheadTests {
  typealias Scene = RasterCacheTests.Scene

  @Test func aSubtreeCulledInPartIsCompositedFromItsBitmapUntilItChanges() throws {
    let scene = Scene(count: 4)
    let renderer = RasterCacheTests.automatic()
    let s = try Surface(width: 400, height: 260)
    for _ in 0...RasterCache.stableFrames { scene.draw(renderer, into: s) }
    renderer.context.resetStatistics()
    scene.draw(renderer, into: s)
    #expect(renderer.context.statistics.rasterCacheHits == 4)
    // Up by 50 pixels: card 0's header (under a clip, its shadow from a path) leaves the frame
    // and is culled; the card is still composited whole from its bitmap.
    scene.root.frame.origin.y = -50
    for frame in 0..<3 {
      renderer.context.resetStatistics()
      scene.draw(renderer, into: s)
      let stats = renderer.context.statistics
      #expect(stats.rasterCacheHits == 4, "frame \(frame): \(stats.rasterCacheHits) kept subtrees composited")
      #expect(stats.rasterCacheMisses == 0, "frame \(frame)")
      RasterCacheTests.expectClose(
        s, try RasterCacheTests.fresh([scene.root], 400, 260), "culled, frame \(frame)")
    }
    // A change in the culled card (its dot, in view) is drawn, not the old bitmap; so is one in
    // its culled part (the header), where the bitmap would still look right on screen.
    let before = s.pixels
    scene.dots[0].fillColor = Color(red: 0.9, green: 0.1, blue: 0.5)
    renderer.context.resetStatistics()
    scene.draw(renderer, into: s)
    #expect(renderer.context.statistics.rasterCacheHits == 3)
    #expect(s.pixels != before, "the change does not show")
    RasterCacheTests.expectClose(
      s, try RasterCacheTests.fresh([scene.root], 400, 260), "changed while culled")
    scene.dots[0].fillColor = Color(red: 0.2, green: 0.6, blue: 0.3)
    scene.draw(renderer, into: s)
    scene.headers[0].colors = [.testBlue, .testRed]
    renderer.context.resetStatistics()
    scene.draw(renderer, into: s)
    #expect(renderer.context.statistics.rasterCacheHits == 3, "a bitmap of the old header was composited")
    // Back in view whole: the header's change shows.
    scene.root.frame.origin.y = 0
    scene.draw(renderer, into: s)
    RasterCacheTests.expectClose(s, try RasterCacheTests.fresh([scene.root], 400, 260), "back in view")
  }

  @Test func bitmapsMadeAheadServeTheFramesThatShowThem() throws {
    let scene = Scene(count: 4)
    let renderer = RasterCacheTests.automatic()
    // Only the first row of cards is in the frame; the second (y 122-212) is below it.
    let s = try Surface(width: 400, height: 110)
    for _ in 0...RasterCache.stableFrames { scene.draw(renderer, into: s) }
    // Drawn ahead, as the window's idle work draws a cell about to show: the second row alone,
    // where it will be once the list scrolled up by 110 pixels (the same place within a pixel).
    let ahead = FrameRenderer(threads: 1, context: renderer.context)
    ahead.rendersAhead = true
    ahead.rasterizesAutomatically = true
    let scratch = try Surface(width: 400, height: 160)
    renderer.context.resetStatistics()
    ahead.render(
      [scene.cards[2], scene.cards[3]], into: scratch, transform: Transform(translationX: 0, y: -100),
      background: .clear)
    let made = renderer.context.statistics
    #expect(made.rasterCacheMadeAhead == 2, "\(made.rasterCacheMadeAhead) bitmaps made ahead")
    #expect(made.rasterCacheMisses == 0 && made.rasterCacheHits == 0, "drawing ahead counted as a frame")
    // Frames go by before the row shows (more than `unusedFrames`: a bitmap made in a frame
    // and not composited since would be let go by then).
    for _ in 0..<(RasterCache.unusedFrames + 6) { scene.draw(renderer, into: s) }
    scene.root.frame.origin.y = -110
    renderer.context.resetStatistics()
    scene.draw(renderer, into: s)
    let shown = renderer.context.statistics
    #expect(
      shown.rasterCacheMisses == 0, "\(shown.rasterCacheMisses) bitmaps made in the frame showing the row")
    // The second row, and the first (its shadow's lower edge still in the frame) from the
    // bitmaps made of it whole before.
    #expect(shown.rasterCacheHits == 4)
    RasterCacheTests.expectClose(s, try RasterCacheTests.fresh([scene.root], 400, 110), "made ahead")
    // Made ahead and never shown: kept `aheadFrames` frames, then let go.
    scene.root.frame.origin.y = 0
    for _ in 0..<(RasterCache.unusedFrames + 2) { scene.draw(renderer, into: s) }
    let cache = renderer.context.rasterCache
    let held = cache.count
    let other = Scene(count: 1)
    other.texts[0].string = "Never shown"
    ahead.render([other.cards[0]], into: scratch, transform: .identity, background: .clear)
    #expect(cache.count == held + 1)
    for _ in 0..<(RasterCache.unusedFrames + 6) { scene.draw(renderer, into: s) }
    #expect(cache.count == held + 1, "a bitmap made ahead let go before its time")
    for _ in 0..<RasterCache.aheadFrames { scene.draw(renderer, into: s) }
    #expect(cache.count == held, "a bitmap made ahead and never shown is still held")
  }
}
