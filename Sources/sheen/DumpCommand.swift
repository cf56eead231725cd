import Foundation
import SheenCommandLine
import SheenDemo
import SheenLayers
import SheenPlatform
import SheenRaster
import SheenText

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
    window.renderer.rasterizesAutomatically = !parsed[SharedArgs.noRasterCache]
    let surface = try Surface(width: size.width, height: size.height)
    let state = DemoScript.State()
    let wanted = Set(frames)
    let last = frames.last ?? 0
    let progress = ProgressBar(total: last + 1)
    var written: [String] = []
    var imagesWritten: [UInt64: String] = [:]
    var times: [WrittenTime] = []
    for n in 0...last {
      let time = Double(n) / 60
      script?.apply(to: window, frame: n, time: time, state: state)
      // Every frame is drawn, written or not, so that caches, input and the overlay's numbers
      // are what a window showing each frame would have.
      window.refreshOverlay(at: time)
      window.renderer.context.resetStatistics()
      let glyphsBefore = window.renderer.context.textRenderer.cache.statistics.rasterizations
      let shapingsBefore = TextLayout.shapingCount
      let drawsBefore = window.displayCount
      let usageStart = ProcessUsage.now()
      let start = monotonicSeconds()
      let cpuStart = processCPUSeconds()
      window.renderFrame(into: surface, time: time)
      let rendered = monotonicSeconds()
      let cpu = processCPUSeconds() - cpuStart
      let usage = ProcessUsage.now() - usageStart
      window.recordFrame(time: time, render: rendered - start, present: 0)
      progress.step()
      guard wanted.contains(n) else { continue }
      times.append(WrittenTime(frame: n, wall: (rendered - start) * 1000, cpu: cpu * 1000))
      if stats {
        let s = window.renderer.context.statistics
        print(
          String(
            format:
              "frame %d: render %.2f ms (%.2f ms of processor time), %d blurs, %d analytic shadows, %d layers drawn, %d culled, %d shape rasterizations, %d glyph rasterizations, %d text shapings, %d image resamples, %d draw(_:) calls, %d page faults, %.2f ms of system time",
            n, (rendered - start) * 1000, cpu * 1000,
            s.blurs, s.analyticShadows, s.layersDrawn, s.layersCulled, s.shapeRasterizations,
            window.renderer.context.textRenderer.cache.statistics.rasterizations - glyphsBefore,
            TextLayout.shapingCount - shapingsBefore, s.imageResamples, window.displayCount - drawsBefore,
            usage.minorFaults, usage.systemSeconds * 1000))
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
    if stats {
      // The frames written after the first (the launch frame, which makes every cache): the
      // bound a press or any other script is held to (the slowest against the median).
      let later = times.filter { $0.frame > 0 }
      if !later.isEmpty {
        for (name, key) in [("render", \WrittenTime.wall), ("processor", \WrittenTime.cpu)] {
          let sorted = later.map { $0[keyPath: key] }.sorted()
          let median = sorted[(sorted.count - 1) / 2]
          let slowest = later.max { $0[keyPath: key] < $1[keyPath: key] }!
          let ms = slowest[keyPath: key]
          print(
            String(
              format:
                "%@ time of the %d written frames after frame 0: median %.2f ms, slowest frame %d %.2f ms (%.2fx)",
              name, later.count, median, slowest.frame, ms, ms / max(median, 1e-9)))
        }
      }
    }
    print("sheen dump: wrote \(written.count) frame(s) of \(size) to \(out)/ (\(written.first ?? "")…)")
    return 0
  } catch {
    writeError("sheen dump: \(oneLineForMessage("\(error)"))")
    return 1
  }
}

/// The process's minor page faults and system time so far (`getrusage`): what a frame pays the
/// kernel (fresh pages for memory the allocator got from it) beside its own instructions.
struct ProcessUsage {
  var minorFaults: Int
  var systemSeconds: Double

  static func now() -> ProcessUsage {
    var u = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &u) == 0 else {
      return ProcessUsage(minorFaults: 0, systemSeconds: 0)
    }
    return ProcessUsage(
      minorFaults: u.ru_minflt,
      systemSeconds: Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6)
  }

  static func - (a: ProcessUsage, b: ProcessUsage) -> ProcessUsage {
    ProcessUsage(minorFaults: a.minorFaults - b.minorFaults, systemSeconds: a.systemSeconds - b.systemSeconds)
  }
}

/// How long a written frame took to render, in milliseconds: wall-clock and processor time.
private struct WrittenTime {
  var frame: Int
  var wall: Double
  var cpu: Double
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
