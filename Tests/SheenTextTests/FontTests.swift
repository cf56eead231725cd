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

  @Test func advancesAndKerningEqualTheRawTables() throws {
    for weight in Font.Weight.allCases {
      let font = try Font.bundled(weight)
      let raw = RawFont(try fontBytes(weight))
      for pair in ["AV", "To", "VA", "LT", "Yo", "AT", "oo"] {
        let s = Array(pair.unicodeScalars)
        let l = font.glyphIndex(for: s[0])
        let r = font.glyphIndex(for: s[1])
        #expect(font.advance(of: l) == raw.advance(Int(l.rawValue)))
        #expect(font.advance(of: r) == raw.advance(Int(r.rawValue)))
        let k = raw.kern(Int(l.rawValue), Int(r.rawValue))
        #expect(font.kernTableKerning(l, r) == k, "\(weight) \(pair) kern table")
        // DejaVu's GPOS kern lookups carry the same values as its kern table.
        #expect(font.gposKerning(l, r) == k, "\(weight) \(pair) GPOS")
        #expect(font.kerning(l, r) == k)
      }
      #expect(font.kerningSource == .gpos)
    }
    // fontTools: hmtx['A'] = (1401, 16), kern AV = -131, To = -348 (regular);
    // bold: hmtx['A'] = (1585, 10), AV = -139, To = -272.
    let regular = try Font.regular
    let bold = try Font.bold
    func g(_ f: Font, _ c: Unicode.Scalar) -> GlyphID { f.glyphIndex(for: c) }
    #expect(regular.advance(of: g(regular, "A")) == 1401)
    #expect(regular.kerning(g(regular, "A"), g(regular, "V")) == -131)
    #expect(regular.kerning(g(regular, "T"), g(regular, "o")) == -348)
    #expect(bold.advance(of: g(bold, "A")) == 1585)
    #expect(bold.kerning(g(bold, "A"), g(bold, "V")) == -139)
    #expect(bold.kerning(g(bold, "T"), g(bold, "o")) == -272)
  }

  @Test func gposAndKernTableAgreeOnEveryKernTablePair() throws {
    // DejaVu carries its kerning twice; the two parsers read independent encodings (class-based
    // GPOS format 2 against a flat pair list), so agreement on every pair checks both.
    for weight in Font.Weight.allCases {
      let font = try Font.bundled(weight)
      var disagreements = 0
      for (key, value) in font.kernPairs {
        let l = GlyphID(UInt16(key >> 16))
        let r = GlyphID(UInt16(key & 0xFFFF))
        if font.gposKerning(l, r) != Int(value) { disagreements += 1 }
      }
      #expect(font.kernPairs.count > 1000)
      #expect(disagreements == 0, "\(weight): \(disagreements) of \(font.kernPairs.count) pairs differ")
    }
  }

  @Test func layoutAdvancesByHmtxPlusKerning() throws {
    let font = try Font.regular
    let style = TextStyle(font: font, size: 2048)  // one point per font unit
    let layout = TextLayout("AVTo", style: style)
    let xs = layout.lines[0].glyphs.map(\.x)
    // A (1401) then kern AV -131; V (1401) + kern VT; T (1251) + kern To -348.
    let vt = font.kerning(font.glyphIndex(for: "V"), font.glyphIndex(for: "T"))
    #expect(
      xs == [0, 1401 - 131, Double(1401 - 131 + 1401 + vt), Double(1401 - 131 + 1401 + vt + 1251 - 348)])
  }

  @Test func glyphBoxesMatchGlyfHeaders() throws {
    for weight in Font.Weight.allCases {
      let font = try Font.bundled(weight)
      let raw = RawFont(try fontBytes(weight))
      for g in stride(from: 0, to: raw.numGlyphs, by: 7) {
        let box = font.boundingBox(of: GlyphID(UInt16(g)))
        if let (x0, y0, x1, y1) = raw.box(g) {
          #expect(box == GlyphBox(xMin: x0, yMin: y0, xMax: x1, yMax: y1))
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
      guard let box = font.boundingBox(of: GlyphID(UInt16(g))) else { continue }
      let o = font.outline(of: GlyphID(UInt16(g)))
      // Points (on and off curve) span the header's box for simple glyphs. A few DejaVu headers
      // are off by one unit from their points (fontTools decodes the same points).
      let xs = o.points.map(\.x)
      let ys = o.points.map(\.y)
      #expect(abs(xs.min()! - Double(box.xMin)) <= 1 && abs(xs.max()! - Double(box.xMax)) <= 1, "glyph \(g)")
      #expect(abs(ys.min()! - Double(box.yMin)) <= 1 && abs(ys.max()! - Double(box.yMax)) <= 1, "glyph \(g)")
    }
  }

  @Test func compositeGlyphIsTheSumOfItsParts() throws {
    let font = try Font.regular
    let raw = RawFont(try fontBytes(.regular))
    let eacute = font.glyphIndex(for: "é")
    #expect(raw.isComposite(Int(eacute.rawValue)))
    let e = font.outline(of: font.glyphIndex(for: "e"))
    let acute = font.outline(of: font.glyphIndex(for: "\u{B4}"))
    let whole = font.outline(of: eacute)
    // fontTools: eacute = e at (0, 0) + acute at (139, 0).
    #expect(whole.contourEnds.count == e.contourEnds.count + acute.contourEnds.count)
    #expect(Array(whole.points.prefix(e.points.count)) == e.points)
    let shiftedAccent = acute.points.map { OutlinePoint(x: $0.x + 139, y: $0.y, onCurve: $0.onCurve) }
    #expect(Array(whole.points.suffix(acute.points.count)) == shiftedAccent)
    let box = font.boundingBox(of: eacute)!
    #expect(Double(box.yMax) == whole.points.map(\.y).max())
  }
}
