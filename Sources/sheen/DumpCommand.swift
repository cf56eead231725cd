import Foundation
import SheenCommandLine
import SheenDemo
import SheenLayers
import SheenPlatform
import SheenRaster

/// `sheen dump`: headless frames of the demo to PNG.
func runDump(_ args: [String]) -> Int32 {
  var status: Int32 = 0
  guard let parsed = parseCommandLine(DumpArgs.command, args, status: &status) else { return status }
  let out = parsed[DumpArgs.out] ?? "out/dump"
  let size =
    parsed[DumpArgs.size].map { PixelSize(width: $0.width, height: $0.height) }
    ?? PixelSize(width: 1280, height: 800)
  let scale = parsed[SharedArgs.scale] ?? 1
  let frames = parsed[DumpArgs.frames] ?? [0]
  let script = parsed[SharedArgs.script]
  let overlay = parsed[DumpArgs.overlay]
  let stats = parsed[DumpArgs.stats]
  let scene = parsed[DumpArgs.scene]
  let threads = parsed[SharedArgs.threads]
  let cards = parsed[SharedArgs.cards] ?? DemoContent.cardCount

  do {
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let window = DemoApp.makeWindow(
      size: size, scale: scale, cardCount: cards, ui: parsed[SharedArgs.ui] ?? .uikit)
    window.overlay.isHidden = !overlay
    if let threads { window.renderer = FrameRenderer(threads: threads) }
    let surface = try Surface(width: size.width, height: size.height)
    let state = DemoScript.State()
    let wanted = Set(frames)
    let last = frames.last ?? 0
    let progress = ProgressBar(total: last + 1)
    var written: [String] = []
    var imagesWritten: [UInt64: String] = [:]
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
            format: "frame %d: render %.2f ms, %d blurs, %d analytic shadows, %d layers drawn, %d culled", n,
            (rendered - start) * 1000,
            s.blurs, s.analyticShadows, s.layersDrawn, s.layersCulled))
      }
      let path = (out as NSString).appendingPathComponent(String(format: "frame-%04d.png", n))
      try surface.writePNG(to: path)
      written.append(path)
      if scene {
        let tree = Scene(
          width: Double(size.width) / scale, height: Double(size.height) / scale, scale: scale,
          background: .black, layers: [window.layer.sheenLayer])
        let json = (out as NSString).appendingPathComponent(String(format: "frame-%04d.json", n))
        // Each image the frame shows goes next to the scene once, as a PNG of its pixels.
        var imageError: Error?
        let text = tree.encoded(visibleOnly: true) { image in
          let name = "images/image-\(image.id).png"
          if let done = imagesWritten[image.id] { return done }
          do {
            try FileManager.default.createDirectory(
              atPath: (out as NSString).appendingPathComponent("images"), withIntermediateDirectories: true)
            try image.surface.writePNG(to: (out as NSString).appendingPathComponent(name))
            imagesWritten[image.id] = name
            return name
          } catch {
            imageError = error
            return nil
          }
        }
        if let imageError { throw imageError }
        try Data(text.utf8).write(to: URL(fileURLWithPath: json), options: .atomic)
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
