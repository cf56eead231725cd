import Foundation
import SheenRaster
import Testing

@testable import SheenText

/// Layout in many scripts, through a font library of its own reading the tests' fontconfig
/// configuration (Tests/Fonts/fonts.conf), so the fonts are the same on every machine.
@Suite struct ScriptLayoutTests {
  static let library = FontLibrary(
    configurationFile: checkoutDirectory.appendingPathComponent("Tests/Fonts/fonts.conf").path)

  func style(
    _ size: Double = 20, _ alignment: TextAlignment = .natural, wraps: Bool = false,
    truncation: TextTruncation = .none, family: String = "DejaVu Sans", weight: FontWeight = .regular
  ) -> TextStyle {
    TextStyle(
      family: ScriptLayoutTests.library.family(family, weight: weight), size: size, alignment: alignment,
      wraps: wraps, truncation: truncation)
  }

  /// Each glyph's font family, in visual order.
  func families(_ layout: TextLayout) -> [String] {
    layout.lines.flatMap { $0.glyphs.map { layout.fonts[Int($0.font)].familyName } }
  }

  @Test func fallbackFontsDrawWhatTheFamilyLacks() throws {
    let layout = TextLayout("Aあ한😀", style: style())
    #expect(families(layout) == ["DejaVu Sans", "Noto Sans CJK JP", "Noto Sans CJK JP", "Noto Color Emoji"])
    #expect(layout.lines[0].glyphs.allSatisfy { $0.id != .notdef })
    #expect(layout.hasColorGlyphs)
    // Without fallback (a font loaded alone) the same text draws missing-glyph boxes.
    let alone = TextLayout("Aあ", style: TextStyle(font: try Font.regular, size: 20))
    #expect(alone.lines[0].glyphs.map(\.id).last == .notdef)
  }

  @Test func spacesKeepTheirNeighboursFont() {
    // Pango's rule: a space between two CJK characters is drawn by the CJK font.
    let layout = TextLayout("日本 語", style: style())
    #expect(Set(families(layout)) == ["Noto Sans CJK JP"])
  }

  @Test func weightsPickTheNearestFace() throws {
    #expect(ScriptLayoutTests.library.family("DejaVu Sans", weight: .bold).primary === (try Font.bold))
    #expect(ScriptLayoutTests.library.family("DejaVu Sans", weight: .black).primary === (try Font.bold))
    #expect(ScriptLayoutTests.library.family("DejaVu Sans", weight: .medium).primary === (try Font.regular))
    let light = try #require(ScriptLayoutTests.library.family("DejaVu Sans", weight: .ultraLight).primary)
    #expect(light.name == "DejaVuSans-ExtraLight.ttf")
    let noto = try #require(ScriptLayoutTests.library.family("Noto Sans", weight: .semibold).primary)
    #expect(noto.familyName.hasPrefix("Noto Sans"))
    // A family nobody has is fontconfig's default (this configuration's sans-serif).
    let none = try #require(ScriptLayoutTests.library.family("No Such Family", weight: .regular).primary)
    #expect(none.familyName == "DejaVu Sans")
  }

  /// The glyph of `c` in the layout's first font that has it.
  func glyph(_ c: Unicode.Scalar, _ layout: TextLayout) -> GlyphID {
    layout.fonts.first { $0.hasGlyph(for: c) }!.glyphIndex(for: c)
  }

  @Test func rightToLeftParagraphsReadRightToLeftAndAlignRight() {
    // A Hebrew paragraph with a Latin word: the Latin keeps its order, the Hebrew reverses, and
    // the Latin word (logically last) sits at the left.
    let s = "שלום abc"
    let layout = TextLayout(s, style: style(), width: 300)
    let line = layout.lines[0]
    #expect(line.isRightToLeft)
    #expect(abs(line.origin.x + line.width - 300) < 1e-9)
    let ids = line.glyphs.map(\.id)
    let expected: [Unicode.Scalar] = ["a", "b", "c", " ", "ם", "ו", "ל", "ש"]
    #expect(ids == expected.map { glyph($0, layout) })
    // Pens increase left to right.
    #expect(zip(line.glyphs, line.glyphs.dropFirst()).allSatisfy { $0.x < $1.x })
    // Left alignment still puts it at the left.
    #expect(TextLayout(s, style: style(20, .left), width: 300).lines[0].origin.x == 0)
  }

  @Test func leftToRightParagraphsKeepEmbeddedRightToLeftRuns() {
    let layout = TextLayout("ab שלום cd", style: style(), width: 300)
    let line = layout.lines[0]
    #expect(!line.isRightToLeft && line.origin.x == 0)
    let expected: [Unicode.Scalar] = ["a", "b", " ", "ם", "ו", "ל", "ש", " ", "c", "d"]
    #expect(line.glyphs.map(\.id) == expected.map { glyph($0, layout) })
  }

  @Test func arabicJoinsAndDevanagariMakesConjuncts() {
    // Joined, beh takes its initial and final forms: not the isolated glyph the cmap maps to.
    let layout = TextLayout("بب", style: style())
    let isolated = glyph("ب", layout)
    #expect(layout.lines[0].glyphs.count == 2)
    #expect(layout.lines[0].glyphs.allSatisfy { $0.id != isolated })
    // क + ् + ष is one conjunct glyph (kssa) in Noto Sans Devanagari.
    let ksha = TextLayout("क्ष", style: style())
    #expect(families(ksha) == ["Noto Sans Devanagari"])
    #expect(ksha.lines[0].glyphs.count == 1)
    // Latin ligatures: "fi" is one glyph in DejaVu Sans.
    #expect(TextLayout("fi", style: style()).glyphCount == 1)
  }

  @Test func truncationEndsInReadingOrder() {
    let e = glyph("\u{2026}", TextLayout("…", style: style()))
    let rtl = TextLayout("مرحبا بالعالم العربي الكبير", style: style(truncation: .end), width: 120)
    let r = rtl.lines[0]
    #expect(r.isTruncated && r.isRightToLeft && r.width <= 120)
    // The ellipsis ends the line in reading order: at its left in Arabic.
    #expect(r.glyphs.first?.id == e)
    #expect(abs(r.origin.x + r.width - 120) < 1e-9)
    let ltr = TextLayout("A line far too long for its box", style: style(truncation: .end), width: 120)
    #expect(ltr.lines[0].glyphs.last?.id == e && ltr.lines[0].width <= 120)
  }

  /// "…" replaces the start, the middle or the end in reading order: in Hebrew the start is at
  /// the right, so the start's ellipsis is the rightmost glyph and the end's the leftmost.
  @Test(arguments: [TextTruncation.start, .middle, .end])
  func truncationAtTheStartMiddleOrEndInReadingOrder(_ mode: TextTruncation) {
    let e = glyph("\u{2026}", TextLayout("…", style: style()))
    let latin = "abcdefghijklmnopqrstuvwxyz"
    let hebrew = "אבגדהוזחטיכלמנסעפצקרשת"
    for (text, rtl) in [(latin, false), (hebrew, true)] {
      let layout = TextLayout(text, style: style(truncation: mode), width: 120)
      let line = layout.lines[0]
      let scalars = Array(text.unicodeScalars)
      let first = glyph(scalars.first!, layout)
      let last = glyph(scalars.last!, layout)
      #expect(line.isTruncated && line.isRightToLeft == rtl && line.width <= 120, "\(mode) \(text)")
      // In visual order, left to right: the reading start is the left end in Latin, the right
      // in Hebrew.
      let ids = rtl ? Array(line.glyphs.map(\.id).reversed()) : line.glyphs.map(\.id)
      let position = ids.firstIndex(of: e)
      switch mode {
      case .start:
        #expect(position == 0 && ids.last == last, "\(text)")
        #expect(line.scalarRange.upperBound == scalars.count)
      case .middle:
        #expect(ids.first == first && ids.last == last, "\(text)")
        #expect(
          position.map { $0 > 2 && $0 < ids.count - 3 } ?? false,
          "\(text): ellipsis at \(String(describing: position))")
      case .end, .none:
        #expect(ids.first == first && position == ids.count - 1, "\(text)")
        #expect(line.scalarRange.lowerBound == 0)
      }
      // Text that fits is not truncated.
      #expect(!TextLayout("abc", style: style(truncation: mode), width: 120).isTruncated)
    }
  }

  /// Wrapped with a height, the last line that fits shows the rest of its paragraph truncated
  /// the same way: at the start, "…" and then the paragraph's end.
  @Test func wrappedTextTruncatesItsLastLine() {
    let text = "one two three four five six seven eight nine ten eleven twelve"
    let m = style().lineMetrics
    let twoLines = m.lineHeight + m.ascent + m.descent
    let head = TextLayout(text, style: style(wraps: true, truncation: .start), width: 150, height: twoLines)
    #expect(head.lines.count == 2 && !head.lines[0].isTruncated && head.lines[1].isTruncated)
    #expect(head.lines[1].scalarRange.upperBound == text.unicodeScalars.count)
    let e = glyph("\u{2026}", TextLayout("…", style: style()))
    #expect(head.lines[1].glyphs.first?.id == e)
    let tail = TextLayout(text, style: style(wraps: true, truncation: .end), width: 150, height: twoLines)
    #expect(tail.lines.count == 2 && tail.lines[1].glyphs.last?.id == e)
  }

  /// Character wrapping fills each line up to the width, breaking inside words; word wrapping
  /// breaks only between them.
  @Test func characterWrappingBreaksInsideWords() {
    let text = "Wonderful typography everywhere"
    let words = TextLayout(text, style: style(wraps: true), width: 150)
    var st = style(wraps: true)
    st.wrapping = .characters
    let chars = TextLayout(text, style: st, width: 150)
    let scalars = Array(text.unicodeScalars)
    #expect(chars.lines.count >= 2)
    #expect(chars.lines[0].scalarRange.upperBound > words.lines[0].scalarRange.upperBound)
    // A line ends inside a word: a letter on each side of the break.
    let cut = chars.lines[0].scalarRange.upperBound
    #expect(scalars[cut - 1].properties.isAlphabetic && scalars[cut].properties.isAlphabetic)
    for line in chars.lines { #expect(line.width <= 150) }
    // Every character is on exactly one line, in order.
    #expect(chars.lines.map(\.scalarRange.count).reduce(0, +) == scalars.count)
    // The next character would not have fitted.
    let wider = TextLayout(String(String.UnicodeScalarView(scalars[0...cut])), style: style())
    #expect(wider.size.width > 150)
  }

  /// Thai has no spaces between words: lines break between words found by libthai's dictionary
  /// (as Pango does), never inside one, and not only at the spaces.
  @Test func thaiBreaksBetweenDictionaryWords() {
    let text = "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำ"
    let layout = TextLayout(text, style: style(wraps: true), width: 200)
    #expect(layout.lines.count >= 2)
    let scalars = Array(text.unicodeScalars)
    // libthai's words: ภาษา|ไทย|เป็น|ภาษา|ที่|ไม่|มี|การ|เว้นวรรค|ระหว่าง|คำ (its breaks may
    // differ in places; every line must end where it finds a word boundary).
    let breaks = Set(ThaiBreaker.breaks(ArraySlice(scalars.map(\.value))))
    #expect(breaks.contains(4) && breaks.contains(7))
    for line in layout.lines.dropLast() {
      #expect(breaks.contains(line.scalarRange.upperBound), "\(line.scalarRange)")
    }
  }

  @Test func japaneseWrapsBetweenIdeographsNeverBeforeAFullStop() {
    let s = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。"
    let layout = TextLayout(s, style: style(wraps: true), width: 150)
    #expect(layout.lines.count > 2)
    let scalars = Array(s.unicodeScalars)
    for line in layout.lines {
      #expect(line.width <= 150)
      #expect(scalars[line.scalarRange.lowerBound] != "。" && scalars[line.scalarRange.lowerBound] != "、")
    }
    // Every character is on exactly one line, in order.
    #expect(layout.lines.map(\.scalarRange.count).reduce(0, +) == scalars.count)
  }

  @Test func theTallestFontSetsTheLine() {
    let latin = TextLayout("A", style: style())
    let mixed = TextLayout("A日", style: style())
    let cjk = ScriptLayoutTests.library.family("Noto Sans CJK JP").primary!.lineMetrics(size: 20)
    #expect(cjk.ascent > latin.lines[0].metrics.ascent)
    #expect(abs(mixed.lines[0].origin.y - cjk.ascent) < 1e-9)
    #expect(abs(mixed.size.height - (cjk.ascent + cjk.descent)) < 1e-9)
  }

  @Test func layoutsAreCachedPerStringFamilySizeAndWidth() {
    let st = style()
    let s = "cached \(UUID().uuidString) مرحبا"
    // This test's own shapings (`TextLayout.shapingCount` is process-wide: other tests running
    // at the same time add to it).
    let tally = ShapingTally()
    let a = tally.counting { TextLayout.cached(s, style: st, width: 200) }
    let afterFirst = tally.shapings
    let b = tally.counting { TextLayout.cached(s, style: st, width: 200) }
    #expect(afterFirst > 0)
    #expect(tally.shapings == afterFirst)
    #expect(a.lines[0].glyphs == b.lines[0].glyphs)
    tally.counting { _ = TextLayout.cached(s, style: st, width: 201) }
    #expect(tally.shapings > afterFirst)
  }

  @Test func colourEmojiKeepTheirColours() throws {
    let layout = TextLayout("😀", style: style(40))
    let renderer = TextRenderer()
    let s = try Surface(width: 80, height: 80)
    let canvas = Canvas(surface: s)
    canvas.clear(.white)
    canvas.drawText(layout, at: Point(x: 10, y: 10), color: .black, renderer: renderer)
    var yellow = 0
    for y in 0..<80 {
      for x in 0..<80 {
        let p = s[x, y]
        if (p >> 16) & 0xFF > 200 && (p >> 8) & 0xFF > 150 && p & 0xFF < 100 { yellow += 1 }
      }
    }
    #expect(yellow > 400)
    // The recorded coverage leaves colour glyphs out (they are drawn as images).
    #expect(renderer.coverage(of: layout, at: .zero, transform: .identity) == nil)
    // Drawn again, the scaled image comes from the cache, blitted pixel for pixel.
    let font = layout.fonts[Int(layout.lines[0].glyphs[0].font)]
    let image = try #require(
      renderer.cache.colorGlyph(font: font, glyph: layout.lines[0].glyphs[0].id, pixelSize: 40))
    let onClear = try Surface(width: image.image.width, height: image.image.height)
    Canvas(surface: onClear).blit(image.image, x: 0, y: 0)
    #expect(onClear.pixels == image.image.pixels)
    let before = renderer.cache.statistics.rasterizations
    canvas.drawText(layout, at: Point(x: 10, y: 10), color: .black, renderer: renderer)
    #expect(renderer.cache.statistics.rasterizations == before)
  }
}
