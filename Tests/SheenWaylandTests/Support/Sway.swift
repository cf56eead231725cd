import CWaylandTestProtocols
import Foundation
import SheenTestSupport
import Testing

/// sway (a wlroots compositor) on its headless backend, private to one test: its own
/// `XDG_RUNTIME_DIR` and a minimal configuration (one 640x480 output, no Xwayland). Its seat
/// has no device until a client adds one through `zwlr_virtual_pointer_v1` (`VirtualPointer`).
/// sway refuses to run as root: under root it runs as `nobody` (setpriv).
final class Sway {
  static let path: String? = findExecutable("sway")
  static var isInstalled: Bool { path != nil && (getuid() != 0 || findExecutable("setpriv") != nil) }
  static let skipMessage = "sway is not installed (apt-get install sway)"

  let runtimeDirectory: String
  private let process: Process
  /// The socket's name in the runtime directory, such as `wayland-1`.
  private(set) var socket = ""
  var socketPath: String { runtimeDirectory + "/" + socket }
  var logPath: String { runtimeDirectory + "/sway.log" }

  /// Starts sway and waits (at most 10 s) until its socket exists.
  init(width: Int = 640, height: Int = 480) throws {
    guard let path = Sway.path else { throw TestFailure(Sway.skipMessage) }
    var template = Array("/tmp/sheen-sway-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
    runtimeDirectory = String(cString: dir)
    chmod(runtimeDirectory, 0o700)
    let config = runtimeDirectory + "/config"
    let log = runtimeDirectory + "/sway.log"
    FileManager.default.createFile(
      atPath: config,
      contents: Data("xwayland disable\noutput HEADLESS-1 resolution \(width)x\(height)\n".utf8))
    FileManager.default.createFile(atPath: log, contents: nil)
    let asRoot = getuid() == 0
    if asRoot {
      // nobody owns its runtime directory; root (this process) still reaches the socket.
      for file in [runtimeDirectory, config, log] { chown(file, 65534, 65534) }
    }
    let p = Process()
    if asRoot {
      p.executableURL = URL(fileURLWithPath: findExecutable("setpriv")!)
      p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", path, "-c", config]
    } else {
      p.executableURL = URL(fileURLWithPath: path)
      p.arguments = ["-c", config]
    }
    p.environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": runtimeDirectory,
      "XDG_RUNTIME_DIR": runtimeDirectory, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman",
      "WLR_LIBINPUT_NO_DEVICES": "1",
    ]
    p.currentDirectoryURL = URL(fileURLWithPath: runtimeDirectory)
    p.standardOutput = FileHandle(forWritingAtPath: log)
    p.standardError = p.standardOutput
    process = p
    do {
      try spawn(p)
    } catch {
      try? FileManager.default.removeItem(atPath: runtimeDirectory)
      throw error
    }
    let deadline = Date().addingTimeInterval(10)
    while true {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
      if let name = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) {
        socket = name
        break
      }
      if !p.isRunning || Date() > deadline {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        stop()
        throw TestFailure("sway did not open its socket within 10 s; log:\n\(text.suffix(2000))")
      }
      usleep(20_000)
    }
    usleep(200_000)
  }

  deinit { stop() }

  func stop() {
    stopProcess(process)
    cleanUp()
  }

  private func cleanUp() { try? FileManager.default.removeItem(atPath: runtimeDirectory) }
}

/// A pointer device of sway's seat, driven from this process through
/// `zwlr_virtual_pointer_v1` on a connection of its own.
final class VirtualPointer {
  private let display: OpaquePointer
  private let pointer: OpaquePointer
  private let extent: (width: UInt32, height: UInt32)

  init(sway: Sway, extent: (width: UInt32, height: UInt32) = (640, 480)) throws {
    guard let display = wl_display_connect(sway.socketPath) else {
      throw TestFailure("cannot connect to sway at \(sway.socketPath)")
    }
    guard let pointer = sheen_test_create_virtual_pointer(display) else {
      wl_display_disconnect(display)
      throw TestFailure("sway offers no zwlr_virtual_pointer_manager_v1")
    }
    self.display = display
    self.pointer = pointer
    self.extent = extent
  }

  deinit {
    zwlr_virtual_pointer_v1_destroy(pointer)
    wl_display_flush(display)
    wl_display_disconnect(display)
  }

  private var time: UInt32 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt32(truncatingIfNeeded: Int(ts.tv_sec) * 1000 + Int(ts.tv_nsec) / 1_000_000)
  }

  private func send() { _ = wl_display_flush(display) }

  /// Moves the pointer to (x, y) on the output.
  func move(to x: UInt32, _ y: UInt32) {
    zwlr_virtual_pointer_v1_motion_absolute(pointer, time, x, y, extent.width, extent.height)
    zwlr_virtual_pointer_v1_frame(pointer)
    send()
  }

  /// One frame of a two-finger scroll on a touchpad (`axis_source` finger) by `dy` units.
  func fingerScroll(dy: Double) {
    zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_FINGER.rawValue)
    zwlr_virtual_pointer_v1_axis(
      pointer, time, WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, wl_fixed_from_double(dy))
    zwlr_virtual_pointer_v1_frame(pointer)
    send()
  }

  /// The fingers lift: `axis_stop` on the vertical axis.
  func fingersLift() {
    zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_FINGER.rawValue)
    zwlr_virtual_pointer_v1_axis_stop(pointer, time, WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue)
    zwlr_virtual_pointer_v1_frame(pointer)
    send()
  }

  /// One wheel notch down (`axis_source` wheel, a discrete step of 15 units, as libinput).
  func wheelNotch() {
    zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_WHEEL.rawValue)
    zwlr_virtual_pointer_v1_axis_discrete(
      pointer, time, WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, wl_fixed_from_double(15), 1)
    zwlr_virtual_pointer_v1_frame(pointer)
    send()
  }
}
