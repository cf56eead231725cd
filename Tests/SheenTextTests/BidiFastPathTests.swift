import SheenTestSupport
import Testing

@testable import SheenText

/// Paragraphs with nothing that can raise a bidi level skip FriBidi (`LayoutBuilder.bidiLevels`):
/// their levels and direction must be exactly what FriBidi's full algorithm finds, and every
/// paragraph that could differ must go through it.
@Suite struct BidiFastPathTests {
  /// Hand-picked paragraphs: left-to-right text of many scripts, numbers and neutrals alone, and
  /// each kind of character that needs the algorithm (a Hebrew or Arabic letter, an Arabic-Indic
  /// digit, a right-to-left mark, embeddings, overrides, isolates).
  static let paragraphs: [String] = [
    "", " ", "Hello, world!", "123", "3.14 + 2 = 5.14", "(a [b] {c})", "!!! ???", "東京の写真集",
    "ทุกเฟรม วาดด้วย", "यात्रा डायरी", "서울 음악 목록", "Заметки о Москве", "✈️ 🎵 📷", "e\u{301}\u{302}",
    "\u{200D}\u{200C}\u{FE0F}", "a\u{200E}b", "tab\there",
    // Needing the algorithm.
    "שלום", "abc שלום def", "مرحبا 123", "a ٣ b", "123 ٤٥٦", "a\u{200F}b", "\u{202B}abc\u{202C}",
    "\u{202E}abc\u{202C} def", "\u{2067}abc\u{2069}", "\u{2068}שלום\u{2069} x", "\u{2066}a\u{2069}",
    "(שלום) [abc]", "\u{202A}x\u{202C}", "\u{202D}x\u{202C}",
  ]

  static func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

  @Test(arguments: paragraphs) func levelsMatchFriBidi(_ text: String) {
    let v = Self.scalars(text)
    let fast = LayoutBuilder.bidiLevels(v)
    let full = LayoutBuilder.fullBidiLevels(v)
    #expect(fast.levels == full.levels, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    #expect(fast.rightToLeft == full.rightToLeft)
  }

  /// The hand-picked paragraphs that need the algorithm do raise a level or run right to left
  /// (so the comparison above is not between two all-zero answers).
  @Test func theRightToLeftExamplesAreNotAllZero() {
    let needing = Self.paragraphs[Self.paragraphs.firstIndex(of: "שלום")!...]
    for text in needing {
      let full = LayoutBuilder.fullBidiLevels(Self.scalars(text))
      #expect(full.rightToLeft || full.levels.contains { $0 > 0 }, "\(text)")
    }
  }

  /// Random paragraphs over an alphabet that mixes every bidi class the demo and common UI text
  /// use, with and without the characters that need the algorithm: fast and full agree.
  @Test func randomParagraphsMatchFriBidi() {
    let ltr: [UInt32] = [
      0x61, 0x5A, 0x20, 0x30, 0x39, 0x2E, 0x2C, 0x2B, 0x2D, 0x25, 0x24, 0x28, 0x29, 0x5B, 0x5D, 0x21, 0x09,
      0x3000, 0x6771, 0x0E17, 0x0E38, 0x0915, 0x094D, 0x0301, 0x200D, 0xFE0F, 0x1F3B5, 0x00A0, 0x2014,
      0x200E, 0x0410, 0x03B1, 0x00B2, 0x2070, 0xFF11,
    ]
    let rtl: [UInt32] = [
      0x05D0, 0x0627, 0x0663, 0x200F, 0x202B, 0x202C, 0x202E, 0x2067, 0x2068, 0x2069, 0x0661, 0x066B,
    ]
    var rng = SplitMix(seed: 17)
    var fastCount = 0
    for round in 0..<4000 {
      let n = Int(rng.next() % 24)
      var v: [UInt32] = []
      for _ in 0..<n {
        // Half the paragraphs draw only from the left-to-right alphabet.
        let pickRTL = round % 2 == 1 && rng.next() % 5 == 0
        let alphabet = pickRTL ? rtl : ltr
        v.append(alphabet[Int(rng.next() % UInt64(alphabet.count))])
      }
      let fast = LayoutBuilder.bidiLevels(v)
      let full = LayoutBuilder.fullBidiLevels(v)
      #expect(fast.levels == full.levels, "\(v.map { String($0, radix: 16) })")
      #expect(fast.rightToLeft == full.rightToLeft, "\(v.map { String($0, radix: 16) })")
      if !v.contains(where: { rtl.contains($0) }) { fastCount += 1 }
    }
    #expect(fastCount > 1500)
  }
}
