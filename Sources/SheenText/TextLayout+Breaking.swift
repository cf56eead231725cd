import SheenRaster

/// One glyph of a paragraph laid out as a single line, positions in font units.
struct ShapedGlyph {
  var glyph: GlyphID
  /// The pen position, kerning with the previous glyph included.
  var pen: Int
  /// `pen + advance`.
  var end: Int
  /// Offset of the source scalar in the string's `unicodeScalars`.
  var source: Int
  /// A space: hangs at the end of a line and is a break opportunity.
  var isSpace: Bool
  /// A line may break after this glyph (spaces and hyphens).
  var breaksAfter: Bool
}

/// Splits a string into paragraphs, shapes them and breaks them into lines.
struct LineBreaker {
  let font: Font
  let style: TextStyle
  /// Points per font unit.
  let scale: Double
  let spaceGlyph: GlyphID
  /// "…", or three full stops when the font has no ellipsis.
  let ellipsis: [GlyphID]

  init(style: TextStyle) {
    self.style = style
    font = style.font
    scale = style.size / Double(style.font.unitsPerEm)
    spaceGlyph = style.font.glyphIndex(for: " ")
    let e = style.font.glyphIndex(for: "\u{2026}")
    ellipsis = e != .notdef ? [e] : Array(repeating: style.font.glyphIndex(for: "."), count: 3)
  }

  static func isLineBreak(_ v: UInt32) -> Bool {
    v == 0x0A || v == 0x0D || v == 0x2028 || v == 0x2029 || v == 0x0B || v == 0x0C || v == 0x85
  }

  static func isSpace(_ v: UInt32) -> Bool {
    v == 0x20 || v == 0x09 || v == 0x1680 || (0x2000...0x200A).contains(v) && v != 0x2007 || v == 0x205F
      || v == 0x3000
  }

  static func isHyphen(_ v: UInt32) -> Bool {
    v == 0x2D || v == 0x2010 || v == 0x2013 || v == 0x2014
  }

  /// Control characters that draw nothing (not even the missing-glyph box).
  static func isInvisibleControl(_ v: UInt32) -> Bool {
    v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x200B || v == 0xFEFF || v == 0x200C || v == 0x200D
  }

  /// Paragraphs of `(scalar, offset)` split at line breaks; a break at the very end adds none.
  static func paragraphs(_ string: String) -> [[(Unicode.Scalar, Int)]] {
    var out: [[(Unicode.Scalar, Int)]] = []
    var current: [(Unicode.Scalar, Int)] = []
    var previousWasCR = false
    var any = false
    for (i, s) in string.unicodeScalars.enumerated() {
      any = true
      if s.value == 0x0A && previousWasCR {
        previousWasCR = false
        continue
      }
      previousWasCR = s.value == 0x0D
      if isLineBreak(s.value) {
        out.append(current)
        current = []
      } else {
        current.append((s, i))
      }
    }
    if any && (!current.isEmpty || out.isEmpty) { out.append(current) }
    return out
  }

  /// A paragraph as one line of glyphs with kerning.
  func shape(_ paragraph: [(Unicode.Scalar, Int)]) -> [ShapedGlyph] {
    var out: [ShapedGlyph] = []
    out.reserveCapacity(paragraph.count)
    var pen = 0
    var previous: GlyphID? = nil
    for (scalar, source) in paragraph {
      let v = scalar.value
      let space = LineBreaker.isSpace(v)
      if !space && LineBreaker.isInvisibleControl(v) { continue }
      let g = v == 0x09 ? spaceGlyph : font.glyphIndex(for: scalar)
      if let p = previous { pen += font.kerning(p, g) }
      let end = pen + font.advance(of: g)
      out.append(
        ShapedGlyph(
          glyph: g, pen: pen, end: end, source: source, isSpace: space,
          breaksAfter: space || LineBreaker.isHyphen(v)))
      pen = end
      previous = g
    }
    return out
  }

  /// The width of `glyphs[a..<b]` as a line, trailing spaces excluded, in font units.
  static func trimmedWidth(_ g: [ShapedGlyph], _ a: Int, _ b: Int) -> Int {
    var k = b
    while k > a && g[k - 1].isSpace { k -= 1 }
    return k > a ? g[k - 1].end - g[a].pen : 0
  }

  /// Greedy line breaking of one shaped paragraph to `limit` font units: the ranges of its lines.
  static func wrap(_ g: [ShapedGlyph], limit: Double) -> [Range<Int>] {
    if g.isEmpty { return [0..<0] }
    var lines: [Range<Int>] = []
    var start = 0
    while start < g.count {
      var lastBreak: Int? = nil
      var j = start
      while j < g.count {
        if g[j].isSpace {
          j += 1
          lastBreak = j
          continue
        }
        if Double(g[j].end - g[start].pen) > limit { break }
        if g[j].breaksAfter { lastBreak = j + 1 }
        j += 1
      }
      if j == g.count {
        lines.append(start..<j)
        break
      }
      // Break after the last opportunity; a word longer than the line breaks between characters.
      let cut = lastBreak.map { max($0, start + 1) } ?? max(j, start + 1)
      lines.append(start..<cut)
      start = cut
    }
    return lines
  }

  /// The ellipsis' width in font units after `previous`, kerning included.
  func ellipsisWidth(after previous: GlyphID?) -> Int {
    var w = 0
    var p = previous
    for e in ellipsis {
      if let q = p { w += font.kerning(q, e) }
      w += font.advance(of: e)
      p = e
    }
    return w
  }

  /// A line of `g[range]`, in points; with `truncate`, it ends in an ellipsis when it is wider
  /// than `limit` or when `force` is set.
  func makeLine(
    _ g: [ShapedGlyph], _ range: Range<Int>, truncate: Bool, limit: Double, force: Bool
  ) -> TextLayout.Line {
    let a = range.lowerBound
    var b = range.upperBound
    let fullWidth = LineBreaker.trimmedWidth(g, a, b)
    var glyphs: [TextLayout.Glyph] = []
    let origin = a < g.count ? g[a].pen : 0
    if !truncate || (!force && Double(fullWidth) <= limit) {
      glyphs.reserveCapacity(b - a)
      for k in range { glyphs.append(TextLayout.Glyph(id: g[k].glyph, x: Double(g[k].pen - origin) * scale)) }
      let first = a < g.count ? g[a].source : 0
      let src = a < b ? first..<(g[b - 1].source + 1) : first..<first
      return TextLayout.Line(
        glyphs: glyphs, origin: .zero, width: Double(fullWidth) * scale, scalarRange: src,
        isTruncated: false)
    }
    // The longest prefix that fits with the ellipsis after it (trailing spaces dropped).
    var penAfter = 0
    while true {
      while b > a && g[b - 1].isSpace { b -= 1 }
      let prefix = b > a ? g[b - 1].end - origin : 0
      let total = prefix + ellipsisWidth(after: b > a ? g[b - 1].glyph : nil)
      if Double(total) <= limit || b == a {
        penAfter = prefix
        break
      }
      b -= 1
    }
    glyphs.reserveCapacity(b - a + ellipsis.count)
    for k in a..<b { glyphs.append(TextLayout.Glyph(id: g[k].glyph, x: Double(g[k].pen - origin) * scale)) }
    var pen = penAfter
    var previous = b > a ? g[b - 1].glyph : nil
    for e in ellipsis {
      if let p = previous { pen += font.kerning(p, e) }
      glyphs.append(TextLayout.Glyph(id: e, x: Double(pen) * scale))
      pen += font.advance(of: e)
      previous = e
    }
    let first = a < g.count ? g[a].source : 0
    return TextLayout.Line(
      glyphs: glyphs, origin: .zero, width: Double(pen) * scale,
      scalarRange: first..<(b > a ? g[b - 1].source + 1 : first), isTruncated: true)
  }

  /// Every line of `string`, not yet aligned (origins are zero).
  mutating func layout(_ string: String, width: Double?, height: Double?) -> [TextLayout.Line] {
    let metrics = style.lineMetrics
    let limit = width.map { $0 / scale + 1e-6 } ?? .infinity
    let truncating = style.truncation == .end && width != nil
    var maxLines = Int.max
    if style.wraps, style.truncation == .end, let h = height {
      let extra = (h - metrics.ascent - metrics.descent) / metrics.lineHeight
      maxLines = extra >= 0 ? Int(min(1e9, (extra + 1e-9).rounded(.down))) + 1 : 1
    }
    let paragraphs = LineBreaker.paragraphs(string)
    var out: [TextLayout.Line] = []
    for (p, paragraph) in paragraphs.enumerated() {
      let g = shape(paragraph)
      let ranges = style.wraps && width != nil ? LineBreaker.wrap(g, limit: limit) : [0..<g.count]
      for (i, r) in ranges.enumerated() {
        if out.count == maxLines - 1 {
          let isLastOfAll = i == ranges.count - 1 && p == paragraphs.count - 1
          if !isLastOfAll {
            // The last line that fits: the rest of its paragraph, ending in an ellipsis.
            out.append(makeLine(g, r.lowerBound..<g.count, truncate: true, limit: limit, force: true))
            return out
          }
        }
        out.append(makeLine(g, r, truncate: truncating && !style.wraps, limit: limit, force: false))
      }
    }
    return out
  }
}
