import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// Shadows whose blur reaches far beyond the canvas (Compositor+WideShadow.swift): worked out
/// where the canvas shows them, wide ones on a coarser grid, with memory that follows the canvas
/// and pixels within 4/255 of the exact Gaussian.
@Suite struct WideShadowTests {
  /// A square from (`x0`, `y0`), `side` wide, as a path that is not `Path(rect:)` (an extra
  /// point on its top edge), so that nothing takes it for a rounded rectangle.
  static func square(_ x0: Double, _ y0: Double, _ side: Double) -> Path {
    var p = Path()
    p.move(to: Point(x: x0, y: y0))
    p.addLine(to: Point(x: x0 + side / 2, y: y0))
    p.addLine(to: Point(x: x0 + side, y: y0))
    p.addLine(to: Point(x: x0 + side, y: y0 + side))
    p.addLine(to: Point(x: x0, y: y0 + side))
    p.closeSubpath()
    return p
  }

  /// Φ, the normal distribution function.
  static func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }

  /// The exact shadow's alpha at pixel (x, y) of a square from (x0, y0), `side` wide, blurred by
  /// a Gaussian of `sigma` and sampled over the pixel (σ² + 1/12).
  static func exact(_ x: Int, _ y: Int, x0: Double, y0: Double, side: Double, sigma: Double) -> Double {
    let s = (sigma * sigma + 1.0 / 12).squareRoot()
    let cx = Double(x) + 0.5
    let cy = Double(y) + 0.5
    let ax = phi((x0 + side - cx) / s) - phi((x0 - cx) / s)
    let ay = phi((y0 + side - cy) / s) - phi((y0 - cy) / s)
    return ax * ay
  }

  /// The largest difference, in levels, between `surface` (white under a black shadow) and the
  /// exact shadow, over the pixels `where` allows; and how many pixels the shadow darkens by
  /// more than 8 levels (so that the comparison is not of two blank pictures).
  static func worst(
    _ s: Surface, x0: Double, y0: Double, side: Double, sigma: Double,
    where keep: (Int, Int) -> Bool = { _, _ in true }
  ) -> (worst: Double, shaded: Int) {
    var worst = 0.0
    var shaded = 0
    for y in 0..<s.height {
      for x in 0..<s.width where keep(x, y) {
        let want = 255 * (1 - exact(x, y, x0: x0, y0: y0, side: side, sigma: sigma))
        let got = Double(s[x, y] & 0xFF)
        worst = max(worst, abs(got - want))
        if got < 247 { shaded += 1 }
      }
    }
    return (worst, shaded)
  }

  /// A 3000-point square `shadowPath` whose corner lies in the middle of a 240 x 240 canvas,
  /// blurred by σ 12, 20, 60, 250 and 700 (on the device's grid, and on grids 2, 4, 16 and 64
  /// times coarser): within 4/255 of the exact Gaussian, and its blur of at most a few hundred
  /// thousand pixels where the whole mask would have millions.
  @Test(arguments: [12.0, 20, 60, 250, 700])
  func aWideShadowPathMatchesTheExactGaussian(_ sigma: Double) throws {
    let l = Layer()
    l.frame = Rect(x: 0, y: 0, width: 240, height: 240)
    l.shadowPath = Self.square(120, 120, 3000)
    l.shadowOpacity = 1
    l.shadowRadius = sigma
    l.shadowOffset = Size(width: 0, height: 0)
    let s = try Surface(width: 240, height: 240)
    let r = FrameRenderer(threads: 1)
    r.render([l], into: s, background: .white)
    let (worst, shaded) = Self.worst(s, x0: 120, y0: 120, side: 3000, sigma: sigma)
    #expect(worst <= 4, "σ \(sigma): \(worst) levels from the exact Gaussian")
    #expect(shaded > 240 * 240 / 4)
    let stats = r.context.statistics
    #expect(stats.blurs == 1)
    #expect(stats.blurredPixels > 0 && stats.blurredPixels < 400_000, "\(stats.blurredPixels)")
    #expect(Compositor.isWideShadow(extent: IntRect(x: 120, y: 120, width: 3000, height: 3000), sigma: sigma))
  }

  /// The same square as a shape layer, its shadow taken from its alpha (drawn offscreen on the
  /// coarse grid), on two threads in strips: the shadow outside the square within 4/255 of the
  /// exact Gaussian.
  @Test(arguments: [250.0, 700])
  func aWideAlphaShadowMatchesTheExactGaussian(_ sigma: Double) throws {
    let l = ShapeLayer()
    l.frame = Rect(x: 0, y: 0, width: 240, height: 240)
    l.path = Self.square(120, 120, 3000)
    l.fillColor = Color(red: 1, green: 0, blue: 0)
    l.shadowOpacity = 1
    l.shadowRadius = sigma
    l.shadowOffset = Size(width: 0, height: 0)
    let s = try Surface(width: 240, height: 240)
    let r = FrameRenderer(threads: 2)
    r.stripPixels = 4096
    r.render([l], into: s, background: .white)
    let (worst, shaded) = Self.worst(s, x0: 120, y0: 120, side: 3000, sigma: sigma) { x, y in
      x < 119 || y < 119
    }
    #expect(worst <= 4, "σ \(sigma): \(worst) levels from the exact Gaussian")
    #expect(shaded > 240 * 240 / 8)
    #expect(s[200, 200] == Color(red: 1, green: 0, blue: 0).premultiplied)
    #expect(r.context.statistics.blurredPixels < 400_000, "\(r.context.statistics.blurredPixels)")
  }

  /// What the scene fuzzer found (Tests/FuzzRegressions/scene/huge-blur-tiny-canvas.json): a
  /// 15 x 2 pixel canvas and a rotated text layer 58 x 1,000,000 points with a shadow of radius
  /// 1,000 (2,000 pixels). Its shadow's whole mask would hold 14,000 x 14,000 pixels (538 MB
  /// resident, 2.7 s); it is worked out for the canvas on a grid 128 times coarser.
  @Test func aHugeBlurOnATinyCanvasCostsTheCanvas() throws {
    let url = ReferenceImage.packageRoot.appendingPathComponent(
      "Tests/FuzzRegressions/scene/huge-blur-tiny-canvas.json")
    let data = try #require(FileManager.default.contents(atPath: url.path))
    let scene = try Scene.decode([UInt8](data))
    #expect(scene.pixelWidth == 15 && scene.pixelHeight == 2)
    let s = try Surface(width: scene.pixelWidth, height: scene.pixelHeight)
    let r = FrameRenderer(threads: 1)
    r.render(scene.layers, into: s, transform: Transform(scaleX: scene.scale, y: scene.scale))
    let stats = r.context.statistics
    #expect(stats.blurs >= 1)
    #expect(stats.blurredPixels > 0 && stats.blurredPixels < 200_000, "\(stats.blurredPixels)")
  }

  /// The coarse grid: 1 below 16 pixels of blur, else the power of two leaving 8 to 16.
  @Test func theGridLeavesSixteenToThirtyTwoPixelsOfBlur() {
    #expect(Compositor.wideShadowStep(sigma: 4) == 1)
    #expect(Compositor.wideShadowStep(sigma: 15.9) == 1)
    for sigma in [16.0, 50, 250, 700, 2000, 65536] {
      let k = Double(Compositor.wideShadowStep(sigma: sigma))
      #expect(sigma / k >= 8 && sigma / k < 16, "σ \(sigma): step \(k)")
    }
    // A card-sized shadow is kept whole; a huge blur or a huge shape is not.
    #expect(!Compositor.isWideShadow(extent: IntRect(x: 0, y: 0, width: 400, height: 300), sigma: 40))
    #expect(Compositor.isWideShadow(extent: IntRect(x: 0, y: 0, width: 50, height: 50), sigma: 2000))
  }
}
