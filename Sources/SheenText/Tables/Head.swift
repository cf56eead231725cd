/// The fixed-size header tables: `head` (units per em, `loca` format), `maxp` (glyph count) and
/// `hhea` (vertical metrics and the number of `hmtx` records).
struct HeaderTables: Sendable {
  var unitsPerEm: Int
  /// 0: `loca` holds 16-bit offsets divided by two; 1: 32-bit offsets.
  var indexToLocFormat: Int
  /// The union of all glyph bounding boxes, in font units.
  var xMin: Int, yMin: Int, xMax: Int, yMax: Int
  var numGlyphs: Int
  var ascent: Int
  var descent: Int
  var lineGap: Int
  var numberOfHMetrics: Int

  init(_ dir: TableDirectory) throws {
    let head = try dir.table("head")
    try head.check(0, 54, "the 54-byte header")
    guard try head.u32(12) == 0x5F0F_3CF5 else { throw head.malformed("bad magic number") }
    unitsPerEm = Int(try head.u16(18))
    guard (16...16384).contains(unitsPerEm) else {
      throw head.malformed("unitsPerEm \(unitsPerEm) is outside 16...16384")
    }
    xMin = Int(try head.i16(36))
    yMin = Int(try head.i16(38))
    xMax = Int(try head.i16(40))
    yMax = Int(try head.i16(42))
    indexToLocFormat = Int(try head.i16(50))
    guard indexToLocFormat == 0 || indexToLocFormat == 1 else {
      throw head.malformed("indexToLocFormat \(indexToLocFormat) is neither 0 nor 1")
    }

    let maxp = try dir.table("maxp")
    numGlyphs = Int(try maxp.u16(4))
    guard numGlyphs > 0 else { throw maxp.malformed("the font has no glyphs") }

    let hhea = try dir.table("hhea")
    try hhea.check(0, 36, "the 36-byte header")
    ascent = Int(try hhea.i16(4))
    descent = Int(try hhea.i16(6))
    lineGap = Int(try hhea.i16(8))
    numberOfHMetrics = Int(try hhea.u16(34))
    guard numberOfHMetrics >= 1 else { throw hhea.malformed("numberOfHMetrics is 0") }
    guard numberOfHMetrics <= numGlyphs else {
      throw hhea.malformed("numberOfHMetrics \(numberOfHMetrics) exceeds the \(numGlyphs) glyphs")
    }
  }
}

/// `hmtx`: the advance width of every glyph, expanded to one entry per glyph.
enum HorizontalMetrics {
  /// Advances in font units, `numGlyphs` entries (glyphs past the last record repeat its advance).
  static func advances(_ dir: TableDirectory, header h: HeaderTables) throws -> [UInt16] {
    let hmtx = try dir.table("hmtx")
    let n = h.numberOfHMetrics
    // Long records (advance, lsb) for the first n glyphs, then a bare lsb for each other glyph.
    try hmtx.check(0, n * 4 + (h.numGlyphs - n) * 2, "metrics of \(h.numGlyphs) glyphs")
    var out = [UInt16](repeating: 0, count: h.numGlyphs)
    for i in 0..<n { out[i] = try hmtx.u16(i * 4) }
    let last = out[n - 1]
    for i in n..<h.numGlyphs { out[i] = last }
    return out
  }
}
