/// The sfnt header: where each table lies in the file.
struct TableDirectory: Sendable {
  /// Offset and length of each table, by tag.
  private var tables: [String: (offset: Int, length: Int)] = [:]
  let bytes: [UInt8]

  static let name = "table directory"

  init(bytes: [UInt8]) throws {
    self.bytes = bytes
    let file = TableReader(bytes: bytes, start: 0, count: bytes.count, tag: TableDirectory.name)
    let version = try file.u32(0)
    switch version {
    case 0x0001_0000, 0x7472_7565:  // TrueType outlines ('true' is Apple's tag)
      break
    case 0x4F54_544F:  // 'OTTO'
      throw FontError.unsupported(table: "CFF ", reason: "only TrueType (glyf) outlines are read")
    case 0x7474_6366:  // 'ttcf'
      throw FontError.unsupported(table: TableDirectory.name, reason: "font collections are not read")
    default:
      throw FontError.malformed(table: TableDirectory.name, reason: "not a TrueType font (bad version)")
    }
    let numTables = Int(try file.u16(4))
    try file.check(12, numTables * 16, "\(numTables) table records")
    for i in 0..<numTables {
      let r = 12 + i * 16
      let tag = try file.tagString(r)
      let offset = Int(try file.u32(r + 8))
      let length = Int(try file.u32(r + 12))
      guard offset <= bytes.count, length <= bytes.count - offset else {
        throw FontError.malformed(
          table: tag, reason: "truncated (the file ends before the table's \(length) bytes at \(offset))")
      }
      tables[tag] = (offset, length)
    }
  }

  func has(_ tag: String) -> Bool { tables[tag] != nil }

  /// A reader over the table `tag`.
  /// - Throws: `FontError.missingTable` when the file has no such table.
  func table(_ tag: String) throws -> TableReader {
    guard let t = tables[tag] else { throw FontError.missingTable(tag) }
    return TableReader(bytes: bytes, start: t.offset, count: t.length, tag: tag)
  }

  /// A reader over the table `tag`, or nil when it is absent.
  func optionalTable(_ tag: String) -> TableReader? {
    guard let t = tables[tag] else { return nil }
    return TableReader(bytes: bytes, start: t.offset, count: t.length, tag: tag)
  }
}
