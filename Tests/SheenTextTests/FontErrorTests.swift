import Foundation
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenText

/// Damaged font files are refused when HarfBuzz finds no face in them (or no character map), and
/// otherwise read with their damaged tables left out (HarfBuzz sanitizes each table before
/// using it: a table that fails is treated as absent). Either way nothing crashes, and text
/// drawn with what loads stays in bounds.
@Suite struct FontErrorTests {
  func load(_ bytes: [UInt8]) -> Result<Font, FontError> {
    do {
      return .success(try Font(bytes: bytes))
    } catch let e as FontError {
      return .failure(e)
    } catch {
      Issue.record("unexpected error \(error)")
      return .failure(.missingTable("?"))
    }
  }

  func error(_ bytes: [UInt8]) -> FontError? {
    if case .failure(let e) = load(bytes) { return e }
    return nil
  }

  /// Lays out and draws a line with `font` (through the cache and as rotated outlines).
  func draw(_ font: Font) throws {
    let s = try Surface(width: 64, height: 32)
    let canvas = Canvas(surface: s)
    let layout = TextLayout("AVa fi é…", style: TextStyle(font: font, size: 12, wraps: true), width: 60)
    canvas.drawText(layout, at: Point(x: 2, y: 2), color: .black, renderer: TextRenderer())
    canvas.rotate(by: 0.3)
    canvas.drawText(layout, at: Point(x: 2, y: 2), color: .black, renderer: TextRenderer())
  }

  @Test func truncatedFilesAreRefusedOrDrawSafely() throws {
    let bytes = try fontBytes(.regular)
    for length in [0, 3, 11, 12, 100, 1000, 5000] {
      #expect(error(Array(bytes.prefix(length))) != nil, "length \(length)")
    }
    for length in [bytes.count / 2, bytes.count - 1] {
      if case .success(let f) = load(Array(bytes.prefix(length))) { try draw(f) }
    }
  }

  @Test func emptyAndForeignFilesAreRefused() {
    #expect(error([]) == .malformed(table: "table directory", reason: "the file is empty"))
    #expect(error(Array("<html>not a font</html>".utf8))?.table == "table directory")
    #expect(error([0x4F, 0x54, 0x54, 0x4F, 0, 0, 0, 0, 0, 0, 0, 0]) != nil)
  }

  @Test func missingCharacterMapIsNamed() throws {
    var bytes = try fontBytes(.regular)
    let raw = RawFont(bytes)
    // Rename the cmap record's tag.
    let n = Int(raw.u16(4))
    for i in 0..<n where String(decoding: bytes[(12 + 16 * i)..<(16 + 16 * i)], as: UTF8.self) == "cmap" {
      bytes[12 + 16 * i] = UInt8(ascii: "x")
    }
    #expect(error(bytes) == .missingTable("cmap"))
  }

  @Test func corruptTablesNeverCrash() throws {
    let original = try fontBytes(.regular)
    let raw = RawFont(original)
    let loca = raw.table("loca")  // long offsets in DejaVu
    let glyf = raw.table("glyf")
    var damaged: [[UInt8]] = []
    var bytes = original
    put32(&bytes, loca + 4 * 40, 0x7FFF_FFF0)  // an offset beyond the glyf table
    damaged.append(bytes)
    bytes = original
    put32(&bytes, loca + 4 * 41, 0)  // offsets that go backwards
    damaged.append(bytes)
    bytes = original
    put16(&bytes, glyf + Int(raw.u32(loca + 4 * 36)), 30000)  // 'A': far more contours than bytes
    damaged.append(bytes)
    bytes = original
    put16(&bytes, glyf + Int(raw.u32(loca + 4 * 171)) + 12, 171)  // 'eacute' contains itself
    damaged.append(bytes)
    bytes = original
    put16(&bytes, raw.table("hhea") + 34, 65535)  // more metrics than glyphs
    damaged.append(bytes)
    bytes = original
    put16(&bytes, raw.table("GPOS") + 8, 0xFFF0)  // lookup list beyond the table
    damaged.append(bytes)
    for b in damaged {
      if case .success(let f) = load(b) { try draw(f) }
    }
  }

  @Test func randomDamageNeverCrashes() throws {
    let original = try fontBytes(.regular)
    let raw = RawFont(original)
    var rng = SplitMix(seed: 42)
    // Damage the table directory and the start of each table: where offsets and counts live.
    let starts = [0] + ["head", "hhea", "maxp", "cmap", "loca", "hmtx", "kern", "GPOS"].map { raw.table($0) }
    for _ in 0..<24 {
      var bytes = original
      let base = starts[Int(rng.next() % UInt64(starts.count))]
      for _ in 0..<4 {
        bytes[base + Int(rng.next() % 64)] = UInt8(truncatingIfNeeded: rng.next())
      }
      if case .success(let f) = load(bytes) { try draw(f) }
    }
  }
}
