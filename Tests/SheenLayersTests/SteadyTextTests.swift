import Foundation
import SheenTestSupport
import Testing

/// The demo's steady frames shape no text and rasterize no glyph: `sheen bench --offscreen`
/// (the release binary, which `./run.sh test` builds first) visits every row of the first two
/// sections once (the second is the section in many languages: Arabic and Hebrew, Japanese,
/// Hindi, emoji in tags), then scrolls through them and reports, per frame in which no row
/// comes into view, the paragraphs shaped (HarfBuzz, bidi, line breaks) and the glyphs
/// rasterized. Rows coming into view are reported apart, per row.
@Suite struct SteadyTextTests {
  @Test(.timeLimit(.minutes(3))) func steadyFramesShapeAndRasterizeNoText() throws {
    let sheen = releaseSheenPath
    if let missing = releaseSheenMissing() {
      Issue.record(Comment(rawValue: missing))
      return
    }
    let plot = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sheen-steady-text-\(getpid()).png")
    defer { try? FileManager.default.removeItem(at: plot) }
    let r = try runProcess(
      sheen,
      [
        "bench", "--offscreen", "--threads", "1", "--size", "420x560", "--cards", "52", "--warmup", "0",
        "--frames", "240", "--plot", plot.path,
      ], timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    let text = r.stdout
    #expect(text.contains("glyph rasterizations per frame 0.00, text shapings per frame 0.00"), "\(text)")
    // The scroll went through the list: rows came into view (their text came from the cache).
    let rows = try #require(text.range(of: #"rows coming into view: (\d+)"#, options: .regularExpression))
    #expect((Int(text[rows].split(separator: " ").last ?? "") ?? 0) >= 10, "\(text)")
  }
}
