import Foundation

/// UIScrollView's motion along one axis, as closed-form functions of time: deceleration
/// (`v(t) = v₀·r^t`, t in ms), a critically damped spring back to an edge, and a timed glide
/// (wheel notches, keys, `setContentOffset(_:animated:)`).
struct ScrollAxisMotion {
  enum Kind {
    case idle
    /// From `x0` at `v0` points per second, decaying by `rate` per millisecond.
    case decelerate(x0: Double, v0: Double, rate: Double)
    /// Towards `target`, from `target + d0` moving at `v0`.
    case spring(target: Double, d0: Double, v0: Double)
    /// From `from` to `to` over `duration` seconds on `curve`.
    case glide(from: Double, to: Double, duration: Double, curve: CubicTimingCurve)
  }

  var kind = Kind.idle
  /// Nil until the next frame resolves it.
  var start: Double?

  /// The bounce spring's natural frequency (critically damped): back at the edge in about 0.5 s.
  static let springOmega = 12.0

  var isIdle: Bool {
    if case .idle = kind { return true }
    return false
  }

  /// The glide's destination, if gliding.
  var glideTarget: Double? {
    if case .glide(_, let to, _, _) = kind { return to }
    return nil
  }

  /// Where the deceleration is after `t` seconds, and its velocity.
  static func decelerated(x0: Double, v0: Double, rate: Double, t: Double) -> (Double, Double) {
    let k = 1000 * Foundation.log(rate)  // per second
    let f = Foundation.exp(k * t)  // rate^(1000 t)
    return (x0 + v0 * (f - 1) / k, v0 * f)
  }

  /// The offset at `now` within `range`, or nil when idle. Switches to the next phase (spring
  /// after crossing an edge, idle at rest) as time passes.
  mutating func advance(to now: Double, range: ClosedRange<Double>, bounces: Bool) -> Double? {
    if start == nil { start = now }
    let t = max(0, now - start!)
    switch kind {
    case .idle:
      return nil
    case .decelerate(let x0, let v0, let rate):
      // Does the motion cross the edge it heads for, and when?
      let edge = v0 > 0 ? range.upperBound : range.lowerBound
      let k = 1000 * Foundation.log(rate)
      let arg = 1 + (edge - x0) * k / v0
      let crossing = (v0 != 0 && arg > 0 && arg < 1) ? Foundation.log(arg) / k : Double.infinity
      if t >= crossing {
        let (_, vc) = Self.decelerated(x0: x0, v0: v0, rate: rate, t: crossing)
        if bounces {
          kind = .spring(target: edge, d0: 0, v0: vc)
          start = start! + crossing
          return advance(to: now, range: range, bounces: bounces)
        }
        kind = .idle
        return edge
      }
      let (x, v) = Self.decelerated(x0: x0, v0: v0, rate: rate, t: t)
      // At rest when what is left to travel is under a quarter point.
      if abs(v / k) < 0.25 { kind = .idle }
      return x
    case .spring(let target, let d0, let v0):
      let w = Self.springOmega
      let e = Foundation.exp(-w * t)
      let d = (d0 + (v0 + w * d0) * t) * e
      let v = (v0 - w * (v0 + w * d0) * t) * e
      if t > 0 && abs(d) < 0.1 && abs(v) < 5 {
        kind = .idle
        return target
      }
      return target + d
    case .glide(let from, let to, let duration, let curve):
      if t >= duration {
        kind = .idle
        return to
      }
      return from + (to - from) * curve.value(at: t / duration)
    }
  }
}

/// UIScrollView's rubber band: an overscroll `x` past an edge shows as
/// `(1 - 1 / (x·0.55/d + 1))·d` for a view dimension `d`.
public func rubberBand(_ x: Double, dimension d: Double) -> Double {
  guard d > 0 else { return 0 }
  return (1 - 1 / (x * 0.55 / d + 1)) * d
}

/// The overscroll that shows as `y` (the rubber band's inverse).
func inverseRubberBand(_ y: Double, dimension d: Double) -> Double {
  guard d > 0 else { return 0 }
  let f = min(0.999, y / d)
  return (1 / (1 - f) - 1) * d / 0.55
}
