import Testing

@testable import SheenLayers

/// `RenderContext.Statistics` adds up field by field: every counter of one frame's statistics
/// plus another's is the sum of the two, and what bands add to the context is kept beside what
/// the caches count.
@Suite struct StatisticsTests {
  /// Statistics whose every counter is a different non-zero value (a counter added to the type
  /// and not set here fails `everyFieldIsSet`, so the sum below cannot skip it unseen).
  func distinct(_ base: Int) -> RenderContext.Statistics {
    var s = RenderContext.Statistics()
    s.blurs = base + 1
    s.layersDrawn = base + 2
    s.layersCulled = base + 3
    s.shapeRasterizations = base + 4
    s.imageResamples = base + 5
    s.analyticShadows = base + 6
    s.layersOccluded = base + 7
    s.rasterCacheHits = base + 8
    s.rasterCacheMisses = base + 9
    s.rasterCacheBytes = base + 10
    s.opsOccluded = base + 11
    s.pixelsNotDrawn = base + 12
    s.blurredPixels = base + 13
    s.rasterCachePixelsMade = base + 14
    s.rasterCacheMadeAhead = base + 15
    return s
  }

  func fields(_ s: RenderContext.Statistics) -> [String: Int] {
    var out: [String: Int] = [:]
    for child in Mirror(reflecting: s).children {
      if let name = child.label, let value = child.value as? Int { out[name] = value }
    }
    return out
  }

  @Test func everyFieldIsSet() {
    let a = fields(distinct(0))
    #expect(a.count == Mirror(reflecting: RenderContext.Statistics()).children.count)
    for (name, value) in a { #expect(value != 0, "\(name) is not set by distinct(_:)") }
  }

  @Test func sumAddsEveryField() {
    let a = distinct(0)
    let b = distinct(100)
    let sum = fields(a + b)
    let fa = fields(a)
    let fb = fields(b)
    #expect(sum.count == fa.count)
    for (name, value) in sum {
      #expect(value == fa[name]! + fb[name]!, "\(name): \(value), expected \(fa[name]! + fb[name]!)")
    }
  }

  @Test func addedCountsAreKeptBesideTheCaches() {
    let context = RenderContext()
    context.resetStatistics()
    context.add(distinct(0))
    context.add(distinct(10))
    let s = fields(context.statistics)
    let expected = fields(distinct(0) + distinct(10))
    #expect(s == expected)
    context.resetStatistics()
    #expect(fields(context.statistics).values.allSatisfy { $0 == 0 })
  }
}
