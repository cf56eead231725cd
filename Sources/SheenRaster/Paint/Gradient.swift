import Synchronization

/// A colour ramp: two or more stops, interpolated in unpremultiplied sRGB (as Core Graphics
/// does), looked up through a 256-entry premultiplied table built once.
public final class Gradient: @unchecked Sendable, Hashable {
  /// One colour at a location in 0...1.
  public struct Stop: Hashable, Sendable {
    public var color: Color
    public var location: Double
    public init(color: Color, location: Double) {
      self.color = color
      self.location = location
    }
  }

  public let stops: [Stop]
  /// Whether every colour of the ramp is opaque (then full coverage needs no blending).
  public let isOpaque: Bool
  /// 256 premultiplied colours from t = 0 to t = 1.
  @usableFromInline let table: [UInt32]

  /// A gradient through `stops`, which are sorted by location and clamped to 0...1. With no stops
  /// it is transparent; with one it is that colour.
  public init(stops: [Stop]) {
    let sorted = stops.map { Stop(color: $0.color, location: clamp01($0.location)) }
      .enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
      .map(\.element)
    self.stops = sorted
    table = Gradient.makeTable(sorted)
    isOpaque = table.allSatisfy { $0 >> 24 == 255 }
  }

  /// Evenly spaced colours, or colours at the given locations (as `CAGradientLayer`).
  public convenience init(colors: [Color], locations: [Double]? = nil) {
    let n = colors.count
    let locs = locations ?? (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
    self.init(stops: zip(colors, locs).map { Stop(color: $0, location: $1) })
  }

  private struct SharedKey: Hashable {
    var colors: [Color]
    var locations: [Double]?
  }

  private static let sharedGradients = Mutex(ClockCache<SharedKey, Gradient>(capacity: 1024))

  /// The gradient of `colors` at `locations`, made once and shared while it stays among the
  /// last 1,024 asked for: a reused cell given another item's colours allocates no ramp when
  /// those colours were shown before.
  public static func shared(colors: [Color], locations: [Double]? = nil) -> Gradient {
    let key = SharedKey(colors: colors, locations: locations)
    if let g = sharedGradients.withLock({ $0.value(for: key) }) { return g }
    let g = Gradient(colors: colors, locations: locations)
    sharedGradients.withLock { $0.insert(g, for: key) }
    return g
  }

  /// The premultiplied colour at `t` (clamped to 0...1), from the table.
  @inlinable public func color(at t: Double) -> UInt32 {
    let i = t.isNaN ? 0 : Int((Swift.min(1, Swift.max(0, t)) * 255).rounded())
    return table[i]
  }

  /// The last stop's colour, premultiplied (what a degenerate gradient fills with).
  public var lastColor: UInt32 { stops.last?.color.premultiplied ?? 0 }

  private static func makeTable(_ stops: [Stop]) -> [UInt32] {
    guard let first = stops.first, let last = stops.last else { return [UInt32](repeating: 0, count: 256) }
    var out = [UInt32](repeating: 0, count: 256)
    var k = 0
    for i in 0..<256 {
      let t = Double(i) / 255
      let c: Color
      if t <= first.location {
        c = first.color
      } else if t >= last.location {
        c = last.color
      } else {
        // first.location < t < last.location, so stops[k + 1] exists.
        while stops[k + 1].location <= t { k += 1 }
        let a = stops[k]
        let b = stops[k + 1]
        let span = b.location - a.location
        let f = span > 0 ? (t - a.location) / span : 1
        c = Color(
          red: a.color.red + (b.color.red - a.color.red) * f,
          green: a.color.green + (b.color.green - a.color.green) * f,
          blue: a.color.blue + (b.color.blue - a.color.blue) * f,
          alpha: a.color.alpha + (b.color.alpha - a.color.alpha) * f)
      }
      out[i] = c.premultiplied
    }
    return out
  }

  public static func == (a: Gradient, b: Gradient) -> Bool { a === b || a.stops == b.stops }
  public func hash(into h: inout Hasher) { h.combine(stops) }
}

/// How a shape is coloured.
public enum Paint: Hashable, Sendable {
  /// One colour.
  case solid(Color)
  /// A gradient along the line from `start` to `end` (user space), padded beyond both ends.
  case linearGradient(Gradient, start: Point, end: Point)
  /// A gradient from `center` (t = 0) to the circle of `radius` (t = 1), in user space; an
  /// ellipse when the current transform scales unevenly. Padded beyond the circle.
  case radialGradient(Gradient, center: Point, radius: Double)
  /// A radial gradient stretched into an ellipse with radii `radii` about `center` (user space),
  /// as Core Animation's radial `CAGradientLayer` draws.
  case ellipticalGradient(Gradient, center: Point, radii: Size)
  /// A gradient between two circles (user space), transparent where the geometry's extension
  /// rules leave no circle (Core Graphics' radial gradients).
  case conicalGradient(Gradient, ConicalGradient)
  /// A linear gradient that paints nothing before `start` or after `end` unless told to extend
  /// there (Core Graphics' `drawLinearGradient` options); the boundary is per pixel centre.
  case boundedLinearGradient(Gradient, start: Point, end: Point, extendsStart: Bool, extendsEnd: Bool)
}
