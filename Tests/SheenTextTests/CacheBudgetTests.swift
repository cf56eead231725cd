import SheenRaster
import Testing

@testable import SheenText

/// What the text caches hold is counted in bytes and kept under their limits, whatever the text:
/// many different strings, long ones, one longer than the whole budget.
@Suite struct CacheBudgetTests {
  /// A glyph of a layout takes 16 bytes (it took 32 before `Glyph` stored y in 32 bits and its
  /// fields largest first): the demo's cached layouts are mostly glyphs.
  @Test func aGlyphTakesSixteenBytes() {
    #expect(MemoryLayout<TextLayout.Glyph>.stride == 16)
    // y keeps a mark's offset to a millionth of a point.
    var g = TextLayout.Glyph(id: GlyphID(7), x: 1234.5678, y: -3.141592653589793, font: 2)
    #expect(g.x == 1234.5678)
    #expect(abs(g.y - -3.141592653589793) < 1e-6)
    g.y = 0.25
    #expect(g.y == 0.25 && g.id == GlyphID(7) && g.font == 2)
  }

  /// A layout's counted bytes cover its glyphs and its string at least.
  @Test func aLayoutCountsItsGlyphsAndString() throws {
    let text = String(repeating: "Sheen draws every pixel on the CPU. ", count: 40)
    let layout = TextLayout(text, style: TextStyle(font: try Font.regular, size: 15, wraps: true), width: 300)
    let bytes = layout.cachedBytes(for: text)
    #expect(layout.glyphCount > 1000)
    #expect(bytes >= layout.glyphCount * 16 + text.utf8.count)
    #expect(bytes < layout.glyphCount * 16 + text.utf8.count + layout.lines.count * 200 + 4096)
  }

  /// A stream of values of random sizes never holds more than the byte limit, keeps a working
  /// set read between insertions, and refuses a value over the limit by itself.
  @Test func theClockCacheStaysWithinItsByteLimit() {
    var cache = ClockCache<Int, [UInt8]>(capacity: 1000, byteLimit: 10_000)
    var seed: UInt64 = 1
    func random() -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(seed >> 33)
    }
    // The working set: 4 values of 500 bytes, read before each insertion.
    for k in 0..<4 { cache.insert([UInt8](repeating: 1, count: 500), for: -1 - k, bytes: 500) }
    var workingSetMisses = 0
    for i in 0..<5000 {
      for k in 0..<4 where cache.value(for: -1 - k) == nil {
        workingSetMisses += 1
        cache.insert([UInt8](repeating: 1, count: 500), for: -1 - k, bytes: 500)
      }
      let n = random() % 3000
      cache.insert([UInt8](repeating: 0, count: n), for: i, bytes: n)
      #expect(cache.bytes <= 10_000, "\(cache.bytes) bytes after \(i)")
      #expect(cache.count <= 1000)
    }
    #expect(workingSetMisses < 50, "\(workingSetMisses)")
    // The sum is the values' own bytes.
    // Over the limit by itself: not kept, and the key's old value goes.
    cache.insert([], for: 7, bytes: 8)
    cache.insert([], for: 7, bytes: 20_000)
    #expect(cache.value(for: 7) == nil)
    cache.insert([], for: 8, bytes: 20_000)
    #expect(cache.value(for: 8) == nil)
    #expect(cache.bytes <= 10_000)
    // Replacing a value updates the count.
    cache.removeAll()
    cache.insert([], for: 1, bytes: 100)
    cache.insert([], for: 1, bytes: 300)
    #expect(cache.bytes == 300)
  }

  /// Without a byte limit the cache is bounded by entries alone, as the gradient and layout
  /// caches were (`ClockCacheTests`).
  @Test func withoutAByteLimitOnlyTheCountBounds() {
    var cache = ClockCache<Int, Int>(capacity: 3)
    for i in 0..<10 { cache.insert(i, for: i, bytes: 1 << 40) }
    #expect(cache.count == 3)
  }

  /// The process-wide layout cache is bounded by bytes too.
  @Test func theLayoutCacheHasAByteLimit() {
    #expect(TextLayout.cacheByteLimit == 4 << 20)
    #expect(TextLayout.cacheBytes <= TextLayout.cacheByteLimit)
  }

  /// A colour emoji drawn at a size keeps only its scaled image: the font's bitmap it was scaled
  /// from (136 × 128 pixels in Noto Color Emoji, 70 KB) is let go.
  @Test func anEmojiKeepsOnlyItsScaledImage() throws {
    let family = FontLibrary.shared.family("DejaVu Sans")
    let layout = TextLayout("😀", style: TextStyle(family: family, size: 40))
    let glyph = try #require(layout.lines.first?.glyphs.first)
    let font = layout.fonts[Int(glyph.font)]
    try #require(font.hasColorBitmaps, "no colour emoji font (fonts-noto-color-emoji)")
    let cache = GlyphCache()
    let image = try #require(cache.colorGlyph(font: font, glyph: glyph.id, pixelSize: 40))
    #expect(image.image.width < 60 && image.image.height < 60)
    #expect(cache.statistics.entries == 1)
    #expect(cache.statistics.bytes == image.image.width * image.image.height * 4)
    // Under a rotation the font's bitmap is asked for, and kept.
    let bitmap = try #require(cache.colorBitmap(font: font, glyph: glyph.id))
    #expect(bitmap.image.width > 100)
    #expect(cache.statistics.entries == 2)
  }

  /// Fonts are opened when a character needs them: Latin text with the families' usual
  /// punctuation opens no fallback file (the Noto CJK collection alone maps 19 MB), and the
  /// first CJK character opens the CJK face.
  @Test func latinTextOpensNoFallbackFontFile() throws {
    let library = FontLibrary(
      configurationFile: checkoutDirectory.appendingPathComponent("Tests/Fonts/fonts.conf").path)
    let family = library.family("DejaVu Sans")
    for text in ["Sheen draws every pixel – on the CPU… (98% of “frames”, 1.5×)", "Café naïve: ÀÉÎÕÜ ß"] {
      _ = TextLayout(text, style: TextStyle(family: family, size: 15, wraps: true), width: 200)
    }
    #expect(library.openedFontFiles.allSatisfy { $0.contains("DejaVu") }, "\(library.openedFontFiles)")
    _ = TextLayout("東京の写真集", style: TextStyle(family: family, size: 15))
    #expect(library.openedFontFiles.contains { $0.contains("CJK") }, "\(library.openedFontFiles)")
  }
}
