import SheenTestSupport
import Testing

@testable import SheenRaster

/// The raster cache's store gives pages back only when it really shrank (RunStore.swift): a
/// scroll whose bitmaps come and go, so that what the store holds swings, writes its blocks over
/// pages it keeps, and faults none in once it went round; at rest its free pages go back.
@Suite struct RunStoreSwingTests {
  /// A scroll's pattern: blocks of a list's sizes (cards of 12 pages and a third, small parts of
  /// half a page), a few bytes more or less each, made and let go first in, first out, the
  /// blocks held swinging between 6 and 22 every 16 ticks. Returns the pages faulted in the last
  /// `measured` ticks.
  static func scroll(_ store: RunStore, ticks: Int, measured: Int, blocks: inout [(Int, Int)]) throws -> Int {
    let page = RunStore.page
    var rng = SplitMix(seed: 0x5717_B0)
    var faultedBefore = 0
    for t in 0..<ticks {
      if t == ticks - measured { faultedBefore = store.pagesFaulted }
      // Eight ticks making two blocks each, eight letting go of two each, over a floor of six.
      for _ in 0..<2 {
        if t % 16 < 8 || blocks.count <= 6 {
          let size = rng.next() % 2 == 0 ? 12 * page + page / 3 : page / 2
          let bytes = size - Int(rng.next() % 200)
          let b = try #require(store.allocate(bytes))
          RasterCacheMemoryTests.write(store, b, bytes)
          blocks.append((b, bytes))
        } else {
          let (b, bytes) = blocks.removeFirst()
          store.release(b, bytes: bytes)
        }
      }
      store.tick()
    }
    return store.pagesFaulted - faultedBefore
  }

  @Test func aSwingingScrollFaultsNoPageInAndARestingOneGivesThemBack() throws {
    let page = RunStore.page
    // No slack: only the swing keeps free pages resident.
    let store = try #require(RunStore(capacity: 1024 * page, keptTicks: 3, slack: 0, window: 40))
    var blocks: [(Int, Int)] = []
    let faulted = try Self.scroll(store, ticks: 400, measured: 200, blocks: &blocks)
    #expect(faulted == 0, "\(faulted) pages faulted in 200 ticks of a steady scroll")
    #expect(store.residentPages == RasterCacheMemoryTests.systemResidentPages(store))
    // What is kept: at most the most held plus the swing.
    #expect(store.swingAllowance > 0)
    #expect(store.residentBytes - store.used <= store.swingAllowance + 2 * page * blocks.count)

    // The same scroll remembering only the last tick gives pages back and faults them in again.
    let forgetful = try #require(RunStore(capacity: 1024 * page, keptTicks: 3, slack: 0, window: 1))
    var others: [(Int, Int)] = []
    #expect(try Self.scroll(forgetful, ticks: 400, measured: 200, blocks: &others) > 50)

    // At rest (nothing made or let go): once `window` ticks passed without a swing and the free
    // pages stayed free `keptTicks`, only the pages under the blocks held stay resident.
    for _ in 0..<(40 + 3 + 2) { store.tick() }
    #expect(store.swingAllowance == 0)
    var held = Set<Int>()
    for (b, bytes) in blocks {
      for p in b / page...(b + RunStore.rounded(bytes) - 1) / page { held.insert(p) }
    }
    #expect(
      store.residentPages == held.count, "\(store.residentPages) resident, \(held.count) under the blocks")
    #expect(RasterCacheMemoryTests.systemResidentPages(store) == held.count)
  }
}
