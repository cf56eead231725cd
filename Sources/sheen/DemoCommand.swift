import Foundation
import SheenCommandLine
import SheenDemo
import SheenPlatform
import SheenRaster
import SheenX11

/// `sheen demo`: the demo in a window (or, with `--test-pattern`, a static pattern for tests).
func runDemo(_ args: [String]) -> Int32 {
  var status: Int32 = 0
  guard let parsed = parseCommandLine(DemoArgs.command, args, status: &status) else { return status }
  let options = (
    fps: parsed[DemoArgs.fps] ?? 60,
    size: parsed[DemoArgs.size].map { PixelSize(width: $0.width, height: $0.height) }
      ?? PixelSize(width: 800, height: 600),
    frames: parsed[DemoArgs.frames], title: parsed[DemoArgs.title] ?? "Sheen",
    testPattern: parsed[DemoArgs.testPattern], scale: parsed[SharedArgs.scale],
    script: parsed[SharedArgs.script], printEvents: parsed[DemoArgs.printEvents],
    backend: parsed[SharedArgs.backend].flatMap(Backend.init(rawValue:)),
    cards: parsed[SharedArgs.cards] ?? DemoContent.cardCount, ui: parsed[SharedArgs.ui] ?? .uikit,
    rasterCache: !parsed[SharedArgs.noRasterCache]
  )

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
      window: DemoApp.makeWindow(
        size: opened.window.size, scale: options.scale ?? opened.window.preferredScale,
        cardCount: options.cards, ui: options.ui),
      script: options.script,
      alwaysAnimating: options.frames != nil)
    timed.onPresent = { [unowned host] seconds in host.presented(seconds: seconds) }
    // --scale overrides the desktop's scale, now and when it changes.
    host.window.followsPlatformScale = options.scale == nil
    host.window.renderer.rasterizesAutomatically = options.rasterCache
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
    timed.onCursor = { cursor in printLine("cursor \(cursor.cssName)") }
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
  let window: any DemoWindowing
  let script: DemoScript?
  let scriptState = DemoScript.State()
  /// Draw every frame even when nothing moves (for `--frames`, and while a script plays).
  let alwaysAnimating: Bool
  private var frameIndex = 0
  private var lastFrame: (time: Double, render: Double)?

  init(window: any DemoWindowing, script: DemoScript?, alwaysAnimating: Bool) {
    self.window = window
    self.script = script
    self.alwaysAnimating = alwaysAnimating || script != nil
  }

  func handle(_ event: PlatformEvent) { window.handle(event) }

  func cursor(at point: Point) -> CursorShape { window.cursor(at: point) }

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
  /// Called with each cursor the loop shows (for `--print-events`).
  var onCursor: ((CursorShape) -> Void)?
  var preferredScale: Double { base.preferredScale }
  func setCursor(_ cursor: CursorShape) {
    base.setCursor(cursor)
    onCursor?(cursor)
  }
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
