import Foundation
import SheenDemo
import SheenPlatform
import SheenRaster
import SheenX11

private let demoUsage = """
  usage: sheen demo [options]

  Opens a window (Wayland or X11) showing the demo: a scrolling list of cards with animated
  buttons and an FPS overlay, until Escape, q or closing the window.

  controls: wheel, drag and fling scroll (rubber band past the ends); arrows, Page Up/Down, Space,
  Home and End scroll too; a click on a card's button presses it; f toggles the FPS overlay;
  Escape or q quits.

  options:
    --fps N          target frames per second (default 60; 0 = as fast as possible)
    --size WxH       initial window size in pixels (default 800x600)
    --frames N       exit after drawing N frames (frames are drawn even when nothing moves)
    --scale S        pixels per point (default 1)
    --script S       scripted input on the frame clock, as `sheen dump --script` (e.g. scroll)
    --title TEXT     window title (default "Sheen")
    --test-pattern   draw a static, deterministic pattern (see DemoClient.testPatternPixel)
    --print-events   print one line per event on stdout (and a "ready" line once shown)
    --backend B      wayland or x11 (default: Wayland when $WAYLAND_DISPLAY is reachable, else X11)

  exit status: 0 closed, interrupted or done; 3 no display or the display server went away;
  64 bad usage.
  """

/// Options of `sheen demo`.
struct DemoOptions {
  var fps: Double = 60
  var size = PixelSize(width: 800, height: 600)
  var frames: Int?
  var title = "Sheen"
  var testPattern = false
  var scale = 1.0
  var script: DemoScript?
  var printEvents = false
  var backend: Backend?

  /// Parses `args`; returns an error message for bad usage, or nil with `help` for `--help`.
  static func parse(_ args: [String]) -> Result<DemoOptions?, UsageError> {
    var o = DemoOptions()
    var i = 0
    func value(_ flag: String) throws(UsageError) -> String {
      i += 1
      guard i < args.count else { throw UsageError("\(flag) needs a value") }
      return args[i]
    }
    do throws(UsageError) {
      while i < args.count {
        let arg = args[i]
        switch arg {
        case "-h", "--help": return .success(nil)
        case "--fps":
          guard let f = Double(try value(arg)), f >= 0, f <= 1000 else {
            throw UsageError("--fps needs a number from 0 to 1000")
          }
          o.fps = f
        case "--size":
          let parts = try value(arg).split(separator: "x").compactMap { Int($0) }
          guard parts.count == 2, (1...16384).contains(parts[0]), (1...16384).contains(parts[1]) else {
            throw UsageError("--size needs WIDTHxHEIGHT, such as 800x600")
          }
          o.size = PixelSize(width: parts[0], height: parts[1])
        case "--frames":
          guard let n = Int(try value(arg)), n >= 1 else {
            throw UsageError("--frames needs a positive count")
          }
          o.frames = n
        case "--title": o.title = try value(arg)
        case "--scale":
          guard let v = Double(try value(arg)), v >= 0.25, v <= 8 else {
            throw UsageError("--scale needs a number from 0.25 to 8")
          }
          o.scale = v
        case "--script":
          let text = try value(arg)
          do { o.script = try DemoScript(text) } catch { throw UsageError("\(error)") }
        case "--test-pattern": o.testPattern = true
        case "--print-events": o.printEvents = true
        case "--backend":
          guard let b = Backend(rawValue: try value(arg)) else {
            throw UsageError("--backend needs wayland or x11")
          }
          o.backend = b
        default: throw UsageError("unknown option '\(arg)'")
        }
        i += 1
      }
    } catch {
      return .failure(error)
    }
    return .success(o)
  }
}

/// `sheen demo`: the demo in a window (or, with `--test-pattern`, a static pattern for tests).
func runDemo(_ args: [String]) -> Int32 {
  let options: DemoOptions
  switch DemoOptions.parse(args) {
  case .failure(let e):
    FileHandle.standardError.write(Data("sheen demo: \(e.message)\n\(demoUsage)\n".utf8))
    return 64
  case .success(nil):
    print(demoUsage)
    return 0
  case .success(let o?):
    options = o
  }

  let opened: OpenedWindow
  do {
    opened = try openWindow(backend: options.backend, title: options.title, size: options.size)
  } catch {
    FileHandle.standardError.write(Data("sheen demo: \(error)\n".utf8))
    return 3
  }

  let timed = TimedWindow(opened.window)
  let client: FrameLoopClient
  var demoHost: DemoHost?
  if options.testPattern {
    client = DemoClient(testPattern: true)
  } else {
    let host = DemoHost(
      window: DemoApp.makeWindow(size: opened.window.size, scale: options.scale), script: options.script,
      alwaysAnimating: options.frames != nil)
    timed.onPresent = { [unowned host] seconds in host.presented(seconds: seconds) }
    demoHost = host
    client = host
  }
  let loop = FrameLoop(
    window: timed, client: client, framesPerSecond: options.fps, maxFrames: options.frames)
  var quit = false
  demoHost?.window.onQuit = { [unowned loop] in
    quit = true
    loop.stop()
  }
  if options.printEvents {
    loop.eventObserver = { event in printLine(event.description) }
  }
  do {
    if options.printEvents {
      // One frame shown before the loop, so a test knows the window is on screen.
      let surface = try timed.framebuffer()
      client.draw(into: surface, frame: FrameLoop.FrameInfo(index: 0, time: 0))
      timed.present()
      opened.waitUntilShown()
      printLine("ready \(opened.readyFields())")
    }
    let reason = try loop.run()
    timed.close()
    if options.printEvents {
      printLine("stopped \(quit && reason == .stopped ? "quit" : "\(reason)") frames=\(loop.framesDrawn)")
    }
    return 0
  } catch {
    timed.close()
    FileHandle.standardError.write(Data("sheen demo: \(error)\n".utf8))
    return 1
  }
}

/// Runs the demo's window in a frame loop: hands it events, plays a script if one was given,
/// measures each frame's render and present times for the FPS overlay.
final class DemoHost: FrameLoopClient {
  let window: DemoWindow
  let script: DemoScript?
  let scriptState = DemoScript.State()
  /// Draw every frame even when nothing moves (for `--frames`, and while a script plays).
  let alwaysAnimating: Bool
  private var frameIndex = 0
  private var lastFrame: (time: Double, render: Double)?

  init(window: DemoWindow, script: DemoScript?, alwaysAnimating: Bool) {
    self.window = window
    self.script = script
    self.alwaysAnimating = alwaysAnimating || script != nil
  }

  func handle(_ event: PlatformEvent) { window.handle(event) }

  var isAnimating: Bool { alwaysAnimating || window.isAnimating }

  func draw(into surface: Surface, frame: FrameLoop.FrameInfo) {
    let start = monotonicSeconds()
    script?.apply(to: window, frame: frameIndex, time: frame.time, state: scriptState)
    frameIndex += 1
    window.refreshOverlay(at: frame.time)
    window.draw(into: surface, frame: frame)
    lastFrame = (frame.time, monotonicSeconds() - start)
  }

  /// The frame just drawn was presented in `seconds`.
  func presented(seconds: Double) {
    guard let f = lastFrame else { return }
    lastFrame = nil
    window.recordFrame(time: f.time, render: f.render, present: seconds)
  }
}

/// A window that times `present()` (for the FPS overlay) and passes everything else through.
final class TimedWindow: PlatformWindow {
  let base: PlatformWindow
  var onPresent: ((Double) -> Void)?

  init(_ base: PlatformWindow) { self.base = base }

  var title: String {
    get { base.title }
    set { base.title = newValue }
  }
  var size: PixelSize { base.size }
  func framebuffer() throws -> Surface { try base.framebuffer() }
  func present() {
    let start = monotonicSeconds()
    base.present()
    onPresent?(monotonicSeconds() - start)
  }
  func pollEvents() -> [PlatformEvent] { base.pollEvents() }
  func waitForEvents(timeout: Double?, wakeDescriptor: Int32?) {
    base.waitForEvents(timeout: timeout, wakeDescriptor: wakeDescriptor)
  }
  func close() { base.close() }
}

/// Writes one line to stdout at once (unbuffered, so a test reading a pipe sees it now).
private func printLine(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Draws a static, deterministic test pattern (for the window tests).
final class DemoClient: FrameLoopClient {
  let testPattern: Bool

  init(testPattern: Bool) { self.testPattern = testPattern }

  var isAnimating: Bool { false }

  /// The test pattern's pixel at (x, y): opaque, every channel a different function of x and y.
  static func testPatternPixel(x: Int, y: Int) -> UInt32 {
    let r = UInt32(truncatingIfNeeded: x &* 3) & 0xff
    let g = UInt32(truncatingIfNeeded: y &* 5) & 0xff
    let b = UInt32(truncatingIfNeeded: (x ^ y) &+ (x >> 8) &* 37) & 0xff
    return 0xff00_0000 | r << 16 | g << 8 | b
  }

  func handle(_ event: PlatformEvent) {}

  func draw(into surface: Surface, frame: FrameLoop.FrameInfo) {
    for y in 0..<surface.height {
      let row = surface.row(y)
      for x in 0..<surface.width { row[x] = DemoClient.testPatternPixel(x: x, y: y) }
    }
  }
}
