import Foundation

// Stroking: turning a path and a pen into a path whose non-zero fill is the stroke.
//
// The stroke of a polyline is the union of one rectangle per segment, one join piece per interior
// vertex and one cap per open end. Rather than trace a single outline around that union (which
// needs care at inner joins, cusps and self-overlaps), the stroker emits every piece as its own
// small convex polygon, all wound the same way (clockwise on screen). Under the non-zero rule the
// overlaps then add up instead of cancelling, so the fill is exactly the union. The price is more
// edges for the rasterizer; the gain is a stroker with no special cases that can go wrong.
//
// Widths are in user space: the path is flattened and stroked there, and the outline is mapped by
// the transform afterwards, so a non-uniform scale stretches the pen as Core Graphics does.

/// How two segments of a stroke meet.
public enum LineJoin: Hashable, Sendable {
  /// The outer edges extend until they meet, unless that point is beyond the miter limit.
  case miter
  /// A circular arc around the vertex.
  case round
  /// A straight edge across the outer corner.
  case bevel
}

/// How the open ends of a stroke are drawn.
public enum LineCap: Hashable, Sendable {
  /// The stroke stops square at the end point.
  case butt
  /// A half disc around the end point.
  case round
  /// The stroke continues half its width past the end point.
  case square
}

/// The pen a path is stroked with.
public struct StrokeStyle: Hashable, Sendable {
  /// The width of the stroke in user space.
  public var width: Double
  public var join: LineJoin
  public var cap: LineCap
  /// The largest ratio of miter length to stroke width before a miter join becomes a bevel.
  public var miterLimit: Double

  public init(width: Double = 1, join: LineJoin = .miter, cap: LineCap = .butt, miterLimit: Double = 10) {
    self.width = width
    self.join = join
    self.cap = cap
    self.miterLimit = miterLimit
  }
}

extension Path {
  /// The outline of this path stroked with `style`, in device space (mapped by `transform`); fill
  /// it with the non-zero rule to draw the stroke.
  ///
  /// Zero-length subpaths draw a dot with round caps and a square with square caps, as in SVG.
  /// A width that is not positive and finite, or a transform that collapses or overflows, gives an
  /// empty path.
  /// - Parameters:
  ///   - style: The pen; its width is in user space.
  ///   - transform: Maps the outline to device space.
  ///   - tolerance: The largest deviation from the true curves and arcs, in device units.
  /// - Complexity: O(n) in the number of flattened points (plus arc points of round joins and caps).
  ///   - clip: When given, the device-space rectangle the outline will be drawn within: only the
  ///     parts of the path whose stroke can reach it are flattened and stroked (the rest are
  ///     replaced by straight lines beyond its reach), so the outline's size does not grow with
  ///     how far the path reaches beyond it. The outline is then exact only within `clip`.
  public func stroked(
    _ style: StrokeStyle, transform: Transform = .identity, tolerance: Double = 0.2, clip: Rect? = nil
  ) -> Path {
    guard let flat = strokeCenterline(style, transform: transform, tolerance: tolerance, clip: clip) else {
      return Path()
    }
    var stroker = Stroker(style: style, tolerance: flat.tolerance, transform: transform, sink: PathPolygons())
    stroker.stroke(flat.path)
    return stroker.sink.path
  }

  /// The path flattened in user space for stroking with `style` (culled to what can reach
  /// `clip`), and the user-space tolerance it was flattened with; nil when the stroke draws
  /// nothing (a width or transform scale that is not positive and finite).
  func strokeCenterline(
    _ style: StrokeStyle, transform: Transform, tolerance: Double, clip: Rect?
  ) -> (path: FlattenedPath, tolerance: Double)? {
    var flat = FlattenedPath()
    guard
      let tol = strokeCenterline(style, transform: transform, tolerance: tolerance, clip: clip, into: &flat)
    else { return nil }
    return (flat, tol)
  }

  /// The same into `flat` (emptied first, its storage kept); returns the tolerance, or nil when
  /// the stroke draws nothing.
  func strokeCenterline(
    _ style: StrokeStyle, transform: Transform, tolerance: Double, clip: Rect?, into flat: inout FlattenedPath
  ) -> Double? {
    flat.removeAll()
    let scale = transform.maxScale
    guard style.width > 0, style.width.isFinite, scale > 0, scale.isFinite else { return nil }
    let tol = (tolerance > 0 && tolerance.isFinite ? tolerance : Path.defaultTolerance) / scale
    if let bounds = clip.flatMap({ style.cullingBounds(for: $0, transform: transform) }) {
      flatten(into: &flat, transform: .identity, tolerance: tol, within: bounds)
    } else {
      flatten(into: &flat, transform: .identity, tolerance: tol)
    }
    return tol
  }
}

/// Where a stroker puts its pieces: closed convex polygons in device space, wound clockwise on
/// screen (their non-zero union is the stroke).
protocol StrokePolygonSink {
  mutating func polygon(_ points: [Point])
}

/// Collects the pieces as the subpaths of one path (`Path.stroked`).
struct PathPolygons: StrokePolygonSink {
  var path = Path()
  mutating func polygon(_ points: [Point]) {
    path.move(to: points[0])
    for p in points.dropFirst() { path.addLine(to: p) }
    path.closeSubpath()
  }
}

extension StrokeStyle {
  /// How far from its path this pen's stroke can reach, in user units: a miter up to
  /// `miterLimit` half widths from its corner, a square cap √2 half widths, anything else one.
  public var reach: Double {
    width / 2 * (join == .miter ? max(miterLimit, 2.0.squareRoot()) : 2.0.squareRoot())
  }

  /// The user-space rectangle outside which the path's pieces cannot reach the device rectangle
  /// `clip` (grown by two pixels) when stroked with this pen under `transform`; nil when there is
  /// none to cull against (a transform that cannot be inverted, a reach that is not finite).
  func cullingBounds(for clip: Rect, transform: Transform) -> Rect? {
    guard let inverse = transform.inverted, reach.isFinite, clip.minX.isFinite, clip.maxX.isFinite,
      clip.minY.isFinite, clip.maxY.isFinite
    else { return nil }
    let user = inverse.apply(clip.insetBy(dx: -2, dy: -2)).insetBy(dx: -reach, dy: -reach)
    guard user.minX.isFinite, user.maxX.isFinite, user.minY.isFinite, user.maxY.isFinite else { return nil }
    return user
  }
}

/// Emits the pieces of one stroke into a sink, one flattened point at a time: it keeps only the
/// first two and last two points of the contour in progress, so its memory does not grow with
/// the number of points.
struct Stroker<Sink: StrokePolygonSink> {
  let halfWidth: Double
  let join: LineJoin
  let cap: LineCap
  let miterLimit: Double
  /// The largest angle one straight edge of a round join or cap may span.
  let arcStep: Double
  let transform: Transform
  var sink: Sink
  /// The piece being made (its storage reused piece after piece; a caller may hand in storage
  /// kept from an earlier stroke and take it back from here).
  var piece: [Point] = []
  /// The contour in progress: its distinct points so far (`count`), the first two and the last
  /// two; `poisoned` once a point is not finite (the rest of the contour is dropped).
  private var count = 0
  private var first = Point.zero
  private var second = Point.zero
  private var beforeLast = Point.zero
  private var last = Point.zero
  private var poisoned = false

  init(style: StrokeStyle, tolerance: Double, transform: Transform, sink: Sink) {
    halfWidth = style.width / 2
    join = style.join
    cap = style.cap
    miterLimit = style.miterLimit
    self.transform = transform
    self.sink = sink
    // A chord spanning angle θ of a circle of radius r strays r(1 - cos(θ/2)) from it.
    let ratio = tolerance / halfWidth
    arcStep = ratio >= 1 ? .pi / 2 : min(.pi / 2, max(2 * acos(1 - ratio), .pi / 128))
  }

  /// Strokes every contour of a flattened path.
  mutating func stroke(_ flat: FlattenedPath) {
    for contour in flat.contours {
      // A contour with a point that is not finite draws nothing (checked first, so that none of
      // its pieces is emitted).
      let points = flat.points(of: contour)
      if points.contains(where: { !$0.isFinite }) { continue }
      for p in points { add(p) }
      finish(closed: contour.closed)
    }
  }

  /// The next point of the contour in progress (a repeat of the last one is skipped).
  mutating func add(_ p: Point) {
    if poisoned { return }
    guard p.isFinite else {
      poisoned = true
      return
    }
    if count > 0, (p - last).length <= 1e-9 { return }
    switch count {
    case 0:
      first = p
    case 1:
      second = p
      segment(from: last, to: p)
    default:
      joinAt(last, from: beforeLast, to: p)
      segment(from: last, to: p)
    }
    beforeLast = last
    last = p
    count += 1
  }

  /// Ends the contour in progress: closes it (the closing segment and the joins at its ends) or
  /// caps its ends; a contour of one point is a dot.
  mutating func finish(closed: Bool) {
    defer {
      count = 0
      poisoned = false
    }
    if poisoned || count == 0 { return }
    if count == 1 {
      dot(at: first)
      return
    }
    if closed {
      // The last point on the first closes the contour by itself: its segment is the closing one.
      var end = last
      if count > 2, (last - first).length <= 1e-9 {
        end = beforeLast
      } else {
        segment(from: last, to: first)
        joinAt(last, from: beforeLast, to: first)
      }
      joinAt(first, from: end, to: second)
    } else {
      capAt(first, direction: (first - second).normalized)
      capAt(last, direction: (last - beforeLast).normalized)
    }
  }

  /// The vector `d` turned a quarter turn and scaled to the half width.
  func offset(_ d: Point) -> Point { Point(x: -d.y * halfWidth, y: d.x * halfWidth) }

  mutating func segment(from a: Point, to b: Point) {
    let n = offset((b - a).normalized)
    polygon(a - n, b - n, b + n, a + n)
  }

  mutating func joinAt(_ p: Point, from prev: Point, to next: Point) {
    let d0 = (p - prev).normalized
    let d1 = (next - p).normalized
    let cross = d0.cross(d1)
    let dot = d0.dot(d1)
    // Straight on: the two segment rectangles already meet edge to edge.
    if cross == 0 && dot > 0 { return }
    let turn = atan2(cross, dot)
    guard turn.isFinite else { return }
    // The outer side is the one the path turns away from.
    let o0 = turn >= 0 ? -offset(d0) : offset(d0)
    let o1 = turn >= 0 ? -offset(d1) : offset(d1)
    switch join {
    case .bevel:
      polygon(p, p + o0, p + o1)
    case .miter:
      // The miter reaches 1/cos(turn/2) half widths from the vertex.
      let cosHalf = ((1 + dot) / 2).squareRoot()
      if cosHalf * miterLimit >= 1, cosHalf > 0 {
        let tip = p + (o0 + o1).normalized * (halfWidth / cosHalf)
        polygon(p, p + o0, tip, p + o1)
      } else {
        polygon(p, p + o0, p + o1)
      }
    case .round:
      piece.removeAll(keepingCapacity: true)
      piece.append(p)
      appendArc(around: p, from: o0, sweep: turn)
      emitPiece()
    }
  }

  /// A cap at an open end; `direction` points out of the stroke.
  mutating func capAt(_ p: Point, direction d: Point) {
    let n = offset(d)
    switch cap {
    case .butt:
      break
    case .square:
      let e = d * halfWidth
      polygon(p + n, p + n + e, p - n + e, p - n)
    case .round:
      piece.removeAll(keepingCapacity: true)
      appendArc(around: p, from: n, sweep: -.pi)
      emitPiece()
    }
  }

  /// The mark of a zero-length subpath: a disc or an axis-aligned square, or nothing for butt caps.
  mutating func dot(at p: Point) {
    let h = halfWidth
    switch cap {
    case .butt:
      break
    case .square:
      polygon(
        Point(x: p.x - h, y: p.y - h), Point(x: p.x + h, y: p.y - h),
        Point(x: p.x + h, y: p.y + h), Point(x: p.x - h, y: p.y + h))
    case .round:
      // Four quarter arcs, so that the disc's extreme points, and so its bounds, are exact.
      piece.removeAll(keepingCapacity: true)
      for start in [Point(x: h, y: 0), Point(x: 0, y: h), Point(x: -h, y: 0), Point(x: 0, y: -h)] {
        appendArc(around: p, from: start, sweep: .pi / 2)
        piece.removeLast()
      }
      emitPiece()
    }
  }

  /// Appends to `piece` points on the circle about `center` from `center + start`, turning by
  /// `sweep` radians, both ends included.
  mutating func appendArc(around center: Point, from start: Point, sweep: Double) {
    let steps = max(1, min(256, Int((abs(sweep) / arcStep).rounded(.up))))
    piece.reserveCapacity(piece.count + steps + 1)
    piece.append(center + start)
    for i in 1...steps {
      let a = sweep * Double(i) / Double(steps)
      let c = cos(a)
      let s = sin(a)
      piece.append(center + Point(x: start.x * c - start.y * s, y: start.x * s + start.y * c))
    }
  }

  /// Emits the polygon of three or four corners (see `emitPiece`).
  mutating func polygon(_ a: Point, _ b: Point, _ c: Point, _ d: Point? = nil) {
    piece.removeAll(keepingCapacity: true)
    piece.append(a)
    piece.append(b)
    piece.append(c)
    if let d { piece.append(d) }
    emitPiece()
  }

  /// Emits `piece`, a closed convex polygon, wound clockwise on screen in device space, or
  /// nothing when it has no area.
  mutating func emitPiece() {
    var area = 0.0
    let n = piece.count
    for i in 0..<n {
      area += piece[i].cross(piece[(i + 1) % n])
    }
    guard area != 0, area.isFinite else { return }
    // A mirroring transform reverses every winding; reverse them first so they come out clockwise.
    if (area > 0) != (transform.determinant >= 0) { piece.reverse() }
    for i in 0..<n { piece[i] = transform.apply(piece[i]) }
    sink.polygon(piece)
  }
}
