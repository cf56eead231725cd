import SheenRaster

/// A string laid out in lines of positioned glyphs, with its measured size.
///
/// Coordinates are points, y down, relative to the top-left of the layout box. The first
/// baseline sits at the font's ascent below the top; baselines are `ascent + descent + lineGap`
/// apart (`hhea`). Glyphs advance by `hmtx` plus pair kerning; there are no ligatures.
///
/// Line breaking: `\n` (also `\r\n`, `\r`, U+2028, U+2029) always breaks; a break at the very end
/// adds no empty line. With `style.wraps` and a width, lines break after spaces and hyphens, and a
/// word longer than a line breaks between characters. Trailing spaces hang: they neither count
/// towards a line's width nor move it when aligned.
///
/// Truncation `.end`: unwrapped, each line wider than the width ends in "…"; wrapped with a
/// height, the lines that fit the height are kept (at least one) and the last one shows as much
/// of the rest of its paragraph as fits, followed by "…".
public struct TextLayout: Sendable {
  /// A glyph and its pen position on its line's baseline.
  public struct Glyph: Hashable, Sendable {
    public var id: GlyphID
    /// The pen's x offset from the line's origin, in points.
    public var x: Double

    @inlinable public init(id: GlyphID, x: Double) {
      self.id = id
      self.x = x
    }
  }

  /// One line of glyphs.
  public struct Line: Sendable {
    public var glyphs: [Glyph]
    /// The start of the baseline, relative to the layout's top-left, alignment applied.
    public var origin: Point
    /// The advance width without trailing spaces, in points.
    public var width: Double
    /// The offsets in the string's `unicodeScalars` that this line shows.
    public var scalarRange: Range<Int>
    /// Whether the line ends in an ellipsis that replaced text.
    public var isTruncated: Bool
  }

  public let style: TextStyle
  public let lines: [Line]
  /// The size the text occupies: the widest line, and from the top of the first line to the
  /// bottom (descent) of the last. Zero for an empty string.
  public let size: Size
  /// The width the lines were wrapped, truncated and aligned to, if any.
  public let width: Double?
  /// The height lines were kept to, if any (only with wrapping and `.end` truncation).
  public let height: Double?

  /// Whether any text was replaced by an ellipsis or dropped.
  public var isTruncated: Bool { lines.contains { $0.isTruncated } }

  /// The number of glyphs drawn.
  public var glyphCount: Int { lines.reduce(0) { $0 + $1.glyphs.count } }

  /// Lays out `string`.
  /// - Parameters:
  ///   - width: the box width: lines wrap (`style.wraps`) or truncate to it, and align within
  ///     it. Nil: unbounded, and lines align within the widest one.
  ///   - height: the box height; with wrapping and `.end` truncation, only the lines that fit are
  ///     kept. Otherwise it does not affect the layout (the caller clips).
  /// - Complexity: O(n) in the number of scalars, plus O(n) per truncated line.
  public init(_ string: String, style: TextStyle, width: Double? = nil, height: Double? = nil) {
    self.style = style
    let w = width.flatMap { $0.isFinite ? max(0, $0) : nil }
    let h = height.flatMap { $0.isFinite ? max(0, $0) : nil }
    self.width = w
    self.height = h
    var breaker = LineBreaker(style: style)
    let placed = breaker.layout(string, width: w, height: h)
    let metrics = style.lineMetrics
    let widest = placed.reduce(0) { max($0, $1.width) }
    let box = w ?? widest
    var lines: [Line] = []
    lines.reserveCapacity(placed.count)
    for (i, var line) in placed.enumerated() {
      let dx: Double
      switch style.alignment {
      case .left: dx = 0
      case .center: dx = (box - line.width) / 2
      case .right: dx = box - line.width
      }
      line.origin = Point(x: dx, y: metrics.ascent + Double(i) * metrics.lineHeight)
      lines.append(line)
    }
    self.lines = lines
    size =
      lines.isEmpty
      ? .zero
      : Size(
        width: widest,
        height: Double(lines.count - 1) * metrics.lineHeight + metrics.ascent + metrics.descent)
  }

  /// The size `string` occupies, without keeping the glyphs.
  public static func measure(_ string: String, style: TextStyle, width: Double? = nil) -> Size {
    TextLayout(string, style: style, width: width).size
  }
}
