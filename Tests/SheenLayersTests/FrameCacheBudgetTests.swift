import SheenRaster
import Testing

@testable import SheenLayers

/// The frame-to-frame caches (recorded coverage of shapes and text, blurred shadows, resampled
/// images) count the bytes of what they keep and let go of what was not drawn lately once over
/// their budget: a UI that draws something new every frame (a list of thousands of different
/// rows) holds the budget plus what the last two frames drew, not everything it ever drew.
@Suite struct FrameCacheBudgetTests {
  @Test func aStreamOfNewEntriesStaysWithinTheBudgetAndTheLastTwoFrames() {
    let cache = FrameCache<Int, Int>(budget: 100_000, maxEntries: 10_000)
    var seed: UInt64 = 3
    var recent: [Int] = [0, 0, 0]
    var stored = 0
    for frame in 0..<2000 {
      var thisFrame = 0
      for k in 0..<5 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let bytes = Int(seed >> 50) + 1
        cache.store(frame, bytes: bytes, for: frame * 5 + k)
        thisFrame += bytes
        stored += bytes
      }
      // A working set drawn every frame stays.
      if frame > 0 { #expect(cache.value(for: -1) != nil) } else { cache.store(0, bytes: 1000, for: -1) }
      recent = [recent[1], recent[2], thisFrame]
      cache.endFrame()
      #expect(cache.bytes <= 100_000 + recent.reduce(0, +) + 1000, "frame \(frame): \(cache.bytes)")
    }
    // Without the bound it would hold everything stored.
    #expect(stored > 20 * 100_000)
  }

  /// Past the entry count too, however small the entries.
  @Test func manySmallEntriesStayWithinTheEntryCount() {
    let cache = FrameCache<Int, Int>(budget: 1 << 30, maxEntries: 500)
    for frame in 0..<300 {
      for k in 0..<20 { cache.store(k, bytes: 1, for: frame * 20 + k) }
      cache.endFrame()
    }
    #expect(cache.count <= 500 + 3 * 20)
  }

  /// The budgets (README, "Memory"): what each cache of a renderer may hold.
  @Test func theRenderersCachesHaveTheirBudgets() {
    let context = RenderContext()
    #expect(context.coverageCache.budget == 8 << 20)
    #expect(context.shadowCache.budget == 16 << 20)
    #expect(context.imageCache.budget == 16 << 20)
  }
}
