import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// Shadows of shapes that are not rounded rectangles (a triangle `shadowPath`, a triangle's
/// alpha): at any fractional position, offset, rotation and scale within 4/255 of an exact
/// Gaussian computed here, the same whatever was drawn before, and blurred once for an animation
/// of offset, position, rotation, opacity or scale (within an octave).
@Suite struct LocalShadowTests {
  static let triangle = [Point(x: 4, y: 36), Point(x: 30, y: 2), Point(x: 46, y: 30)]

  static func trianglePath() -> Path {
    var p = Path()
    p.move(to: triangle[0])
    p.addLine(to: triangle[1])
    p.addLine(to: triangle[2])
    p.closeSubpath()
    return p
  }

  /// A 50x40-point layer casting a black shadow of the triangle: through `shadowPath` (nothing
  /// else drawn), or of its alpha (a triangle shape sublayer, drawn too).
  static func shadowed(alpha: Bool, sigma: Double, at origin: Point, offset: Size) -> Layer {
    let l = Layer()
    l.frame = Rect(x: origin.x, y: origin.y, width: 50, height: 40)
    l.shadowOpacity = 1
    l.shadowRadius = sigma
    l.shadowOffset = offset
    if alpha {
      let s = ShapeLayer()
      s.frame = l.bounds
      s.path = trianglePath()
      s.fillColor = .black
      l.addSublayer(s)
    } else {
      l.shadowPath = trianglePath()
    }
    return l
  }

  /// The exact shadow at pixel (x, y) of the device triangle `tri` blurred by `sigma`: the
  /// Gaussian-blurred area coverage of the pixel, integrated across (erf) and numerically along
  /// rows of 1/32 pixel (1/16 from sigma 3).
  static func exact(_ tri: [Point], sigma: Double, x: Int, y: Int) -> Double {
    let cx = Double(x) + 0.5
    let cy = Double(y) + 0.5
    let root2 = 2.0.squareRoot()
    func phi(_ u: Double) -> Double { 0.5 * (1 + erf(u / (sigma * root2))) }
    // The integral of phi up to v, and the antiderivative of the pixel-wide box blurred.
    func psi(_ v: Double) -> Double {
      v * phi(v) + sigma * sigma * exp(-v * v / (2 * sigma * sigma)) / (sigma * (2 * Double.pi).squareRoot())
    }
    func boxed(_ u: Double) -> Double { psi(u + 0.5) - psi(u - 0.5) }
    let ys = tri.map(\.y)
    let y0 = max(ys.min()!, cy - 4 * sigma - 1)
    let y1 = min(ys.max()!, cy + 4 * sigma + 1)
    if y1 <= y0 { return 0 }
    let dt = sigma < 3 ? 1.0 / 32 : 1.0 / 16
    var sum = 0.0
    var t = y0 + dt / 2
    while t < y1 {
      var xl = Double.infinity
      var xr = -Double.infinity
      for i in 0..<3 {
        let a = tri[i]
        let b = tri[(i + 1) % 3]
        if (a.y <= t && t < b.y) || (b.y <= t && t < a.y) {
          let xi = a.x + (t - a.y) / (b.y - a.y) * (b.x - a.x)
          xl = min(xl, xi)
          xr = max(xr, xi)
        }
      }
      if xr > xl {
        let weight = phi(cy - t + 0.5) - phi(cy - t - 0.5)
        sum += weight * (boxed(cx - xl) - boxed(cx - xr)) * dt
      }
      t += dt
    }
    return sum
  }

  /// The largest difference (255ths) between the rendered shadow and the exact one over the
  /// pixels outside `exclude` (device pixels the body may cover), every `step`th pixel.
  static func worst(
    _ s: Surface, tri: [Point], sigma: Double, exclude: IntRect?, step: Int = 2
  ) -> Double {
    let xs = tri.map(\.x)
    let ys = tri.map(\.y)
    let reach = 3 * sigma + 2
    let x0 = max(0, Int((xs.min()! - reach).rounded(.down)))
    let x1 = min(s.width, Int((xs.max()! + reach).rounded(.up)))
    let y0 = max(0, Int((ys.min()! - reach).rounded(.down)))
    let y1 = min(s.height, Int((ys.max()! + reach).rounded(.up)))
    var worst = 0.0
    for y in stride(from: y0, to: y1, by: step) {
      for x in stride(from: x0, to: x1, by: step) {
        if let e = exclude, x >= e.x, x < e.maxX, y >= e.y, y < e.maxY { continue }
        let want = 255 * (1 - exact(tri, sigma: sigma, x: x, y: y))
        let got = Double(rgba(s[x, y]).g)
        worst = max(worst, abs(want - got))
      }
    }
    return worst
  }

  static func grown(_ r: IntRect) -> IntRect {
    IntRect(x: r.x - 1, y: r.y - 1, width: r.width + 2, height: r.height + 2)
  }

  /// The triangle's device vertices, moved by the shadow offset, for `layer` under `t`.
  static func deviceTriangle(_ layer: Layer, scale: Double) -> [Point] {
    let ctm = layer.transformToSuperlayer.concatenating(Transform(scaleX: scale, y: scale))
    let o = ctm.applyToVector(Point(x: layer.shadowOffset.width, y: layer.shadowOffset.height))
    return triangle.map {
      let p = ctm.apply($0)
      return Point(x: p.x + o.x, y: p.y + o.y)
    }
  }

  @Test(arguments: [1.0, 1.5, 3, 8, 20])
  func fractionalPlacesMatchAnExactGaussian(sigma: Double) throws {
    let size = 60 + Int(8 * sigma)
    let cases: [(Point, Size, Double)] = [
      (Point(x: 3 * sigma + 5.25, y: 3 * sigma + 4.5), Size(width: 0.5, height: 1.25), 0),
      (Point(x: 3 * sigma + 6.5, y: 3 * sigma + 3.75), Size(width: -1.75, height: 0.5), 0.35),
    ]
    for alpha in [false, true] {
      for (origin, offset, angle) in cases {
        let l = LocalShadowTests.shadowed(alpha: alpha, sigma: sigma, at: origin, offset: offset)
        l.transform = LayerTransform(rotation: angle)
        let s = try render([l], width: size, height: size)
        let tri = LocalShadowTests.deviceTriangle(l, scale: 1)
        // The body covers the layer's bounds at most.
        let body =
          alpha ? LocalShadowTests.grown(IntRect(enclosing: l.transformToSuperlayer.apply(l.bounds))) : nil
        let w = LocalShadowTests.worst(s, tri: tri, sigma: sigma, exclude: body, step: sigma < 8 ? 2 : 4)
        print("local shadow, sigma \(sigma), rotated \(angle), \(alpha ? "alpha" : "shadowPath"): \(w)/255")
        #expect(
          w <= 4, "sigma \(sigma) at \(origin) offset \(offset) rotated \(angle) alpha \(alpha): \(w)/255")
      }
    }
  }

  @Test func aScaledShadowMatchesTooAndHistoryChangesNothing() throws {
    let context = RenderContext()
    let compositor = Compositor(context: context)
    let l = LocalShadowTests.shadowed(
      alpha: true, sigma: 2, at: Point(x: 20.3, y: 18.6), offset: Size(width: 1.5, height: 2.25))
    l.transform = LayerTransform(scale: 1.3)
    let first = try render([l], width: 120, height: 110, compositor: compositor)
    let tri = LocalShadowTests.deviceTriangle(l, scale: 1)
    let body = LocalShadowTests.grown(IntRect(enclosing: l.transformToSuperlayer.apply(l.bounds)))
    #expect(LocalShadowTests.worst(first, tri: tri, sigma: 2 * 1.3, exclude: body) <= 4)
    // Elsewhere, at other scales and places, then back: the same pixels as a fresh compositor's.
    for (x, scale) in [(25.7, 1.9), (21.05, 1.1), (22.5, 1.3)] {
      l.frame.origin.x = x
      l.transform = LayerTransform(scale: scale)
      _ = try render([l], width: 120, height: 110, compositor: compositor)
    }
    l.frame.origin.x = 20.3
    l.transform = LayerTransform(scale: 1.3)
    let again = try render([l], width: 120, height: 110, compositor: compositor)
    let fresh = try render([l], width: 120, height: 110)
    for y in 0..<110 {
      for x in 0..<120 where again[x, y] != fresh[x, y] || first[x, y] != fresh[x, y] {
        Issue.record("pixel (\(x), \(y)) depends on history")
        return
      }
    }
  }

  /// The same picture whatever the history: a blurred shadow (the triangle's, as `shadowPath`
  /// and as alpha) drawn at one fractional place and offset (A), then at another (B), is byte
  /// for byte what a fresh compositor draws of B alone; and so is A drawn again after B.
  @Test(arguments: [false, true])
  func aBlurredShadowDependsOnlyOnTheFrame(alpha: Bool) throws {
    let kept = Compositor()
    let l = LocalShadowTests.shadowed(
      alpha: alpha, sigma: 1.5, at: Point(x: 20.25, y: 18.5), offset: Size(width: 0.5, height: 1.25))
    let places: [(Point, Size)] = [
      (Point(x: 20.25, y: 18.5), Size(width: 0.5, height: 1.25)),
      (Point(x: 21.625, y: 18.875), Size(width: -0.75, height: 2.125)),
      (Point(x: 23.5, y: 17.3), Size(width: 1.0625, height: 0.5)),
      (Point(x: 20.25, y: 18.5), Size(width: 0.5, height: 1.25)),
    ]
    for (i, (origin, offset)) in places.enumerated() {
      l.frame.origin = origin
      l.shadowOffset = offset
      let drawn = try render([l], width: 90, height: 80, compositor: kept)
      let fresh = try render([l], width: 90, height: 80)
      #expect(drawn.pixels == fresh.pixels, "place \(i), alpha \(alpha)")
    }
    // Moving a blurred shadow by fractions of a pixel re-blurs nothing after the first frame.
    #expect(kept.context.statistics.blurs == 1, "\(kept.context.statistics.blurs) blurs")
  }

  /// The margin drawing asks for every frame (worked out without making the kernel) is what the
  /// blur reaches.
  @Test func blurMarginsAreTheBlursReach() {
    for sigma in [0.05, 0.1, 0.5, 1, 1.37, 1.99, 2, 2.5, 7.3, 20, 64, 127.9, 128, 128.5, 300] {
      for exact in [false, true] {
        #expect(
          AlphaMask.blurMargin(sigma: sigma, exact: exact) == BlurPlan(sigma: sigma, exact: exact).reach,
          "sigma \(sigma) exact \(exact)")
      }
    }
    #expect(BlurPlan(sigma: 20, exact: true).passes.count == 1)
    #expect(BlurPlan(sigma: 20).passes.count == 3)
  }

  @Test(arguments: [false, true])
  func animationsBlurOnce(alpha: Bool) throws {
    let context = RenderContext()
    let compositor = Compositor(context: context)
    let l = LocalShadowTests.shadowed(
      alpha: alpha, sigma: 4, at: Point(x: 30, y: 30), offset: Size(width: 0, height: 3))
    l.transform = LayerTransform(scale: 1.2)
    _ = try render([l], width: 160, height: 160, compositor: compositor)
    #expect(context.statistics.blurs == 1)
    context.resetStatistics()
    for i in 1...30 {
      let f = Double(i) / 30
      l.frame.origin = Point(x: 30 + 13.37 * f, y: 30 + 7.1 * f)
      l.shadowOffset = Size(width: 2.5 * f, height: 3 + 1.3 * f)
      l.opacity = 1 - 0.6 * f
      l.transform = LayerTransform(scaleX: 1.2 + 0.7 * f, scaleY: 1.2 + 0.7 * f, rotation: 0.8 * f)
      _ = try render([l], width: 160, height: 160, compositor: compositor)
    }
    #expect(context.statistics.blurs == 0)
  }
}
