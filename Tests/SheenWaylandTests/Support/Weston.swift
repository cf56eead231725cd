import Foundation
import SheenRaster
import SheenTestSupport
import Testing

/// A weston compositor private to one test: its own `XDG_RUNTIME_DIR` (mode 0700) and socket.
///
/// `.headless` draws with pixman into memory and has no seat (no input); `.nestedInXvfb` runs
/// weston's X11 backend inside a private Xvfb with kiosk-shell, so xdotool drives a real seat.
final class Weston {
  enum Backend {
    case headless
    /// kiosk-shell: every window fullscreen.
    case nestedInXvfb
    /// desktop-shell: windows float where weston places them (decorations, moves, resizes).
    case nestedDesktopInXvfb
  }

  static let path: String? = findExecutable("weston")
  static var isInstalled: Bool { path != nil && findExecutable("weston-screenshooter") != nil }
  static let skipMessage = "weston or weston-screenshooter is not installed (apt-get install weston)"
  static var canNestInXvfb: Bool {
    isInstalled && findExecutable("Xvfb") != nil && findExecutable("xdotool") != nil
  }
  static let nestSkipMessage =
    "weston, Xvfb or xdotool is not installed (apt-get install weston xvfb xdotool)"

  let runtimeDirectory: String
  let socket = "sheen-test"
  let width: Int
  let height: Int
  private let process: Process
  private var xvfb: Process?
  /// The Xvfb display weston runs in (nested only), such as `:4`.
  let xDisplay: String?

  /// The absolute socket path, for connecting from this process.
  var socketPath: String { runtimeDirectory + "/" + socket }
  var logPath: String { runtimeDirectory + "/weston.log" }

  /// Starts weston and waits (at most 10 s) until its socket exists.
  init(width: Int = 640, height: Int = 480, backend: Backend = .headless, scale: Int = 1) throws {
    guard let path = Weston.path else { throw TestFailure(Weston.skipMessage) }
    var template = Array("/tmp/sheen-weston-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
    runtimeDirectory = String(cString: dir)
    chmod(runtimeDirectory, 0o700)
    self.width = width
    self.height = height

    var arguments = [
      "--socket=\(socket)", "--width=\(width)", "--height=\(height)", "--use-pixman", "--debug",
      "--no-config",
    ]
    if scale != 1 { arguments.append("--scale=\(scale)") }
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = runtimeDirectory
    environment["WAYLAND_DISPLAY"] = nil
    environment["WAYLAND_SOCKET"] = nil
    switch backend {
    case .headless:
      arguments.insert("--backend=headless-backend.so", at: 0)
      environment["DISPLAY"] = nil
      xDisplay = nil
    case .nestedInXvfb, .nestedDesktopInXvfb:
      let (server, display) = try startXvfb(screen: "\(width + 200)x\(height + 200)x24")
      xvfb = server
      xDisplay = display
      environment["DISPLAY"] = display
      let shell = backend == .nestedInXvfb ? "kiosk-shell.so" : "desktop-shell.so"
      arguments.insert(contentsOf: ["--backend=x11-backend.so", "--shell=\(shell)"], at: 0)
    }
    FileManager.default.createFile(atPath: runtimeDirectory + "/weston.log", contents: nil)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    p.environment = environment
    p.currentDirectoryURL = URL(fileURLWithPath: runtimeDirectory)
    p.standardOutput = FileHandle(forWritingAtPath: runtimeDirectory + "/weston.log")
    p.standardError = p.standardOutput
    process = p
    do {
      try spawn(p)
    } catch {
      cleanUp()
      throw error
    }
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: socketPath) {
      if !p.isRunning || Date() > deadline {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        stop()
        throw TestFailure("weston did not open its socket within 10 s; log:\n\(log.suffix(2000))")
      }
      usleep(20_000)
    }
    // The socket exists before the shell is ready: one client round trip settles it.
    usleep(300_000)
  }

  deinit { stop() }

  /// Stops weston (SIGTERM, then SIGKILL) and its Xvfb, and removes the runtime directory.
  func stop() {
    stopProcess(process)
    if let xvfb { stopProcess(xvfb) }
    xvfb = nil
    cleanUp()
  }

  /// Kills weston outright, as a crash would.
  func crash() {
    kill(process.processIdentifier, SIGKILL)
    _ = waitForExit(process, timeout: 5)
  }

  private func cleanUp() {
    try? FileManager.default.removeItem(atPath: runtimeDirectory)
  }

  /// The environment for a client of this compositor (no X display: nothing can fall back).
  var environment: [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["XDG_RUNTIME_DIR"] = runtimeDirectory
    env["WAYLAND_DISPLAY"] = socket
    env["DISPLAY"] = nil
    return env
  }

  /// The compositor's output, read with `weston-screenshooter`.
  func screenshot() throws -> Surface {
    let dir = runtimeDirectory + "/shots"
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let result = try runProcess(
      findExecutable("weston-screenshooter")!, [], environment: environment, directory: dir, timeout: 10)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    guard result.status == 0, let png = files.first(where: { $0.hasSuffix(".png") }) else {
      throw TestFailure("weston-screenshooter failed (\(result.status)): \(result.stderr)")
    }
    return try Surface(contentsOfPNG: dir + "/" + png)
  }

  /// Screenshots until `ready` accepts one (desktop-shell fades the screen in at startup), at
  /// most `timeout` seconds; returns the last one.
  func screenshot(timeout: Double = 8, until ready: (Surface) -> Bool) throws -> Surface {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let shot = try screenshot()
      if ready(shot) || Date() > deadline { return shot }
      usleep(200_000)
    }
  }

  /// Starts an X client (xdotool) against the nested Xvfb without waiting for it: an
  /// in-process window must keep reading its events meanwhile (an interactive move starts from
  /// the press the client answers while the button is still down).
  func x11Started(_ tool: String, _ arguments: [String]) throws -> Process {
    guard let xDisplay, let path = findExecutable(tool) else { throw TestFailure("no Xvfb or no \(tool)") }
    var env = ProcessInfo.processInfo.environment
    env["DISPLAY"] = xDisplay
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    p.environment = env
    p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try spawn(p)
    return p
  }

  /// Runs an X client (xdotool) against the nested Xvfb; throws on a non-zero status.
  @discardableResult
  func x11(_ tool: String, _ arguments: [String]) throws -> String {
    guard let xDisplay, let path = findExecutable(tool) else { throw TestFailure("no Xvfb or no \(tool)") }
    var env = ProcessInfo.processInfo.environment
    env["DISPLAY"] = xDisplay
    let result = try runProcess(path, arguments, environment: env, timeout: 10)
    guard result.status == 0 else {
      throw TestFailure(
        "\(tool) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
    }
    return result.stdout
  }
}

/// Starts `Xvfb -displayfd` (a free display number) and returns it with its display name.
private func startXvfb(screen: String) throws -> (Process, String) {
  guard let path = findExecutable("Xvfb") else { throw TestFailure("Xvfb is not installed") }
  let p = Process()
  p.executableURL = URL(fileURLWithPath: path)
  p.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", screen]
  let out = Pipe()
  p.standardOutput = out
  p.standardError = FileHandle(forWritingAtPath: "/dev/null")
  try spawn(p)
  let reader = LineReader(out.fileHandleForReading.fileDescriptor)
  guard let line = reader.readLine(timeout: 10), let n = Int(line.trimmingCharacters(in: .whitespaces)) else {
    kill(p.processIdentifier, SIGKILL)
    _ = waitForExit(p, timeout: 5)
    throw TestFailure("Xvfb did not report a display number within 10 s")
  }
  return (p, ":\(n)")
}

/// Runs `body` with a private weston, and always stops it afterwards.
func withWeston(
  width: Int = 640, height: Int = 480, backend: Weston.Backend = .headless, scale: Int = 1,
  _ body: (Weston) throws -> Void
) throws {
  let weston = try Weston(width: width, height: height, backend: backend, scale: scale)
  defer { weston.stop() }
  try body(weston)
}

// MARK: - Pixels

/// A deterministic opaque pattern (each channel a different function of x and y).
func patternPixel(x: Int, y: Int, seed: Int = 0) -> UInt32 {
  let r = UInt32((x * 3 + seed) & 0xff)
  let g = UInt32((y * 5 + seed * 7) & 0xff)
  let b = UInt32(((x ^ y) + (x >> 8) * 37 + seed * 13) & 0xff)
  return 0xff00_0000 | r << 16 | g << 8 | b
}

/// `sheen demo --test-pattern`'s pixel (DemoClient.testPatternPixel in Sources/sheen).
func demoPatternPixel(x: Int, y: Int) -> UInt32 {
  let r = UInt32(truncatingIfNeeded: x &* 3) & 0xff
  let g = UInt32(truncatingIfNeeded: y &* 5) & 0xff
  let b = UInt32(truncatingIfNeeded: (x ^ y) &+ (x >> 8) &* 37) & 0xff
  return 0xff00_0000 | r << 16 | g << 8 | b
}

/// Where a `width` x `height` picture drawn by `pixel` sits in `shot` (its top-left corner),
/// found by checking a few distinctive pixels at every position; nil if nowhere.
func locate(
  width: Int, height: Int, in shot: Surface, pixel: (Int, Int) -> UInt32
) -> (x: Int, y: Int)? {
  let samples = [(0, 0), (width - 1, height - 1), (width / 2, height / 3), (7, height - 2), (width - 3, 5)]
  let expected = samples.map { pixel($0.0, $0.1) & 0xff_ffff }
  guard shot.width >= width, shot.height >= height else { return nil }
  for oy in 0...(shot.height - height) {
    for ox in 0...(shot.width - width) {
      var all = true
      for (i, s) in samples.enumerated() where shot[ox + s.0, oy + s.1] & 0xff_ffff != expected[i] {
        all = false
        break
      }
      if all { return (ox, oy) }
    }
  }
  return nil
}

/// Pixels (RGB) of the picture at `origin` in `shot` that differ from `pixel`.
func differingPixels(
  width: Int, height: Int, in shot: Surface, at origin: (x: Int, y: Int), pixel: (Int, Int) -> UInt32
) -> Int {
  var count = 0
  for y in 0..<height {
    for x in 0..<width where shot[origin.x + x, origin.y + y] & 0xff_ffff != pixel(x, y) & 0xff_ffff {
      count += 1
    }
  }
  return count
}

/// The number of open file descriptors of this process.
/// What each open descriptor of this process refers to (`memfd:…`, `socket:[inode]`, a path).
func openDescriptorTargets() -> [String] {
  let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
}

/// What one descriptor refers to, if it is open.
func descriptorTarget(_ fd: Int32) -> String? {
  try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
}

/// The shared-memory files (memfds) open in this process: only the Wayland backend makes them,
/// so the count is not disturbed by tests running in parallel (which open fonts, PNGs, sockets).
func openMemfdCount() -> Int {
  openDescriptorTargets().filter { $0.hasPrefix("/memfd:") || $0.hasPrefix("memfd:") }.count
}
