import Foundation
import SheenRaster

/// A path built with UIKit's calls (UIKit's `UIBezierPath`), backed by SheenRaster's `Path`.
///
/// Unlike UIKit, rounded rectangles have circular corners (Core Animation's default corner
/// curve), not UIKit's continuous corners, so they match a layer's `cornerRadius` exactly.
open class UIBezierPath {
  public var path: Path
  public var lineWidth: CGFloat = 1
  public var usesEvenOddFillRule = false
  public var lineCapStyle = CGLineCap.butt
  public var lineJoinStyle = CGLineJoin.miter
  public var miterLimit: CGFloat = 10
  /// The dash pattern `stroke()` uses (set by `setLineDash`).
  var dash: (lengths: [CGFloat], phase: CGFloat)?

  /// Dashes the stroke: `count` on and off lengths from `pattern`, starting `phase` in; a nil
  /// pattern or zero count strokes solid.
  public func setLineDash(_ pattern: UnsafePointer<CGFloat>?, count: Int, phase: CGFloat) {
    guard let pattern, count > 0 else {
      dash = nil
      return
    }
    dash = (Array(UnsafeBufferPointer(start: pattern, count: count)), phase)
  }

  /// The same with an array (Sheen's convenience).
  public func setLineDash(_ pattern: [CGFloat], phase: CGFloat) {
    dash = pattern.isEmpty ? nil : (pattern, phase)
  }

  public init() { path = Path() }
  public init(path: Path) { self.path = path }

  public convenience init(rect: CGRect) { self.init(path: Path(rect: rect.sheen)) }
  public convenience init(ovalIn rect: CGRect) { self.init(path: Path(ellipseIn: rect.sheen)) }

  /// A rounded rectangle; the radius is clamped to half the shorter side.
  public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
    let r = rect.sheen
    let radius = min(Double(cornerRadius), min(r.width, r.height) / 2)
    self.init(path: Path(roundedRect: r, cornerRadius: radius))
  }

  /// A rectangle rounded on `corners` by `cornerRadii.width` (UIKit ignores the height too).
  public convenience init(
    roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize
  ) {
    let r = rect.sheen
    let radius = max(0, min(Double(cornerRadii.width), min(r.width, r.height) / 2))
    let radii = CornerRadii(
      topLeft: corners.contains(.topLeft) ? radius : 0, topRight: corners.contains(.topRight) ? radius : 0,
      bottomRight: corners.contains(.bottomRight) ? radius : 0,
      bottomLeft: corners.contains(.bottomLeft) ? radius : 0)
    self.init(path: Path(roundedRect: r, radii: radii))
  }

  /// A circular arc; angles in radians, clockwise on screen from the +x axis.
  public convenience init(
    arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
  ) {
    self.init()
    addArc(
      withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
  }

  public convenience init(cgPath: CGPath) { self.init(path: cgPath.path) }

  /// An immutable snapshot of the path.
  public var cgPath: CGPath { CGPath(path) }
  public var isEmpty: Bool { path.isEmpty }
  public var bounds: CGRect { CGRect(path.controlBounds) }
  public var currentPoint: CGPoint { CGPoint(path.currentPoint ?? .zero) }

  public func move(to point: CGPoint) { path.move(to: point.sheen) }
  public func addLine(to point: CGPoint) { path.addLine(to: point.sheen) }
  public func addCurve(to point: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
    path.addCurve(to: point.sheen, control1: controlPoint1.sheen, control2: controlPoint2.sheen)
  }
  public func addQuadCurve(to point: CGPoint, controlPoint: CGPoint) {
    path.addQuadCurve(to: point.sheen, control: controlPoint.sheen)
  }
  public func addArc(
    withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
  ) {
    path.addArc(
      center: center.sheen, radius: Double(radius), startAngle: Double(startAngle),
      endAngle: Double(endAngle),
      clockwise: clockwise)
  }
  public func close() { path.closeSubpath() }
  public func append(_ other: UIBezierPath) { path.addPath(other.path) }
  /// Empties the path, keeping its storage for the next one built in it.
  public func removeAllPoints() { path.removeAllKeepingCapacity() }
  public func apply(_ transform: CGAffineTransform) { path = path.transformed(by: transform.sheen) }
}
