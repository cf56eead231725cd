import SheenKit
import SheenRaster

typealias RasterPath = SheenRaster.Path

extension CGPoint {
  var raster: Point { Point(x: Double(x), y: Double(y)) }
}

extension CGRect {
  var raster: Rect {
    let r = standardized
    return Rect(x: Double(r.minX), y: Double(r.minY), width: Double(r.width), height: Double(r.height))
  }
}

/// An angle (SwiftUI's `Angle`).
public struct Angle: Hashable, Sendable, Comparable {
  public var radians: Double
  public var degrees: Double { radians * 180 / .pi }
  public init(radians: Double) { self.radians = radians }
  public init(degrees: Double) { self.radians = degrees * .pi / 180 }
  public static func radians(_ r: Double) -> Angle { Angle(radians: r) }
  public static func degrees(_ d: Double) -> Angle { Angle(degrees: d) }
  public static let zero = Angle(radians: 0)
  public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }
}

/// The outline of a 2D shape (SwiftUI's `Path`), in the coordinates of the rectangle it was made
/// for. A path is also a shape (it fills with the foreground colour when used as a view).
public struct Path: Hashable, Sendable {
  var storage: RasterPath

  public init() { storage = RasterPath() }
  init(raster: RasterPath) { storage = raster }
  /// The path of a Core Graphics path (as `UIBezierPath(...).cgPath` gives).
  public init(_ path: CGPath) { storage = path.path }
  public init(_ rect: CGRect) { storage = RasterPath(rect: rect.raster) }
  public init(ellipseIn rect: CGRect) { storage = RasterPath(ellipseIn: rect.raster) }
  public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .circular) {
    let r = rect.raster
    storage = RasterPath(roundedRect: r, cornerRadius: min(Double(cornerRadius), min(r.width, r.height) / 2))
  }
  public init(roundedRect rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .circular) {
    self.init(roundedRect: rect, cornerRadius: cornerSize.width, style: style)
  }
  public init(_ build: (inout Path) -> Void) {
    self.init()
    build(&self)
  }

  public var isEmpty: Bool { storage.isEmpty }
  /// The bounding box of the points and control points.
  public var boundingRect: CGRect {
    let b = storage.controlBounds
    return CGRect(x: b.minX, y: b.minY, width: b.width, height: b.height)
  }
  public var cgPath: CGPath { CGPath(storage) }
  public var currentPoint: CGPoint? { storage.currentPoint.map { CGPoint(x: $0.x, y: $0.y) } }

  public mutating func move(to p: CGPoint) { storage.move(to: p.raster) }
  public mutating func addLine(to p: CGPoint) { storage.addLine(to: p.raster) }
  public mutating func addLines(_ points: [CGPoint]) {
    guard let first = points.first else { return }
    move(to: first)
    for p in points.dropFirst() { addLine(to: p) }
  }
  public mutating func addQuadCurve(to p: CGPoint, control: CGPoint) {
    storage.addQuadCurve(to: p.raster, control: control.raster)
  }
  public mutating func addCurve(to p: CGPoint, control1: CGPoint, control2: CGPoint) {
    storage.addCurve(to: p.raster, control1: control1.raster, control2: control2.raster)
  }
  /// An arc. As in SwiftUI, `clockwise` is meant in a y-up space, so `true` runs counter-clockwise
  /// on screen.
  public mutating func addArc(
    center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle, clockwise: Bool
  ) {
    storage.addArc(
      center: center.raster, radius: Double(radius), startAngle: startAngle.radians,
      endAngle: endAngle.radians,
      clockwise: !clockwise)
  }
  public mutating func addRect(_ rect: CGRect) { storage.addRect(rect.raster) }
  public mutating func addEllipse(in rect: CGRect) { storage.addEllipse(in: rect.raster) }
  public mutating func addRoundedRect(
    in rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .circular
  ) {
    let r = rect.raster
    storage.addRoundedRect(
      r, radii: CornerRadii(all: min(Double(cornerSize.width), min(r.width, r.height) / 2)))
  }
  public mutating func addPath(_ path: Path, transform: CGAffineTransform = .identity) {
    storage.addPath(
      path.storage,
      transform: Transform(
        a: Double(transform.a), b: Double(transform.b), c: Double(transform.c), d: Double(transform.d),
        tx: Double(transform.tx), ty: Double(transform.ty)))
  }
  public mutating func closeSubpath() { storage.closeSubpath() }

  public func applying(_ t: CGAffineTransform) -> Path {
    Path(
      raster: storage.transformed(
        by: Transform(
          a: Double(t.a), b: Double(t.b), c: Double(t.c), d: Double(t.d), tx: Double(t.tx), ty: Double(t.ty)))
    )
  }
  public func offsetBy(dx: CGFloat, dy: CGFloat) -> Path {
    applying(CGAffineTransform(translationX: dx, y: dy))
  }
}

/// How the corners of a rounded rectangle are drawn. Unlike SwiftUI, `.continuous` is drawn
/// with circular corners too.
public enum RoundedCornerStyle: Hashable, Sendable {
  case circular, continuous
}
