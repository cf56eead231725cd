import Foundation
import SheenDemo
import SheenLayers
import SheenPlatform
import SheenRaster

private let dumpUsage = """
  usage: sheen dump [options]

  Renders frames of the demo without any display, on a virtual clock (1/60 s per frame), and
  writes them as PNGs named frame-NNNN.png. Two runs with the same options write the same files.

  options:
    -o, --out DIR     directory for the PNGs (default "out/dump"; created if missing)
    --size WxH        frame size in pixels (default 1280x800)
    --scale S         pixels per point (default 1)
    --frames LIST     frames to write: a count N (frames 0..N-1), or indices such as 0,30,60
                      (one index: "45,"; "0" is the first frame alone, the default)
    --script S        input played on the clock: a name (\(DemoScript.named.keys.sorted().joined(separator: ", ")))
                      or steps such as "wait 5, fling 2400, wait 30, tap-button 0"
    --overlay         show the FPS overlay (its render times are measured, so files then differ
                      from run to run; without it two runs write identical files)
    --threads N       threads that draw each frame (default: one per core)
    --stats           print each written frame's render time, blurs and layers drawn
    --scene           also write each frame's layer tree as a scene file (frame-NNNN.json, only
                      the layers that show), for `sheen render` or another renderer of SCENE.md
  """

/// `sheen dump`: headless frames of the demo to PNG.
func runDump(_ args: [String]) -> Int32 {
  var out = "out/dump"
  var size = PixelSize(width: 1280, height: 800)
  var scale = 1.0
  var frames: [Int] = [0]
  var script: DemoScript?
  var overlay = false
  var stats = false
  var scene = false
  var threads: Int?
  var i = 0
  func fail(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data("sheen dump: \(message)\n\(dumpUsage)\n".utf8))
    return 64
  }
  while i < args.count {
    let arg = args[i]
    let value: String? = i + 1 < args.count ? args[i + 1] : nil
    switch arg {
    case "-h", "--help":
      print(dumpUsage)
      return 0
    case "-o", "--out":
      guard let v = value else { return fail("\(arg) needs a directory") }
      out = v
      i += 1
    case "--size":
      guard let v = value, let s = parsePixelSize(v) else { return fail("--size needs WIDTHxHEIGHT") }
      size = s
      i += 1
    case "--scale":
      guard let v = value, let s = Double(v), s >= 0.25, s <= 8 else {
        return fail("--scale needs a number from 0.25 to 8")
      }
      scale = s
      i += 1
    case "--frames":
      guard let v = value else { return fail("--frames needs a count or a list") }
      if !v.contains(","), let n = Int(v), n != 0 {
        guard n >= 1, n <= 100_000 else { return fail("--frames needs a positive count") }
        frames = Array(0..<n)
      } else {
        let list = v.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !list.isEmpty, list.allSatisfy({ $0 != nil && $0! >= 0 && $0! <= 100_000 }) else {
          return fail("--frames needs a count or indices such as 0,30,60")
        }
        frames = Array(Set(list.map { $0! })).sorted()
      }
      i += 1
    case "--script":
      guard let v = value else { return fail("--script needs a name or steps") }
      do { script = try DemoScript(v) } catch { return fail("\(error)") }
      i += 1
    case "--overlay": overlay = true
    case "--stats": stats = true
    case "--scene": scene = true
    case "--threads":
      guard let v = value, let n = Int(v), n >= 1, n <= 64 else {
        return fail("--threads needs a count from 1 to 64")
      }
      threads = n
      i += 1
    default: return fail("unknown option '\(arg)'")
    }
    i += 1
  }

  do {
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let window = DemoApp.makeWindow(size: size, scale: scale)
    window.overlay.isHidden = !overlay
    if let threads { window.renderer = FrameRenderer(threads: threads) }
    let surface = try Surface(width: size.width, height: size.height)
    let state = DemoScript.State()
    let wanted = Set(frames)
    let last = frames.last ?? 0
    let progress = ProgressBar(total: last + 1)
    var written: [String] = []
    for n in 0...last {
      let time = Double(n) / 60
      script?.apply(to: window, frame: n, time: time, state: state)
      // Every frame is drawn, written or not, so that caches, input and the overlay's numbers
      // are what a window showing each frame would have.
      window.refreshOverlay(at: time)
      window.renderer.context.resetStatistics()
      let start = monotonicSeconds()
      window.renderFrame(into: surface, time: time)
      let rendered = monotonicSeconds()
      window.recordFrame(time: time, render: rendered - start, present: 0)
      progress.step()
      guard wanted.contains(n) else { continue }
      if stats {
        let s = window.renderer.context.statistics
        print(
          String(
            format: "frame %d: render %.2f ms, %d blurs, %d layers drawn, %d culled", n,
            (rendered - start) * 1000,
            s.blurs, s.layersDrawn, s.layersCulled))
      }
      let path = (out as NSString).appendingPathComponent(String(format: "frame-%04d.png", n))
      try surface.writePNG(to: path)
      written.append(path)
      if scene {
        let tree = Scene(
          width: Double(size.width) / scale, height: Double(size.height) / scale, scale: scale,
          background: .black, layers: [window.layer.sheenLayer])
        let json = (out as NSString).appendingPathComponent(String(format: "frame-%04d.json", n))
        try Data(tree.encoded(visibleOnly: true).utf8).write(to: URL(fileURLWithPath: json))
      }
    }
    progress.finish()
    print("sheen dump: wrote \(written.count) frame(s) of \(size) to \(out)/ (\(written.first ?? "")…)")
    return 0
  } catch {
    FileHandle.standardError.write(Data("sheen dump: \(error)\n".utf8))
    return 1
  }
}

/// `WIDTHxHEIGHT` in pixels, each 1...16384.
func parsePixelSize(_ s: String) -> PixelSize? {
  let parts = s.split(separator: "x").compactMap { Int($0) }
  guard parts.count == 2, (1...16384).contains(parts[0]), (1...16384).contains(parts[1]) else { return nil }
  return PixelSize(width: parts[0], height: parts[1])
}

/// A one-line progress bar on standard error, drawn only when it is a terminal.
final class ProgressBar {
  let total: Int
  private var done = 0
  private let enabled = isatty(2) != 0

  init(total: Int) { self.total = total }

  func step() {
    done += 1
    guard enabled, total > 1 else { return }
    let width = 30
    let filled = width * done / total
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
  }

  func finish() {
    if enabled && total > 1 { FileHandle.standardError.write(Data("\n".utf8)) }
  }
}
