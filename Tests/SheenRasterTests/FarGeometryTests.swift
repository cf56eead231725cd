// Geometry reaching far beyond the canvas costs what reaches the canvas (Cull.swift): what lies
// beyond the clip (and a stroke's reach) is replaced by lines before flattening and stroking.
// What is drawn inside must not change: the references below are drawn by the unculled code, on a
// canvas that holds the whole path, or from a path that only lies near the canvas.
import Foundation
import SheenRaster
import SheenTestSupport
import Testing

@Suite struct FarGeometryTests {
  /// A closed path of cubics, a third of them within a 64 × 64 canvas and the rest swinging out
  /// to ±2 `reach` around it and back.
  static func farPath(curves: Int, reach: Double, seed start: UInt64 = 7) -> Path {
    var p = Path()
    p.move(to: Point(x: 30, y: 30))
    var seed = start
    func next() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53)
    }
    for i in 0..<curves {
      let far = i % 3 != 0
      func coordinate() -> Double {
        far ? (next() * 2 - 1) * reach + (next() < 0.5 ? -reach : reach) : next() * 64
      }
      p.addCurve(
        to: Point(x: coordinate(), y: coordinate()), control1: Point(x: coordinate(), y: coordinate()),
        control2: Point(x: coordinate(), y: coordinate()))
    }
    p.closeSubpath()
    return p
  }

  /// The 64 × 64 window at the centre of a canvas `size` wide that holds the whole path, drawn
  /// by `draw` with the path's origin moved to that window.
  static func window(of size: Int, _ draw: (Canvas) -> Void) throws -> Surface {
    let big = try Surface(width: size, height: size)
    let c = Canvas(surface: big)
    c.translateBy(x: Double(size / 2), y: Double(size / 2))
    draw(c)
    let out = try Surface(width: 64, height: 64)
    for y in 0..<64 { for x in 0..<64 { out[x, y] = big[x + size / 2, y + size / 2] } }
    return out
  }

  /// Curves reaching ±600 pixels (each flattened within the tolerance, under the segment cap)
  /// around a 64 × 64 canvas: stroked and filled there with culling, against the same path drawn
  /// without any (the stroke outline made with no clip) on a 1400 × 1400 canvas that holds it all.
  /// Culling touches only what lies outside, so the pixels agree to a level (float rounding in the
  /// rasterizer's accumulation).
  @Test func farCurvesDrawWhatAWholeCanvasShows() throws {
    let path = Self.farPath(curves: 60, reach: 300)
    let rotated = Transform(rotationAngle: 0.3).scaledBy(x: 1.2, y: 0.8).translatedBy(x: 5, y: -3)
    for transform in [Transform.identity, rotated] {
      for (join, cap, width) in [
        (LineJoin.miter, LineCap.square, 3.0), (.round, .round, 8), (.bevel, .butt, 1),
      ] {
        let style = StrokeStyle(width: width, join: join, cap: cap)
        let culled = try Surface(width: 64, height: 64)
        let c = Canvas(surface: culled)
        c.concatenate(transform)
        c.stroke(path, style: style, paint: .solid(.black))
        let whole = try Self.window(of: 1400) { c in
          c.concatenate(transform)
          let outline = path.stroked(style, transform: c.transform, tolerance: Canvas.strokeTolerance)
          c.transform = .identity
          c.fill(outline, paint: .solid(.black))
        }
        #expect(
          ReferenceImage.largestChannelDifference(culled, whole) <= 1, "\(join) \(cap) \(width) \(transform)")
      }
      for rule in [FillRule.nonZero, .evenOdd] {
        let culled = try Surface(width: 64, height: 64)
        let c = Canvas(surface: culled)
        c.concatenate(transform)
        c.fill(path, paint: .solid(.black), rule: rule)
        let whole = try Self.window(of: 1400) { c in
          c.concatenate(transform)
          c.fill(path, paint: .solid(.black), rule: rule)
        }
        #expect(ReferenceImage.largestChannelDifference(culled, whole) <= 1, "\(rule) \(transform)")
      }
    }
  }

  /// One cubic reaching ±200,000 pixels whose middle crosses a 100 × 100 canvas, 400 pixels from
  /// its apex. Unculled, its flattening is capped at 512 segments ~880 pixels long, which stray
  /// up to 0.76 pixel from the curve across the canvas; culled, the part near the canvas is split off and flattened
  /// within the tolerance (unculled, the pixels differ from the reference by 193 levels). The reference is that part alone (de Casteljau's split, exact), a curve
  /// ~1,350 pixels long, stroked without culling: within 2 levels.
  @Test func aFarCurveIsFlattenedFinelyWhereItCrossesTheCanvas() throws {
    let (p0, c1, c2, p3) = (
      Point(x: -199_560, y: 200_000), Point(x: -99_560, y: -66_600), Point(x: 100_440, y: -66_600),
      Point(x: 200_440, y: 200_000)
    )
    func at(_ t: Double) -> (Point, Point, Point, Point) {
      // The part of the cubic from t to 1 - t.
      func lerp(_ a: Point, _ b: Point, _ u: Double) -> Point { a + (b - a) * u }
      func split(_ a: Point, _ b: Point, _ c: Point, _ d: Point, _ u: Double) -> (Point, Point, Point, Point)
      {
        let ab = lerp(a, b, u)
        let bc = lerp(b, c, u)
        let cd = lerp(c, d, u)
        let abc = lerp(ab, bc, u)
        let bcd = lerp(bc, cd, u)
        return (lerp(abc, bcd, u), bcd, cd, d)
      }
      let right = split(p0, c1, c2, p3, t)
      // The right part from t, then its first (1 - 2t) / (1 - t).
      let (a, b, c, d) = right
      let u = (1 - 2 * t) / (1 - t)
      let ab = lerp(a, b, u)
      let bc = lerp(b, c, u)
      let cd = lerp(c, d, u)
      let abc = lerp(ab, bc, u)
      let bcd = lerp(bc, cd, u)
      return (a, ab, abc, lerp(abc, bcd, u))
    }
    var far = Path()
    far.move(to: p0)
    far.addCurve(to: p3, control1: c1, control2: c2)
    // The apex is at (440, 50), where the curve runs at 450,000 pixels per unit of t with a radius
    // of ~126,600 pixels: t within 0.5 ± 0.0015 spans x ∈ [-235, 1115], beyond the stroke's reach
    // of the canvas on both sides.
    let (q0, q1, q2, q3) = at(0.4985)
    #expect(q0.x < -200 && q3.x > 300, "\(q0) \(q3)")
    var near = Path()
    near.move(to: q0)
    near.addCurve(to: q3, control1: q1, control2: q2)
    for (join, cap, width) in [(LineJoin.miter, LineCap.butt, 3.0), (.round, .round, 9)] {
      let style = StrokeStyle(width: width, join: join, cap: cap)
      let culled = try Surface(width: 100, height: 100)
      let canvas = Canvas(surface: culled)
      canvas.stroke(far, style: style, paint: .solid(.black))
      let reference = try Surface(width: 100, height: 100)
      Canvas(surface: reference).fill(
        near.stroked(style, tolerance: Canvas.strokeTolerance), paint: .solid(.black))
      #expect(ReferenceImage.largestChannelDifference(culled, reference) <= 2, "\(join)")
      // The stroke crosses the canvas (3 or 9 pixels wide about y = 50.6).
      #expect(culled[50, 50] >> 24 == 255 && culled[50, 80] >> 24 == 0)
      // Its outline holds what reaches the canvas, not 512 segments of a capped curve.
      #expect(canvas.strokeOutlineElements < 3000, "\(canvas.strokeOutlineElements)")
    }
  }

  /// The elements of the stroke outline of 300 cubics with control points anywhere within ±reach
  /// of a 100 × 100 canvas. Unculled, every curve needs 512 segments past a reach of a few
  /// thousand pixels, each ~10 elements: 1.5 million. Culled, they stay in the tens of thousands
  /// whatever the reach.
  static func outlineElements(reach: Double, join: LineJoin) throws -> Int {
    var seed: UInt64 = 11
    func coordinate() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (Double(seed >> 11) / Double(1 << 53) * 2 - 1) * reach + 50
    }
    var p = Path()
    p.move(to: Point(x: 50, y: 50))
    for _ in 0..<300 {
      p.addCurve(
        to: Point(x: coordinate(), y: coordinate()), control1: Point(x: coordinate(), y: coordinate()),
        control2: Point(x: coordinate(), y: coordinate()))
    }
    let canvas = Canvas(surface: try Surface(width: 100, height: 100))
    canvas.stroke(p, style: StrokeStyle(width: 3, join: join), paint: .solid(.black))
    return canvas.strokeOutlineElements
  }

  @Test(.timeLimit(.minutes(1))) func strokeOutlinesDoNotGrowWithReach() throws {
    for join in [LineJoin.miter, .round] {
      var counts: [Double: Int] = [:]
      for reach in [2_000.0, 200_000, 2e7, 1e300] {
        counts[reach] = try Self.outlineElements(reach: reach, join: join)
      }
      // Far curves swing past the canvas less often, so their outlines are smaller.
      #expect(counts.values.allSatisfy { $0 < 60_000 }, "\(join) \(counts.sorted { $0.key < $1.key })")
      #expect(counts[200_000]! <= counts[2_000]!, "\(counts)")
    }
  }
}
