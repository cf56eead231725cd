/// Bounds-checked big-endian reads from one table of a font file.
///
/// Every read checks its range against the table, not just the file, and a failed check throws
/// `FontError.malformed` naming the table: a corrupt offset can never read another table's bytes
/// or past the end of the buffer.
struct TableReader: Sendable {
  /// The whole font file.
  let bytes: [UInt8]
  /// Where the table starts in `bytes`.
  let start: Int
  /// The table's length in bytes.
  let count: Int
  /// The table's tag, for error messages.
  let tag: String

  init(bytes: [UInt8], start: Int, count: Int, tag: String) {
    self.bytes = bytes
    self.start = start
    self.count = count
    self.tag = tag
  }

  /// The error for a read past the end of the table.
  func truncated(_ what: String) -> FontError {
    .malformed(table: tag, reason: "truncated (\(what) lies beyond the table's \(count) bytes)")
  }

  /// The error for an inconsistent value.
  func malformed(_ reason: String) -> FontError {
    .malformed(table: tag, reason: reason)
  }

  /// Throws unless `length` bytes at `offset` lie inside the table.
  @inline(__always) func check(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws {
    guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
      throw truncated(what())
    }
  }

  @inline(__always) func u8(_ offset: Int) throws -> UInt8 {
    try check(offset, 1, "byte at \(offset)")
    return bytes[start + offset]
  }

  @inline(__always) func i8(_ offset: Int) throws -> Int8 {
    Int8(bitPattern: try u8(offset))
  }

  @inline(__always) func u16(_ offset: Int) throws -> UInt16 {
    try check(offset, 2, "value at \(offset)")
    let p = start + offset
    return UInt16(bytes[p]) << 8 | UInt16(bytes[p + 1])
  }

  @inline(__always) func i16(_ offset: Int) throws -> Int16 {
    Int16(bitPattern: try u16(offset))
  }

  @inline(__always) func u32(_ offset: Int) throws -> UInt32 {
    try check(offset, 4, "value at \(offset)")
    let p = start + offset
    return UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8
      | UInt32(bytes[p + 3])
  }

  /// A 2.14 fixed-point number.
  @inline(__always) func f2dot14(_ offset: Int) throws -> Double {
    Double(try i16(offset)) / 16384
  }

  /// The four-character tag at `offset`.
  func tagString(_ offset: Int) throws -> String {
    try check(offset, 4, "tag at \(offset)")
    let p = start + offset
    return String(decoding: bytes[p..<(p + 4)], as: UTF8.self)
  }

  /// A reader over a sub-range of this table (for subtables at an offset), named `tag`.
  func sub(_ offset: Int, _ length: Int? = nil, tag subTag: String? = nil) throws -> TableReader {
    let len = length ?? (count - offset)
    try check(offset, len, "subtable at \(offset)")
    return TableReader(bytes: bytes, start: start + offset, count: len, tag: subTag ?? tag)
  }
}
