import Foundation
import SheenRaster
import Testing

@testable import SheenText

@Suite struct LayoutTests {
  let font: Font
  init() throws { font = try Font.regular }

  func style(
    _ size: Double = 14, _ alignment: TextAlignment = .left, wraps: Bool = false,
    truncation: TextTruncation = .none
  ) -> TextStyle {
    TextStyle(font: font, size: size, alignment: alignment, wraps: wraps, truncation: truncation)
  }

  /// The text each line shows (source scalars), plus "…" when truncated.
  func texts(_ s: String, _ layout: TextLayout) -> [String] {
    let scalars = Array(s.unicodeScalars)
    return layout.lines.map { line in
      var v = String.UnicodeScalarView()
      v.append(contentsOf: scalars[line.scalarRange])
      return String(v) + (line.isTruncated ? "…" : "")
    }
  }

  func width(_ s: String, _ st: TextStyle? = nil) -> Double {
    TextLayout.measure(s, style: st ?? style()).width
  }

  /// Styles made again for one font (the Wayland title bar and the frame-time plot make theirs
  /// each time they draw) share one family, so the second layout comes from the cache.
  @Test func stylesForOneFontShareTheirLayouts() {
    let a = TextStyle(font: font, size: 13)
    let b = TextStyle(font: font, size: 13)
    #expect(a.family === b.family)
    let text = "A title drawn again \(UUID().uuidString)"
    let tally = ShapingTally()
    let (first, second) = tally.counting {
      (TextLayout.cached(text, style: a), TextLayout.cached(text, style: b))
    }
    #expect(tally.shapings == 1)
    #expect(first.size == second.size)
    // Another font gets another family (and never the first font's glyphs).
    let bold = try? Font.bundled(.bold)
    if let bold { #expect(TextStyle(font: bold, size: 13).family !== a.family) }
  }

  @Test func linesSitAtAscentAndLineHeight() {
    let st = style(17)
    let m = font.lineMetrics(size: 17)
    #expect(abs(m.ascent - 1901.0 * 17 / 2048) < 1e-12)
    #expect(abs(m.descent - 483.0 * 17 / 2048) < 1e-12)
    #expect(m.lineGap == 0)
    let layout = TextLayout("one\ntwo\nthree", style: st)
    #expect(layout.lines.count == 3)
    for (i, line) in layout.lines.enumerated() {
      #expect(abs(line.origin.y - (m.ascent + Double(i) * m.lineHeight)) < 1e-9)
      #expect(line.origin.x == 0)
    }
    #expect(abs(layout.size.height - (2 * m.lineHeight + m.ascent + m.descent)) < 1e-9)
    #expect(layout.size.width == width("three", st))
  }

  @Test func lineBreaksAndEmptyStrings() {
    #expect(TextLayout("", style: style()).lines.isEmpty)
    #expect(TextLayout("", style: style()).size == .zero)
    #expect(TextLayout("ab\n", style: style()).lines.count == 1)
    #expect(TextLayout("\n", style: style()).lines.count == 1)
    #expect(TextLayout("a\n\nb", style: style()).lines.count == 3)
    #expect(TextLayout("a\r\nb\rc", style: style()).lines.count == 3)
    #expect(texts("ab\ncd", TextLayout("ab\ncd", style: style())) == ["ab", "cd"])
  }

  @Test func missingScalarsDrawTheNotdefBox() {
    let layout = TextLayout("a\u{E000}b", style: style())
    let ids = layout.lines[0].glyphs.map(\.id)
    #expect(ids == [font.glyphIndex(for: "a"), .notdef, font.glyphIndex(for: "b")])
    #expect(font.boundingBox(of: .notdef) != nil)
    // Zero-width and control characters draw nothing.
    #expect(TextLayout("a\u{200B}b\u{7}", style: style()).glyphCount == 2)
  }

  @Test func wrapsAtWordBoundaries() {
    let s = "The quick brown fox jumps over the lazy dog"
    let st = style(14, wraps: true)
    // Just wider than "The quick brown", narrower than "The quick brown fox".
    let w = width("The quick brown") + 1
    #expect(width("The quick brown fox") > w)
    let layout = TextLayout(s, style: st, width: w)
    #expect(texts(s, layout) == ["The quick brown ", "fox jumps over ", "the lazy dog"])
    for line in layout.lines { #expect(line.width <= w) }
    // The trailing space hangs: the first line is exactly as wide as its words.
    #expect(abs(layout.lines[0].width - width("The quick brown")) < 1e-9)
    #expect(layout.size.width == layout.lines.map(\.width).max())
    // Unwrapped, the same string is one line however narrow the width.
    #expect(TextLayout(s, style: style(14), width: w).lines.count == 1)
  }

  @Test func breaksAfterHyphens() {
    let s = "well-known words"
    let w = width("well-kno")
    #expect(texts(s, TextLayout(s, style: style(14, wraps: true), width: w)) == ["well-", "known ", "words"])
  }

  @Test func longWordsBreakBetweenCharacters() {
    let s = "a Supercalifragilistic word"
    let w = width("Supercal") + 0.5
    let layout = TextLayout(s, style: style(14, wraps: true), width: w)
    let lines = texts(s, layout)
    #expect(lines == ["a ", "Supercal", "ifragilis", "tic word"] || lines.first == "a ")
    #expect(lines.joined() == s)
    for line in layout.lines { #expect(line.width <= w + 1e-9) }
    #expect(lines[1] == "Supercal")
    // A width narrower than one character still makes progress, a character per line.
    let narrow = TextLayout("abc", style: style(14, wraps: true), width: 1)
    #expect(texts("abc", narrow) == ["a", "b", "c"])
  }

  @Test func unwrappedLinesTruncateAtTheEnd() {
    let s = "Hello, wonderful world"
    let st = style(14, truncation: .end)
    let w = width("Hello, wonder")
    let layout = TextLayout(s, style: st, width: w)
    #expect(layout.lines.count == 1)
    #expect(layout.isTruncated)
    let line = layout.lines[0]
    #expect(line.glyphs.last?.id == font.glyphIndex(for: "\u{2026}"))
    #expect(line.width <= w)
    // "Hello, wonde" + "…" fits where "Hello, wonder" did, being narrower than "r".
    #expect(texts(s, layout) == ["Hello, wond…"] || texts(s, layout) == ["Hello, wonde…"])
    #expect(abs(line.width - width(texts(s, layout)[0], st)) < 1e-9)
    // Text that fits is left alone.
    let fits = TextLayout("Hello", style: st, width: w)
    #expect(!fits.isTruncated)
    #expect(texts("Hello", fits) == ["Hello"])
    // Each line truncates on its own.
    let two = TextLayout("Hello, wonderful world\nHi", style: st, width: w)
    #expect(two.lines.map(\.isTruncated) == [true, false])
    // Without a width nothing truncates.
    #expect(!TextLayout(s, style: st).isTruncated)
    // Spaces before the ellipsis are dropped.
    let spaced = TextLayout("Hello      world", style: st, width: width("Hello\u{2026}") + 0.1)
    #expect(texts("Hello      world", spaced) == ["Hello…"])
  }

  @Test func wrappedTextKeepsTheLinesThatFitAndEndsInAnEllipsis() {
    let s = "The quick brown fox jumps over the lazy dog"
    let st = style(14, wraps: true, truncation: .end)
    let m = font.lineMetrics(size: 14)
    let w = width("The quick brown") + 1
    // Room for two lines (and a bit, not enough for a third).
    let twoLines = m.lineHeight + m.ascent + m.descent + 5
    let layout = TextLayout(s, style: st, width: w, height: twoLines)
    let lines = texts(s, layout)
    #expect(lines.count == 2)
    #expect(lines[0] == "The quick brown ")
    // The last kept line shows as much of the rest as fits, then the ellipsis.
    // ("over…" is wider than "over the", so here it is "fox jumps ove…".)
    #expect(lines[1] == "fox jumps ove…")
    #expect(lines[1].hasSuffix("…"))
    #expect(layout.lines[1].isTruncated)
    #expect(layout.lines[1].width <= w)
    #expect(layout.lines[1].glyphs.last?.id == font.glyphIndex(for: "\u{2026}"))
    #expect(layout.size.height <= twoLines)
    // Too short for even one line: one line is kept.
    let one = TextLayout(s, style: st, width: w, height: 3)
    #expect(one.lines.count == 1)
    #expect(one.isTruncated)
    // Everything fits: no ellipsis.
    let all = TextLayout(s, style: st, width: w, height: 1000)
    #expect(all.lines.count == 3)
    #expect(!all.isTruncated)
    // A later paragraph that does not fit is marked on the last line even if that line fits.
    let paragraphs = TextLayout("Short\nSecond line", style: st, width: w, height: m.ascent + m.descent)
    #expect(texts("Short\nSecond line", paragraphs) == ["Short…"])
    // Without truncation every line is kept (the caller clips).
    let clipped = TextLayout(s, style: style(14, wraps: true), width: w, height: twoLines)
    #expect(clipped.lines.count == 3)
  }

  @Test func alignmentPlacesLinesWithinTheWidth() {
    let w = 200.0
    let s = "Hi there\nA longer second line"
    for alignment in [TextAlignment.left, .center, .right] {
      let layout = TextLayout(s, style: style(14, alignment), width: w)
      for line in layout.lines {
        let expected: Double
        switch alignment {
        case .left, .natural: expected = 0
        case .center: expected = (w - line.width) / 2
        case .right: expected = w - line.width
        }
        #expect(abs(line.origin.x - expected) < 1e-9)
      }
    }
    // Without a width, lines align within the widest.
    let free = TextLayout(s, style: style(14, .right))
    #expect(abs(free.lines[1].origin.x) < 1e-9)
    #expect(abs(free.lines[0].origin.x + free.lines[0].width - free.size.width) < 1e-9)
    // Trailing spaces hang outside the alignment.
    let spaced = TextLayout("Hi   ", style: style(14, .right), width: w)
    #expect(abs(spaced.lines[0].origin.x - (w - width("Hi"))) < 1e-9)
  }
}
