// libFuzzer target, structure-aware: the input bytes choose a scene that SCENE.md accepts (every
// key with a legal value, numbers drawn mostly from the extremes of their ranges: 0, the smallest
// subnormal, 1e-306, huge values up to the largest finite Double, negative where allowed), which
// is then written as JSON, decoded and rendered on a canvas of at most 48 × 48 pixels.
//
// Two failures: the decoder refuses a scene SCENE.md allows (it prints the scene and traps), or
// rendering traps, hangs or reads out of bounds. Byte-level mutation of JSON (SceneFuzz) seldom
// reaches such numbers in valid files; this target reaches them on every run.
import Glibc
import SheenLayers
import SheenRaster

private let compositor = Compositor()
private let verbose = getenv("SHEEN_FUZZ_VERBOSE") != nil

/// The fuzzer's bytes as a stream of choices (zeros once they run out).
private struct Choices {
  var bytes: UnsafeBufferPointer<UInt8>
  var i = 0
  mutating func byte() -> Int {
    defer { i += 1 }
    return i < bytes.count ? Int(bytes[i]) : 0
  }
  mutating func pick<T>(_ items: [T]) -> T { items[byte() % items.count] }
  mutating func chance(_ inOf256: Int) -> Bool { byte() < inOf256 }
}

/// Non-negative numbers, extremes first.
private let magnitudes: [Double] = [
  0, 5e-324, 2.2250738585072014e-308, 1e-306, 1e-300, 1e-30, 1e-9, 1e-4, 0.01, 0.3, 0.5, 1, 2, 3, 7.5, 16, 48,
  100, 1000, 65536, 1e6, 1e9, 2147483648, 4294967296, 9.2e18, 9.3e18, 1e19, 1e30, 1e100, 1e300,
  1.7976931348623157e308,
]
private let units: [Double] = [0, 5e-324, 1e-306, 1e-9, 0.001, 0.25, 0.5, 0.99, 0.999999, 1]

private func json(_ v: Double) -> String {
  // Swift prints 1e+300 as "1e+300": valid JSON. Whole numbers print without ".0" to vary.
  v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
}

private struct Generator {
  var c: Choices
  var depth = 0
  var layers = 0

  mutating func nonNegative() -> Double { c.pick(magnitudes) }
  mutating func signed() -> Double {
    let m = nonNegative()
    return c.chance(100) ? -m : m
  }
  /// Mostly ordinary coordinates (so that things land on the canvas), sometimes extreme ones.
  mutating func coordinate() -> Double { c.chance(160) ? Double(c.byte() % 64) - 8 : signed() }
  mutating func length() -> Double { c.chance(160) ? Double(c.byte() % 64) : nonNegative() }
  mutating func unit() -> String { json(c.pick(units)) }
  mutating func color(nullable: Bool = true) -> String {
    if nullable && c.chance(16) { return "null" }
    let hex = "0123456789ABCDEF"
    var s = "\"#"
    for _ in 0..<(c.chance(128) ? 8 : 6) { s.append(hex[hex.index(hex.startIndex, offsetBy: c.byte() % 16)]) }
    return s + "\""
  }
  mutating func pair(_ f: (inout Generator) -> Double) -> String { "[\(json(f(&self))), \(json(f(&self)))]" }
  mutating func rect() -> String {
    "[\(json(coordinate())), \(json(coordinate())), \(json(length())), \(json(length()))]"
  }
  mutating func corners() -> String {
    let all = ["\"topLeft\"", "\"topRight\"", "\"bottomLeft\"", "\"bottomRight\""]
    return "[" + all.filter { _ in c.chance(128) }.joined(separator: ", ") + "]"
  }

  mutating func path() -> String {
    if c.chance(64) {
      return
        "{\"roundedRect\": \(rect()), \"cornerRadius\": \(json(nonNegative())), \"corners\": \(corners())}"
    }
    var d = "M \(json(coordinate())) \(json(coordinate()))"
    for _ in 0..<(1 + c.byte() % 6) {
      switch c.byte() % 7 {
      case 0: d += " L \(json(coordinate())) \(json(coordinate()))"
      case 1: d += " C \((0..<6).map { _ in json(coordinate()) }.joined(separator: " "))"
      case 2: d += " Q \((0..<4).map { _ in json(coordinate()) }.joined(separator: " "))"
      case 3:
        d +=
          " A \(json(nonNegative())) \(json(nonNegative())) \(json(signed())) \(c.byte() % 2) \(c.byte() % 2)"
          + " \(json(coordinate())) \(json(coordinate()))"
      case 4: d += " h \(json(signed()))"
      case 5: d += " v \(json(signed()))"
      default: d += " Z"
      }
    }
    return "\"\(d)\""
  }

  mutating func transform() -> String {
    var parts: [String] = []
    if c.chance(128) { parts.append("\"scale\": " + (c.chance(128) ? json(signed()) : pair { $0.signed() })) }
    if c.chance(128) { parts.append("\"rotation\": \(json(signed()))") }
    if c.chance(128) { parts.append("\"translation\": \(pair { $0.coordinate() })") }
    return "{" + parts.joined(separator: ", ") + "}"
  }

  mutating func layer() -> String {
    layers += 1
    let type = c.pick(["layer", "shape", "gradient", "text"])
    var keys = ["\"type\": \"\(type)\"", "\"frame\": \(rect())"]
    func maybe(_ key: String, _ value: @autoclosure () -> String) {
      if c.chance(90) { keys.append("\"\(key)\": \(value())") }
    }
    maybe("backgroundColor", color())
    maybe("cornerRadius", json(nonNegative()))
    maybe("maskedCorners", corners())
    maybe("masksToBounds", c.chance(128) ? "true" : "false")
    maybe("borderWidth", json(nonNegative()))
    maybe("borderColor", color())
    maybe("opacity", unit())
    maybe("transform", transform())
    maybe("anchorPoint", pair { $0.signed() })
    if c.chance(140) {
      keys.append("\"shadowOpacity\": \(unit())")
      maybe("shadowColor", color())
      maybe("shadowOffset", pair { $0.coordinate() })
      maybe("shadowRadius", json(nonNegative()))
      maybe("shadowPath", path())
    }
    switch type {
    case "shape":
      maybe("path", path())
      maybe("fillColor", color())
      maybe("fillRule", c.pick(["\"nonZero\"", "\"evenOdd\""]))
      maybe("strokeColor", color())
      maybe("lineWidth", json(nonNegative()))
      maybe("lineJoin", c.pick(["\"miter\"", "\"round\"", "\"bevel\""]))
      maybe("lineCap", c.pick(["\"butt\"", "\"round\"", "\"square\""]))
    case "gradient":
      let n = 2 + c.byte() % 3
      keys.append("\"colors\": [" + (0..<n).map { _ in color(nullable: false) }.joined(separator: ", ") + "]")
      if c.chance(128) {
        var l = (0..<n).map { _ in c.pick(units) }.sorted()
        if c.chance(64) { l = l.map { _ in l[0] } }
        keys.append("\"locations\": [" + l.map(json).joined(separator: ", ") + "]")
      }
      maybe("startPoint", pair { $0.signed() })
      maybe("endPoint", pair { $0.signed() })
      maybe("gradientType", c.pick(["\"axial\"", "\"radial\""]))
    case "text":
      maybe(
        "string", c.pick(["\"Hi\"", "\"\"", "\"a\\nb c d\"", "\"WWWWWWWWWWWWWWWWWWWWWWWW\"", "\"é ﬁ ✓\""]))
      maybe("fontSize", json(nonNegative()))
      maybe("fontWeight", c.pick(["\"regular\"", "\"bold\""]))
      maybe("foregroundColor", color())
      maybe("alignmentMode", c.pick(["\"natural\"", "\"left\"", "\"center\"", "\"right\""]))
      maybe("isWrapped", c.chance(128) ? "true" : "false")
      maybe("truncationMode", c.pick(["\"none\"", "\"end\""]))
    default: break
    }
    if depth < 6 && layers < 24 {
      depth += 1
      if c.chance(40) { keys.append("\"mask\": \(layer())") }
      if c.chance(120) {
        var subs: [String] = []
        for _ in 0..<(1 + c.byte() % 3) where layers < 24 { subs.append(layer()) }
        keys.append("\"sublayers\": [" + subs.joined(separator: ", ") + "]")
      }
      depth -= 1
    }
    return "{" + keys.joined(separator: ", ") + "}"
  }

  mutating func scene() -> String {
    let width = c.pick([1.0, 7.5, 16, 32, 48])
    let height = c.pick([1.0, 9.25, 16, 32, 48])
    let scale = c.pick([1.0, 0.5, 1.5, 2])
    var subs: [String] = []
    for _ in 0..<(1 + c.byte() % 3) { subs.append(layer()) }
    return "{\"width\": \(json(width)), \"height\": \(json(height)), \"scale\": \(json(scale)), "
      + "\"background\": \(color()), \"layers\": [\(subs.joined(separator: ", "))]}"
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeneratedScene(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var g = Generator(c: Choices(bytes: UnsafeBufferPointer(start: data, count: size)))
  let text = g.scene()
  if verbose { print(text) }
  let scene: Scene
  do {
    scene = try Scene.decode(Array(text.utf8))
  } catch {
    print("a scene SCENE.md allows was refused: \(error)\n\(text)")
    fatalError("valid scene refused")
  }
  guard let surface = try? Surface(width: min(scene.pixelWidth, 48), height: min(scene.pixelHeight, 48))
  else {
    return 0
  }
  let canvas = Canvas(surface: surface)
  canvas.clear(scene.background ?? .clear)
  compositor.render(scene.layers, in: canvas, transform: Transform(scaleX: scene.scale, y: scene.scale))
  return 0
}
