import Foundation
import Testing

@testable import SheenRaster

/// Coverage of fills against areas computed analytically, independently of the rasterizer.
@Suite struct CoverageTests {
  /// Renders `path` in opaque white on transparent and returns each pixel's alpha in 0...1.
  func coverage(_ path: Path, width: Int, height: Int, rule: FillRule = .nonZero) throws -> [Double] {
    let s = try Surface(width: width, height: height)
    let c = Canvas(surface: s)
    c.fill(path, paint: .solid(.white), rule: rule)
    return s.pixels.map { Double(Pixel.alpha($0)) / 255 }
  }

  /// The area of the overlap of pixel (px, py) with an axis-aligned rectangle.
  func overlap(_ r: Rect, px: Int, py: Int) -> Double {
    r.intersection(Rect(x: Double(px), y: Double(py), width: 1, height: 1)).isEmpty
      ? 0
      : r.intersection(Rect(x: Double(px), y: Double(py), width: 1, height: 1)).width
        * r.intersection(Rect(x: Double(px), y: Double(py), width: 1, height: 1)).height
  }

  @Test(arguments: [
    Rect(x: 2, y: 3, width: 10, height: 7),
    Rect(x: 2.5, y: 3.25, width: 9.3, height: 6.6),
    Rect(x: 0.1, y: 0.9, width: 15.7, height: 0.3),
    Rect(x: 4.75, y: 1.5, width: 0.5, height: 12),
    Rect(x: -3.3, y: -2.2, width: 9, height: 9),
  ])
  func rectCoverageIsExactArea(_ r: Rect) throws {
    let w = 16
    let h = 16
    let cov = try coverage(Path(rect: r), width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        let expected = overlap(r, px: x, py: y)
        #expect(abs(cov[y * w + x] - expected) <= 1.0 / 255 + 1e-9, "pixel \(x),\(y)")
      }
    }
  }

  @Test func halfCoveredPixelIs128() throws {
    let s = try Surface(width: 4, height: 1)
    Canvas(surface: s).fill(Path(rect: Rect(x: 0, y: 0, width: 1.5, height: 1)), paint: .solid(.white))
    #expect(Pixel.alpha(s[1, 0]) >= 127 && Pixel.alpha(s[1, 0]) <= 129)
    #expect(Pixel.alpha(s[0, 0]) == 255)
    #expect(Pixel.alpha(s[2, 0]) == 0)
  }

  /// The area of the overlap of a pixel with a disc, by fine numerical integration.
  func discOverlap(cx: Double, cy: Double, r: Double, px: Int, py: Int) -> Double {
    let n = 64
    var inside = 0.0
    for j in 0..<n {
      // Integrate exactly along x for each of n thin rows.
      let y = Double(py) + (Double(j) + 0.5) / Double(n)
      let dy = y - cy
      if abs(dy) >= r { continue }
      let half = (r * r - dy * dy).squareRoot()
      let x0 = max(Double(px), cx - half)
      let x1 = min(Double(px + 1), cx + half)
      if x1 > x0 { inside += x1 - x0 }
    }
    return inside / Double(n)
  }

  @Test(arguments: [(16.0, 16.0, 10.0), (15.3, 16.7, 12.4), (8.5, 8.5, 3.2)])
  func circleCoverageMatchesArea(_ cx: Double, _ cy: Double, _ r: Double) throws {
    let w = 32
    let h = 32
    let cov = try coverage(
      Path(ellipseIn: Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r)), width: w, height: h)
    var total = 0.0
    var worst = 0.0
    for y in 0..<h {
      for x in 0..<w {
        let e = discOverlap(cx: cx, cy: cy, r: r, px: x, py: y)
        worst = max(worst, abs(cov[y * w + x] - e))
        total += cov[y * w + x]
      }
    }
    // Cubic arcs deviate from the circle by 0.027% of r and flattening by 0.003 px: each pixel
    // is within 1/255 (plus float noise) of the disc's area in it, the total within 0.5%.
    let area = Double.pi * r * r
    #expect(abs(total - area) / area < 0.005, "total \(total) vs \(area)")
    #expect(worst <= 1.0 / 255 + 1e-3, "worst pixel difference \(worst)")
  }

  /// A five-pointed star drawn in one stroke self-intersects: its centre pentagon has winding 2.
  func star(cx: Double, cy: Double, r: Double) -> Path {
    var p = Path()
    for i in 0..<5 {
      let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
      let q = Point(x: cx + r * cos(a), y: cy + r * sin(a))
      if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
    }
    p.closeSubpath()
    return p
  }

  @Test func evenOddLeavesTheStarCentreEmpty() throws {
    let p = star(cx: 20, cy: 20, r: 18)
    let nz = try coverage(p, width: 40, height: 40, rule: .nonZero)
    let eo = try coverage(p, width: 40, height: 40, rule: .evenOdd)
    let centre = 20 * 40 + 20
    #expect(nz[centre] == 1)
    #expect(eo[centre] == 0)
    // A point in one of the star's tips is inside for both rules.
    let tip = 6 * 40 + 20
    #expect(nz[tip] == 1 && eo[tip] == 1)
  }

  @Test func overlappingContoursWithNonZeroDoNotDoubleCover() throws {
    var p = Path(rect: Rect(x: 0, y: 0, width: 6, height: 4))
    p.addRect(Rect(x: 2, y: 0, width: 6, height: 4))
    let cov = try coverage(p, width: 8, height: 4)
    #expect(cov.allSatisfy { $0 == 1 })
    let eo = try coverage(p, width: 8, height: 4, rule: .evenOdd)
    #expect(eo[3] == 0 && eo[0] == 1 && eo[7] == 1)
  }

  @Test func shapesOutsideOrHugeOrNotFiniteAreSafe() throws {
    _ = try coverage(Path(rect: Rect(x: -1e12, y: -1e12, width: 2e12, height: 2e12)), width: 8, height: 8)
    let full = try coverage(Path(rect: Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)), width: 8, height: 8)
    #expect(full.allSatisfy { $0 == 1 })
    let none = try coverage(Path(rect: Rect(x: .nan, y: 0, width: 4, height: 4)), width: 8, height: 8)
    #expect(none.allSatisfy { $0 == 0 })
    let off = try coverage(Path(rect: Rect(x: 20, y: 2, width: 4, height: 4)), width: 8, height: 8)
    #expect(off.allSatisfy { $0 == 0 })
  }

  @Test func roundedRectHasSolidInteriorAndRoundCorners() throws {
    let r = Rect(x: 1, y: 1, width: 30, height: 20)
    let cov = try coverage(Path(roundedRect: r, cornerRadius: 8), width: 32, height: 22)
    #expect(cov[11 * 32 + 16] == 1)
    // The corner pixel lies outside the arc; the edge midpoints are fully in.
    #expect(cov[1 * 32 + 1] == 0)
    #expect(cov[1 * 32 + 16] == 1)
    // Total area: rectangle minus four corners of (4 - pi) r^2 / 4.
    let area = 30.0 * 20 - (4 - Double.pi) * 64
    #expect(abs(cov.reduce(0, +) - area) / area < 0.005)
  }

  @Test func surfaceRejectsBadSizes() {
    #expect(throws: RasterError.self) { try Surface(width: 0, height: 10) }
    #expect(throws: RasterError.self) { try Surface(width: -5, height: 10) }
    #expect(throws: RasterError.self) { try Surface(width: 100_000, height: 100_000) }
    #expect(throws: RasterError.self) { try Surface(width: Int.max, height: 2) }
  }

  /// An edge whose ends round to one Float at the clip's bottom (96.999999999 to 97.0000001 on a
  /// 97-row canvas), made before the last band's other edges, took no area but stopped the scan
  /// admitting them: the rectangle below lost its last row. Its row is half covered, exactly.
  @Test func degenerateEdgeAtTheBottomKeepsTheLastBand() throws {
    var p = Path()
    p.move(to: Point(x: 5, y: 96.999_999_999))
    p.addLine(to: Point(x: 6, y: 97.000_000_1))
    p.addLine(to: Point(x: 4, y: 97.000_000_1))
    p.closeSubpath()
    p.addRect(Rect(x: 10, y: 96.5, width: 80, height: 0.5))
    let a = try coverage(p, width: 100, height: 97)
    for x in [10, 50, 89] { #expect(abs(a[96 * 100 + x] - 0.5) < 0.01, "\(x): \(a[96 * 100 + x])") }
    #expect(a[96 * 100 + 9] == 0 && a[96 * 100 + 90] == 0 && a[95 * 100 + 50] == 0)
  }
}
