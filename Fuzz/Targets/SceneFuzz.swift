// libFuzzer target: a scene file decoded and, when valid, rendered on a canvas of at most 64 × 64
// pixels. Invalid scenes must be refused with a `SceneError`; nothing may trap, hang or read out
// of bounds.
import Glibc
import SheenLayers
import SheenRaster

private let compositor = Compositor()
/// `SHEEN_FUZZ_VERBOSE=1` prints why an input was refused (to check the seeds).
private let verbose = getenv("SHEEN_FUZZ_VERBOSE") != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
  let scene: Scene
  do {
    // No folder: every `contents` is refused (image bytes are fuzzed by the image target).
    scene = try Scene.decode(bytes, images: SceneImageSource(folder: nil))
  } catch {
    if verbose { print("refused: \(error)") }
    return 0
  }
  let width = max(1, min(scene.pixelWidth, 64))
  let height = max(1, min(scene.pixelHeight, 64))
  guard let surface = try? Surface(width: width, height: height) else { return 0 }
  let canvas = Canvas(surface: surface)
  canvas.clear(scene.background ?? .clear)
  compositor.render(scene.layers, in: canvas, transform: Transform(scaleX: scene.scale, y: scene.scale))
  return 0
}
