/// An axis-aligned rectangle with its origin at the top-left (y grows downwards).
public struct Rect: Hashable, Sendable {
  public var origin: Point
  public var size: Size

  @inlinable public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
    origin = Point(x: x, y: y)
    size = Size(width: width, height: height)
  }

  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  @inlinable public var minX: Double { origin.x }
  @inlinable public var minY: Double { origin.y }
  @inlinable public var maxX: Double { origin.x + size.width }
  @inlinable public var maxY: Double { origin.y + size.height }
  @inlinable public var width: Double { size.width }
  @inlinable public var height: Double { size.height }
  @inlinable public var midX: Double { origin.x + size.width * 0.5 }
  @inlinable public var midY: Double { origin.y + size.height * 0.5 }
  @inlinable public var center: Point { Point(x: midX, y: midY) }

  /// True when the rectangle encloses no area.
  @inlinable public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

  /// The smallest rectangle containing both points.
  /// The rectangle of whole pixels `r`.
  @inlinable public init(_ r: IntRect) {
    self.init(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
  }

  @inlinable public init(corner a: Point, _ b: Point) {
    let x0 = Swift.min(a.x, b.x)
    let y0 = Swift.min(a.y, b.y)
    self.init(x: x0, y: y0, width: Swift.max(a.x, b.x) - x0, height: Swift.max(a.y, b.y) - y0)
  }

  /// Whether the point lies inside (left and top edges inclusive, right and bottom exclusive).
  @inlinable public func contains(_ p: Point) -> Bool {
    p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
  }

  /// The overlap of two rectangles, or an empty rectangle when they do not meet.
  @inlinable public func intersection(_ o: Rect) -> Rect {
    let x0 = Swift.max(minX, o.minX)
    let y0 = Swift.max(minY, o.minY)
    let x1 = Swift.min(maxX, o.maxX)
    let y1 = Swift.min(maxY, o.maxY)
    if x1 <= x0 || y1 <= y0 { return .zero }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The smallest rectangle containing both; an empty operand is ignored.
  @inlinable public func union(_ o: Rect) -> Rect {
    if isEmpty { return o }
    if o.isEmpty { return self }
    let x0 = Swift.min(minX, o.minX)
    let y0 = Swift.min(minY, o.minY)
    return Rect(
      x: x0, y: y0, width: Swift.max(maxX, o.maxX) - x0, height: Swift.max(maxY, o.maxY) - y0)
  }

  /// Whether the two rectangles overlap with positive area.
  @inlinable public func intersects(_ o: Rect) -> Bool { !intersection(o).isEmpty }

  /// The rectangle grown by `dx` on the left and right and `dy` on the top and bottom.
  @inlinable public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }

  /// The rectangle moved by a vector.
  @inlinable public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width, height: height)
  }
}

/// An integer pixel rectangle, half-open: columns `x..<x+width`, rows `y..<y+height`.
public struct IntRect: Hashable, Sendable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  @inlinable public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  @inlinable public var maxX: Int { x + width }
  @inlinable public var maxY: Int { y + height }
  @inlinable public var isEmpty: Bool { width <= 0 || height <= 0 }

  /// The overlap of two pixel rectangles (empty when they do not meet).
  @inlinable public func intersection(_ o: IntRect) -> IntRect {
    let x0 = Swift.max(x, o.x)
    let y0 = Swift.max(y, o.y)
    let x1 = Swift.min(maxX, o.maxX)
    let y1 = Swift.min(maxY, o.maxY)
    if x1 <= x0 || y1 <= y0 { return IntRect(x: x0, y: y0, width: 0, height: 0) }
    return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The smallest pixel rectangle holding both.
  @inlinable public func union(_ o: IntRect) -> IntRect {
    if o.isEmpty { return self }
    if isEmpty { return o }
    let x0 = Swift.min(x, o.x)
    let y0 = Swift.min(y, o.y)
    return IntRect(x: x0, y: y0, width: Swift.max(maxX, o.maxX) - x0, height: Swift.max(maxY, o.maxY) - y0)
  }

  /// The pixels touched by a rectangle in user space: floor of the minimum, ceiling of the maximum.
  /// Non-finite or huge coordinates are clamped so the result is always representable.
  @inlinable public init(enclosing r: Rect) {
    let limit = 1.0e9
    let x0 = Swift.max(-limit, Swift.min(limit, r.minX.isNaN ? 0 : r.minX)).rounded(.down)
    let y0 = Swift.max(-limit, Swift.min(limit, r.minY.isNaN ? 0 : r.minY)).rounded(.down)
    let x1 = Swift.max(-limit, Swift.min(limit, r.maxX.isNaN ? 0 : r.maxX)).rounded(.up)
    let y1 = Swift.max(-limit, Swift.min(limit, r.maxY.isNaN ? 0 : r.maxY)).rounded(.up)
    self.init(x: Int(x0), y: Int(y0), width: Swift.max(0, Int(x1 - x0)), height: Swift.max(0, Int(y1 - y0)))
  }
}
