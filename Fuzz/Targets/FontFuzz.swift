// libFuzzer target: font bytes read by HarfBuzz, as Sheen loads fonts from memory and (every
// other input) from a file, the way fontconfig's fonts are loaded (mapped); when accepted, a
// few lines in several scripts shaped with the font alone (its GSUB, GPOS, marks, bidi), laid out,
// wrapped, truncated and drawn on a 64 × 64 canvas twice: through the glyph-mask cache and as
// rotated outlines (colour bitmaps included).
import Foundation
import SheenRaster
import SheenText

private let surface = try! Surface(width: 64, height: 64)
private let file = FileManager.default.temporaryDirectory.appendingPathComponent(
  "sheen-font-fuzz-\(getpid())"
).path
nonisolated(unsafe) private var counter = 0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFont(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
  counter += 1
  let font: Font?
  if counter % 2 == 0, FileManager.default.createFile(atPath: file, contents: Data(bytes)) {
    // A collection's second face too, now and then.
    font = try? Font(contentsOfFile: file, index: counter % 6 == 0 ? 1 : 0)
  } else {
    font = try? Font(bytes: bytes, name: "fuzz")
  }
  guard let font else { return 0 }
  let canvas = Canvas(surface: surface)
  canvas.clear(.white)
  let layout = TextLayout(
    "AVa fi Wo.\u{2014}é€ مرحبا שלום नमस्ते ภาษาไทย 日本 😀👍🏽",
    style: TextStyle(
      font: font, size: 14, wraps: true, truncation: [.end, .start, .middle][counter % 3],
      wrapping: counter % 4 == 0 ? .characters : .words), width: 60, height: 40)
  canvas.drawText(layout, at: Point(x: 2, y: 2), color: .black, renderer: renderer)
  canvas.rotate(by: 0.3)
  canvas.drawText(layout, at: Point(x: 2, y: 20), color: .black, renderer: renderer)
  return 0
}

/// A private cache with a small limit: fonts the fuzzer has thrown away stay in the keys until the
/// cache empties itself.
private let renderer = TextRenderer(cache: GlyphCache(byteLimit: 1 << 20))
