import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

#if canImport(Glibc)
  import Glibc
#endif

/// What the raster cache holds resident (issue 17: RSS under 64 MB at 1080p with the cache on):
/// the store gives back the pages of bitmaps let go once they stay free (RunStore.swift), and
/// the demo's resident memory with the cache stays within its bound.
@Suite struct RasterCacheMemoryTests {
  /// Pages of the store's mapping the system holds resident (`mincore`), counted independently
  /// of the store's own count.
  static func systemResidentPages(_ store: RunStore) -> Int {
    #if canImport(Glibc)
      var vector = [UInt8](repeating: 0, count: store.capacity / RunStore.page)
      let r = vector.withUnsafeMutableBufferPointer { mincore(store.base, store.capacity, $0.baseAddress!) }
      #expect(r == 0)
      return vector.reduce(0) { $0 + Int($1 & 1) }
    #else
      return store.residentPages
    #endif
  }

  /// Writes every byte of a block (as a run image does).
  static func write(_ store: RunStore, _ offset: Int, _ bytes: Int) {
    store.pointer(at: offset).initializeMemory(as: UInt8.self, repeating: 0x5A, count: bytes)
  }

  @Test func freePagesAreGivenBackAfterTheyStayFreeAndWithinTheSlack() throws {
    let page = RunStore.page
    let store = try #require(RunStore(capacity: 256 * page, keptTicks: 3, slack: 64 * page, window: 1))
    #expect(Self.systemResidentPages(store) == 0)
    // Ten blocks of 10 pages and a half.
    var blocks: [Int] = []
    for _ in 0..<10 {
      let b = try #require(store.allocate(10 * page + page / 2))
      Self.write(store, b, 10 * page + page / 2)
      blocks.append(b)
    }
    #expect(store.residentPages == Self.systemResidentPages(store))
    #expect(store.residentPages == 105)
    #expect(store.pagesFaulted == 105)
    // Every other block let go: resident until 3 ticks have passed.
    for k in stride(from: 0, to: 10, by: 2) { store.release(blocks[k], bytes: 10 * page + page / 2) }
    store.tick()
    store.tick()
    #expect(store.residentPages == 105)
    #expect(Self.systemResidentPages(store) == 105)
    // A block as large as one let go goes where the pages are resident: no page faulted.
    let again = try #require(store.allocate(10 * page))
    Self.write(store, again, 10 * page)
    #expect(store.pagesFaulted == 105)
    store.release(again, bytes: 10 * page)
    for _ in 0..<4 { store.tick() }
    // Only the pages under the blocks held stay (whole pages of the free ranges went back).
    let held = Self.pagesUnder(
      blocks.enumerated().filter { $0.offset % 2 == 1 }.map(\.element), 10 * page + page / 2)
    #expect(store.residentPages == held, "\(store.residentPages) resident, \(held) under the blocks held")
    #expect(Self.systemResidentPages(store) == held)
    #expect(store.pagesGivenBack == 105 - held)
    // The rest let go with a smaller slack: past it, pages are given back at once.
    store.slack = 24 * page
    for k in stride(from: 1, to: 10, by: 2) {
      store.release(blocks[k], bytes: 10 * page + page / 2)
      #expect(store.residentBytes - store.used <= 24 * page)
    }
    #expect(store.used == 0)
    #expect(store.residentPages > 0)
    #expect(Self.systemResidentPages(store) == store.residentPages)
    store.releaseFreePages()
    #expect(store.residentPages == 0 && Self.systemResidentPages(store) == 0)
    // What was given back reads as zeros and takes writes again.
    let fresh = try #require(store.allocate(page))
    #expect(store.pointer(at: fresh).load(as: UInt64.self) == 0)
    Self.write(store, fresh, page)
    #expect(store.residentPages == 1 && Self.systemResidentPages(store) == 1)
  }

  /// Pages that blocks of `bytes` at `offsets` reach.
  static func pagesUnder(_ offsets: [Int], _ bytes: Int) -> Int {
    var pages = Set<Int>()
    for o in offsets {
      for p in o / RunStore.page...(o + RunStore.rounded(bytes) - 1) / RunStore.page { pages.insert(p) }
    }
    return pages.count
  }

  /// A screen at rest faults no page in once its bitmaps are made, and holds resident only the
  /// pages of the bitmaps it shows once those of the bitmaps it let go stayed free a while.
  @Test func aScreenAtRestFaultsNothingAndHoldsOnlyWhatItShows() throws {
    let scene = RasterCacheTests.Scene(count: 6)
    let renderer = RasterCacheTests.automatic()
    let s = try Surface(width: 400, height: 360)
    for _ in 0..<8 { scene.draw(renderer, into: s) }
    #expect(renderer.context.rasterCache.count >= 4)
    let faulted = renderer.context.rasterCache.storePages.faulted
    #expect(faulted > 0)
    for _ in 0..<40 { scene.draw(renderer, into: s) }
    #expect(renderer.context.rasterCache.storePages.faulted == faulted, "pages faulted at rest")
    // The cards move down by 200 pixels (whole pixels, but the lowest row leaves the frame; the
    // row above it, in part out of the frame, is still composited from its bitmaps): the bitmaps
    // of what left are let go; once what the store holds stopped swinging for `window` frames,
    // and their pages stayed free `keptTicks` frames, their pages are given back.
    scene.root.frame.origin.y = 200
    for _ in 0..<(RunStore.defaultWindow + RunStore.defaultKeptTicks + RasterCache.unusedFrames + 4) {
      scene.draw(renderer, into: s)
    }
    let cache = renderer.context.rasterCache
    let store = try #require(cache.store)
    let resident = cache.storePages.resident
    #expect(resident == store.residentBytes)
    #expect(store.pagesGivenBack > 0, "the bitmaps of the cards that left: pages given back")
    #expect(Self.systemResidentPages(store) * RunStore.page == resident)
    // Resident: the pages under the blocks held (each at most two pages more than its bytes).
    #expect(
      resident <= cache.bytes + 2 * RunStore.page * cache.count,
      "\(resident) resident for \(cache.bytes) held")
  }

  /// The demo at 1080p with the raster cache (the release `sheen`, as `AllocationTests`): the
  /// store's resident pages stay within its slack of the bytes of bitmaps held, and the process's
  /// resident memory under issue 17's 64 MB, for the UIKit list and the SwiftUI twin.
  @Test(.timeLimit(.minutes(3))) func theDemoWithTheRasterCacheStaysUnder64MB() throws {
    let sheen = releaseSheenPath
    if let missing = releaseSheenMissing() {
      Issue.record(Comment(rawValue: missing))
      return
    }
    for (ui, threads) in [("uikit", 1), ("swiftui", 1), ("uikit", 2)] {
      let r = try runProcess(
        sheen,
        [
          "bench", "--offscreen", "--raster-cache", "--ui", ui, "--threads", "\(threads)", "--size",
          "1920x1080",
          "--frames", "240",
        ], timeout: 60)
      #expect(r.status == 0, "\(r.stderr)")
      // Bitmaps are kept (the cache is on and composites rows). 65.1-65.7 MB resident before
      // the store gave pages back (README); about 59 after.
      Self.expectStoreAndMemory(in: r.stdout, name: "\(ui), \(threads) thread(s)", heldOver: 1)
    }
  }

  /// Reads `sheen bench`'s lines on the raster cache's store and the process's memory in `text`
  /// and expects: more than `heldOver` MB of bitmaps held, the store's free pages resident within
  /// its slack or what the swing of a scroll keeps, and resident memory under issue 17's 64 MB.
  static func expectStoreAndMemory(in text: String, name: String, heldOver: Double) {
    let held = number(before: " MB held", in: text)
    let resident = number(before: " MB of its store resident", in: text)
    let swing = number(before: " MB kept free for the swing", in: text)
    let rss = number(after: "resident memory ", in: text)
    #expect(
      held != nil && resident != nil && swing != nil && rss != nil,
      "\(name) (a release build older than the sources lacks these lines: rebuild it): \(text)")
    guard let held, let resident, let swing, let rss else { return }
    #expect(held > heldOver, "\(name): \(held) MB held")
    #expect(
      resident <= held + max(Double(RunStore.defaultSlack) / 1_048_576, swing) + 0.1,
      "\(name): \(resident) MB of the store resident for \(held) MB held, \(swing) MB for the swing")
    #expect(rss < 64, "\(name): resident memory \(rss) MB")
  }

  /// The number just before `marker` in `text`.
  static func number(before marker: String, in text: String) -> Double? {
    guard let r = text.range(of: marker) else { return nil }
    let head = text[..<r.lowerBound]
    let digits = head.reversed().prefix { $0.isNumber || $0 == "." }
    return Double(String(digits.reversed()))
  }

  /// The number just after `marker` in `text`.
  static func number(after marker: String, in text: String) -> Double? {
    guard let r = text.range(of: marker) else { return nil }
    return Double(String(text[r.upperBound...].prefix { $0.isNumber || $0 == "." }))
  }
}
