import Foundation
import SheenRaster

/// An immutable path (Core Graphics' `CGPath`) wrapping SheenRaster's `Path`.
public class CGPath: Hashable, @unchecked Sendable {
  /// The path SheenRaster fills and strokes.
  public internal(set) var path: Path

  public init(_ path: Path) { self.path = path }

  public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
    self.init(Path(rect: rect.sheen).transformed(by: transform?.pointee.sheen ?? .identity))
  }

  public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
    self.init(Path(ellipseIn: rect.sheen).transformed(by: transform?.pointee.sheen ?? .identity))
  }

  /// Unlike Core Graphics, corners are circular: `cornerHeight` is ignored.
  public convenience init(
    roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
    transform: UnsafePointer<CGAffineTransform>? = nil
  ) {
    let p = Path(roundedRect: rect.sheen, cornerRadius: Double(cornerWidth))
    self.init(p.transformed(by: transform?.pointee.sheen ?? .identity))
  }

  /// The smallest rectangle holding every point of the path and its control points.
  public var boundingBox: CGRect { CGRect(path.controlBounds) }
  public var isEmpty: Bool { path.isEmpty }

  /// An immutable copy.
  public func copy() -> CGPath? { CGPath(path) }
  public func mutableCopy() -> CGMutablePath? { CGMutablePath(path) }

  public static func == (a: CGPath, b: CGPath) -> Bool { a.path == b.path }
  public func hash(into h: inout Hasher) { h.combine(path) }
}

/// A path that can grow (Core Graphics' `CGMutablePath`).
public final class CGMutablePath: CGPath, @unchecked Sendable {
  public convenience init() { self.init(Path()) }

  public func move(to p: CGPoint) { path.move(to: p.sheen) }
  public func addLine(to p: CGPoint) { path.addLine(to: p.sheen) }
  public func addCurve(to p: CGPoint, control1: CGPoint, control2: CGPoint) {
    path.addCurve(to: p.sheen, control1: control1.sheen, control2: control2.sheen)
  }
  public func addQuadCurve(to p: CGPoint, control: CGPoint) {
    path.addQuadCurve(to: p.sheen, control: control.sheen)
  }
  public func addRect(_ r: CGRect) { path.addRect(r.sheen) }
  public func addEllipse(in r: CGRect) { path.addEllipse(in: r.sheen) }
  public func addPath(_ other: CGPath) { path.addPath(other.path) }
  public func closeSubpath() { path.closeSubpath() }
}
