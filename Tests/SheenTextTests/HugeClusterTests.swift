// Text whose work grew faster than its length: one grapheme cluster of 100,000 scalars (combining
// marks on one letter) took minutes in HarfBuzz, whose work on a cluster grows with the square of
// its length. Longer clusters are shaped in pieces of `TextLayout.maxShapedCluster` scalars.
// The time limits are hang guards (each case takes a few seconds in a debug build); what the
// fix bounds is checked by count.
import Foundation
import Testing

@testable import SheenText

@Suite struct HugeClusterTests {
  /// Fonts for every script here, through the tests' fontconfig configuration (Tests/Fonts).
  static func style(wraps: Bool = false) -> TextStyle {
    TextStyle(
      family: ScriptLayoutTests.library.family("DejaVu Sans", weight: .regular), size: 14, wraps: wraps)
  }

  static func scalars(_ values: [UInt32]) -> String {
    String(String.UnicodeScalarView(values.compactMap(Unicode.Scalar.init)))
  }

  /// Each a class that was super-linear or could be: marks on one letter (Latin, Arabic
  /// tashkeel, mixed combining classes), an emoji ZWJ chain (one grapheme), Hangul jamo (one
  /// syllable block of 100,000 leading and vowel jamo), variation selectors, bidi embeddings
  /// nested to FriBidi's limit again and again, and one 300,000-letter word wrapped.
  static let cases: [(String, String, Bool)] = [
    ("latin marks", "a" + String(repeating: "\u{301}", count: 100_000), false),
    ("arabic tashkeel", "\u{628}" + String(repeating: "\u{64B}", count: 100_000), false),
    ("mixed classes", "a" + String(repeating: "\u{301}\u{316}\u{302}\u{323}", count: 25_000), false),
    ("zwj chain", String(repeating: "\u{1F469}\u{200D}", count: 50_000), false),
    (
      "jamo", scalars(Array(repeating: 0x1100, count: 50_000) + Array(repeating: 0x1161, count: 50_000)),
      false
    ),
    ("variation selectors", "a" + String(repeating: "\u{FE0F}", count: 100_000), false),
    (
      "bidi embeddings",
      String(repeating: String(repeating: "\u{202B}\u{202A}", count: 64) + "ab\u{5D0}", count: 700), true
    ),
    ("giant word", String(repeating: "x", count: 300_000), true),
  ]

  @Test(.timeLimit(.minutes(1)), arguments: cases.indices)
  func hugeClustersShapeInBoundedPieces(index: Int) throws {
    let (name, string, wrapped) = Self.cases[index]
    let layout = TextLayout(string, style: Self.style(wraps: wrapped), width: wrapped ? 300 : nil)
    #expect(layout.glyphCount > 0, "\(name)")
    #expect(TextLayout.longestShapedCluster <= TextLayout.maxShapedCluster, "\(name)")
  }

  /// The pieces: a cluster of 100,000 marks is handed to HarfBuzz 32 scalars at a time, so the
  /// longest cluster shaped in one go is exactly the limit; one of 20 marks is shaped whole and
  /// its marks attach to the letter as before (the first free mark of both sits at the same
  /// place).
  @Test func clustersPastTheLimitAreCut() throws {
    let short = TextLayout("a" + String(repeating: "\u{301}", count: 20), style: Self.style())
    let long = TextLayout("a" + String(repeating: "\u{301}", count: 100_000), style: Self.style())
    #expect(TextLayout.longestShapedCluster == TextLayout.maxShapedCluster)
    let a = try #require(short.lines.first?.glyphs)
    let b = try #require(long.lines.first?.glyphs)
    #expect(a.count == 20 && b.count == 100_000)  // a and the first mark compose (á)
    #expect(a[1].x == b[1].x && a[1].y == b[1].y && a[1].id == b[1].id)
  }
}
