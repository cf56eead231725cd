// Scene files written to hurt: every refusal is one line (control characters escaped, values
// elided to a few hundred bytes, key path first), keys compare as JSON does (by code points), and
// input is refused past its documented size before it is all read.
import Foundation
import SheenLayers
import SheenRaster
import Testing

@Suite struct HostileSceneFileTests {
  func refusal(_ json: String) -> String? {
    do {
      _ = try Scene.decode(Array(json.utf8))
      return nil
    } catch { return error.description }
  }

  func isOneClean(_ line: String) -> Bool {
    !line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" }
  }

  @Test func keysWithControlCharactersStayOnOneLine() throws {
    for key in ["a\nb", "\u{1B}[2J\u{1B}[31mred", "nul\u{0}byte", "del\u{7F}", "c1\u{9B}31m", "ls\u{2028}x"] {
      let escaped = String(decoding: try JSONSerialization.data(withJSONObject: [key: 1]), as: UTF8.self)
      let m = try #require(refusal(#"{"width": 10, "height": 10, "layers": [\#(escaped)]}"#))
      #expect(isOneClean(m), "\(m.debugDescription)")
      #expect(m.hasPrefix("layers[0]."), "\(m)")
    }
  }

  @Test func hugeKeysAndNumbersAreElidedByBytes() throws {
    let key = String(repeating: "é", count: 500_000)
    let m1 = try #require(refusal(#"{"width": 10, "height": 10, "layers": [{"\#(key)": 1}]}"#))
    #expect(m1.utf8.count < 1000, "\(m1.utf8.count) bytes")
    #expect(m1.hasPrefix("layers[0].éé"))
    let number = "1" + String(repeating: "0", count: 1_000_000)
    let m2 = try #require(refusal(#"{"width": 10, "height": 10, "layers": [{"opacity": \#(number)}]}"#))
    #expect(m2.utf8.count < 1000, "\(m2.utf8.count) bytes")
    #expect(m2.hasPrefix("layers[0].opacity: "))
    let string = String(repeating: "ü", count: 100_000)
    let m3 = try #require(refusal(#"{"width": 10, "height": 10, "layers": [{"type": "\#(string)"}]}"#))
    #expect(m3.utf8.count < 1000, "\(m3.utf8.count) bytes")
  }

  /// JSON compares keys by code points: "café" (precomposed) and "cafe\u0301" are two keys, so
  /// the file is refused for an unknown key, not for a duplicate one; the same spelling twice is a
  /// duplicate.
  @Test func keysCompareByCodePoints() throws {
    let m = try #require(refusal(#"{"width": 10, "height": 10, "layers": [{"café": 1, "cafe\u0301": 2}]}"#))
    #expect(!m.contains("duplicate"), "\(m)")
    let d = try #require(refusal(#"{"width": 10, "height": 10, "layers": [{"opacity": 1, "opacity": 1}]}"#))
    #expect(d.contains("duplicate"), "\(d)")
  }

  @Test func aTextLayersStringIsCapped() throws {
    let big = String(repeating: "a", count: TextLayer.maxSceneStringBytes + 1)
    let m = try #require(
      refusal(#"{"width": 10, "height": 10, "layers": [{"type": "text", "string": "\#(big)"}]}"#))
    #expect(m.hasPrefix("layers[0].string: expected a string of at most 1048576 bytes"), "\(m)")
    let fits = String(repeating: "a", count: 1000)
    #expect(
      refusal(#"{"width": 10, "height": 10, "layers": [{"type": "text", "string": "\#(fits)"}]}"#) == nil)
  }

  /// /dev/zero is refused after `maxFileBytes`, not read until memory runs out; a large regular
  /// file is refused by its size.
  @Test(.timeLimit(.minutes(1))) func inputIsCappedBeforeItIsAllRead() throws {
    do {
      _ = try Scene.decode(contentsOfFile: "/dev/zero")
      Issue.record("accepted /dev/zero")
    } catch let e as SceneReadError {
      #expect(e.description.contains("larger than 16 MiB"), "\(e)")
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-big-\(UUID()).json").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    defer { unlink(path) }
    #expect(truncate(path, off_t(Scene.maxFileBytes + 1)) == 0)
    #expect(throws: SceneReadError.self) { try Scene.decode(contentsOfFile: path) }
  }
}

extension HostileSceneFileTests {
  /// Renders one text layer showing `string` in a 200 × 100 canvas.
  func renderText(_ string: String, wrapped: Bool) throws -> Surface {
    let t = TextLayer()
    t.frame = Rect(x: 0, y: 0, width: 200, height: 100)
    t.string = string
    t.isWrapped = wrapped
    let s = try Surface(width: 200, height: 100)
    let c = Canvas(surface: s)
    c.clear(.white)
    Compositor().render([t], in: c)
    return s
  }

  /// U+FFFF is libunibreak's end-of-string mark: inside a string it failed an assertion and
  /// aborted the process (found by Scripts/hostile.py). Noncharacters and private-use scalars
  /// render like any other.
  @Test func noncharactersRender() throws {
    // (Built from scalars: a Swift literal may not hold a noncharacter.)
    let scalars = [0x61, 0x62, 0xFFFF, 0xFDD0, 0xE000, 0x10FFFF, 0x20].compactMap(Unicode.Scalar.init)
    let s = try renderText(
      String(repeating: String(String.UnicodeScalarView(scalars)), count: 2000), wrapped: true)
    #expect(s.pixels.contains { $0 != 0xFFFF_FFFF })
  }

  /// Wrapping costs time in proportion to the text: a 1 MiB paragraph of words and a 500,000-letter
  /// word took minutes (each line read its run's glyphs, or the rest of the paragraph, from the
  /// start), now seconds.
  @Test(.timeLimit(.minutes(2))) func longParagraphsWrapInLinearTime() throws {
    let words = try renderText(
      String(String(repeating: "word ", count: 209_716).prefix(1 << 20)), wrapped: true)
    #expect(words.pixels.contains { $0 != 0xFFFF_FFFF })
    let word = try renderText(String(repeating: "x", count: 500_000), wrapped: true)
    #expect(word.pixels.contains { $0 != 0xFFFF_FFFF })
  }
}
