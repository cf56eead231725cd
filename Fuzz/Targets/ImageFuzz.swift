// libFuzzer target: PNG and JPEG bytes decoded and, when valid, drawn into a 32 × 32 canvas
// rotated and scaled with every filter (mipmaps included). Bad bytes must be refused with a
// `RasterError`; nothing may trap, hang, read out of bounds or allocate without bound (the
// decoders refuse images over SCENE.md's size limits before allocating their pixels).
import Glibc
import SheenRaster

private let verbose = getenv("SHEEN_FUZZ_VERBOSE") != nil
private let surface = try! Surface(width: 32, height: 32)
private let canvas = Canvas(surface: surface)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
  let image: RasterImage
  do {
    // Four million pixels at most: a header may claim 16384 × 16384 in a few bytes.
    image = try RasterImage(decoding: bytes, maxPixels: 1 << 22)
  } catch {
    if verbose { print("refused: \(error)") }
    return 0
  }
  // Large images decode (the limits allow them) but are drawn only when small: drawing is
  // fuzzed by the pixels, not by the size.
  guard image.width * image.height <= 1 << 16 else { return 0 }
  let src = Rect(x: 0.5, y: 0.25, width: Double(image.width) - 0.75, height: Double(image.height) - 0.5)
  for filter in ImageFilter.allCases {
    surface.clear()
    canvas.save()
    canvas.translateBy(x: 16, y: 16)
    canvas.rotate(by: 0.3)
    canvas.drawImage(
      image, source: src, in: Rect(x: -12, y: -9, width: 24, height: 17), minification: filter,
      magnification: filter == .trilinear ? .linear : filter)
    canvas.restore()
  }
  return 0
}
