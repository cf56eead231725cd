// Input storms against `sheen demo` on a private Xvfb (Scripts/faults.sh runs these and the
// other faults from the shell): the demo keeps running, then exits 0 on a signal and leaves no
// shared-memory segment. Server death, signals and the missing MIT-SHM case are in
// LifecycleTests and WindowPixelsTests.
import Foundation
import SheenTestSupport
import Testing

extension X11Tests {
  @Suite struct Faults {
    @Test(.timeLimit(.minutes(2)))
    func twoHundredResizesThenSIGTERM() throws {
      try withXvfb { server in
        let demo = try DemoProcess(server: server, arguments: ["--fps", "60"])
        let window = "0x" + String(demo.windowID, radix: 16)
        for i in 0..<200 {
          try server.run(
            "xdotool", ["windowsize", window, "\(200 + (i * 37) % 600)", "\(150 + (i * 53) % 500)"])
        }
        #expect(demo.process.isRunning)
        try expectCleanExit(demo, signal: SIGTERM)
      }
    }

    @Test(.timeLimit(.minutes(2)))
    func tenThousandClicksThenSIGINT() throws {
      try withXvfb { server in
        let demo = try DemoProcess(server: server, arguments: ["--fps", "60"])
        let window = "0x" + String(demo.windowID, radix: 16)
        try server.run(
          "xdotool",
          ["mousemove", "--window", window, "160", "120", "click", "--repeat", "10000", "--delay", "0", "1"],
          timeout: 60)
        // Every press reaches the demo (it prints one line per event).
        var presses = 0
        _ = demo.readLine(
          until: { line in
            if line.hasPrefix("pointerDown") { presses += 1 }
            return presses >= 10_000
          }, timeout: 30)
        #expect(presses == 10_000)
        #expect(demo.process.isRunning)
        try expectCleanExit(demo, signal: SIGINT)
      }
    }
  }
}

/// Sends `signal` and expects exit status 0 and the demo's segment gone.
private func expectCleanExit(_ demo: DemoProcess, signal: Int32) throws {
  kill(demo.process.processIdentifier, signal)
  #expect(demo.exitStatus(timeout: 10) == 0)
  if let id = demo.shmID { #expect(try waitUntilSegmentGone(id)) }
  #expect(try !sharedMemorySegments().contains { $0.creator == demo.process.processIdentifier })
}
