// Memory is bounded by the canvas, not by how far geometry reaches or how deep groups nest. Each
// test counts what the bound limits (bytes of offscreen groups open at once, points flattened)
// rather than resident memory, and would fail without the bound; the pixels are compared with the
// same scene drawn where the bound does not apply (a small clip, a small layer, a path that only
// lies near the canvas).
import SheenLayers
import SheenRaster
import SheenTestSupport
import Testing

@Suite struct MemoryBoundTests {
  /// `depth` layers nested one in the next, each inset by 3 points, translucent, rounded, with
  /// group opacity 0.99.
  static func nested(depth: Int, size: Double) -> Layer {
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: size, height: size)
    var parent = root
    for i in 0..<depth {
      let l = Layer()
      l.frame = Rect(x: 3, y: 2, width: parent.frame.width - 5, height: parent.frame.height - 7)
      l.opacity = 0.99
      l.cornerRadius = 40
      l.backgroundColor = Color(
        red: Double(i % 3) / 2, green: Double(i % 5) / 4, blue: Double(i % 7) / 6, alpha: 0.08)
      parent.addSublayer(l)
      parent = l
    }
    return root
  }

  /// Renders `layers` on a `width` × `height` canvas clipped to `clip` (if any); the canvas too.
  static func draw(
    _ layers: [Layer], width: Int, height: Int, clip: Rect? = nil, budget: Int = 128 << 20
  ) throws -> (Surface, Canvas) {
    let s = try Surface(width: width, height: height)
    let c = Canvas(surface: s)
    c.clear(.white)
    if let clip { c.clip(to: clip) }
    let compositor = Compositor()
    compositor.offscreenBudget = budget
    compositor.render(layers, in: c)
    return (s, c)
  }

  /// 36 nested groups of 512 × 512 would hold 36 MiB at once; past a budget of 8 MiB (128 MiB
  /// unless set; the mechanism is the same) the deeper ones are drawn in bands, down to 16 rows.
  /// The pixels match the same scene drawn unbanded within windows of 48 rows (each crossing band
  /// edges at every level).
  @Test(.timeLimit(.minutes(2))) func nestedGroupsAreDrawnInBands() throws {
    let budget = 8 << 20
    let (banded, canvas) = try Self.draw(
      [Self.nested(depth: 36, size: 512)], width: 512, height: 512, budget: budget)
    #expect(canvas.peakOpenGroupBytes <= budget + 36 * 16 * 512 * 4, "\(canvas.peakOpenGroupBytes)")
    #expect(canvas.peakOpenGroupBytes > budget / 2)
    for y0 in [70, 255, 430] {
      let window = Rect(x: 0, y: Double(y0), width: 512, height: 48)
      let (whole, small) = try Self.draw(
        [Self.nested(depth: 36, size: 512)], width: 512, height: 512, clip: window, budget: budget)
      #expect(small.peakOpenGroupBytes <= 36 * 48 * 512 * 4)
      var worst = 0
      for y in y0..<(y0 + 48) {
        for x in 0..<512 {
          worst = max(worst, ReferenceImage.largestChannelDifference(banded[x, y], whole[x, y]))
        }
      }
      #expect(worst <= 1, "rows \(y0)..<\(y0 + 48): \(worst)")
    }
  }

  /// A 5000 × 5000 layer whose shadow takes the alpha of its sublayer (no shadow path, so its body
  /// is drawn offscreen to be blurred), on a 200 × 200 canvas showing one corner: the body is cut
  /// to the blur's reach of the canvas (it would be a 95 MiB group). The corner's shadow matches
  /// that of a 200 × 200 layer whose other edges lie beyond the blur's reach.
  @Test func aHugeLayersShadowBodyIsCutToTheCanvas() throws {
    func card(_ frame: Rect) -> Layer {
      let l = Layer()
      l.frame = frame
      l.shadowOpacity = 0.8
      l.shadowRadius = 20
      l.shadowOffset = Size(width: 6, height: 9)
      let inner = Layer()
      inner.frame = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
      inner.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.9)
      inner.cornerRadius = 24
      l.addSublayer(inner)
      return l
    }
    let (huge, canvas) = try Self.draw(
      [card(Rect(x: -4900, y: -4900, width: 5000, height: 5000))], width: 200, height: 200)
    #expect(canvas.peakOpenGroupBytes < 2 << 20, "\(canvas.peakOpenGroupBytes)")
    let (small, _) = try Self.draw(
      [card(Rect(x: -100, y: -100, width: 200, height: 200))], width: 200, height: 200)
    #expect(ReferenceImage.largestChannelDifference(huge, small) <= 2)
    // The shadow shows beyond the corner (not only the body).
    #expect(huge[130, 130] != 0xFFFF_FFFF && huge[199, 199] == 0xFFFF_FFFF)
  }

  /// A shape layer's stroke of 300 cubics reaching ±200,000 points around a 100 × 100 canvas
  /// (too large for the coverage cache) is culled to the canvas: the points flattened stay in the
  /// tens of thousands (unculled, 300 × 512 segments of ~10 points each). That culling leaves the
  /// pixels inside unchanged is FarGeometryTests'; here the count through a scene's layer.
  @Test(.timeLimit(.minutes(1))) func aFarReachingStrokedShapeCostsWhatReachesTheCanvas() throws {
    var seed: UInt64 = 5
    func coordinate() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (Double(seed >> 11) / Double(1 << 53) * 2 - 1) * 200_000 + 50
    }
    var p = Path()
    p.move(to: Point(x: 50, y: 50))
    for _ in 0..<300 {
      p.addCurve(
        to: Point(x: coordinate(), y: coordinate()), control1: Point(x: coordinate(), y: coordinate()),
        control2: Point(x: coordinate(), y: coordinate()))
    }
    let shape = ShapeLayer()
    shape.frame = Rect(x: 0, y: 0, width: 100, height: 100)
    shape.path = p
    shape.fillColor = Color(red: 0, green: 0, blue: 1, alpha: 0.3)
    shape.strokeColor = .black
    shape.lineWidth = 3
    let (_, canvas) = try Self.draw([shape], width: 100, height: 100)
    #expect(canvas.flattenedPoints < 100_000, "\(canvas.flattenedPoints)")
  }
}
