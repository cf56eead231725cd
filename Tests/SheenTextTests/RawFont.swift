import Foundation

/// An independent, minimal reader of a few TrueType tables, so tests compare the parser against
/// the bytes rather than against itself. Traps on malformed input: use it on the bundled fonts.
struct RawFont {
  let bytes: [UInt8]
  var tables: [String: (offset: Int, length: Int)] = [:]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    let n = Int(u16(4))
    for i in 0..<n {
      let r = 12 + 16 * i
      let tag = String(decoding: bytes[r..<(r + 4)], as: UTF8.self)
      tables[tag] = (Int(u32(r + 8)), Int(u32(r + 12)))
    }
  }

  func u16(_ o: Int) -> UInt16 { UInt16(bytes[o]) << 8 | UInt16(bytes[o + 1]) }
  func i16(_ o: Int) -> Int { Int(Int16(bitPattern: u16(o))) }
  func u32(_ o: Int) -> UInt32 { UInt32(u16(o)) << 16 | UInt32(u16(o + 2)) }

  func table(_ tag: String) -> Int { tables[tag]!.offset }

  var numGlyphs: Int { Int(u16(table("maxp") + 4)) }

  /// `hmtx` advance of glyph `g`.
  func advance(_ g: Int) -> Int {
    let nh = Int(u16(table("hhea") + 34))
    return Int(u16(table("hmtx") + 4 * min(g, nh - 1)))
  }

  /// The first `kern` subtable's format 0 value for a pair (linear search), or 0.
  func kern(_ l: Int, _ r: Int) -> Int {
    let t = table("kern")
    let sub = t + 4
    let nPairs = Int(u16(sub + 6))
    for i in 0..<nPairs {
      let p = sub + 14 + 6 * i
      if Int(u16(p)) == l && Int(u16(p + 2)) == r { return i16(p + 4) }
    }
    return 0
  }

  /// The `glyf` header box of glyph `g`, or nil when empty.
  func box(_ g: Int) -> (Int, Int, Int, Int)? {
    let long = i16(table("head") + 50) == 1
    let loca = table("loca")
    let a = long ? Int(u32(loca + 4 * g)) : Int(u16(loca + 2 * g)) * 2
    let b = long ? Int(u32(loca + 4 * g + 4)) : Int(u16(loca + 2 * g + 2)) * 2
    if a == b { return nil }
    let o = table("glyf") + a
    return (i16(o + 2), i16(o + 4), i16(o + 6), i16(o + 8))
  }

  /// Whether glyph `g` is composite (negative contour count).
  func isComposite(_ g: Int) -> Bool {
    let long = i16(table("head") + 50) == 1
    let loca = table("loca")
    let a = long ? Int(u32(loca + 4 * g)) : Int(u16(loca + 2 * g)) * 2
    return i16(table("glyf") + a) < 0
  }
}
