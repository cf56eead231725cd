import Foundation
import SheenRaster
import Testing

@testable import SheenText

@Suite struct FontTests {
  @Test func bundledFontsLoadWithHheaMetrics() throws {
    for weight in Font.Weight.allCases {
      let font = try Font.bundled(weight)
      let raw = RawFont(try fontBytes(weight))
      #expect(font.unitsPerEm == 2048)
      #expect(font.glyphCount == raw.numGlyphs)
      let hhea = raw.table("hhea")
      #expect(font.ascender == raw.i16(hhea + 4))
      #expect(font.descender == raw.i16(hhea + 6))
      #expect(font.lineGap == raw.i16(hhea + 8))
      // fontTools 4.x, TTFont(...)['hhea']: ascent 1901, descent -483, lineGap 0 for both weights.
      #expect(font.ascender == 1901 && font.descender == -483 && font.lineGap == 0)
    }
    #expect(try Font.regular === Font.bundled(.regular))
  }

  @Test func cmapMapsScalarsLikeFontTools() throws {
    let font = try Font.regular
    // fontTools getBestCmap() + getGlyphID(): A 36, V 57, T 55, o 82, space 3, é 171, … 2825.
    let expected: [(Unicode.Scalar, UInt16)] = [
      ("A", 36), ("V", 57), ("T", 55), ("o", 82), (" ", 3), ("é", 171), ("\u{2026}", 2825),
    ]
    for (scalar, glyph) in expected {
      #expect(font.glyphIndex(for: scalar) == GlyphID(glyph), "\(scalar)")
    }
    // A scalar DejaVu lacks (a Linear B syllable, via format 12) and a private-use one.
    #expect(font.glyphIndex(for: "\u{10000}") == .notdef)
    #expect(font.glyphIndex(for: "\u{E000}") == .notdef)
  }

  @Test func advancesEqualTheRawTables() throws {
    for weight in Font.Weight.allCases {
      let font = try Font.bundled(weight)
      let raw = RawFont(try fontBytes(weight))
      for c in "AVTo LYé…".unicodeScalars {
        let g = font.glyphIndex(for: c)
        #expect(font.advance(of: g) == raw.advance(Int(g.rawValue)), "\(weight) \(c)")
      }
    }
    // fontTools: hmtx['A'] = (1401, 16) regular, (1585, 10) bold.
    let regular = try Font.regular
    let bold = try Font.bold
    #expect(regular.advance(of: regular.glyphIndex(for: "A")) == 1401)
    #expect(bold.advance(of: bold.glyphIndex(for: "A")) == 1585)
  }

  @Test func layoutAdvancesByHmtxPlusKerning() throws {
    // HarfBuzz applies DejaVu's GPOS kerning, which carries the values of its kern table (read
    // here from the bytes): fontTools kern AV = -131, To = -348 (regular).
    for weight in Font.Weight.allCases {
      let font = try Font.bundled(weight)
      let raw = RawFont(try fontBytes(weight))
      let style = TextStyle(font: font, size: 2048)  // one point per font unit
      let layout = TextLayout("AVTo", style: style)
      let ids = "AVTo".unicodeScalars.map { Int(font.glyphIndex(for: $0).rawValue) }
      var pen = 0
      var expected: [Double] = []
      for (i, g) in ids.enumerated() {
        if i > 0 { pen += raw.kern(ids[i - 1], g) }
        expected.append(Double(pen))
        pen += raw.advance(g)
      }
      #expect(layout.lines[0].glyphs.map(\.x) == expected, "\(weight)")
      if weight == .regular { #expect(raw.kern(ids[0], ids[1]) == -131 && raw.kern(ids[2], ids[3]) == -348) }
    }
  }

  @Test func glyphBoxesMatchGlyfHeaders() throws {
    for weight in Font.Weight.allCases {
      let font = try Font.bundled(weight)
      let raw = RawFont(try fontBytes(weight))
      for g in stride(from: 0, to: raw.numGlyphs, by: 7) {
        let box = font.boundingBox(of: GlyphID(UInt16(g)))
        if let (x0, y0, x1, y1) = raw.box(g) {
          // HarfBuzz places the outline so that its left edge sits at the hmtx left side
          // bearing (as FreeType does), which a few DejaVu glyphs put one unit off the header.
          let b = try #require(box, "glyph \(g)")
          #expect(abs(b.xMin - x0) <= 1 && abs(b.xMax - x1) <= 1 && b.xMax - b.xMin == x1 - x0, "glyph \(g)")
          #expect(b.yMin == y0 && b.yMax == y1, "glyph \(g)")
        } else {
          #expect(box == nil)
        }
      }
      // fontTools glyf headers: A 16 0 1384 1493, o 113 -29 1141 1147 (regular).
      if weight == .regular {
        #expect(
          font.boundingBox(of: font.glyphIndex(for: "A"))
            == GlyphBox(xMin: 16, yMin: 0, xMax: 1384, yMax: 1493))
        #expect(
          font.boundingBox(of: font.glyphIndex(for: "o"))
            == GlyphBox(xMin: 113, yMin: -29, xMax: 1141, yMax: 1147))
      }
    }
  }

  @Test func simpleOutlinesStayInsideTheirBoxes() throws {
    let font = try Font.regular
    let raw = RawFont(try fontBytes(.regular))
    for g in stride(from: 1, to: raw.numGlyphs, by: 3) where !raw.isComposite(g) {
      guard let (x0, y0, x1, y1) = raw.box(g) else { continue }
      let b = font.outline(of: GlyphID(UInt16(g))).controlBounds
      // Points (on and off curve) span the glyf header's box for simple glyphs. A few DejaVu
      // headers are off by one unit from their points (fontTools decodes the same points).
      #expect(abs(b.width - Double(x1 - x0)) <= 2, "glyph \(g)")
      #expect(abs(b.minY - Double(y0)) <= 1 && abs(b.maxY - Double(y1)) <= 1, "glyph \(g)")
    }
  }

  @Test func compositeGlyphIsTheSumOfItsParts() throws {
    let font = try Font.regular
    let raw = RawFont(try fontBytes(.regular))
    let eacute = font.glyphIndex(for: "é")
    #expect(raw.isComposite(Int(eacute.rawValue)))
    let e = font.outline(of: font.glyphIndex(for: "e"))
    // fontTools: eacute = e at (0, 0) + acute at (139, 0).
    let acute = font.outline(
      of: font.glyphIndex(for: "\u{B4}"), transform: Transform(translationX: 139, y: 0))
    let whole = font.outline(of: eacute)
    #expect(whole.elements.count == e.elements.count + acute.elements.count)
    #expect(Array(whole.elements.prefix(e.elements.count)) == e.elements)
    #expect(Array(whole.elements.suffix(acute.elements.count)) == acute.elements)
  }

  @Test func cffCollectionsAndColourBitmapsLoad() throws {
    // Noto Sans CJK is an OpenType collection of CFF faces; Noto Color Emoji holds PNG bitmaps.
    let cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    let jp = try Font(contentsOfFile: cjk, index: 0)
    #expect(jp.familyName.hasPrefix("Noto Sans CJK"))
    let kanji = jp.glyphIndex(for: "\u{65E5}")  // 日
    #expect(kanji != .notdef)
    let b = jp.outline(of: kanji).controlBounds
    #expect(b.width > 500 && b.height > 500)  // 1000 units per em
    #expect(!jp.hasColorBitmaps)
    let color = try Font(contentsOfFile: emoji)
    #expect(color.hasColorBitmaps)
    let grin = color.glyphIndex(for: "\u{1F600}")
    let png = try #require(color.colorPNG(of: grin))
    let image = try Surface(pngData: png)
    #expect(image.width >= 100 && image.height >= 100)
    #expect(color.outline(of: grin).isEmpty)
  }
}
