import Foundation
import SheenRaster
import Testing

@testable import SheenText

@Suite struct AssetsTests {
  @Test func fontsAreFoundByAbsolutePathsNeverTheCurrentDirectory() throws {
    let candidates = BundledAssets.candidateFontDirectories()
    #expect(!candidates.isEmpty)
    for c in candidates { #expect(c.hasPrefix("/"), "\(c)") }
    let dir = try BundledAssets.fontsDirectory()
    #expect(dir.hasPrefix("/"))
    for weight in Font.Weight.allCases {
      #expect(FileManager.default.isReadableFile(atPath: dir + "/" + weight.fileName))
    }
    #expect(FileManager.default.isReadableFile(atPath: dir + "/LICENSE-DejaVu.txt"))
  }

  @Test func unreadableFileIsAnError() {
    #expect(throws: FontError.unreadable(path: "/nonexistent/x.ttf", reason: "no such file or not readable"))
    {
      try Font(contentsOfFile: "/nonexistent/x.ttf")
    }
  }

  @Test func cacheEmptiesItselfAtItsByteLimit() throws {
    let font = try Font.regular
    let cache = GlyphCache(byteLimit: 2000)
    for c in "abcdefghijklmnopqrstuvwxyz".unicodeScalars {
      _ = cache.mask(font: font, glyph: font.glyphIndex(for: c), pixelSize: 20, bin: 0)
      #expect(cache.statistics.bytes <= 2000)
    }
    #expect(cache.statistics.rasterizations == 26)
    #expect(cache.statistics.entries < 26)
    cache.removeAll()
    #expect(cache.statistics.entries == 0 && cache.statistics.bytes == 0)
  }
}
