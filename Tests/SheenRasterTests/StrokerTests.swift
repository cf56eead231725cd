import Foundation
import Testing

@testable import SheenRaster

/// The non-zero winding number of `outline` around `q`, from its flattened polygons.
private func winding(_ outline: Path, _ q: Point) -> Int {
  let flat = outline.flattened(tolerance: 0.01)
  var w = 0
  for c in flat.contours {
    let pts = Array(flat.points(of: c))
    for i in 0..<pts.count {
      let a = pts[i]
      let b = pts[(i + 1) % pts.count]
      let side = (b - a).cross(q - a)
      if a.y <= q.y && b.y > q.y && side > 0 { w += 1 }
      if b.y <= q.y && a.y > q.y && side < 0 { w -= 1 }
    }
  }
  return w
}

/// The signed areas of the outline's subpaths (positive is clockwise on screen).
private func subpathAreas(_ outline: Path) -> [Double] {
  let flat = outline.flattened(tolerance: 0.01)
  return flat.contours.map { c in
    let pts = Array(flat.points(of: c))
    var area = 0.0
    for i in 0..<pts.count { area += pts[i].cross(pts[(i + 1) % pts.count]) }
    return area / 2
  }
}

private func inside(_ outline: Path, _ x: Double, _ y: Double) -> Bool {
  winding(outline, Point(x: x, y: y)) != 0
}

private func path(_ d: String) -> Path { try! Path(svgData: d) }

private func close(_ a: Double, _ b: Double, _ eps: Double = 1e-9) -> Bool { abs(a - b) <= eps }

@Suite("Stroker")
struct StrokerTests {
  @Test func horizontalLineIsExactlyItsWidthTall() {
    let outline = path("M0 10 L20 10").stroked(StrokeStyle(width: 4))
    let b = outline.controlBounds
    #expect(b.height == 4)
    #expect(b == Rect(x: 0, y: 8, width: 20, height: 4))
    #expect(inside(outline, 10, 9) && inside(outline, 10, 11.9))
    #expect(!inside(outline, 10, 12.1) && !inside(outline, -0.5, 10) && !inside(outline, 20.5, 10))
  }

  @Test func everyPieceIsWoundClockwise() {
    let styles = [
      StrokeStyle(width: 3, join: .miter, cap: .square),
      StrokeStyle(width: 3, join: .round, cap: .round),
      StrokeStyle(width: 3, join: .bevel, cap: .butt),
    ]
    let shape = path("M0 0 L30 0 L30 20 Q10 40 0 10 M50 50 L60 60 L50 70 Z M80 80 L80 80")
    for style in styles {
      for t in [Transform.identity, Transform(scaleX: -2, y: 1), Transform(rotationAngle: 1)] {
        let areas = subpathAreas(shape.stroked(style, transform: t))
        #expect(!areas.isEmpty)
        #expect(areas.allSatisfy { $0 > 0 })
      }
    }
  }

  @Test func hugeAndNonFiniteCoordinatesDoNotTrap() {
    var shape = path("M-1e308 0 L1e308 0 L0 1e308 L1e-300 1e-300 Z")
    shape.move(to: Point(x: .nan, y: 0))
    shape.addLine(to: Point(x: .infinity, y: 1))
    for join in [LineJoin.miter, .round, .bevel] {
      for cap in [LineCap.butt, .round, .square] {
        _ = shape.stroked(StrokeStyle(width: 1e300, join: join, cap: cap))
        _ = shape.stroked(StrokeStyle(width: 1e-300, join: join, cap: cap), tolerance: 1e-300)
      }
    }
  }

  @Test func miterJoinReachesTheCorner() {
    let outline = path("M0 0 L10 0 L10 10").stroked(StrokeStyle(width: 4, join: .miter))
    let b = outline.controlBounds
    #expect(close(b.maxX, 12) && close(b.minY, -2))
    let corner = outline.elements.contains { e in
      if case .line(let q) = e { return (q - Point(x: 12, y: -2)).length < 1e-9 }
      if case .move(let q) = e { return (q - Point(x: 12, y: -2)).length < 1e-9 }
      return false
    }
    #expect(corner)
    #expect(inside(outline, 11.9, -1.9))
  }

  @Test func bevelAndRoundJoinsCutTheCorner() {
    let corner = path("M0 0 L10 0 L10 10")
    let bevel = corner.stroked(StrokeStyle(width: 4, join: .bevel))
    #expect(!inside(bevel, 11.5, -1.5))
    #expect(inside(bevel, 11, -0.9))
    let round = corner.stroked(StrokeStyle(width: 4, join: .round))
    #expect(inside(round, 11.2, -1.2))
    #expect(!inside(round, 11.5, -1.5))
  }

  @Test func sharpAngleFallsBackToBevel() {
    // The path turns back at a 5 degree angle: the miter would be 1/sin(2.5°) ≈ 23 widths long.
    let sharp = path("M0 0 L100 0 L0 \(100 * tan(5 * Double.pi / 180))")
    let limited = sharp.stroked(StrokeStyle(width: 4, join: .miter, miterLimit: 10))
    #expect(limited.controlBounds.maxX < 102)
    #expect(!inside(limited, 105, 4))
    let unlimited = sharp.stroked(StrokeStyle(width: 4, join: .miter, miterLimit: 30))
    let tipLength = 2 / sin(2.5 * Double.pi / 180)
    #expect(unlimited.controlBounds.maxX > 100 + tipLength * 0.99)
  }

  @Test func roundCapsExtendByHalfTheWidth() {
    let outline = path("M10 10 L30 10").stroked(StrokeStyle(width: 4, cap: .round))
    let b = outline.controlBounds
    #expect(close(b.minX, 8, 0.01) && close(b.maxX, 32, 0.01))
    #expect(close(b.minY, 8) && close(b.maxY, 12))
    #expect(inside(outline, 31.5, 10) && inside(outline, 8.5, 10))
    #expect(!inside(outline, 31.5, 11.5))
  }

  @Test func squareCapsExtendByHalfTheWidth() {
    let outline = path("M10 10 L30 10").stroked(StrokeStyle(width: 4, cap: .square))
    #expect(outline.controlBounds == Rect(x: 8, y: 8, width: 24, height: 4))
    #expect(inside(outline, 31.9, 11.9) && inside(outline, 8.1, 8.1))
  }

  @Test func buttCapsStopAtTheEnds() {
    let outline = path("M10 10 L30 10").stroked(StrokeStyle(width: 4, cap: .butt))
    #expect(!inside(outline, 9.5, 10) && !inside(outline, 30.5, 10))
  }

  @Test func zeroLengthSubpathsDrawDotsWithRoundOrSquareCaps() {
    for d in ["M5 5 L5 5", "M5 5 Z"] {
      let round = path(d).stroked(StrokeStyle(width: 4, cap: .round))
      let b = round.controlBounds
      #expect(close(b.minX, 3, 0.01) && close(b.maxX, 7, 0.01) && close(b.minY, 3, 0.01))
      #expect(inside(round, 5, 5) && inside(round, 6.3, 6.3) && !inside(round, 6.6, 6.6))
      let square = path(d).stroked(StrokeStyle(width: 4, cap: .square))
      #expect(square.controlBounds == Rect(x: 3, y: 3, width: 4, height: 4))
      #expect(path(d).stroked(StrokeStyle(width: 4, cap: .butt)).isEmpty)
    }
  }

  @Test func degenerateWidthsGiveNothing() {
    let line = path("M0 0 L10 10")
    for w in [0, -1, Double.nan, Double.infinity] {
      #expect(line.stroked(StrokeStyle(width: w)).isEmpty)
    }
    #expect(line.stroked(StrokeStyle(width: 2), transform: Transform(scaleX: 0, y: 0)).isEmpty)
  }

  @Test func closedRectangleJoinsAllFourCorners() {
    let rect = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
    let miter = rect.stroked(StrokeStyle(width: 2))
    #expect(miter.controlBounds == Rect(x: -1, y: -1, width: 12, height: 12))
    #expect(inside(miter, -0.9, -0.9) && inside(miter, 10.9, 10.9) && inside(miter, 0, 5))
    #expect(!inside(miter, 5, 5))
    let bevel = rect.stroked(StrokeStyle(width: 2, join: .bevel))
    #expect(!inside(bevel, -0.9, -0.9) && !inside(bevel, 10.9, -0.9))
    // A closed path has no caps, even with square ones.
    let capped = rect.stroked(StrokeStyle(width: 2, join: .bevel, cap: .square))
    #expect(!inside(capped, -0.9, -0.9))
  }

  @Test func explicitlyClosedPathRepeatingItsStartHasNoGap() {
    let outline = path("M0 0 L10 0 L10 10 L0 0 Z").stroked(StrokeStyle(width: 2))
    #expect(inside(outline, -0.5, -0.3))
  }

  @Test func circleStrokeIsAnAnnulus() {
    let circle = Path(ellipseIn: Rect(x: -10, y: -10, width: 20, height: 20))
    let outline = circle.stroked(StrokeStyle(width: 2, join: .round))
    for angle in stride(from: 0.0, to: 2 * Double.pi, by: 0.37) {
      let u = Point(x: cos(angle), y: sin(angle))
      #expect(inside(outline, u.x * 10.8, u.y * 10.8))
      #expect(inside(outline, u.x * 9.2, u.y * 9.2))
      #expect(!inside(outline, u.x * 11.2, u.y * 11.2))
      #expect(!inside(outline, u.x * 8.8, u.y * 8.8))
    }
    #expect(!inside(outline, 0, 0))
  }

  @Test func reversalWithRoundJoinIsRounded() {
    let outline = path("M0 0 L10 0 L0 0").stroked(StrokeStyle(width: 4, join: .round))
    #expect(inside(outline, 11.5, 0) && !inside(outline, 11.5, 1.5))
    let miter = path("M0 0 L10 0 L0 0").stroked(StrokeStyle(width: 4, join: .miter))
    #expect(!inside(miter, 10.5, 0))
  }

  @Test func transformStretchesThePen() {
    let line = path("M10 0 L10 10")
    let outline = line.stroked(StrokeStyle(width: 2), transform: Transform(scaleX: 3, y: 1))
    let b = outline.controlBounds
    #expect(close(b.minX, 27) && close(b.maxX, 33) && close(b.minY, 0) && close(b.maxY, 10))
    let moved = line.stroked(StrokeStyle(width: 2), transform: Transform(translationX: 5, y: 7))
    #expect(moved.controlBounds == Rect(x: 14, y: 7, width: 2, height: 10))
  }
}
