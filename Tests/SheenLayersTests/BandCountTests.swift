import Testing

@testable import SheenLayers
@testable import SheenRaster

/// What a frame counts (shapes rasterized, analytic shadows worked out) does not depend on where
/// the bands of a frame meet or on how their threads run: bands that reach the same missing shape
/// at once rasterize it once, the others wait for it. (Counted per frame, tests such as
/// `TransformedPressTests` held a bound that a shape cut by the border between two bands,
/// rasterized by both at once, broke now and then when the machine was loaded.)
@Suite struct BandCountTests {
  /// Shapes that every band cuts (tall, across the whole surface), scaled anew each frame so that
  /// each frame misses the cache.
  func layers() -> [Layer] {
    var out: [Layer] = []
    for i in 0..<3 {
      let l = Layer()
      l.frame = Rect(x: 8 + Double(i) * 40, y: 4, width: 30, height: 112)
      l.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
      l.cornerRadius = 8
      l.borderWidth = 1.5
      l.borderColor = .black
      l.shadowOpacity = 0.3
      l.shadowRadius = 3
      l.shadowOffset = Size(width: 0, height: 2)
      out.append(l)
    }
    return out
  }

  @Test func eachMissingShapeIsMadeOncePerFrameOnFourThreads() throws {
    let layers = layers()
    let surface = try Surface(width: 130, height: 120)
    let one = FrameRenderer(threads: 1)
    let four = FrameRenderer(threads: 4)
    for n in 0..<12 {
      let s = 1 + Double(n) * 0.0037
      for (i, l) in layers.enumerated() {
        l.transform = LayerTransform(scaleX: s, scaleY: s, rotation: Double(n) * 0.002 * Double(i + 1))
      }
      one.context.resetStatistics()
      four.context.resetStatistics()
      one.render(layers, into: surface, background: .white)
      four.render(layers, into: surface, background: .white)
      let a = one.context.statistics
      let b = four.context.statistics
      #expect(
        b.shapeRasterizations == a.shapeRasterizations,
        "frame \(n): \(b.shapeRasterizations) shapes on 4 threads, \(a.shapeRasterizations) on one")
      #expect(
        b.analyticShadows == a.analyticShadows,
        "frame \(n): \(b.analyticShadows) analytic shadows on 4 threads, \(a.analyticShadows) on one")
    }
  }
}
