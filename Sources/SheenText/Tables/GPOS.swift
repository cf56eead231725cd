/// `GPOS` pair adjustment (lookup type 2, formats 1 and 2, also inside type 9 extensions) from
/// the lookups of every `kern` feature.
///
/// Only the first glyph's x advance is applied, which is what pair kerning stores; placements
/// and the second glyph's value record are read past, not applied. Structure is validated when
/// the font loads; coverage and class look-ups read the bytes on demand.
struct PairPositioning: Sendable {
  private enum Subtable: Sendable {
    case pairs(TableReader, coverage: TableReader, size1: Int, size2: Int, advance: Int?, sets: Int)
    case classes(
      TableReader, coverage: TableReader, class1: TableReader, class2: TableReader,
      size1: Int, size2: Int, advance: Int?, count1: Int, count2: Int)
  }

  /// Pair subtables, one array per lookup, in lookup order.
  private var lookups: [[Subtable]] = []

  var isEmpty: Bool { lookups.isEmpty }

  init(_ dir: TableDirectory) throws {
    guard let gpos = dir.optionalTable("GPOS") else { return }
    guard try gpos.u16(0) == 1 else { throw gpos.malformed("unknown major version") }
    let features = try gpos.sub(Int(try gpos.u16(6)))
    let lookupList = try gpos.sub(Int(try gpos.u16(8)))

    var indices = Set<Int>()
    let featureCount = Int(try features.u16(0))
    for i in 0..<featureCount where try features.tagString(2 + i * 6) == "kern" {
      let feature = try features.sub(Int(try features.u16(2 + i * 6 + 4)))
      let n = Int(try feature.u16(2))
      for k in 0..<n { indices.insert(Int(try feature.u16(4 + k * 2))) }
    }
    let lookupCount = Int(try lookupList.u16(0))
    for index in indices.sorted() {
      guard index < lookupCount else { throw gpos.malformed("kern feature names missing lookup \(index)") }
      let lookup = try lookupList.sub(Int(try lookupList.u16(2 + index * 2)))
      let type = try lookup.u16(0)
      guard type == 2 || type == 9 else { continue }
      var subtables: [Subtable] = []
      for s in 0..<Int(try lookup.u16(4)) {
        var sub = try lookup.sub(Int(try lookup.u16(6 + s * 2)))
        if type == 9 {
          guard try sub.u16(2) == 2 else { continue }
          sub = try sub.sub(Int(try sub.u32(4)))
        }
        subtables.append(try PairPositioning.parse(sub))
      }
      if !subtables.isEmpty { lookups.append(subtables) }
    }
  }

  private static func valueSize(_ format: UInt16) -> Int { (format & 0xFF).nonzeroBitCount * 2 }

  /// Where XAdvance sits in a value record of `format`, or nil when it has none.
  private static func advanceOffset(_ format: UInt16) -> Int? {
    format & 0x4 == 0 ? nil : (format & 0x3).nonzeroBitCount * 2
  }

  private static func parse(_ sub: TableReader) throws -> Subtable {
    let format = try sub.u16(0)
    let coverage = try sub.sub(Int(try sub.u16(2)))
    try validateCoverage(coverage)
    let vf1 = try sub.u16(4)
    let vf2 = try sub.u16(6)
    let size1 = valueSize(vf1)
    let size2 = valueSize(vf2)
    switch format {
    case 1:
      let sets = Int(try sub.u16(8))
      try sub.check(10, sets * 2, "\(sets) pair sets")
      return .pairs(
        sub, coverage: coverage, size1: size1, size2: size2, advance: advanceOffset(vf1), sets: sets)
    case 2:
      let class1 = try sub.sub(Int(try sub.u16(8)))
      let class2 = try sub.sub(Int(try sub.u16(10)))
      try validateClassDef(class1)
      try validateClassDef(class2)
      let count1 = Int(try sub.u16(12))
      let count2 = Int(try sub.u16(14))
      try sub.check(16, count1 * count2 * (size1 + size2), "\(count1)x\(count2) class records")
      return .classes(
        sub, coverage: coverage, class1: class1, class2: class2, size1: size1, size2: size2,
        advance: advanceOffset(vf1), count1: count1, count2: count2)
    default:
      throw sub.malformed("pair adjustment format \(format) is unknown")
    }
  }

  private static func validateCoverage(_ c: TableReader) throws {
    let n = Int(try c.u16(2))
    switch try c.u16(0) {
    case 1: try c.check(4, n * 2, "\(n) coverage glyphs")
    case 2: try c.check(4, n * 6, "\(n) coverage ranges")
    default: throw c.malformed("coverage format is unknown")
    }
  }

  private static func validateClassDef(_ c: TableReader) throws {
    switch try c.u16(0) {
    case 1:
      let n = Int(try c.u16(4))
      try c.check(6, n * 2, "\(n) class values")
    case 2:
      let n = Int(try c.u16(2))
      try c.check(4, n * 6, "\(n) class ranges")
    default: throw c.malformed("class definition format is unknown")
    }
  }

  /// The coverage index of `g`, or nil when the table does not cover it.
  private static func coverageIndex(_ c: TableReader, _ g: UInt16) throws -> Int? {
    let n = Int(try c.u16(2))
    var lo = 0
    var hi = n
    if try c.u16(0) == 1 {
      while lo < hi {
        let mid = (lo + hi) / 2
        let v = try c.u16(4 + mid * 2)
        if v == g { return mid }
        if v < g { lo = mid + 1 } else { hi = mid }
      }
      return nil
    }
    while lo < hi {
      let mid = (lo + hi) / 2
      let r = 4 + mid * 6
      if try c.u16(r + 2) < g {
        lo = mid + 1
      } else if try c.u16(r) > g {
        hi = mid
      } else {
        return Int(try c.u16(r + 4)) + Int(g - (try c.u16(r)))
      }
    }
    return nil
  }

  /// The class of `g` (0 when unlisted).
  private static func classOf(_ c: TableReader, _ g: UInt16) throws -> Int {
    if try c.u16(0) == 1 {
      let start = try c.u16(2)
      let n = Int(try c.u16(4))
      guard g >= start, Int(g - start) < n else { return 0 }
      return Int(try c.u16(6 + Int(g - start) * 2))
    }
    var lo = 0
    var hi = Int(try c.u16(2))
    while lo < hi {
      let mid = (lo + hi) / 2
      let r = 4 + mid * 6
      if try c.u16(r + 2) < g {
        lo = mid + 1
      } else if try c.u16(r) > g {
        hi = mid
      } else {
        return Int(try c.u16(r + 4))
      }
    }
    return 0
  }

  /// The summed x-advance adjustment for `left` followed by `right`, in font units.
  func adjustment(_ left: UInt16, _ right: UInt16) -> Int {
    var total = 0
    for lookup in lookups {
      // Within a lookup, the first subtable that applies to the pair wins.
      for sub in lookup {
        if let v = try? PairPositioning.apply(sub, left, right) {
          total += v
          break
        }
      }
    }
    return total
  }

  /// The adjustment from one subtable, or nil when it does not apply to the pair.
  private static func apply(_ sub: Subtable, _ left: UInt16, _ right: UInt16) throws -> Int? {
    switch sub {
    case .pairs(let t, let coverage, let size1, let size2, let advance, let sets):
      guard let i = try coverageIndex(coverage, left), i < sets else { return nil }
      let set = try t.sub(Int(try t.u16(10 + i * 2)))
      let record = 2 + size1 + size2
      var lo = 0
      var hi = Int(try set.u16(0))
      while lo < hi {
        let mid = (lo + hi) / 2
        let r = 2 + mid * record
        let second = try set.u16(r)
        if second == right {
          guard let a = advance else { return 0 }
          return Int(try set.i16(r + 2 + a))
        }
        if second < right { lo = mid + 1 } else { hi = mid }
      }
      return nil
    case .classes(
      let t, let coverage, let class1, let class2, let size1, let size2, let advance, let count1, let count2):
      guard try coverageIndex(coverage, left) != nil else { return nil }
      let c1 = try classOf(class1, left)
      let c2 = try classOf(class2, right)
      guard c1 < count1, c2 < count2 else { return nil }
      guard let a = advance else { return 0 }
      return Int(try t.i16(16 + (c1 * count2 + c2) * (size1 + size2) + a))
    }
  }
}
