/// A path reduced to polylines: every curve replaced by line segments within a tolerance.
///
/// All points share one array; `contours` slices it. This is what the rasterizer and the stroker
/// consume.
public struct FlattenedPath: Sendable {
  /// One subpath: `count` points from `start` in `points`, and whether it was explicitly closed.
  public struct Contour: Hashable, Sendable {
    public var start: Int
    public var count: Int
    public var closed: Bool
  }

  public var points: [Point] = []
  public var contours: [Contour] = []

  public init() {}

  /// Removes every point, keeping the storage for reuse.
  public mutating func removeAll() {
    points.removeAll(keepingCapacity: true)
    contours.removeAll(keepingCapacity: true)
  }

  /// The points of one contour.
  @inlinable public func points(of c: Contour) -> ArraySlice<Point> {
    points[c.start..<(c.start + c.count)]
  }
}

/// The largest number of line segments one curve is split into (bounds work on huge coordinates).
@usableFromInline let maxCurveSegments = 512

extension Path {
  /// The default flattening tolerance in device pixels.
  public static let defaultTolerance = 0.003

  /// Flattens the path after mapping it by `transform`, so that no segment deviates from its curve
  /// by more than `tolerance` device units. Uses Wang's formula for the number of segments.
  public func flattened(transform t: Transform = .identity, tolerance: Double = Path.defaultTolerance)
    -> FlattenedPath
  {
    var out = FlattenedPath()
    flatten(into: &out, transform: t, tolerance: tolerance)
    return out
  }

  /// Flattens into an existing buffer (appending), to reuse its storage.
  public func flatten(into out: inout FlattenedPath, transform t: Transform, tolerance: Double) {
    let tol = tolerance > 0 ? tolerance : Path.defaultTolerance
    var start = out.points.count
    var last = Point.zero
    var first = Point.zero
    var open = false

    func finish(closed: Bool) {
      let n = out.points.count - start
      if n > 0 { out.contours.append(.init(start: start, count: n, closed: closed)) }
      start = out.points.count
      open = false
    }

    // A lone move draws nothing; it is dropped rather than kept as a one-point contour.
    func finishOpen() {
      if out.points.count - start <= 1 {
        out.points.removeLast(out.points.count - start)
        open = false
      } else {
        finish(closed: false)
      }
    }

    for e in elements {
      switch e {
      case .move(let p):
        if open { finishOpen() }
        last = t.apply(p)
        first = last
        out.points.append(last)
        open = true
      case .line(let p):
        let q = t.apply(p)
        out.points.append(q)
        last = q
      case .quad(let c, let p):
        let c1 = t.apply(c)
        let p2 = t.apply(p)
        let dd = (last - c1 * 2 + p2).length
        let n = segmentCount((dd / (4 * tol)).squareRoot())
        if n > 1 {
          let step = 1.0 / Double(n)
          for i in 1..<n {
            let u = Double(i) * step
            let mt = 1 - u
            out.points.append(last * (mt * mt) + c1 * (2 * mt * u) + p2 * (u * u))
          }
        }
        out.points.append(p2)
        last = p2
      case .cubic(let c1, let c2, let p):
        let q1 = t.apply(c1)
        let q2 = t.apply(c2)
        let p3 = t.apply(p)
        let m = max((last - q1 * 2 + q2).length, (q1 - q2 * 2 + p3).length)
        let n = segmentCount((0.75 * m / tol).squareRoot())
        if n > 1 {
          let step = 1.0 / Double(n)
          let p0 = last
          for i in 1..<n {
            let u = Double(i) * step
            let mt = 1 - u
            let a = mt * mt * mt
            let b = 3 * mt * mt * u
            let cc = 3 * mt * u * u
            let d = u * u * u
            out.points.append(p0 * a + q1 * b + q2 * cc + p3 * d)
          }
        }
        out.points.append(p3)
        last = p3
      case .close:
        if open {
          finish(closed: true)
          // A close leaves the current point at the subpath's start: a following line starts there.
          last = first
          out.points.append(first)
          open = true
          start = out.points.count - 1
        }
      }
    }
    if open { finishOpen() }
  }
}

extension Path {
  /// How many points `flatten(into:transform:tolerance:)` makes at most, counting past `limit`
  /// only as far as `limit + 1` (it stops there): Wang's counts, without making the points.
  public func flattenedPointCount(transform t: Transform, tolerance: Double, limit: Int) -> Int {
    let tol = tolerance > 0 ? tolerance : Path.defaultTolerance
    var count = 0
    var last = Point.zero
    var first = Point.zero
    for e in elements {
      switch e {
      case .move(let p):
        last = t.apply(p)
        first = last
        count += 1
      case .line(let p):
        last = t.apply(p)
        count += 1
      case .quad(let c, let p):
        let c1 = t.apply(c)
        let p2 = t.apply(p)
        count += segmentCount(((last - c1 * 2 + p2).length / (4 * tol)).squareRoot())
        last = p2
      case .cubic(let c1, let c2, let p):
        let q1 = t.apply(c1)
        let q2 = t.apply(c2)
        let p3 = t.apply(p)
        let m = max((last - q1 * 2 + q2).length, (q1 - q2 * 2 + p3).length)
        count += segmentCount((0.75 * m / tol).squareRoot())
        last = p3
      case .close:
        last = first
        count += 1
      }
      if count > limit { return limit + 1 }
    }
    return count
  }
}

@inline(__always) func segmentCount(_ x: Double) -> Int {
  guard x.isFinite else { return maxCurveSegments }
  // Clamped as a Double: a curve 1e30 long asks for more segments than Int holds (that trapped;
  // found by the svg fuzzer, Tests/FuzzRegressions/svg).
  return max(1, Int(min(Double(maxCurveSegments), x).rounded(.up)))
}
