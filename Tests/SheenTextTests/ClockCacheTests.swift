import SheenRaster
import SheenText
import Testing

/// The eviction of the text layout and gradient caches: bounded, a little at a time, keeping what is used.
@Suite struct ClockCacheTests {
  /// A working set read every round stays cached while a stream of keys used once passes
  /// through (a cache that emptied itself when full, as the layout cache did, missed the whole
  /// working set each time it filled up).
  @Test func workingSetSurvivesAStreamOfOneOffKeys() {
    var cache = ClockCache<Int, Int>(capacity: 10)
    var misses = 0
    for round in 0..<1000 {
      for k in 0..<6 {
        if cache.value(for: k) == nil {
          misses += 1
          cache.insert(k * 10, for: k)
        }
      }
      // A key never seen again.
      cache.insert(-1, for: 1000 + round)
      #expect(cache.count <= 10)
    }
    #expect(misses == 6, "the working set was evicted \(misses - 6) times")
    for k in 0..<6 { #expect(cache.value(for: k) == k * 10) }
    #expect(cache.evictions == 1000 - 4)
  }

  /// Full, each insertion evicts exactly one entry, the first the hand finds unread since its
  /// last pass; entries read in between survive.
  @Test func evictsOneUnreadEntryAtATime() {
    var cache = ClockCache<String, Int>(capacity: 4)
    for (i, k) in ["a", "b", "c", "d"].enumerated() { cache.insert(i, for: k) }
    #expect(cache.count == 4 && cache.evictions == 0)
    _ = cache.value(for: "a")
    _ = cache.value(for: "c")
    // The hand skips a (clearing it) and takes b.
    cache.insert(4, for: "e")
    #expect(cache.count == 4 && cache.evictions == 1)
    #expect(!cache.contains("b"))
    #expect(cache.contains("a") && cache.contains("c") && cache.contains("d") && cache.contains("e"))
    // Then skips c (clearing it) and takes d.
    cache.insert(5, for: "f")
    #expect(!cache.contains("d") && cache.contains("c"))
    // Replacing a key's value evicts nothing.
    cache.insert(7, for: "f")
    #expect(cache.value(for: "f") == 7 && cache.evictions == 2 && cache.count == 4)
    cache.removeAll()
    #expect(cache.count == 0 && cache.value(for: "a") == nil)
  }

  /// The process-wide layout cache holds a screenful of labels many times over and is bounded.
  @Test func layoutCacheIsBoundedAndLargeEnoughForTheDemo() {
    #expect(TextLayout.cacheLimit >= 4096)
    #expect(TextLayout.cacheStatistics.count <= TextLayout.cacheLimit)
  }
}

/// Gradients of the same colours and locations are one object, made once.
@Suite struct SharedGradientTests {
  @Test func sameColoursShareOneGradient() {
    let colors = [Color(red: 0.1, green: 0.2, blue: 0.3), Color(red: 0.9, green: 0.8, blue: 0.7)]
    let a = Gradient.shared(colors: colors, locations: nil)
    let b = Gradient.shared(colors: Array(colors), locations: nil)
    #expect(a === b)
    let c = Gradient.shared(colors: colors, locations: [0, 0.5])
    #expect(a !== c)
    #expect(c.color(at: 1) == Gradient(colors: colors, locations: [0, 0.5]).color(at: 1))
    #expect(a.color(at: 0.5) == Gradient(colors: colors).color(at: 0.5))
  }
}
