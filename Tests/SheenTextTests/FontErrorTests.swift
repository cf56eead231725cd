import Foundation
import SheenRaster
import Testing

@testable import SheenText

/// Damaged font files are refused with an error naming a table; nothing crashes or reads out of
/// bounds (the parser's reads are all bounds-checked, so an out-of-bounds read would trap here).
@Suite struct FontErrorTests {
  func load(_ bytes: [UInt8]) -> FontError? {
    do {
      _ = try Font(bytes: bytes)
      return nil
    } catch let e as FontError {
      return e
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  @Test func truncatedFileIsRefusedNamingATable() throws {
    let bytes = try fontBytes(.regular)
    for length in [0, 3, 11, 12, 100, 1000, 5000, bytes.count / 2, bytes.count - 1] {
      let error = load(Array(bytes.prefix(length)))
      #expect(error != nil, "length \(length)")
      #expect(error?.table != nil, "length \(length): \(String(describing: error))")
    }
    let e = load(Array(bytes.prefix(1000)))
    #expect(e?.description.contains("truncated") == true)
  }

  @Test func emptyAndForeignFilesAreRefused() {
    #expect(
      load([])
        == .malformed(
          table: "table directory", reason: "truncated (value at 0 lies beyond the table's 0 bytes)"))
    #expect(load(Array("<html>not a font</html>".utf8))?.table == "table directory")
    #expect(load([0x4F, 0x54, 0x54, 0x4F, 0, 0, 0, 0, 0, 0, 0, 0])?.table == "CFF ")
  }

  @Test func missingTableIsNamed() throws {
    var bytes = try fontBytes(.regular)
    let raw = RawFont(bytes)
    // Rename the cmap record's tag.
    let n = Int(raw.u16(4))
    for i in 0..<n where String(decoding: bytes[(12 + 16 * i)..<(16 + 16 * i)], as: UTF8.self) == "cmap" {
      bytes[12 + 16 * i] = UInt8(ascii: "x")
    }
    #expect(load(bytes) == .missingTable("cmap"))
  }

  @Test func corruptLocaIsRefused() throws {
    let original = try fontBytes(.regular)
    let raw = RawFont(original)
    let loca = raw.table("loca")  // long offsets in DejaVu
    // An offset beyond the glyf table.
    var bytes = original
    put32(&bytes, loca + 4 * 40, 0x7FFF_FFF0)
    let e1 = load(bytes)
    #expect(e1?.table == "loca", "\(String(describing: e1))")
    // Offsets that go backwards.
    bytes = original
    put32(&bytes, loca + 4 * 41, 0)
    #expect(load(bytes)?.table == "loca")
  }

  @Test func corruptGlyphIsRefused() throws {
    let original = try fontBytes(.regular)
    let raw = RawFont(original)
    let loca = raw.table("loca")
    let glyf = raw.table("glyf")
    let a = Int(raw.u32(loca + 4 * 36))  // 'A'
    // Far more contours than the glyph has bytes for.
    var bytes = original
    put16(&bytes, glyf + a, 30000)
    #expect(load(bytes)?.table == "glyf")
    // A composite glyph that contains itself.
    bytes = original
    let e = Int(raw.u32(loca + 4 * 171))  // 'eacute': e + acute
    put16(&bytes, glyf + e + 12, 171)
    let cycle = load(bytes)
    #expect(cycle?.table == "glyf")
    #expect(cycle?.description.contains("deeper") == true)
    // A component that names a glyph that does not exist.
    bytes = original
    put16(&bytes, glyf + e + 12, 65000)
    #expect(load(bytes)?.table == "glyf")
  }

  @Test func inconsistentHeadersAreRefused() throws {
    let original = try fontBytes(.regular)
    let raw = RawFont(original)
    var bytes = original
    put16(&bytes, raw.table("hhea") + 34, 65535)  // more metrics than glyphs
    #expect(load(bytes)?.table == "hhea")
    bytes = original
    put16(&bytes, raw.table("head") + 50, 7)  // unknown loca format
    #expect(load(bytes)?.table == "head")
    bytes = original
    put16(&bytes, raw.table("kern") + 4 + 6, 60000)  // more kerning pairs than bytes
    #expect(load(bytes)?.table == "kern")
    bytes = original
    put16(&bytes, raw.table("GPOS") + 8, 0xFFF0)  // lookup list beyond the table
    #expect(load(bytes)?.table == "GPOS")
  }

  @Test func randomDamageNeverCrashes() throws {
    let original = try fontBytes(.regular)
    let raw = RawFont(original)
    var rng = SplitMix(seed: 42)
    // Damage the table directory and the start of each table: where offsets and counts live.
    let starts = [0] + ["head", "hhea", "maxp", "cmap", "loca", "hmtx", "kern", "GPOS"].map { raw.table($0) }
    var refused = 0
    for _ in 0..<24 {
      var bytes = original
      let base = starts[Int(rng.next() % UInt64(starts.count))]
      for _ in 0..<4 {
        bytes[base + Int(rng.next() % 64)] = UInt8(truncatingIfNeeded: rng.next())
      }
      if let e = load(bytes) {
        refused += 1
        #expect(e.table != nil)
      }
    }
    #expect(refused > 0)
  }
}

/// A small deterministic random number generator.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
