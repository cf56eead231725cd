import Foundation
import SheenRaster
import SheenText

/// Text of several attribute runs (fonts, sizes, colours, `.kern`) laid out in lines, as UIKit's
/// string drawing lays out an attributed string: what `StringDrawingStyle`'s single-style
/// `TextLayout` cannot hold.
///
/// Each paragraph is cut into pieces at attribute changes, at UAX #14 line-break opportunities
/// (`LineBreaking`, as `TextLayout` breaks) and between spaces and the rest; each piece is shaped
/// on its own (`TextLayout.cached`, with fontconfig's fallbacks) and spaced by its kerning
/// (`kern` points after every glyph, the last one too, as Core Text adds it). Lines break
/// greedily between pieces at opportunities, with the kerning counted; a word longer than a
/// line breaks between grapheme clusters; trailing spaces hang. A line is as tall as the
/// tallest font on it and its pieces share one baseline. Alignment is per paragraph (its first
/// character's paragraph style); truncation (`.byTruncatingTail`, `Head`, `Middle`) cuts the
/// line's pieces at grapheme clusters around an ellipsis in the style of the text it replaces.
///
/// Unlike Core Text: shaping does not reach across pieces (no kerning pair between a word and
/// the space after it), and a paragraph's pieces are placed left to right in logical order (a
/// right-to-left run reads correctly within each of its words, not across them).
struct AttributedTextLayout {
  struct Piece {
    var text: String
    /// Index in `styles`.
    var style: Int
    var isSpace: Bool
    /// The advance, kerning included.
    var width: Double
    /// The shaped glyphs (nil for spaces).
    var layout: TextLayout?
    /// The pen position from the line's start.
    var x = 0.0
    /// Whether a line may break before the piece.
    var breaksBefore = false
  }

  struct Line {
    var pieces: [Piece] = []
    /// Without trailing spaces.
    var width = 0.0
    var metrics = LineMetrics(ascent: 0, descent: 0, lineGap: 0)
    /// The alignment offset (x) and the baseline (y) from the layout's top-left.
    var origin = Point.zero
    var top = 0.0
    var alignment = NSTextAlignment.natural
  }

  let styles: [StringDrawingStyle]
  private(set) var lines: [Line] = []
  /// The widest line by the sum of the lines' heights.
  private(set) var size = CGSize.zero

  /// Lays out `runs` (each a string and the index of its style in `styles`), wrapped or
  /// truncated to `width` per the first style's line break mode, keeping lines within `height`
  /// when truncating.
  init(runs: [(String, Int)], styles: [StringDrawingStyle], width: Double?, height: Double?) {
    self.styles = styles
    guard let first = styles.first else { return }
    let mode = first.lineBreak
    let wraps = width != nil && mode != .byClipping
    let truncates =
      width != nil && [.byTruncatingTail, .byTruncatingHead, .byTruncatingMiddle].contains(mode)
    let wrapLines = wraps && (!truncates || height != nil)
    let limit = (width ?? .infinity) + 1e-6

    var lines: [Line] = []
    var top = 0.0
    var stop = false
    let paragraphs = Self.paragraphs(runs)
    for (pi, paragraph) in paragraphs.enumerated() where !stop {
      let alignment = styles[paragraph.first?.1 ?? paragraph.emptyStyle].alignment
      let pieces = pieces(of: paragraph, characters: mode == .byCharWrapping)
      var paragraphLines: [[Piece]] = wrapLines ? wrap(pieces, limit: limit) : [pieces]
      if paragraphLines.isEmpty { paragraphLines = [[]] }
      for (li, linePieces) in paragraphLines.enumerated() {
        var line = makeLine(linePieces, emptyStyle: paragraph.emptyStyle)
        let isLastOfAll = li == paragraphLines.count - 1 && pi == paragraphs.count - 1
        if truncates, wrapLines, let h = height {
          let nextTop = top + line.metrics.lineHeight
          let nextFits = nextTop + line.metrics.ascent + line.metrics.descent <= h + 1e-9
          if !isLastOfAll && !nextFits {
            // The last line that fits shows the rest of its paragraph, truncated.
            line = makeLine(
              truncate(Array(paragraphLines[li...].joined()), limit: limit, mode: mode, force: true),
              emptyStyle: paragraph.emptyStyle)
            stop = true
          }
        } else if truncates && !wrapLines && line.width > limit {
          line = makeLine(
            truncate(linePieces, limit: limit, mode: mode, force: false), emptyStyle: paragraph.emptyStyle)
        }
        line.alignment = alignment
        line.top = top
        line.origin.y = top + line.metrics.ascent
        top += line.metrics.lineHeight
        lines.append(line)
        if stop { break }
      }
    }
    let widest = lines.reduce(0) { max($0, $1.width) }
    let box = width ?? widest
    for i in lines.indices {
      switch lines[i].alignment {
      case .center: lines[i].origin.x = (box - lines[i].width) / 2
      case .right: lines[i].origin.x = box - lines[i].width
      default: lines[i].origin.x = 0
      }
    }
    self.lines = lines
    size = CGSize(width: CGFloat(widest), height: CGFloat(top))
  }

  // MARK: Paragraphs and pieces

  struct Paragraph {
    var scalars: [(Unicode.Scalar, Int)] = []
    /// The style an empty paragraph takes its height from.
    var emptyStyle = 0
    var first: (Unicode.Scalar, Int)? { scalars.first }
  }

  /// The runs' scalars split at line breaks (`\n`, `\r\n`, `\r`, U+2028, U+2029 and the other
  /// mandatory ones); a break at the very end adds no paragraph.
  static func paragraphs(_ runs: [(String, Int)]) -> [Paragraph] {
    var out: [Paragraph] = []
    var current = Paragraph()
    var previousWasCR = false
    var any = false
    for (text, style) in runs {
      for s in text.unicodeScalars {
        if !any { current.emptyStyle = style }
        any = true
        if s.value == 0x0A && previousWasCR {
          previousWasCR = false
          continue
        }
        previousWasCR = s.value == 0x0D
        if [0x0A, 0x0D, 0x2028, 0x2029, 0x0B, 0x0C, 0x85].contains(s.value) {
          out.append(current)
          current = Paragraph(emptyStyle: style)
        } else {
          current.scalars.append((s, style))
        }
      }
    }
    if any && (!current.scalars.isEmpty || out.isEmpty) { out.append(current) }
    return out
  }

  /// Spaces that hang at a line's end (`TextLayout`'s set): a tab counts as one space.
  static func isSpace(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    return v == 0x20 || v == 0x09 || v == 0x1680 || (0x2000...0x200A).contains(v) && v != 0x2007
      || v == 0x205F || v == 0x3000
  }

  /// A paragraph cut into pieces: at style changes, at line-break opportunities (or, with
  /// `characters`, between any two grapheme clusters) and where spaces start or end. A piece
  /// after an opportunity starts a word (`breaksBefore`).
  func pieces(of paragraph: Paragraph, characters: Bool) -> [Piece] {
    let scalars = paragraph.scalars.map(\.0)
    let n = scalars.count
    if n == 0 { return [] }
    let graphemes = Self.graphemeStarts(scalars)
    var breaks = characters ? graphemes : LineBreaking.opportunities(scalars)
    var cuts = breaks
    for i in 1..<n {
      // Never inside a grapheme cluster; always where the style or the spacing changes.
      if !graphemes[i] {
        cuts[i] = false
        breaks[i] = false
      } else if paragraph.scalars[i].1 != paragraph.scalars[i - 1].1
        || Self.isSpace(scalars[i]) != Self.isSpace(scalars[i - 1])
      {
        cuts[i] = true
      }
    }
    var out: [Piece] = []
    var start = 0
    for i in 1...n where cuts[i] {
      var p = piece(String(String.UnicodeScalarView(scalars[start..<i])), style: paragraph.scalars[start].1)
      p.breaksBefore = start > 0 && breaks[start]
      out.append(p)
      start = i
    }
    return out
  }

  /// Whether each scalar starts a grapheme cluster (UAX #29, by Swift's `String`); `n + 1`
  /// entries.
  static func graphemeStarts(_ scalars: [Unicode.Scalar]) -> [Bool] {
    var out = [Bool](repeating: false, count: scalars.count + 1)
    out[scalars.count] = true
    var k = 0
    for c in String(String.UnicodeScalarView(scalars)) {
      if k < out.count { out[k] = true }
      k += c.unicodeScalars.count
    }
    return out
  }

  /// `text` in style `i`, shaped and measured.
  func piece(_ text: String, style i: Int) -> Piece {
    let st = styles[i]
    if let f = text.unicodeScalars.first, Self.isSpace(f) {
      var w = 0.0
      if let face = st.font.face {
        let s = Double(st.font.pointSize) / Double(face.unitsPerEm)
        for u in text.unicodeScalars {
          w += Double(face.advance(of: face.glyphIndex(for: u.value == 0x09 ? " " : u))) * s + st.kern
        }
      }
      return Piece(text: text, style: i, isSpace: true, width: w, layout: nil)
    }
    guard let layout = st.layout(text, width: nil, height: nil) else {
      return Piece(text: text, style: i, isSpace: false, width: 0, layout: nil)
    }
    let w = (layout.lines.first?.width ?? 0) + st.kern * Double(layout.glyphCount)
    return Piece(text: text, style: i, isSpace: false, width: w, layout: layout)
  }

  // MARK: Lines

  /// The width of `pieces` without trailing spaces.
  static func trimmedWidth(_ pieces: some Collection<Piece>) -> Double {
    var total = 0.0
    var spaces = 0.0
    for p in pieces {
      if p.isSpace {
        spaces += p.width
      } else {
        total += spaces + p.width
        spaces = 0
      }
    }
    return total
  }

  /// Greedy line breaking: pieces after an opportunity start a new word; a word that does not
  /// fit goes to the next line, and one longer than a line breaks between grapheme clusters.
  func wrap(_ pieces: [Piece], limit: Double) -> [[Piece]] {
    // Words: pieces from one opportunity to the next (trailing spaces included).
    var words: [[Piece]] = []
    for p in pieces {
      if words.isEmpty || p.breaksBefore {
        words.append([p])
      } else {
        words[words.count - 1].append(p)
      }
    }
    var lines: [[Piece]] = []
    var line: [Piece] = []
    var lineWidth = 0.0  // with trailing spaces
    var i = 0
    while i < words.count {
      let word = words[i]
      let w = Self.trimmedWidth(word)
      if line.isEmpty || lineWidth + w <= limit {
        if line.isEmpty && w > limit, let split = splitIntoGraphemes(word), split.count > 1 {
          words.replaceSubrange(i...i, with: split)
          continue
        }
        line += word
        lineWidth += word.reduce(0) { $0 + $1.width }
        i += 1
      } else {
        lines.append(line)
        line = []
        lineWidth = 0
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }

  /// A word's pieces cut into one piece per grapheme cluster (each word of its own), or nil.
  func splitIntoGraphemes(_ word: [Piece]) -> [[Piece]]? {
    var out: [[Piece]] = []
    for p in word {
      if p.isSpace, !out.isEmpty {
        out[out.count - 1].append(p)
        continue
      }
      for c in p.text { out.append([piece(String(c), style: p.style)]) }
    }
    return out.isEmpty ? nil : out
  }

  /// Pieces placed on one line, with the line's width and metrics.
  func makeLine(_ pieces: [Piece], emptyStyle: Int) -> Line {
    var line = Line()
    var x = 0.0
    var m: LineMetrics? = nil
    for var p in pieces {
      p.x = x
      x += p.width
      line.pieces.append(p)
      let f = styles[p.style].metrics
      m =
        m.map {
          LineMetrics(
            ascent: max($0.ascent, f.ascent), descent: max($0.descent, f.descent),
            lineGap: max($0.lineGap, f.lineGap))
        } ?? f
    }
    line.metrics = m ?? styles[emptyStyle].metrics
    line.width = Self.trimmedWidth(pieces)
    return line
  }

  // MARK: Truncation

  /// The line's pieces with an ellipsis replacing their end, start or middle (per `mode`) so
  /// that they fit `limit`; with `force`, the ellipsis shows even when they fit.
  func truncate(_ pieces: [Piece], limit: Double, mode: NSLineBreakMode, force: Bool) -> [Piece] {
    var pieces = pieces
    while pieces.last?.isSpace == true { pieces.removeLast() }
    while pieces.first?.isSpace == true && mode == .byTruncatingHead { pieces.removeFirst() }
    if !force && Self.trimmedWidth(pieces) <= limit { return pieces }
    guard let firstStyle = pieces.first?.style, let lastStyle = pieces.last?.style else { return pieces }
    switch mode {
    case .byTruncatingHead:
      let e = piece("\u{2026}", style: firstStyle)
      return [e] + tail(pieces, budget: limit - e.width)
    case .byTruncatingMiddle:
      let e = piece("\u{2026}", style: pieces[pieces.count / 2].style)
      let budget = limit - e.width
      let h = head(pieces, budget: budget / 2)
      let t = tail(pieces, budget: budget - Self.trimmedWidth(h))
      return h + [e] + t
    default:
      let kept = head(pieces, budget: limit)
      let e = piece("\u{2026}", style: kept.last?.style ?? lastStyle)
      return head(pieces, budget: limit - e.width) + [e]
    }
  }

  /// The longest start of `pieces` (cut at a grapheme cluster) no wider than `budget`, trailing
  /// spaces dropped.
  func head(_ pieces: [Piece], budget: Double) -> [Piece] {
    var out: [Piece] = []
    var used = 0.0
    for p in pieces {
      if used + p.width <= budget {
        out.append(p)
        used += p.width
        continue
      }
      if !p.isSpace {
        // As many of its grapheme clusters as fit.
        let chars = Array(p.text)
        var best: Piece? = nil
        for k in stride(from: chars.count - 1, through: 1, by: -1) {
          let q = piece(String(chars[0..<k]), style: p.style)
          if used + q.width <= budget {
            best = q
            break
          }
        }
        if let best { out.append(best) }
      }
      break
    }
    while out.last?.isSpace == true { out.removeLast() }
    return out
  }

  /// The shortest end of `pieces` (cut at a grapheme cluster) no wider than `budget`, leading
  /// spaces dropped.
  func tail(_ pieces: [Piece], budget: Double) -> [Piece] {
    var out: [Piece] = []
    var used = 0.0
    for p in pieces.reversed() {
      if used + p.width <= budget {
        out.insert(p, at: 0)
        used += p.width
        continue
      }
      if !p.isSpace {
        let chars = Array(p.text)
        for k in 1..<max(1, chars.count) {
          let q = piece(String(chars[k...]), style: p.style)
          if used + q.width <= budget {
            out.insert(q, at: 0)
            break
          }
        }
      }
      break
    }
    while out.first?.isSpace == true { out.removeFirst() }
    return out
  }

  // MARK: Drawing

  /// Draws the lines with the layout's top-left at `origin` (user space) in the current context,
  /// clipped to `clip` when given.
  func draw(at origin: Point, clip: Rect?) {
    guard let cg = UIGraphicsGetCurrentContext(), !lines.isEmpty else { return }
    let canvas = cg.canvas
    canvas.save()
    if let clip { canvas.clip(to: clip) }
    cg.painting {
      for line in lines {
        let x0 = origin.x + line.origin.x
        for p in line.pieces {
          let st = styles[p.style]
          if let bg = st.background, bg.alpha > 0 {
            canvas.fill(
              Rect(x: x0 + p.x, y: origin.y + line.top, width: p.width, height: line.metrics.lineHeight),
              paint: .solid(bg))
          }
          guard let layout = p.layout, let first = layout.lines.first, st.color.alpha > 0 else { continue }
          st.draw(layout, at: Point(x: x0 + p.x, y: origin.y + line.origin.y - first.origin.y), in: canvas)
        }
      }
    }
    canvas.restore()
  }
}
