import Testing

@testable import SheenRaster

/// A canvas keeps working storage from one drawing to the next (the stroke's centre line,
/// outline and pieces; on `reset(surface:)`, everything but the target): what it draws with
/// storage left by earlier drawing must be exactly what a new canvas draws.
@Suite struct CanvasReuseTests {
  static func zigzag(_ n: Int, _ phase: Double) -> Path {
    var p = Path()
    p.move(to: Point(x: 6, y: 30))
    for i in 1...n {
      p.addLine(to: Point(x: 6 + Double(i) * 88 / Double(n), y: 30 + (i % 2 == 0 ? -18 : 18) * phase))
    }
    return p
  }

  static let styles = [
    StrokeStyle(width: 5, join: .round, cap: .round), StrokeStyle(width: 3, join: .miter, cap: .square),
    StrokeStyle(width: 7, join: .bevel, cap: .butt),
  ]

  /// `draw` on a new canvas over a new 100 x 60 surface.
  static func fresh(_ draw: (Canvas) -> Void) throws -> Surface {
    let s = try Surface(width: 100, height: 60)
    draw(Canvas(surface: s))
    return s
  }

  @Test func strokesAfterOtherStrokesAreTheSame() throws {
    // One canvas strokes path after path (longer, shorter, other pens, a dot); each is compared
    // with the same stroke alone on a new canvas.
    let shared = try Surface(width: 100, height: 60)
    let canvas = Canvas(surface: shared)
    var dot = Path()
    dot.move(to: Point(x: 50, y: 30))
    dot.addLine(to: Point(x: 50, y: 30))
    let (z, st) = (Self.zigzag, Self.styles)
    let cases: [(Path, StrokeStyle)] = [
      (z(12, 1), st[0]), (z(3, 0.5), st[1]), (dot, st[0]), (z(20, 0.8), st[2]), (z(5, 1), st[0]),
      (z(1, 1), st[1]),
    ]
    for (path, style) in cases {
      shared.clear(0)
      canvas.stroke(path, style: style, paint: .solid(Color(red: 0.2, green: 0.4, blue: 0.9)))
      let alone = try Self.fresh {
        $0.stroke(path, style: style, paint: .solid(Color(red: 0.2, green: 0.4, blue: 0.9)))
      }
      #expect(shared.pixels == alone.pixels, "\(path.elements.count) elements, \(style)")
    }
    // The dot drew something (a round cap's disc), so the comparison above is not of blanks.
    let disc = try Self.fresh { $0.stroke(dot, style: st[0], paint: .solid(.black)) }
    #expect(disc[50, 30] != 0)
  }

  @Test func aResetCanvasDrawsLikeANewOne() throws {
    // Drawing that leaves state behind (a transform, alpha, a blend mode, a clip mask outside
    // any save, saved states), then `reset(surface:)` onto another surface.
    let first = try Surface(width: 80, height: 50)
    let canvas = Canvas(surface: first)
    canvas.save()
    canvas.transform = Transform(scaleX: 2, y: 2)
    canvas.globalAlpha = 0.5
    canvas.save()
    var circle = Path()
    circle.addEllipse(in: Rect(x: 5, y: 5, width: 20, height: 12))
    canvas.clip(to: circle)
    canvas.blendMode = .multiply
    canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 80, height: 50)), paint: .solid(.black))
    let second = try Surface(width: 100, height: 60)
    canvas.reset(surface: second)
    #expect(canvas.surface === second && canvas.clipBounds == second.bounds)
    let draw = { (c: Canvas) in
      var p = Path()
      p.addRoundedRect(Rect(x: 10, y: 8, width: 70, height: 40), radii: CornerRadii(all: 9))
      c.fill(p, paint: .solid(Color(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8)))
      c.stroke(Self.zigzag(7, 1), style: Self.styles[0], paint: .solid(.black))
    }
    draw(canvas)
    let alone = try Self.fresh(draw)
    #expect(second.pixels == alone.pixels)
    // The first surface is no longer drawn on.
    let before = first.pixels
    draw(canvas)
    #expect(first.pixels == before)
  }
}
