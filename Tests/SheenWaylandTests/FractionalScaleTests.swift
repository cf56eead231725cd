import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenWayland

/// `wp_fractional_scale_v1` with `wp_viewporter`, which neither compositor Debian 12 ships
/// offers: against Sheen's test compositor (Sources/sheen-wayland-test-compositor), which
/// prefers the scale it is given and prints every commit's buffer size, buffer scale and viewport
/// destination. The window draws at the fractional scale into a buffer of the logical size times
/// the scale (rounded half away from zero) and shows it at the logical size: no upscale.
@Suite(.enabled(if: TestCompositor.path != nil, "sheen-wayland-test-compositor is not built (swift build)"))
struct FractionalScaleTests {
  @Test(
    .timeLimit(.minutes(1)),
    arguments: [(180, 1.5, "300x225"), (150, 1.25, "250x188"), (120, 1.0, "200x150"), (270, 2.25, "450x338")])
  func buffersAreDrawnAtTheScaleAndShownAtTheLogicalSize(scale120: Int, scale: Double, pixels: String) throws
  {
    let compositor = try TestCompositor(scale120: scale120)
    defer { compositor.stop() }
    let display = try WaylandDisplay(name: compositor.socketPath)
    display.onConnectionLost = { message in Issue.record("unexpected: \(message)") }
    #expect(display.optionalProtocols.contains("wp_fractional_scale_manager_v1"))
    let window = try WaylandWindow(
      display: display, title: "fractional", size: PixelSize(width: 200, height: 150))
    defer { window.close() }
    // The compositor says the scale as the surface is made: events already queued count.
    let events = window.pollEvents() + pump(window, timeout: 2) { _ in window.fractionalScale != nil }
    #expect(window.usesViewport && window.fractionalScale == scale && window.scale == scale)
    #expect(window.preferredScale == scale)
    #expect("\(window.size.width)x\(window.size.height)" == pixels)
    if scale != 1 {
      #expect(events.contains(.scaleChange(scale)))
      #expect(events.contains(.resize(window.size)))
    }
    let surface = try showPattern(in: window, seed: 2)
    #expect("\(surface.width)x\(surface.height)" == pixels)
    // The compositor got a buffer of those pixels, at buffer scale 1, shown 200x150.
    let line = compositor.readLine { $0.hasPrefix("commit") }
    #expect(line == "commit buffer=\(pixels) scale=1 destination=200x150")
    // Input in logical units arrives in the buffer's pixels.
    window.enqueue(.pointerMove(Point(x: 10, y: 20), modifiers: []))
    #expect(window.pollEvents().contains(.pointerMove(Point(x: 10 * scale, y: 20 * scale), modifiers: [])))
  }
}

extension FractionalScaleTests {
  /// The demo itself at 150 %: its frames are drawn at 1.5 pixels a point into 300x225 buffers
  /// shown 200x150.
  @Test(.timeLimit(.minutes(1)))
  func theDemoDrawsAtTheFractionalScale() throws {
    let compositor = try TestCompositor(scale120: 180)
    defer { compositor.stop() }
    var env = ProcessInfo.processInfo.environment
    env["XDG_RUNTIME_DIR"] = compositor.runtimeDirectory
    env["WAYLAND_DISPLAY"] = compositor.socket
    env["DISPLAY"] = nil
    let result = try runProcess(
      try sheenPath(),
      ["demo", "--backend", "wayland", "--size", "200x150", "--frames", "3", "--print-events"],
      environment: env, timeout: 30)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("scaleChange 1.5") || result.stdout.contains("scale=1.5"), "\(result.stdout)")
    var commits: [String] = []
    while let line = compositor.readLine(timeout: 1, { $0.hasPrefix("commit") }) { commits.append(line) }
    // The cursor's surface commits too (its image is at most 64 pixels): the window's are the rest.
    let windowCommits = commits.filter { line in
      let size = line.split(separator: " ")[1].dropFirst("buffer=".count).split(separator: "x").compactMap {
        Int($0)
      }
      return size.count != 2 || size[0] > 64 || size[1] > 64
    }
    #expect(!windowCommits.isEmpty)
    #expect(
      windowCommits.allSatisfy { $0 == "commit buffer=300x225 scale=1 destination=200x150" }, "\(commits)")
  }
}

/// A running sheen-wayland-test-compositor in a private runtime directory.
final class TestCompositor {
  static let path: String? = {
    guard let sheen = sheenExecutable else { return nil }
    let candidate = URL(fileURLWithPath: sheen).deletingLastPathComponent()
      .appendingPathComponent("sheen-wayland-test-compositor").path
    return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
  }()

  let runtimeDirectory: String
  let socket = "sheen-test-compositor"
  private let process = Process()
  private let reader: LineReader
  var socketPath: String { runtimeDirectory + "/" + socket }

  /// - Parameter cursorShape: offer `wp_cursor_shape_manager_v1` too.
  init(scale120: Int, cursorShape: Bool = false) throws {
    guard let path = TestCompositor.path else {
      throw TestFailure("sheen-wayland-test-compositor is not built")
    }
    var template = Array("/tmp/sheen-testcomp-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
    runtimeDirectory = String(cString: dir)
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = [socket, "\(scale120)"] + (cursorShape ? ["--cursor-shape"] : [])
    var env = ProcessInfo.processInfo.environment
    env["XDG_RUNTIME_DIR"] = runtimeDirectory
    process.environment = env
    let out = Pipe()
    process.standardOutput = out
    reader = LineReader(out.fileHandleForReading.fileDescriptor)
    try spawn(process)
    guard reader.readLine(timeout: 10) == "ready" else {
      stop()
      throw TestFailure("the test compositor did not start")
    }
  }

  deinit { stop() }

  /// The next line `accept`s, within `timeout` seconds.
  func readLine(timeout: Double = 5, _ accept: (String) -> Bool) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      guard let line = reader.readLine(timeout: max(0, deadline.timeIntervalSinceNow)) else { return nil }
      if accept(line) { return line }
    }
    return nil
  }

  func stop() {
    stopProcess(process)
    try? FileManager.default.removeItem(atPath: runtimeDirectory)
  }
}
