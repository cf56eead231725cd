/// A point or vector in user space, in double precision.
public struct Point: Hashable, Sendable {
  public var x: Double
  public var y: Double

  @inlinable public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  @inlinable public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(x: 0, y: 0)

  @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
  @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
  @inlinable public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
  @inlinable public static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }

  /// The dot product of two vectors.
  @inlinable public func dot(_ o: Point) -> Double { x * o.x + y * o.y }
  /// The z component of the cross product of two vectors.
  @inlinable public func cross(_ o: Point) -> Double { x * o.y - y * o.x }
  /// The Euclidean length of the vector.
  @inlinable public var length: Double { (x * x + y * y).squareRoot() }
  /// The vector scaled to unit length, or zero when it has no length.
  @inlinable public var normalized: Point {
    let l = length
    return l > 0 ? Point(x: x / l, y: y / l) : .zero
  }
  /// Linear interpolation between two points.
  @inlinable public func lerp(to o: Point, _ t: Double) -> Point {
    Point(x: x + (o.x - x) * t, y: y + (o.y - y) * t)
  }
  /// Whether both coordinates are finite.
  @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// A width and height.
public struct Size: Hashable, Sendable {
  public var width: Double
  public var height: Double

  @inlinable public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  public static let zero = Size(width: 0, height: 0)
}
