/// `GPOS` pair adjustment (lookup type 2, formats 1 and 2, also inside type 9 extensions) from
/// the lookups of every `kern` feature.
///
/// Only the first glyph's x advance is applied, which is what pair kerning stores; placements
/// and the second glyph's value record are read past, not applied. Everything is read and
/// validated when the font loads into arrays indexed by glyph, so a look-up during layout is a
/// few array reads rather than binary searches through the file.
struct PairPositioning: Sendable {
  private enum Subtable: Sendable {
    /// Format 1: explicit pairs keyed by `left << 16 | right`; covered first glyphs without the
    /// pair fall through to the next subtable.
    case pairs([UInt32: Int16])
    /// Format 2: `class1[left]` (-1 when not covered) and `class2[right]` index `values`.
    case classes(class1: [Int32], class2: [UInt16], count2: Int, values: [Int16])
  }

  /// Pair subtables, one array per lookup, in lookup order.
  private var lookups: [[Subtable]] = []

  var isEmpty: Bool { lookups.isEmpty }

  init(_ dir: TableDirectory, numGlyphs: Int) throws {
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
        subtables.append(try PairPositioning.parse(sub, numGlyphs: numGlyphs))
      }
      if !subtables.isEmpty { lookups.append(subtables) }
    }
  }

  private static func valueSize(_ format: UInt16) -> Int { (format & 0xFF).nonzeroBitCount * 2 }

  /// Where XAdvance sits in a value record of `format`, or nil when it has none.
  private static func advanceOffset(_ format: UInt16) -> Int? {
    format & 0x4 == 0 ? nil : (format & 0x3).nonzeroBitCount * 2
  }

  private static func parse(_ sub: TableReader, numGlyphs: Int) throws -> Subtable {
    let format = try sub.u16(0)
    let covered = try coverage(try sub.sub(Int(try sub.u16(2))))
    let vf1 = try sub.u16(4)
    let vf2 = try sub.u16(6)
    let record = valueSize(vf1) + valueSize(vf2)
    let advance = advanceOffset(vf1)
    switch format {
    case 1:
      let sets = Int(try sub.u16(8))
      try sub.check(10, sets * 2, "\(sets) pair sets")
      var pairs: [UInt32: Int16] = [:]
      for (index, left) in covered.enumerated() where index < sets {
        let set = try sub.sub(Int(try sub.u16(10 + index * 2)))
        let n = Int(try set.u16(0))
        try set.check(2, n * (2 + record), "\(n) pair records")
        for k in 0..<n {
          let r = 2 + k * (2 + record)
          let key = UInt32(left) << 16 | UInt32(try set.u16(r))
          pairs[key] = try advance.map { try set.i16(r + 2 + $0) } ?? 0
        }
      }
      return .pairs(pairs)
    case 2:
      let count1 = Int(try sub.u16(12))
      let count2 = Int(try sub.u16(14))
      try sub.check(16, count1 * count2 * record, "\(count1)x\(count2) class records")
      var class1 = [Int32](repeating: -1, count: numGlyphs)
      let classes1 = try classes(try sub.sub(Int(try sub.u16(8))), numGlyphs: numGlyphs)
      for g in covered where Int(g) < numGlyphs {
        let c = Int(classes1[Int(g)])
        guard c < count1 else { throw sub.malformed("class \(c) of glyph \(g) is beyond \(count1) classes") }
        class1[Int(g)] = Int32(c)
      }
      let class2 = try classes(try sub.sub(Int(try sub.u16(10))), numGlyphs: numGlyphs)
      if let c = class2.first(where: { Int($0) >= count2 }) {
        throw sub.malformed("second class \(c) is beyond \(count2) classes")
      }
      var values = [Int16](repeating: 0, count: count1 * count2)
      if let a = advance {
        for i in values.indices { values[i] = try sub.i16(16 + i * record + a) }
      }
      return .classes(class1: class1, class2: class2, count2: count2, values: values)
    default:
      throw sub.malformed("pair adjustment format \(format) is unknown")
    }
  }

  /// The glyphs a coverage table lists, in coverage-index order.
  private static func coverage(_ c: TableReader) throws -> [UInt16] {
    let n = Int(try c.u16(2))
    var out: [UInt16] = []
    switch try c.u16(0) {
    case 1:
      try c.check(4, n * 2, "\(n) coverage glyphs")
      out.reserveCapacity(n)
      for i in 0..<n { out.append(try c.u16(4 + i * 2)) }
    case 2:
      try c.check(4, n * 6, "\(n) coverage ranges")
      for i in 0..<n {
        let start = try c.u16(4 + i * 6)
        let end = try c.u16(6 + i * 6)
        guard start <= end else { throw c.malformed("coverage range \(start)...\(end) is reversed") }
        out.append(contentsOf: start...end)
      }
    default: throw c.malformed("coverage format is unknown")
    }
    return out
  }

  /// The class of every glyph (0 when unlisted) from a class definition table.
  private static func classes(_ c: TableReader, numGlyphs: Int) throws -> [UInt16] {
    var out = [UInt16](repeating: 0, count: numGlyphs)
    switch try c.u16(0) {
    case 1:
      let start = Int(try c.u16(2))
      let n = Int(try c.u16(4))
      try c.check(6, n * 2, "\(n) class values")
      for i in 0..<n where start + i < numGlyphs { out[start + i] = try c.u16(6 + i * 2) }
    case 2:
      let n = Int(try c.u16(2))
      try c.check(4, n * 6, "\(n) class ranges")
      for i in 0..<n {
        let start = Int(try c.u16(4 + i * 6))
        let end = Int(try c.u16(6 + i * 6))
        let value = try c.u16(8 + i * 6)
        guard start <= end else { throw c.malformed("class range \(start)...\(end) is reversed") }
        // A range that starts past the last glyph covers none (forming start...numGlyphs - 1 then
        // trapped; found by the font fuzzer, Tests/FuzzRegressions/font).
        guard start < numGlyphs else { continue }
        for g in start...min(end, numGlyphs - 1) { out[g] = value }
      }
    default: throw c.malformed("class definition format is unknown")
    }
    return out
  }

  /// The summed x-advance adjustment for `left` followed by `right`, in font units.
  func adjustment(_ left: UInt16, _ right: UInt16) -> Int {
    var total = 0
    for lookup in lookups {
      // Within a lookup, the first subtable that applies to the pair wins.
      for sub in lookup {
        switch sub {
        case .pairs(let pairs):
          guard let v = pairs[UInt32(left) << 16 | UInt32(right)] else { continue }
          total += Int(v)
        case .classes(let class1, let class2, let count2, let values):
          let l = Int(left)
          let r = Int(right)
          guard l < class1.count, class1[l] >= 0 else { continue }
          let c2 = r < class2.count ? Int(class2[r]) : 0
          total += Int(values[Int(class1[l]) * count2 + c2])
        }
        break
      }
    }
    return total
  }
}
