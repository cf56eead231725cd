// Safety tests, not benchmarks: hostile values given through the Swift API (not only through
// scene files) must render, or be refused with an error, in bounded time and memory. The time
// limits guard against hangs and blow-ups, not speed: they count this thread's processor time (so
// other processes and parallel tests do not count) and are generous (debug builds, sanitizers).
import Foundation
import SheenLayers
import SheenRaster
import Testing

@Suite struct EdgeCaseTests {
  static let hostileNumbers: [Double] = [
    .nan, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude, 1e-300, 0, -0.0,
    Double(Int.max), 4e9,
  ]

  @Test func hostileFramesRender() throws {
    for v in Self.hostileNumbers {
      let frames = [
        Rect(x: v, y: 0, width: 10, height: 10), Rect(x: 0, y: 0, width: v, height: 10),
        Rect(x: 5, y: 5, width: v, height: v), Rect(x: v, y: v, width: v, height: v),
      ]
      for frame in frames {
        let layer = Layer()
        layer.frame = frame
        layer.backgroundColor = .testRed
        layer.cornerRadius = 4
        layer.borderWidth = 2
        layer.shadowOpacity = 1
        layer.shadowRadius = 3
        let child = ShapeLayer()
        child.frame = Rect(x: 1, y: 1, width: 5, height: 5)
        child.path = Path(rect: Rect(x: 0, y: 0, width: 5, height: 5))
        layer.addSublayer(child)
        try expectBounded("frame \(frame)") { try render([layer], width: 32, height: 32) }
      }
    }
  }

  @Test func hostileLayerPropertiesRender() throws {
    for v in Self.hostileNumbers + [-1, -1e9] {
      let layer = ShapeLayer()
      layer.frame = Rect(x: 2, y: 2, width: 20, height: 20)
      layer.backgroundColor = .testBlue
      layer.cornerRadius = v
      layer.borderWidth = v
      layer.shadowOpacity = 0.5
      layer.shadowRadius = v
      layer.shadowOffset = Size(width: v, height: v)
      layer.anchorPoint = Point(x: v, y: 0.5)
      layer.opacity = v.isNaN ? v : 0.5
      layer.lineWidth = v
      layer.miterLimit = v
      layer.strokeColor = .black
      layer.path = Path(ellipseIn: Rect(x: 0, y: 0, width: 20, height: 20))
      try expectBounded("value \(v)") { try render([layer], width: 32, height: 32) }
      let transforms = [
        LayerTransform(scale: v), LayerTransform(scaleX: 1, scaleY: v),
        LayerTransform(rotation: v), LayerTransform(translationX: v, translationY: 1),
      ]
      for t in transforms {
        layer.transform = t
        try expectBounded("transform \(t)") { try render([layer], width: 32, height: 32) }
      }
    }
  }

  @Test func hostilePathCoordinatesFillAndStroke() throws {
    let surface = try Surface(width: 48, height: 48)
    let canvas = Canvas(surface: surface)
    for v in Self.hostileNumbers {
      var path = Path()
      path.move(to: Point(x: 1, y: 1))
      path.addLine(to: Point(x: v, y: 40))
      path.addQuadCurve(to: Point(x: 40, y: v), control: Point(x: v, y: v))
      path.addCurve(to: Point(x: 3, y: 30), control1: Point(x: v, y: 2), control2: Point(x: 8, y: -v))
      path.closeSubpath()
      path.addRect(Rect(x: v, y: 0, width: 1e6, height: v))
      try expectBounded("coordinate \(v)") {
        canvas.fill(path, paint: .solid(.black))
        canvas.fill(path, paint: .solid(.black), rule: .evenOdd)
        for join in [LineJoin.miter, .round, .bevel] {
          for cap in [LineCap.butt, .round, .square] {
            canvas.stroke(path, style: StrokeStyle(width: 3, join: join, cap: cap), paint: .solid(.black))
          }
        }
        canvas.stroke(path, style: StrokeStyle(width: v), paint: .solid(.black))
        canvas.clip(to: path)
        canvas.fill(Rect(x: 0, y: 0, width: 48, height: 48), paint: .solid(.testRed))
      }
      canvas.save()
      canvas.concatenate(Transform(a: v, b: 0, c: 0, d: 1, tx: v, ty: 0))
      try expectBounded("transform \(v)") {
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)), paint: .solid(.black))
        canvas.fill(Rect(x: 0, y: 0, width: 10, height: 10), paint: .solid(.black))
      }
      canvas.restore()
    }
  }

  @Test func emptyAndDegeneratePaths() throws {
    let surface = try Surface(width: 32, height: 32)
    let canvas = Canvas(surface: surface)
    var onlyMove = Path()
    onlyMove.move(to: Point(x: 5, y: 5))
    var point = Path()
    point.move(to: Point(x: 5, y: 5))
    point.addLine(to: Point(x: 5, y: 5))
    point.closeSubpath()
    var line = Path()
    line.move(to: Point(x: 0, y: 0))
    line.addLine(to: Point(x: 30, y: 30))
    line.addLine(to: Point(x: 0, y: 0))
    var coincidentCurve = Path()
    coincidentCurve.move(to: Point(x: 9, y: 9))
    coincidentCurve.addCurve(to: Point(x: 9, y: 9), control1: Point(x: 9, y: 9), control2: Point(x: 9, y: 9))
    var manyMoves = Path()
    for i in 0..<10_000 { manyMoves.move(to: Point(x: Double(i % 32), y: 3)) }
    let paths = [
      Path(), onlyMove, point, line, coincidentCurve, manyMoves,
      Path(rect: Rect(x: 4, y: 4, width: 0, height: 0)), Path(rect: Rect(x: 4, y: 4, width: -10, height: 5)),
      Path(ellipseIn: Rect(x: 4, y: 4, width: 0, height: 20)),
      Path(roundedRect: Rect(x: 4, y: 4, width: 10, height: 10), cornerRadius: -5),
      Path(roundedRect: Rect(x: 4, y: 4, width: 10, height: 10), cornerRadius: .infinity),
      try Path(svgData: ""), try Path(svgData: "M 3 3 Z Z Z"),
    ]
    for (i, path) in paths.enumerated() {
      try expectBounded("path \(i)") {
        canvas.fill(path, paint: .solid(.black))
        for cap in [LineCap.butt, .round, .square] {
          canvas.stroke(path, style: StrokeStyle(width: 4, cap: cap), paint: .solid(.black))
        }
        let layer = ShapeLayer()
        layer.frame = Rect(x: 0, y: 0, width: 32, height: 32)
        layer.path = path
        layer.strokeColor = .testRed
        layer.shadowOpacity = 1
        layer.masksToBounds = true
        _ = try render([layer], width: 32, height: 32)
      }
    }
  }

  @Test func zeroAndNegativeSizes() throws {
    for (w, h) in [
      (0, 10), (10, 0), (-1, 10), (10, -5), (0, 0), (Int.min, Int.min), (Int.max, 1), (1 << 20, 1 << 20),
    ] {
      #expect(throws: RasterError.self) { try Surface(width: w, height: h) }
    }
    for size in [Size(width: 0, height: 0), Size(width: -20, height: 10), Size(width: 10, height: -20)] {
      let layer = Layer()
      layer.frame = Rect(origin: Point(x: 16, y: 16), size: size)
      layer.backgroundColor = .testRed
      layer.cornerRadius = 5
      layer.borderWidth = 3
      layer.masksToBounds = true
      layer.shadowOpacity = 1
      let gradient = GradientLayer()
      gradient.frame = layer.frame
      gradient.colors = [.testRed, .testBlue]
      let text = TextLayer()
      text.frame = layer.frame
      text.string = "size"
      text.isWrapped = true
      text.truncationMode = .end
      let mask = Layer()
      mask.frame = Rect(origin: .zero, size: size)
      mask.backgroundColor = .black
      layer.mask = mask
      try expectBounded("size \(size)") { try render([layer, gradient, text], width: 32, height: 32) }
    }
  }

  @Test func hugeShadowRadiusRendersInBoundedTime() throws {
    for withPath in [false, true] {
      for radius in [1000.0, 10_000] {
        try hugeShadow(radius: radius, withPath: withPath)
      }
    }
  }

  private func hugeShadow(radius: Double, withPath: Bool) throws {
    let layer = Layer()
    layer.frame = Rect(x: 20, y: 20, width: 100, height: 60)
    layer.backgroundColor = .white
    layer.cornerRadius = 12
    layer.shadowOpacity = 1
    layer.shadowRadius = radius
    layer.shadowOffset = Size(width: 0, height: 4)
    if withPath { layer.shadowPath = Path(rect: Rect(x: 0, y: 0, width: 100, height: 60)) }
    let child = Layer()
    child.frame = Rect(x: 10, y: 10, width: 20, height: 20)
    child.backgroundColor = .testRed
    child.shadowOpacity = 1
    child.shadowRadius = radius
    layer.addSublayer(child)
    try expectBounded("radius \(radius), shadowPath \(withPath)") {
      let s = try render([layer], width: 200, height: 150, scale: 2)
      // Whatever the shadow, the body is drawn on top of it.
      #expect(s[150, 60] == 0xffff_ffff)
    }
  }

  @Test func tenThousandLayersRenderInBoundedTime() throws {
    var layers: [Layer] = []
    for i in 0..<10_000 {
      let l = Layer()
      l.frame = Rect(x: Double(i % 100) * 2, y: Double(i / 100) * 2, width: 6, height: 6)
      l.backgroundColor = i % 2 == 0 ? .testRed : .testBlue
      l.cornerRadius = 2
      if i % 10 == 0 {
        l.shadowOpacity = 0.3
        l.shadowRadius = 2
      }
      layers.append(l)
    }
    try expectBounded("10,000 layers", seconds: 60) { _ = try render(layers, width: 200, height: 200) }
    // The same many layers from a scene file, nested one level, decode too.
    var json = #"{"width": 100, "height": 100, "layers": [{"frame": [0, 0, 100, 100], "sublayers": ["#
    json += (0..<10_000).map {
      ##"{"frame": [\##($0 % 100), \##($0 / 100), 2, 2], "backgroundColor": "#FF0000"}"##
    }
    .joined(separator: ",")
    json += "]}]}"
    try expectBounded("10,000 layers from JSON", seconds: 60) {
      let scene = try Scene.decode(Array(json.utf8))
      #expect(scene.layers[0].sublayers.count == 10_000)
    }
  }

  @Test func deepScenesRenderOrAreRefused() throws {
    // Through the API: 256 levels, each a group (opacity) with a shadow, a clip and a mask on the
    // deepest: every level may allocate an offscreen group, bounded by the canvas.
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 64, height: 64)
    var parent = root
    for depth in 1..<256 {
      let l = Layer()
      l.frame = Rect(x: 0.1, y: 0.1, width: 63, height: 63)
      l.opacity = 0.99
      l.masksToBounds = depth % 3 == 0
      l.cornerRadius = 4
      l.backgroundColor = depth % 2 == 0 ? .testRed : nil
      l.shadowOpacity = depth % 5 == 0 ? 0.5 : 0
      parent.addSublayer(l)
      parent = l
    }
    let mask = Layer()
    mask.frame = Rect(x: 0, y: 0, width: 30, height: 30)
    mask.backgroundColor = .black
    parent.mask = mask
    try expectBounded("256 deep", seconds: 60) { _ = try render([root], width: 64, height: 64) }

    // Through a scene file: 256 levels decode, 257 are refused with an error.
    func nested(_ depth: Int) -> [UInt8] {
      let open = String(
        repeating: #"{"frame": [0, 0, 10, 10], "opacity": 0.5, "sublayers": ["#, count: depth - 1)
      let close = String(repeating: "]}", count: depth - 1)
      let json =
        ##"{"width": 10, "height": 10, "layers": [\##(open){"backgroundColor": "#FF0000"}\##(close)]}"##
      return Array(json.utf8)
    }
    try expectBounded("256 deep from JSON", seconds: 60) {
      let scene = try Scene.decode(nested(256))
      _ = try render(scene.layers, width: 10, height: 10)
    }
    #expect(throws: SceneError.self) { try Scene.decode(nested(257)) }
    // Far deeper JSON than any scene is refused by the parser's own depth limit (no stack overflow).
    let deepJSON = Array(
      (String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
    #expect(throws: SceneError.self) { try Scene.decode(deepJSON) }
  }
}

/// Runs `body` and expects it to finish within `seconds` of this thread's processor time (a hang
/// or blow-up guard: a loaded machine stretches wall time, not this) and the process's resident
/// memory to stay under 2 GB (a generous bound: tests run in parallel in the same process).
private func expectBounded(
  _ label: String, seconds: Double = 5, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) throws {
  let start = threadProcessorSeconds()
  try body()
  let elapsed = threadProcessorSeconds() - start
  #expect(elapsed < seconds, "\(label) took \(elapsed) s of processor time", sourceLocation: sourceLocation)
  #expect(
    residentMegabytes() < 2048, "\(label): resident memory \(residentMegabytes()) MB",
    sourceLocation: sourceLocation)
}

/// The processor time this thread has used, in seconds.
private func threadProcessorSeconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// The process's resident set size (VmRSS) in megabytes, or 0 when /proc is not there.
private func residentMegabytes() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    let kb = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
    return (kb.flatMap { Int($0) } ?? 0) / 1024
  }
  return 0
}
