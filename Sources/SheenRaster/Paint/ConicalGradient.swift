import Foundation

/// The geometry of a gradient between two circles (Core Graphics' `drawRadialGradient`, the PDF's
/// type 3 shading, Skia's two-point conical gradient), in user space.
public struct ConicalGradient: Hashable, Sendable {
  public var start: Point
  public var startRadius: Double
  public var end: Point
  public var endRadius: Double
  /// Whether the first colour continues before the start circle (`drawsBeforeStartLocation`).
  public var extendsStart: Bool
  /// Whether the last colour continues beyond the end circle (`drawsAfterEndLocation`).
  public var extendsEnd: Bool

  public init(
    start: Point, startRadius: Double, end: Point, endRadius: Double, extendsStart: Bool = true,
    extendsEnd: Bool = true
  ) {
    self.start = start
    self.startRadius = startRadius
    self.end = end
    self.endRadius = endRadius
    self.extendsStart = extendsStart
    self.extendsEnd = extendsEnd
  }

  /// The gradient position of user-space point `p`: the largest t whose circle
  /// (centre `start + t (end - start)`, radius `r0 + t (r1 - r0)` >= 0) passes through `p`,
  /// among the t the extension allows; nil where no circle does (nothing is painted there).
  @inline(__always) func position(_ p: Point) -> Double? {
    let cd = end - start
    let dr = endRadius - startRadius
    let pd = p - start
    let a = cd.dot(cd) - dr * dr
    let b = pd.dot(cd) + startRadius * dr
    let c = pd.dot(pd) - startRadius * startRadius
    @inline(__always) func allowed(_ t: Double) -> Bool {
      startRadius + t * dr >= 0 && (t >= 0 || extendsStart) && (t <= 1 || extendsEnd)
    }
    if abs(a) < 1e-12 {
      guard b != 0 else { return nil }
      let t = c / (2 * b)
      return allowed(t) ? t : nil
    }
    let disc = b * b - a * c
    if disc < 0 { return nil }
    let root = disc.squareRoot()
    let t1 = (b + root) / a
    let t2 = (b - root) / a
    let hi = max(t1, t2)
    let lo = min(t1, t2)
    if allowed(hi) { return hi }
    if allowed(lo) { return lo }
    return nil
  }
}

extension Shader {
  /// Colours of a two-circle gradient: `inv` maps device pixels to user space.
  static func shadeConical(
    _ g: Gradient, _ geo: ConicalGradient, _ inv: Transform, x: Int, y: Int, count: Int,
    into out: UnsafeMutablePointer<UInt32>
  ) {
    g.table.withUnsafeBufferPointer { lut in
      let py = Double(y) + 0.5
      var p = inv.apply(Point(x: Double(x) + 0.5, y: py))
      let step = Point(x: inv.a, y: inv.b)
      for i in 0..<count {
        if let t = geo.position(p), !t.isNaN {
          out[i] = lut[t <= 0 ? 0 : (t >= 1 ? 255 : Int(t * 255 + 0.5))]
        } else {
          out[i] = 0
        }
        p = p + step
      }
    }
  }
}
