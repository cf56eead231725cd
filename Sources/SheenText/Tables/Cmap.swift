/// `cmap`: Unicode scalar to glyph index, from a format 4 (BMP) or format 12 (full Unicode)
/// subtable.
///
/// The arrays are validated once when the font loads; look-ups then binary-search the file's
/// bytes directly. Latin-1 scalars, the common case in UI text, come from a small table.
struct CharacterMap: Sendable {
  private let table: TableReader
  private let format: Int
  private let count: Int
  private let numGlyphs: Int
  /// Glyphs of U+0000...U+00FF.
  private var latin1 = [UInt16](repeating: 0, count: 256)

  init(_ dir: TableDirectory, numGlyphs: Int) throws {
    let cmap = try dir.table("cmap")
    let n = Int(try cmap.u16(2))
    try cmap.check(4, n * 8, "\(n) encoding records")
    // Preference: full-repertoire Unicode (format 12), then BMP Unicode (format 4).
    var best: (rank: Int, offset: Int, format: Int)? = nil
    for i in 0..<n {
      let platform = try cmap.u16(4 + i * 8)
      let encoding = try cmap.u16(6 + i * 8)
      let offset = Int(try cmap.u32(8 + i * 8))
      let format = Int(try cmap.u16(offset))
      let rank: Int
      switch (platform, encoding, format) {
      case (3, 10, 12), (0, 4, 12), (0, 6, 12): rank = 3
      case (3, 1, 4), (0, 3, 4): rank = 2
      case (0, _, 4): rank = 1
      default: continue
      }
      if best == nil || rank > best!.rank { best = (rank, offset, format) }
    }
    guard let chosen = best else {
      throw FontError.unsupported(table: "cmap", reason: "no Unicode subtable of format 4 or 12")
    }
    format = chosen.format
    self.numGlyphs = numGlyphs
    if format == 4 {
      let sub = try cmap.sub(chosen.offset)
      let segCount = Int(try sub.u16(6)) / 2
      guard segCount > 0 else { throw cmap.malformed("format 4 subtable has no segments") }
      try sub.check(14, segCount * 8 + 2, "\(segCount) format 4 segments")
      table = sub
      count = segCount
    } else {
      let sub = try cmap.sub(chosen.offset)
      let groups = Int(try sub.u32(12))
      try sub.check(16, groups.multipliedReportingOverflow(by: 12).partialValue, "\(groups) format 12 groups")
      guard groups <= sub.count / 12 else {
        throw cmap.malformed("format 12 group count \(groups) is absurd")
      }
      table = sub
      count = groups
    }
    for c in 0..<256 { latin1[c] = lookup(UInt32(c)) }
  }

  /// The glyph for `scalar`, or 0 (the missing glyph) when the font has none.
  @inline(__always) func glyph(for scalar: UInt32) -> UInt16 {
    scalar < 256 ? latin1[Int(scalar)] : lookup(scalar)
  }

  private func lookup(_ c: UInt32) -> UInt16 {
    let g = (format == 4 ? try? format4(c) : try? format12(c)) ?? 0
    return Int(g) < numGlyphs ? g : 0
  }

  private func format4(_ c: UInt32) throws -> UInt16 {
    guard c <= 0xFFFF else { return 0 }
    let endCodes = 14
    let startCodes = endCodes + count * 2 + 2
    let deltas = startCodes + count * 2
    let rangeOffsets = deltas + count * 2
    // The first segment whose end code is >= c.
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo + hi) / 2
      if UInt32(try table.u16(endCodes + mid * 2)) < c { lo = mid + 1 } else { hi = mid }
    }
    guard lo < count else { return 0 }
    let start = UInt32(try table.u16(startCodes + lo * 2))
    guard start <= c else { return 0 }
    let delta = try table.u16(deltas + lo * 2)
    let rangeOffset = Int(try table.u16(rangeOffsets + lo * 2))
    if rangeOffset == 0 { return UInt16(truncatingIfNeeded: c) &+ delta }
    // idRangeOffset counts bytes from its own position into glyphIdArray.
    let g = try table.u16(rangeOffsets + lo * 2 + rangeOffset + Int(c - start) * 2)
    return g == 0 ? 0 : g &+ delta
  }

  private func format12(_ c: UInt32) throws -> UInt16 {
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo + hi) / 2
      if try table.u32(16 + mid * 12 + 4) < c { lo = mid + 1 } else { hi = mid }
    }
    guard lo < count else { return 0 }
    let g = 16 + lo * 12
    let start = try table.u32(g)
    guard start <= c else { return 0 }
    let glyph = UInt64(try table.u32(g + 8)) + UInt64(c - start)
    return glyph <= 0xFFFF ? UInt16(glyph) : 0
  }
}
