// Geometry that reaches far beyond the canvas costs what reaches the canvas.
//
// A path is flattened and stroked only where it can touch the clip (as Skia's edge clipper and
// cairo do): a curve whose control points all lie outside the bounds on one side becomes its
// chord; a curve too long to flatten within the tolerance in `maxCurveSegments` pieces is split in
// halves (de Casteljau, exact) until each half either lies outside (a chord) or flattens within
// the tolerance; and a run of flattened points whose box lies outside the bounds keeps only its
// first and last point. Each replacement lies within the convex hull of what it replaces, which
// lies outside the bounds, so the winding of every point inside them is unchanged (fills), and
// so is everything a stroke draws inside them when the bounds are grown by the stroke's reach.
// Points inside the bounds, and every curve flattened without the cap, are exactly those of
// `flatten(into:transform:tolerance:)`: what is drawn inside does not change.

extension Path {
  /// Flattens the path after mapping it by `transform`, as `flatten(into:transform:tolerance:)`
  /// does, keeping only what can reach `bounds` (in the mapped space): what lies beyond them is
  /// replaced by straight lines that stay beyond them. The points kept are bounded by what lies
  /// within the bounds and by the number of elements, not by how far the path reaches.
  public func flatten(
    into out: inout FlattenedPath, transform t: Transform, tolerance: Double, within bounds: Rect
  ) {
    guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else {
      flatten(into: &out, transform: t, tolerance: tolerance)
      return
    }
    let tol = tolerance > 0 ? tolerance : Path.defaultTolerance
    var runs = RunCuller(bounds: bounds)
    var start = out.points.count
    var last = Point.zero
    var first = Point.zero
    var open = false

    func finish(closed: Bool) {
      let n = out.points.count - start
      if n > 0 { out.contours.append(.init(start: start, count: n, closed: closed)) }
      start = out.points.count
      open = false
      runs.end()
    }

    func finishOpen() {
      if out.points.count - start <= 1 {
        out.points.removeLast(out.points.count - start)
        open = false
        runs.end()
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
        runs.append(last, to: &out.points)
        open = true
      case .line(let p):
        let q = t.apply(p)
        runs.append(q, to: &out.points)
        last = q
      case .quad(let c, let p):
        let c1 = t.apply(c)
        let p2 = t.apply(p)
        // As the cubic it is (exactly), so that one routine splits and flattens both.
        let q1 = last + (c1 - last) * (2.0 / 3.0)
        let q2 = p2 + (c1 - p2) * (2.0 / 3.0)
        let dd = (last - c1 * 2 + p2).length
        let n = segmentCount((dd / (4 * tol)).squareRoot())
        if runs.misses(last, c1, p2) {
          runs.append(p2, to: &out.points)
        } else if (dd / (4 * tol)).squareRoot() > Double(maxCurveSegments) || !dd.isFinite {
          cubic(last, q1, q2, p2, depth: 0)
        } else {
          if n > 1 {
            let step = 1.0 / Double(n)
            for i in 1..<n {
              let u = Double(i) * step
              let mt = 1 - u
              runs.append(last * (mt * mt) + c1 * (2 * mt * u) + p2 * (u * u), to: &out.points)
            }
          }
          runs.append(p2, to: &out.points)
        }
        last = p2
      case .cubic(let c1, let c2, let p):
        let p3 = t.apply(p)
        cubic(last, t.apply(c1), t.apply(c2), p3, depth: 0)
        last = p3
      case .close:
        if open {
          finish(closed: true)
          last = first
          runs.append(first, to: &out.points)
          open = true
          start = out.points.count - 1
        }
      }
    }
    if open { finishOpen() }

    /// Appends the cubic from `p0` (already appended): its chord when it lies outside, its
    /// halves when it is too long to flatten within the tolerance, else its flattening (the
    /// points `flatten(into:transform:tolerance:)` makes). The halves wait on a stack of their
    /// own, not the call stack (64 levels of recursion overflowed a test thread's stack).
    func cubic(_ p0: Point, _ q1: Point, _ q2: Point, _ p3: Point, depth: Int) {
      var pending: [(Point, Point, Point, Point, Int)] = []
      var next: (Point, Point, Point, Point, Int)? = (p0, q1, q2, p3, depth)
      while let (p0, q1, q2, p3, depth) = next ?? pending.popLast() {
        next = nil
        if runs.misses(p0, q1, q2, p3) {
          runs.append(p3, to: &out.points)
          continue
        }
        let m = max((p0 - q1 * 2 + q2).length, (q1 - q2 * 2 + p3).length)
        let x = (0.75 * m / tol).squareRoot()
        // Split only parts much larger than the bounds: a part about their size is flattened (a
        // curve as large as huge bounds would otherwise split into 2^48 parts).
        if depth < 48, x > Double(maxCurveSegments) || !x.isFinite,
          p0.isFinite, q1.isFinite, q2.isFinite, p3.isFinite, runs.isMuchLargerThanBounds(p0, q1, q2, p3)
        {
          let a1 = (p0 + q1) * 0.5
          let mid = (q1 + q2) * 0.5
          let b2 = (q2 + p3) * 0.5
          let a2 = (a1 + mid) * 0.5
          let b1 = (mid + b2) * 0.5
          let s = (a2 + b1) * 0.5
          // The first half next, the second after it.
          pending.append((s, b1, b2, p3, depth + 1))
          next = (p0, a1, a2, s, depth + 1)
          continue
        }
        let n = segmentCount(x)
        if n > 1 {
          let step = 1.0 / Double(n)
          for i in 1..<n {
            let u = Double(i) * step
            let mt = 1 - u
            let a = mt * mt * mt
            let b = 3 * mt * mt * u
            let cc = 3 * mt * u * u
            let d = u * u * u
            runs.append(p0 * a + q1 * b + q2 * cc + p3 * d, to: &out.points)
          }
        }
        runs.append(p3, to: &out.points)
      }
    }
  }
}

/// Appends points to a contour, keeping of each run of consecutive points whose box lies outside
/// the bounds only its first and last (the segment between them stays within that box).
struct RunCuller {
  let minX: Double, minY: Double, maxX: Double, maxY: Double
  /// The index of the current run's first point in the points, or -1 outside a run.
  var runStart = -1
  /// The box of every point of the current run, dropped ones included.
  var rMinX = 0.0, rMinY = 0.0, rMaxX = 0.0, rMaxY = 0.0

  init(bounds: Rect) {
    minX = bounds.minX
    minY = bounds.minY
    maxX = bounds.maxX
    maxY = bounds.maxY
  }

  /// Ends the current run (a new contour starts).
  @inline(__always) mutating func end() { runStart = -1 }

  /// Whether the box of these points lies wholly outside the bounds (false for a non-finite point).
  @inline(__always) func misses(_ a: Point, _ b: Point, _ c: Point) -> Bool {
    misses(a, b, c, c)
  }

  @inline(__always) func misses(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
    guard a.isFinite, b.isFinite, c.isFinite, d.isFinite else { return false }
    return max(max(a.x, b.x), max(c.x, d.x)) < minX || min(min(a.x, b.x), min(c.x, d.x)) > maxX
      || max(max(a.y, b.y), max(c.y, d.y)) < minY || min(min(a.y, b.y), min(c.y, d.y)) > maxY
  }

  /// Whether the box of these points is over four times the bounds' larger side (and 64 units).
  func isMuchLargerThanBounds(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
    let w = max(max(a.x, b.x), max(c.x, d.x)) - min(min(a.x, b.x), min(c.x, d.x))
    let h = max(max(a.y, b.y), max(c.y, d.y)) - min(min(a.y, b.y), min(c.y, d.y))
    return max(w, h) > 4 * max(maxX - minX, maxY - minY) + 64
  }

  @inline(__always) mutating func append(_ q: Point, to points: inout [Point]) {
    // NaN compares false: a non-finite point is kept (and the contour then draws nothing).
    let outside = q.x < minX || q.x > maxX || q.y < minY || q.y > maxY
    guard outside else {
      points.append(q)
      runStart = -1
      return
    }
    if runStart >= 0 {
      let x0 = min(rMinX, q.x)
      let y0 = min(rMinY, q.y)
      let x1 = max(rMaxX, q.x)
      let y1 = max(rMaxY, q.y)
      if x1 < minX || x0 > maxX || y1 < minY || y0 > maxY {
        rMinX = x0
        rMinY = y0
        rMaxX = x1
        rMaxY = y1
        if points.count - runStart >= 2 { points[points.count - 1] = q } else { points.append(q) }
        return
      }
    }
    points.append(q)
    runStart = points.count - 1
    rMinX = q.x
    rMaxX = q.x
    rMinY = q.y
    rMaxY = q.y
  }
}
