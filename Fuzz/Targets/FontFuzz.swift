// libFuzzer target: TrueType bytes parsed and, when accepted, a few glyphs laid out and drawn
// on a 64 × 64 canvas twice: through the glyph-mask cache and as rotated outlines.
import SheenRaster
import SheenText

private let surface = try! Surface(width: 64, height: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFont(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
  guard let font = try? Font(bytes: bytes, name: "fuzz") else { return 0 }
  let canvas = Canvas(surface: surface)
  canvas.clear(.white)
  let layout = TextLayout(
    "AVa fi Wo.\u{2014}é€", style: TextStyle(font: font, size: 14, wraps: true), width: 60)
  canvas.drawText(layout, at: Point(x: 2, y: 2), color: .black, renderer: renderer)
  canvas.rotate(by: 0.3)
  canvas.drawText(layout, at: Point(x: 2, y: 20), color: .black, renderer: renderer)
  return 0
}

/// A private cache with a small limit: fonts the fuzzer has thrown away stay in the keys until the
/// cache empties itself.
private let renderer = TextRenderer(cache: GlyphCache(byteLimit: 1 << 20))
