import Foundation
import SheenPlatform
import SheenTestSupport
import Testing

@testable import SheenWayland

extension WaylandTests {
  @Suite struct Lifecycle {
    @Test(.timeLimit(.minutes(1)))
    func closingLeavesNoDescriptorsOrBuffers() throws {
      try withWeston { weston in
        // Counted by kind, not in total: other suites open files in parallel with this one.
        let memfdsBefore = openMemfdCount()
        var socket: String? = nil
        do {
          let display = try connect(to: weston)
          socket = descriptorTarget(display.fileDescriptor)
          let window = try WaylandWindow(
            display: display, title: "fds", size: PixelSize(width: 80, height: 60))
          for seed in 0..<6 { try showPattern(in: window, seed: seed) }
          window.setFullscreen(true)
          pump(window) { $0.contains { if case .resize = $0 { return true } else { return false } } }
          for seed in 0..<3 { try showPattern(in: window, seed: seed) }
          #expect(window.bufferCount >= 1)
          window.close()
          #expect(window.bufferCount == 0)
        }
        #expect(openMemfdCount() == memfdsBefore)
        // The connection's socket is closed: no descriptor refers to it any more.
        #expect(socket != nil)
        if let socket { #expect(!openDescriptorTargets().contains(socket)) }
      }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func compositorDeathExitsWithStatus3(idle: Bool) throws {
      try withWeston { weston in
        let demo = try DemoProcess(
          environment: weston.environment,
          arguments: ["--backend", "wayland", "--size", "100x80"] + (idle ? ["--test-pattern"] : []))
        let start = Date()
        weston.crash()
        #expect(demo.exitStatus(timeout: 5) == 3)
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(demo.standardError().contains("lost the connection to the Wayland compositor"))
      }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
    func signalsExitCleanly(signal: Int32) throws {
      try withWeston { weston in
        let demo = try DemoProcess(environment: weston.environment, arguments: ["--size", "100x80"])
        // The demo says "ready" just before its frame loop starts watching signals.
        usleep(300_000)
        kill(demo.process.processIdentifier, signal)
        #expect(demo.exitStatus(timeout: 5) == 0)
        #expect(demo.lines.contains { $0.hasPrefix("stopped signal(\(signal))") })
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func defaultBackendIsWaylandWhenReachable() throws {
      try withWeston { weston in
        let demo = try DemoProcess(environment: weston.environment, arguments: ["--size", "100x80"])
        #expect(demo.ready["backend"] == "wayland")
        #expect(demo.ready["display"] == weston.socket)
        usleep(300_000)
        kill(demo.process.processIdentifier, SIGTERM)
        #expect(demo.exitStatus(timeout: 5) == 0)
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func framesOptionExitsAfterThatManyFrames() throws {
      try withWeston { weston in
        let result = try runProcess(
          try sheenPath(),
          ["demo", "--backend", "wayland", "--frames", "12", "--fps", "0", "--size", "100x80"],
          environment: weston.environment, timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
      }
    }
  }
}

/// Backend choice without any compositor: these need no weston.
@Suite struct BackendChoice {
  private func environment(wayland: String?, x11: String?) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["WAYLAND_DISPLAY"] = wayland
    env["DISPLAY"] = x11
    env["WAYLAND_SOCKET"] = nil
    return env
  }

  @Test(.timeLimit(.minutes(1)))
  func forcedWaylandWithoutDisplayExits3() throws {
    let result = try runProcess(
      try sheenPath(), ["demo", "--backend", "wayland"], environment: environment(wayland: nil, x11: nil),
      timeout: 20)
    #expect(result.status == 3)
    #expect(result.stderr.contains("WAYLAND_DISPLAY environment variable is not set"))
  }

  @Test(.timeLimit(.minutes(1)))
  func forcedWaylandWithDeadSocketExits3() throws {
    let result = try runProcess(
      try sheenPath(), ["demo", "--backend", "wayland"],
      environment: environment(wayland: "/tmp/sheen-no-such-wayland-socket", x11: nil), timeout: 20)
    #expect(result.status == 3)
    #expect(result.stderr.contains("cannot connect to the Wayland compositor"))
  }

  /// libwayland prints its own "error: XDG_RUNTIME_DIR is invalid..." line when it cannot place a
  /// relative socket name: the user must get Sheen's one line alone, naming the variable.
  @Test(.timeLimit(.minutes(1)), arguments: [nil, "", "relative/dir"])
  func noRuntimeDirectoryIsOneLine(runtime: String?) throws {
    for args in [["demo", "--backend", "wayland"], ["demo"]] {
      var env = environment(wayland: "wayland-0", x11: nil)
      env["XDG_RUNTIME_DIR"] = runtime
      let result = try runProcess(try sheenPath(), args, environment: env, timeout: 20)
      #expect(result.status == 3)
      #expect(result.stderr.hasPrefix("sheen demo: "), "\(args): \(result.stderr)")
      #expect(!result.stderr.contains("error: XDG_RUNTIME_DIR"), "\(args): \(result.stderr)")
      #expect(result.stderr.contains("XDG_RUNTIME_DIR environment variable is not set"))
      if args.count == 3 { #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)") }
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func neitherReachableExits3NamingBoth() throws {
    let result = try runProcess(
      try sheenPath(), ["demo"],
      environment: environment(wayland: "/tmp/sheen-no-such-wayland-socket", x11: nil),
      timeout: 20)
    #expect(result.status == 3)
    #expect(result.stderr.contains("Wayland: cannot connect"))
    #expect(result.stderr.contains("X11: no X display"))
  }

  @Test(.timeLimit(.minutes(1)))
  func unknownBackendIsUsage() throws {
    let result = try runProcess(try sheenPath(), ["demo", "--backend", "cocoa"], timeout: 20)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("sheen demo: --backend: 'cocoa' is not one of wayland, x11\n"))
  }
}
