// A stroke's memory is its flattened centre line and a bounded strip of cells, not hundreds of
// bytes per segment (Canvas+Stroke.swift, Rasterizer+Polygons.swift): a path of many segments
// streams its pieces into the rasterizer instead of making an outline path of them.
import Foundation
import SheenTestSupport
import Testing

@testable import SheenRaster

@Suite struct StrokeMemoryTests {
  /// A horizontal stroke made of `segments` collinear pieces from x = 10 to 90 about y = 50.25,
  /// 8 wide: rows 46.25..54.25 are covered, so row 46 has 3/4 coverage, rows 47...53 all, row 54 a
  /// quarter (the exact area, whatever the number of pieces).
  @Test(.timeLimit(.minutes(1))) func manySegmentsDrawTheExactArea() throws {
    let segments = 100_000
    var p = Path()
    p.move(to: Point(x: 10, y: 50.25))
    for i in 1...segments { p.addLine(to: Point(x: 10 + 80 * Double(i) / Double(segments), y: 50.25)) }
    let surface = try Surface(width: 100, height: 100)
    let canvas = Canvas(surface: surface)
    canvas.stroke(p, style: StrokeStyle(width: 8), paint: .solid(.black))
    #expect(canvas.strokeOutlineElements > 0)
    for x in [11, 50, 88] {
      #expect(surface[x, 45] >> 24 == 0)
      #expect(abs(Int(surface[x, 46] >> 24) - 191) <= 1, "\(x): \(surface[x, 46] >> 24)")
      for y in 47...53 { #expect(surface[x, y] >> 24 == 255, "\(x), \(y)") }
      #expect(abs(Int(surface[x, 54] >> 24) - 64) <= 1, "\(x): \(surface[x, 54] >> 24)")
      #expect(surface[x, 55] >> 24 == 0)
    }
    #expect(surface[9, 50] >> 24 == 0 && surface[91, 50] >> 24 == 0)
  }

  /// 200,000 segments inside the canvas: the stroke holds its centre line and a strip of cells
  /// (under 32 MiB); its outline path would hold over 64 MiB (it held 1 GB at 400,000).
  @Test(.timeLimit(.minutes(2))) func memoryDoesNotGrowPerSegmentPiece() throws {
    let p = Self.zigzag(points: 200_000, size: 500)
    let canvas = Canvas(surface: try Surface(width: 512, height: 512))
    canvas.stroke(p, style: StrokeStyle(width: 2, join: .miter, cap: .round), paint: .solid(.black))
    #expect(canvas.peakStrokeBytes < 32 << 20, "\(canvas.peakStrokeBytes)")
    // What the outline would have held: several polygons of elements per segment.
    let outline = canvas.strokeOutlineElements * MemoryLayout<PathElement>.stride
    #expect(outline > 64 << 20, "\(outline)")
  }

  /// The streamed route draws what the outline path draws (the same pieces, their areas summed in
  /// another order: within a level), with miter, round and bevel joins, caps, closed contours and
  /// a rotated, scaled transform; and strip by strip what it draws in one strip (within a level:
  /// an edge entering a strip starts from its x there, not from the rows above).
  @Test(.timeLimit(.minutes(2))) func streamedStrokeMatchesTheOutline() throws {
    let path = Self.zigzag(points: 20_000, size: 180, closedEvery: 7_000)
    let styles = [
      StrokeStyle(width: 3, join: .miter, cap: .butt), StrokeStyle(width: 5, join: .round, cap: .round),
      StrokeStyle(width: 2.5, join: .bevel, cap: .square),
    ]
    for style in styles {
      for transform in [Transform.identity, Transform(rotationAngle: 0.3).scaledBy(x: 1.1, y: 0.9)] {
        let streamed = try Surface(width: 200, height: 200)
        let canvas = Canvas(surface: streamed)
        canvas.transform = transform
        canvas.stroke(path, style: style, paint: .solid(.black))
        #expect(canvas.strokeOutlineElements > 0)
        let reference = try Surface(width: 200, height: 200)
        Canvas(surface: reference).fill(
          path.stroked(style, transform: transform, tolerance: Canvas.strokeTolerance), paint: .solid(.black))
        #expect(ReferenceImage.largestChannelDifference(streamed, reference) <= 1, "\(style)")
        let strips = try Surface(width: 200, height: 200)
        let small = Canvas(surface: strips)
        small.strokeStripCells = 202 * 13
        small.transform = transform
        small.stroke(path, style: style, paint: .solid(.black))
        #expect(ReferenceImage.largestChannelDifference(streamed, strips) <= 1, "\(style)")
      }
    }
  }

  /// A random walk reaching well past a small canvas (so culled, and clipped on every side), drawn
  /// in bands of rows, draws there what a canvas holding it all draws at the same place.
  @Test(.timeLimit(.minutes(1))) func streamedStrokeClippedByTheCanvas() throws {
    var p = Path()
    var seed: UInt64 = 3
    func next() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53)
    }
    var x = 50.0
    var y = 50.0
    p.move(to: Point(x: x, y: y))
    for _ in 0..<40_000 {
      x += next() * 4 - 2
      y += next() * 4 - 2
      p.addLine(to: Point(x: x, y: y))
    }
    // Drawn in bands (as the compositor's threads do): each clipped to its rows.
    let small = try Surface(width: 100, height: 100)
    let bands = Canvas(surface: small)
    for (top, bottom) in [(0.0, 16.0), (16, 48), (48, 96), (96, 100)] {
      bands.save()
      bands.clip(to: Rect(x: 0, y: top, width: 100, height: bottom - top))
      bands.stroke(p, style: StrokeStyle(width: 3), paint: .solid(.black))
      bands.restore()
    }
    let large = try Surface(width: 300, height: 300)
    let canvas = Canvas(surface: large)
    canvas.transform = Transform(translationX: 100, y: 100)
    canvas.stroke(p, style: StrokeStyle(width: 3), paint: .solid(.black))
    var worst = 0
    for yy in 0..<100 {
      for xx in 0..<100 {
        let d = ReferenceImage.largestChannelDifference(small[xx, yy], large[xx + 100, yy + 100])
        if d > worst {
          worst = d
          if d > 1 { print("differs at", xx, yy, small[xx, yy] >> 24, large[xx + 100, yy + 100] >> 24) }
        }
      }
    }
    #expect(worst <= 1)
  }

  /// A path that would flatten into more points than the limit is flattened coarser until it
  /// fits: memory stays bounded, and the stroke is still drawn where it should be.
  @Test(.timeLimit(.minutes(2))) func centreLinePointsAreCapped() throws {
    var p = Path()
    p.move(to: Point(x: 10, y: 100))
    for i in 0..<100 {
      // Each of these spans the canvas and flattens into ~500 points at 0.01 pixel.
      let y = i % 2 == 0 ? 190.0 : 10.0
      p.addCurve(
        to: Point(x: 10, y: 100), control1: Point(x: 190, y: y), control2: Point(x: -170, y: 200 - y))
    }
    let fine = try Surface(width: 200, height: 200)
    let reference = Canvas(surface: fine)
    reference.stroke(p, style: StrokeStyle(width: 3), paint: .solid(.black))
    let capped = try Surface(width: 200, height: 200)
    let canvas = Canvas(surface: capped)
    canvas.strokePointLimit = 10_000
    canvas.stroke(p, style: StrokeStyle(width: 3), paint: .solid(.black))
    #expect(reference.peakStrokeBytes > 10_000 * 16 * 2)
    #expect(
      canvas.peakStrokeBytes <= 2 * 10_000 * 16 + Rasterizer.stripCellBudget * 4, "\(canvas.peakStrokeBytes)")
    // Coarser by at most about a tenth of a pixel.
    #expect(ReferenceImage.largestChannelDifference(capped, fine) <= 48)
  }

  /// A random walk of `points` points in steps of up to 3 pixels within a `size` square from
  /// (10, 10), its contours closed every `closedEvery` points.
  static func zigzag(points: Int, size: Double, closedEvery: Int = .max) -> Path {
    var p = Path()
    var seed: UInt64 = 5
    func next() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53)
    }
    var x = size / 2
    var y = size / 2
    p.move(to: Point(x: 10 + x, y: 10 + y))
    for i in 1..<points {
      x = min(size, max(0, x + next() * 6 - 3))
      y = min(size, max(0, y + next() * 6 - 3))
      if i % closedEvery == 0 {
        p.closeSubpath()
        p.move(to: Point(x: 10 + x, y: 10 + y))
      } else {
        p.addLine(to: Point(x: 10 + x, y: 10 + y))
      }
    }
    p.closeSubpath()
    return p
  }
}
