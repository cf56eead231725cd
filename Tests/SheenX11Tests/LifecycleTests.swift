import CX11
import Foundation
import SheenPlatform
import SheenTestSupport
import Testing

@testable import SheenX11

extension X11Tests {
  @Suite struct Lifecycle {
    @Test(.timeLimit(.minutes(1)))
    func segmentIsOwnerOnlyAndGoneAfterClose() throws {
      try withXvfb { server in
        let window = try openWindow(on: server, size: PixelSize(width: 64, height: 48))
        _ = try showPattern(in: window)
        let id = try #require(window.sharedMemoryID)
        #expect(sheen_shm_mode(id) == 0o600)
        // Attached by us and by the server, already marked for removal (IPC_RMID).
        #expect(sheen_shm_attach_count(id) == 2)
        #expect(try sharedMemorySegments().contains { $0.id == id })
        window.close()
        #expect(try waitUntilSegmentGone(id, timeout: 2))
        #expect(sheen_shm_mode(id) == -1)
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func killedProcessLeavesNoSegment() throws {
      try withXvfb { server in
        let demo = try DemoProcess(server: server)
        let id = try #require(demo.shmID)
        #expect(try sharedMemorySegments().contains { $0.id == id })
        kill(demo.process.processIdentifier, SIGKILL)
        #expect(demo.exitStatus(timeout: 5) != nil)
        #expect(try waitUntilSegmentGone(id))
        #expect(try !sharedMemorySegments().contains { $0.creator == demo.process.processIdentifier })
      }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
    func signalsExitCleanly(signal: Int32) throws {
      try withXvfb { server in
        let demo = try DemoProcess(server: server)
        let id = try #require(demo.shmID)
        kill(demo.process.processIdentifier, signal)
        #expect(demo.exitStatus(timeout: 5) == 0)
        #expect(demo.lines.contains { $0.hasPrefix("stopped signal(\(signal))") })
        #expect(try waitUntilSegmentGone(id, timeout: 1))
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func politeCloseExitsZero() throws {
      try withXvfb { server in
        let demo = try DemoProcess(server: server, arguments: ["--test-pattern"])
        try sendDeleteWindow(display: server.display, window: demo.windowID)
        #expect(demo.exitStatus(timeout: 5) == 0)
        #expect(demo.lines.contains { $0.hasPrefix("stopped closeRequested") })
      }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func serverDeathExitsWithStatus3(idle: Bool) throws {
      try withXvfb { server in
        let demo = try DemoProcess(server: server, arguments: idle ? ["--test-pattern"] : [])
        let start = Date()
        server.crash()
        #expect(demo.exitStatus(timeout: 5) == 3)
        #expect(Date().timeIntervalSince(start) < 1.5)
        #expect(demo.standardError().contains("lost the connection to the X server"))
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func framesOptionExitsAfterThatManyFrames() throws {
      try withXvfb { server in
        let result = try runProcess(
          try sheenPath(), ["demo", "--frames", "12", "--fps", "0", "--size", "100x80"],
          environment: server.environment, timeout: 20)
        #expect(result.status == 0)
      }
    }

    @Test func noDisplayExits3AndBadUsageExits64() throws {
      var env = ProcessInfo.processInfo.environment
      env["DISPLAY"] = nil
      let noDisplay = try runProcess(try sheenPath(), ["demo"], environment: env, timeout: 20)
      #expect(noDisplay.status == 3)
      #expect(noDisplay.stderr.contains("DISPLAY"))
      env["DISPLAY"] = ":987"
      let unreachable = try runProcess(try sheenPath(), ["demo"], environment: env, timeout: 20)
      #expect(unreachable.status == 3)
      #expect(unreachable.stderr.contains(":987"))
      for bad in [["--fps"], ["--size", "12"], ["--frames", "0"], ["--wat"]] {
        let r = try runProcess(try sheenPath(), ["demo"] + bad, environment: env, timeout: 20)
        #expect(r.status == 64, "\(bad)")
      }
    }
  }
}
