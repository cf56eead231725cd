import SheenRaster

/// The index of a glyph in a font; glyph 0 is the font's missing-glyph box (`.notdef`).
public struct GlyphID: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var rawValue: UInt16

  @inlinable public init(_ rawValue: UInt16) { self.rawValue = rawValue }

  /// The missing-glyph box, drawn for scalars the font lacks.
  public static let notdef = GlyphID(0)

  @inlinable public static func < (a: GlyphID, b: GlyphID) -> Bool { a.rawValue < b.rawValue }

  public var description: String { "glyph \(rawValue)" }
}

/// A glyph's bounding box from its `glyf` header, in font units (y grows upwards).
public struct GlyphBox: Hashable, Sendable {
  public var xMin: Int, yMin: Int, xMax: Int, yMax: Int

  @inlinable public init(xMin: Int, yMin: Int, xMax: Int, yMax: Int) {
    self.xMin = xMin
    self.yMin = yMin
    self.xMax = xMax
    self.yMax = yMax
  }
}

/// One point of a TrueType contour, in font units (y grows upwards).
public struct OutlinePoint: Hashable, Sendable {
  public var x: Double
  public var y: Double
  /// False for a quadratic control point.
  public var onCurve: Bool

  @inlinable public init(x: Double, y: Double, onCurve: Bool) {
    self.x = x
    self.y = y
    self.onCurve = onCurve
  }
}

/// A glyph's outline as TrueType stores it: closed contours of on- and off-curve points, with
/// composite glyphs already resolved into their transformed parts.
public struct GlyphOutline: Hashable, Sendable {
  /// Every point, contour after contour.
  public var points: [OutlinePoint] = []
  /// The index one past the last point of each contour.
  public var contourEnds: [Int] = []

  public init() {}

  public var isEmpty: Bool { points.isEmpty }

  /// The points of contour `i`.
  public func contour(_ i: Int) -> ArraySlice<OutlinePoint> {
    points[(i == 0 ? 0 : contourEnds[i - 1])..<contourEnds[i]]
  }

  /// The outline as a path of lines and quadratic curves, every point mapped by `transform`
  /// (font units to the caller's space; flip y there for y-down coordinates).
  ///
  /// Two off-curve points in a row imply an on-curve point halfway between them.
  public func path(transform t: Transform) -> Path {
    var path = Path()
    for i in contourEnds.indices {
      let c = contour(i)
      guard let first = c.first, let last = c.last else { continue }
      func pt(_ p: OutlinePoint) -> Point { t.apply(Point(x: p.x, y: p.y)) }
      let start: Point
      var rest: ArraySlice<OutlinePoint>
      if first.onCurve {
        start = pt(first)
        rest = c.dropFirst()
      } else if last.onCurve {
        start = pt(last)
        rest = c.dropLast()
      } else {
        start = pt(first).lerp(to: pt(last), 0.5)
        rest = c
      }
      path.move(to: start)
      var control: Point? = nil
      for p in rest {
        let q = pt(p)
        if p.onCurve {
          if let ctl = control { path.addQuadCurve(to: q, control: ctl) } else { path.addLine(to: q) }
          control = nil
        } else {
          if let ctl = control { path.addQuadCurve(to: ctl.lerp(to: q, 0.5), control: ctl) }
          control = q
        }
      }
      if let ctl = control { path.addQuadCurve(to: start, control: ctl) }
      path.closeSubpath()
    }
    return path
  }
}
