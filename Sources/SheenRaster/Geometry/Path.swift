import Foundation

/// One drawing command of a `Path`.
public enum PathElement: Hashable, Sendable {
  case move(Point)
  case line(Point)
  case quad(control: Point, to: Point)
  case cubic(control1: Point, control2: Point, to: Point)
  case close
}

/// Radii of the four corners of a rounded rectangle, in UIKit's order.
public struct CornerRadii: Hashable, Sendable {
  public var topLeft: Double
  public var topRight: Double
  public var bottomRight: Double
  public var bottomLeft: Double

  @inlinable public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
    self.topLeft = topLeft
    self.topRight = topRight
    self.bottomRight = bottomRight
    self.bottomLeft = bottomLeft
  }

  /// The same radius on every corner.
  @inlinable public init(all r: Double) {
    self.init(topLeft: r, topRight: r, bottomRight: r, bottomLeft: r)
  }

  @inlinable public var isZero: Bool { topLeft <= 0 && topRight <= 0 && bottomRight <= 0 && bottomLeft <= 0 }
  @inlinable public var isUniform: Bool {
    topLeft == topRight && topRight == bottomRight && bottomRight == bottomLeft
  }

  /// The radii scaled down together, as CSS does, so that adjacent radii never overlap in `size`;
  /// negative and non-finite radii become 0.
  public func clamped(to size: Size) -> CornerRadii {
    func clean(_ r: Double) -> Double { r.isFinite && r > 0 ? r : 0 }
    var r = CornerRadii(
      topLeft: clean(topLeft), topRight: clean(topRight),
      bottomRight: clean(bottomRight), bottomLeft: clean(bottomLeft))
    let w = max(0, size.width)
    let h = max(0, size.height)
    var f = 1.0
    for (sum, side) in [
      (r.topLeft + r.topRight, w), (r.bottomLeft + r.bottomRight, w),
      (r.topLeft + r.bottomLeft, h), (r.topRight + r.bottomRight, h),
    ] where sum > side {
      f = min(f, side / sum)
    }
    if f < 1 {
      r.topLeft *= f
      r.topRight *= f
      r.bottomRight *= f
      r.bottomLeft *= f
    }
    return r
  }
}

/// A vector path: subpaths of lines and Bézier curves, as Core Graphics' `CGPath`.
///
/// Paths are values; building one appends elements. Coordinates are in user space.
public struct Path: Hashable, Sendable {
  public private(set) var elements: [PathElement] = []
  /// The start of the current subpath (where `close` returns to).
  @usableFromInline var subpathStart = Point.zero
  /// The current point, the end of the last element.
  public private(set) var currentPoint: Point? = nil

  public init() {}

  public var isEmpty: Bool { elements.isEmpty }

  /// Removes every element, keeping the storage (to build another path in it).
  public mutating func removeAllKeepingCapacity() {
    elements.removeAll(keepingCapacity: true)
    subpathStart = .zero
    currentPoint = nil
  }

  // MARK: Building

  /// Starts a new subpath at `p`.
  public mutating func move(to p: Point) {
    elements.append(.move(p))
    subpathStart = p
    currentPoint = p
  }

  /// Adds a straight line from the current point (or starts there if there is none).
  public mutating func addLine(to p: Point) {
    if currentPoint == nil { move(to: p) }
    elements.append(.line(p))
    currentPoint = p
  }

  /// Adds a quadratic Bézier curve.
  public mutating func addQuadCurve(to p: Point, control: Point) {
    if currentPoint == nil { move(to: control) }
    elements.append(.quad(control: control, to: p))
    currentPoint = p
  }

  /// Adds a cubic Bézier curve.
  public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
    if currentPoint == nil { move(to: control1) }
    elements.append(.cubic(control1: control1, control2: control2, to: p))
    currentPoint = p
  }

  /// Closes the current subpath with a line back to its start.
  public mutating func closeSubpath() {
    guard currentPoint != nil else { return }
    if case .close = elements.last { return }
    elements.append(.close)
    currentPoint = subpathStart
  }

  /// Appends every element of another path.
  public mutating func addPath(_ other: Path, transform: Transform = .identity) {
    for e in other.elements {
      switch e {
      case .move(let p): move(to: transform.apply(p))
      case .line(let p): addLine(to: transform.apply(p))
      case .quad(let c, let p): addQuadCurve(to: transform.apply(p), control: transform.apply(c))
      case .cubic(let c1, let c2, let p):
        addCurve(to: transform.apply(p), control1: transform.apply(c1), control2: transform.apply(c2))
      case .close: closeSubpath()
      }
    }
  }

  /// Adds a closed rectangle, clockwise on screen from its top-left corner.
  public mutating func addRect(_ r: Rect) {
    move(to: Point(x: r.minX, y: r.minY))
    addLine(to: Point(x: r.maxX, y: r.minY))
    addLine(to: Point(x: r.maxX, y: r.maxY))
    addLine(to: Point(x: r.minX, y: r.maxY))
    closeSubpath()
  }

  /// The constant that places cubic control points on a quarter circle.
  @usableFromInline static let kappa = 0.552_284_749_830_793_4

  /// Adds a closed ellipse inscribed in `r`, made of four cubic curves.
  public mutating func addEllipse(in r: Rect) {
    let rx = r.width / 2
    let ry = r.height / 2
    let cx = r.midX
    let cy = r.midY
    let kx = rx * Path.kappa
    let ky = ry * Path.kappa
    move(to: Point(x: cx + rx, y: cy))
    addCurve(
      to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + ky),
      control2: Point(x: cx + kx, y: cy + ry))
    addCurve(
      to: Point(x: cx - rx, y: cy), control1: Point(x: cx - kx, y: cy + ry),
      control2: Point(x: cx - rx, y: cy + ky))
    addCurve(
      to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - ky),
      control2: Point(x: cx - kx, y: cy - ry))
    addCurve(
      to: Point(x: cx + rx, y: cy), control1: Point(x: cx + kx, y: cy - ry),
      control2: Point(x: cx + rx, y: cy - ky))
    closeSubpath()
  }

  /// Adds a closed rounded rectangle with a radius per corner (clamped to fit), clockwise on
  /// screen from the end of the top-left corner. Corners are circular quarter arcs.
  public mutating func addRoundedRect(_ r: Rect, radii: CornerRadii) {
    let rad = radii.clamped(to: r.size)
    if rad.isZero {
      addRect(r)
      return
    }
    let k = 1 - Path.kappa
    move(to: Point(x: r.minX + rad.topLeft, y: r.minY))
    addLine(to: Point(x: r.maxX - rad.topRight, y: r.minY))
    if rad.topRight > 0 {
      let q = rad.topRight
      addCurve(
        to: Point(x: r.maxX, y: r.minY + q),
        control1: Point(x: r.maxX - q * k, y: r.minY), control2: Point(x: r.maxX, y: r.minY + q * k))
    }
    addLine(to: Point(x: r.maxX, y: r.maxY - rad.bottomRight))
    if rad.bottomRight > 0 {
      let q = rad.bottomRight
      addCurve(
        to: Point(x: r.maxX - q, y: r.maxY),
        control1: Point(x: r.maxX, y: r.maxY - q * k), control2: Point(x: r.maxX - q * k, y: r.maxY))
    }
    addLine(to: Point(x: r.minX + rad.bottomLeft, y: r.maxY))
    if rad.bottomLeft > 0 {
      let q = rad.bottomLeft
      addCurve(
        to: Point(x: r.minX, y: r.maxY - q),
        control1: Point(x: r.minX + q * k, y: r.maxY), control2: Point(x: r.minX, y: r.maxY - q * k))
    }
    addLine(to: Point(x: r.minX, y: r.minY + rad.topLeft))
    if rad.topLeft > 0 {
      let q = rad.topLeft
      addCurve(
        to: Point(x: r.minX + q, y: r.minY),
        control1: Point(x: r.minX, y: r.minY + q * k), control2: Point(x: r.minX + q * k, y: r.minY))
    }
    closeSubpath()
  }

  /// Adds a circular arc about `center` from `startAngle` to `endAngle` (radians, measured
  /// clockwise on screen from the +x axis, as UIKit's `addArc`). With `clockwise` false the arc
  /// runs the other way. A line joins the current point to the arc's start, if there is one.
  public mutating func addArc(
    center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool = true
  ) {
    guard radius.isFinite, startAngle.isFinite, endAngle.isFinite, radius >= 0 else { return }
    var sweep = endAngle - startAngle
    let twoPi = 2 * Double.pi
    if clockwise {
      if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: twoPi) + twoPi }
      sweep = min(sweep, twoPi)
    } else {
      if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: twoPi) - twoPi }
      sweep = max(sweep, -twoPi)
    }
    let start = Point(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
    if currentPoint == nil { move(to: start) } else { addLine(to: start) }
    appendArcCurves(
      center: center, radii: Point(x: radius, y: radius), rotation: 0, start: startAngle, sweep: sweep)
  }

  /// Appends cubic curves approximating an elliptical arc (each at most a quarter turn), starting
  /// from the current point, which must already be the arc's start.
  @usableFromInline mutating func appendArcCurves(
    center: Point, radii: Point, rotation: Double, start: Double, sweep: Double
  ) {
    let segments = max(1, min(64, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up))))
    let step = sweep / Double(segments)
    let alpha = 4.0 / 3.0 * tan(step / 4)
    let cr = cos(rotation)
    let sr = sin(rotation)
    func map(_ ux: Double, _ uy: Double) -> Point {
      let x = ux * radii.x
      let y = uy * radii.y
      return Point(x: center.x + x * cr - y * sr, y: center.y + x * sr + y * cr)
    }
    var a0 = start
    for i in 0..<segments {
      let a1 = i == segments - 1 ? start + sweep : a0 + step
      let c0 = cos(a0)
      let s0 = sin(a0)
      let c1 = cos(a1)
      let s1 = sin(a1)
      addCurve(
        to: map(c1, s1),
        control1: map(c0 - alpha * s0, s0 + alpha * c0),
        control2: map(c1 + alpha * s1, s1 - alpha * c1))
      a0 = a1
    }
  }

  // MARK: Convenience initialisers

  /// A closed rectangle.
  public init(rect: Rect) {
    elements.reserveCapacity(5)
    addRect(rect)
  }

  /// A closed ellipse inscribed in a rectangle.
  public init(ellipseIn rect: Rect) {
    elements.reserveCapacity(6)
    addEllipse(in: rect)
  }

  /// A rounded rectangle with one radius on every corner.
  public init(roundedRect rect: Rect, cornerRadius: Double) {
    elements.reserveCapacity(10)
    addRoundedRect(rect, radii: CornerRadii(all: cornerRadius))
  }

  /// A rounded rectangle with a radius per corner.
  public init(roundedRect rect: Rect, radii: CornerRadii) {
    elements.reserveCapacity(10)
    addRoundedRect(rect, radii: radii)
  }

  /// Makes room for `n` elements in all, so that building the path allocates once.
  public mutating func reserveCapacity(_ n: Int) { elements.reserveCapacity(n) }

  // MARK: Queries

  /// The path with every point mapped by `t`.
  public func transformed(by t: Transform) -> Path {
    if t.isIdentity { return self }
    var p = Path()
    p.addPath(self, transform: t)
    return p
  }

  /// The bounding box of all points, control points included (a cheap, conservative bound).
  public var controlBounds: Rect {
    var x0 = Double.infinity
    var y0 = Double.infinity
    var x1 = -Double.infinity
    var y1 = -Double.infinity
    func add(_ p: Point) {
      x0 = min(x0, p.x)
      y0 = min(y0, p.y)
      x1 = max(x1, p.x)
      y1 = max(y1, p.y)
    }
    for e in elements {
      switch e {
      case .move(let p), .line(let p): add(p)
      case .quad(let c, let p):
        add(c)
        add(p)
      case .cubic(let c1, let c2, let p):
        add(c1)
        add(c2)
        add(p)
      case .close: break
      }
    }
    if x0 > x1 { return .zero }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
