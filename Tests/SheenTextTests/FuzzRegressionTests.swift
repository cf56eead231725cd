// Every input a fuzzer crashed on (Tests/FuzzRegressions/font) and the seed corpus
// (Fuzz/Corpus/font), put through what the font fuzz target does: parse, then lay out and draw a
// few glyphs through the glyph cache and as rotated outlines.
import Foundation
import SheenRaster
import SheenTestSupport
import SheenText
import Testing

@Suite struct FuzzRegressionTests {
  @Test(arguments: fuzzInputs("font"))
  func fontInputDrawsOrIsRefused(_ file: String) throws {
    let data = try #require(FileManager.default.contents(atPath: file))
    guard let font = try? Font(bytes: [UInt8](data), name: "fuzz") else { return }
    let canvas = Canvas(surface: try Surface(width: 64, height: 64))
    let renderer = TextRenderer(cache: GlyphCache(byteLimit: 1 << 20))
    let layout = TextLayout(
      "AVa fi Wo.\u{2014}é€", style: TextStyle(font: font, size: 14, wraps: true), width: 60)
    canvas.drawText(layout, at: Point(x: 2, y: 2), color: .black, renderer: renderer)
    canvas.rotate(by: 0.3)
    canvas.drawText(layout, at: Point(x: 2, y: 20), color: .black, renderer: renderer)
  }

  @Test func seedFontsAreAccepted() throws {
    for file in fuzzInputs("font") where file.contains("Fuzz/Corpus") {
      let data = try #require(FileManager.default.contents(atPath: file))
      #expect(throws: Never.self, "\(file)") { try Font(bytes: [UInt8](data), name: "seed") }
    }
  }
}
