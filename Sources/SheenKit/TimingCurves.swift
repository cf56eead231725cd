import Foundation

/// A cubic Bézier timing function from (0, 0) to (1, 1) with two control points, as Core
/// Animation's `CAMediaTimingFunction`.
public struct CubicTimingCurve: Hashable, Sendable {
  public var x1: Double, y1: Double, x2: Double, y2: Double

  public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    (self.x1, self.y1, self.x2, self.y2) = (x1, y1, x2, y2)
  }

  public static let linear = CubicTimingCurve(0, 0, 1, 1)
  public static let easeIn = CubicTimingCurve(0.42, 0, 1, 1)
  public static let easeOut = CubicTimingCurve(0, 0, 0.58, 1)
  /// Core Animation's `easeInEaseOut`.
  public static let easeInEaseOut = CubicTimingCurve(0.42, 0, 0.58, 1)

  @inline(__always) private static func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
    // B(t) = 3(1-t)²t p1 + 3(1-t)t² p2 + t³
    let u = 1 - t
    return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
  }

  @inline(__always) private static func slope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
  }

  /// The curve's parameter where its x equals `x`: Newton steps, then bisection if they stall.
  public func parameter(forX x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    var t = x
    for _ in 0..<8 {
      let err = Self.bezier(t, x1, x2) - x
      if abs(err) < 1e-12 { return t }
      let d = Self.slope(t, x1, x2)
      if abs(d) < 1e-9 { break }
      t -= err / d
      if t < 0 || t > 1 { break }
    }
    var lo = 0.0
    var hi = 1.0
    t = x
    for _ in 0..<60 {
      let v = Self.bezier(t, x1, x2)
      if abs(v - x) < 1e-12 { break }
      if v < x { lo = t } else { hi = t }
      t = (lo + hi) / 2
    }
    return t
  }

  /// The progress (y) at a time fraction (x) in 0...1.
  public func value(at x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    return Self.bezier(parameter(forX: x), y1, y2)
  }
}

/// The progress of a damped harmonic oscillator from 0 to 1: UIKit's spring animation
/// (`usingSpringWithDamping:initialSpringVelocity:`).
///
/// With damping ratio ζ, the natural frequency ω₀ is chosen so that the motion's envelope has
/// decayed to 1/1000 at the end of the duration D: `ω₀ = ln(1000) / (ζ·D)` when ζ < 1 (the
/// envelope is `e^(-ζω₀t)`), and `ω₀ = ln(1000) / (D·(ζ - √(ζ²-1)))` when ζ ≥ 1 (the slow
/// root). Unlike UIKit, whose mapping from duration to stiffness is undocumented, this one is
/// stated; at D the animation lands exactly on its end value. `initialVelocity` is in units of
/// the whole distance per second, as UIKit's.
public struct SpringCurve: Hashable, Sendable {
  public var dampingRatio: Double
  public var initialVelocity: Double
  public var duration: Double

  public init(dampingRatio: Double, initialVelocity: Double, duration: Double) {
    self.dampingRatio = max(0.01, dampingRatio)
    self.initialVelocity = initialVelocity
    self.duration = max(1e-6, duration)
  }

  /// ω₀, in radians per second.
  public var angularFrequency: Double {
    let z = dampingRatio
    let k = Foundation.log(1000.0)
    if z < 1 { return k / (z * duration) }
    return k / (duration * (z - (z * z - 1).squareRoot()))
  }

  /// Progress at `t` seconds: 0 at the start, 1 at rest, above 1 while overshooting.
  public func value(at t: Double) -> Double {
    if t <= 0 { return 0 }
    if t >= duration { return 1 }
    let w = angularFrequency
    let z = dampingRatio
    let x0 = -1.0  // displacement from the end value
    let v0 = initialVelocity
    let x: Double
    if z < 1 {
      let wd = w * (1 - z * z).squareRoot()
      let b = (v0 + z * w * x0) / wd
      x = Foundation.exp(-z * w * t) * (x0 * Foundation.cos(wd * t) + b * Foundation.sin(wd * t))
    } else if z == 1 {
      x = Foundation.exp(-w * t) * (x0 + (v0 + w * x0) * t)
    } else {
      let s = (z * z - 1).squareRoot()
      let r1 = -w * (z - s)
      let r2 = -w * (z + s)
      let c2 = (v0 - r1 * x0) / (r2 - r1)
      let c1 = x0 - c2
      x = c1 * Foundation.exp(r1 * t) + c2 * Foundation.exp(r2 * t)
    }
    return 1 + x
  }
}
