import Foundation

/// A 2D affine transform, laid out as Core Graphics' `CGAffineTransform`:
/// `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`.
public struct Transform: Hashable, Sendable {
  public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

  @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  @inlinable public init(translationX x: Double, y: Double) {
    self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
  }

  @inlinable public init(scaleX sx: Double, y sy: Double) {
    self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }

  /// A rotation by `angle` radians; positive turns clockwise on screen (y grows downwards).
  @inlinable public init(rotationAngle angle: Double) {
    let cs = cos(angle)
    let sn = sin(angle)
    self.init(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
  }

  @inlinable public var isIdentity: Bool { self == .identity }

  /// True when the transform only scales and translates (no rotation or skew).
  @inlinable public var isAxisAligned: Bool { b == 0 && c == 0 }

  /// `self` followed by `t`: points are first mapped by `self`, then by `t`.
  @inlinable public func concatenating(_ t: Transform) -> Transform {
    Transform(
      a: a * t.a + b * t.c, b: a * t.b + b * t.d,
      c: c * t.a + d * t.c, d: c * t.b + d * t.d,
      tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
  }

  /// A translation applied before this transform.
  @inlinable public func translatedBy(x: Double, y: Double) -> Transform {
    Transform(translationX: x, y: y).concatenating(self)
  }

  /// A scale applied before this transform.
  @inlinable public func scaledBy(x: Double, y: Double) -> Transform {
    Transform(scaleX: x, y: y).concatenating(self)
  }

  /// A rotation applied before this transform.
  @inlinable public func rotated(by angle: Double) -> Transform {
    Transform(rotationAngle: angle).concatenating(self)
  }

  /// The determinant of the linear part.
  @inlinable public var determinant: Double { a * d - b * c }

  /// The inverse transform, or nil when the transform is singular or not finite.
  @inlinable public var inverted: Transform? {
    let det = determinant
    guard det != 0, det.isFinite else { return nil }
    let ia = d / det
    let ib = -b / det
    let ic = -c / det
    let id = a / det
    return Transform(
      a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
  }

  /// Maps a point.
  @inlinable public func apply(_ p: Point) -> Point {
    Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
  }

  /// Maps a vector (ignores the translation).
  @inlinable public func applyToVector(_ p: Point) -> Point {
    Point(x: a * p.x + c * p.y, y: b * p.x + d * p.y)
  }

  /// The bounding box of a transformed rectangle.
  @inlinable public func apply(_ r: Rect) -> Rect {
    if isAxisAligned {
      return Rect(corner: apply(r.origin), apply(Point(x: r.maxX, y: r.maxY)))
    }
    let p0 = apply(Point(x: r.minX, y: r.minY))
    let p1 = apply(Point(x: r.maxX, y: r.minY))
    let p2 = apply(Point(x: r.minX, y: r.maxY))
    let p3 = apply(Point(x: r.maxX, y: r.maxY))
    let x0 = Swift.min(Swift.min(p0.x, p1.x), Swift.min(p2.x, p3.x))
    let y0 = Swift.min(Swift.min(p0.y, p1.y), Swift.min(p2.y, p3.y))
    let x1 = Swift.max(Swift.max(p0.x, p1.x), Swift.max(p2.x, p3.x))
    let y1 = Swift.max(Swift.max(p0.y, p1.y), Swift.max(p2.y, p3.y))
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The largest factor by which the transform stretches any length (for flattening tolerances).
  @inlinable public var maxScale: Double {
    let sx = (a * a + b * b).squareRoot()
    let sy = (c * c + d * d).squareRoot()
    return Swift.max(sx, sy)
  }
}
