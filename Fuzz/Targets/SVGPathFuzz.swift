// libFuzzer target: SVG path data parsed and, when valid, filled (both rules) and stroked on a
// 64 × 64 canvas, fitted to the canvas and also drawn untransformed.
import SheenRaster

private let surface = try! Surface(width: 64, height: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVGPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
  guard let path = try? Path(svgData: String(decoding: bytes, as: UTF8.self)) else { return 0 }
  let canvas = Canvas(surface: surface)
  canvas.clear(.white)
  canvas.fill(path, paint: .solid(.black), rule: .evenOdd)
  let box = path.controlBounds
  if box.width.isFinite, box.height.isFinite, box.width > 0, box.height > 0 {
    canvas.save()
    let s = 64 / max(box.width, box.height)
    canvas.scaleBy(x: s, y: s)
    canvas.translateBy(x: -box.minX, y: -box.minY)
    canvas.fill(path, paint: .solid(.black))
    canvas.stroke(path, style: StrokeStyle(width: 1.5, join: .round), paint: .solid(.black))
    canvas.restore()
  }
  return 0
}
