/// `kern`: pair kerning from format 0 subtables (Microsoft's version 0 header and Apple's
/// version 1 header). Horizontal, non-minimum, non-cross-stream subtables only.
enum KernTable {
  /// Adjustments in font units keyed by `left << 16 | right`.
  static func pairs(_ dir: TableDirectory) throws -> [UInt32: Int16] {
    guard let kern = dir.optionalTable("kern") else { return [:] }
    var pairs: [UInt32: Int16] = [:]
    let version = try kern.u16(0)
    var offset: Int
    let tableCount: Int
    let apple = version == 1
    if apple {
      guard try kern.u16(2) == 0 else { throw kern.malformed("unknown version") }
      tableCount = Int(try kern.u32(4))
      offset = 8
    } else {
      guard version == 0 else { throw kern.malformed("unknown version \(version)") }
      tableCount = Int(try kern.u16(2))
      offset = 4
    }
    for _ in 0..<min(tableCount, 1 << 16) {
      guard offset < kern.count else { throw kern.truncated("subtable at \(offset)") }
      let length: Int
      let format: UInt16
      let usable: Bool
      let header: Int
      if apple {
        length = Int(try kern.u32(offset))
        let coverage = try kern.u16(offset + 4)
        format = coverage & 0xFF
        usable = coverage & 0xE000 == 0  // not vertical, cross-stream or variation
        header = 8
      } else {
        length = Int(try kern.u16(offset + 2))
        let coverage = try kern.u16(offset + 4)
        format = coverage >> 8
        usable = coverage & 0x0007 == 0x0001  // horizontal, not minimum, not cross-stream
        header = 6
      }
      if format == 0 && usable {
        let n = Int(try kern.u16(offset + header))
        let first = offset + header + 8
        try kern.check(first, n * 6, "\(n) kerning pairs")
        for i in 0..<n {
          let p = first + i * 6
          let key = UInt32(try kern.u16(p)) << 16 | UInt32(try kern.u16(p + 2))
          pairs[key, default: 0] &+= try kern.i16(p + 4)
        }
        // The 16-bit length of a large format 0 subtable overflows; its pairs say where it ends.
        offset = max(offset + length, first + n * 6)
      } else {
        guard length >= header else { throw kern.malformed("subtable length \(length) is too small") }
        offset += length
      }
      if offset >= kern.count { break }
    }
    return pairs
  }
}
