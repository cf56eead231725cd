import Foundation
import SheenLayers
import SheenRaster

/// An affine transform (Core Graphics' `CGAffineTransform`): `x' = a·x + c·y + tx`,
/// `y' = b·x + d·y + ty`. Positive rotation angles turn clockwise on screen (y points down).
public struct CGAffineTransform: Hashable, Sendable {
  public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

  public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
    (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
  }

  public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

  public static let identity = CGAffineTransform()

  public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
  public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
  public init(rotationAngle angle: CGFloat) {
    let cs = CGFloat(Foundation.cos(Double(angle)))
    let sn = CGFloat(Foundation.sin(Double(angle)))
    self.init(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
  }

  public var isIdentity: Bool { self == .identity }

  /// `self` followed by `t`.
  public func concatenating(_ t: CGAffineTransform) -> CGAffineTransform {
    CGAffineTransform(
      a: a * t.a + b * t.c, b: a * t.b + b * t.d,
      c: c * t.a + d * t.c, d: c * t.b + d * t.d,
      tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
  }

  /// A translation applied before `self`.
  public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
    CGAffineTransform(translationX: x, y: y).concatenating(self)
  }
  /// A scale applied before `self`.
  public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
    CGAffineTransform(scaleX: x, y: y).concatenating(self)
  }
  /// A rotation applied before `self`.
  public func rotated(by angle: CGFloat) -> CGAffineTransform {
    CGAffineTransform(rotationAngle: angle).concatenating(self)
  }

  public func inverted() -> CGAffineTransform {
    let det = a * d - b * c
    guard det != 0 else { return self }
    return CGAffineTransform(
      a: d / det, b: -b / det, c: -c / det, d: a / det,
      tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
  }

  var sheen: Transform {
    Transform(a: Double(a), b: Double(b), c: Double(c), d: Double(d), tx: Double(tx), ty: Double(ty))
  }

  /// Scale, then rotation, then translation, as SheenLayers' `LayerTransform` holds it.
  ///
  /// Unlike UIKit, a skew cannot be represented: the transform is approximated by the nearest
  /// scale-rotate-translate (the first column's length and angle, and the determinant's sign and
  /// size for the second scale).
  var layerTransform: LayerTransform {
    let sx = Double((a * a + b * b).squareRoot())
    guard sx > 0 else {
      return LayerTransform(scaleX: 0, scaleY: Double(d), translationX: Double(tx), translationY: Double(ty))
    }
    let rotation = Foundation.atan2(Double(b), Double(a))
    let sy = Double(a * d - b * c) / sx
    return LayerTransform(
      scaleX: sx, scaleY: sy, rotation: rotation, translationX: Double(tx), translationY: Double(ty))
  }

  init(_ t: LayerTransform) {
    let cs = Foundation.cos(t.rotation)
    let sn = Foundation.sin(t.rotation)
    self.init(
      a: CGFloat(t.scaleX * cs), b: CGFloat(t.scaleX * sn), c: CGFloat(-t.scaleY * sn),
      d: CGFloat(t.scaleY * cs), tx: CGFloat(t.translationX), ty: CGFloat(t.translationY))
  }
}

extension CGPoint {
  /// The point mapped by `t`.
  public func applying(_ t: CGAffineTransform) -> CGPoint {
    CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
  }
}

extension CGSize {
  /// The size mapped by `t`'s linear part.
  public func applying(_ t: CGAffineTransform) -> CGSize {
    CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
  }
}

extension CGRect {
  /// The bounding box of the rectangle mapped by `t`.
  public func applying(_ t: CGAffineTransform) -> CGRect {
    let pts = [
      CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: minX, y: maxY),
      CGPoint(x: maxX, y: maxY),
    ].map { $0.applying(t) }
    let xs = pts.map(\.x)
    let ys = pts.map(\.y)
    return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
  }
}
