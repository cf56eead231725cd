import Foundation
import SheenTestSupport

// Process helpers (spawning, waiting, reading lines, running to completion) come from
// SheenTestSupport; what follows is the Wayland tests' own demo process.

/// A running `sheen demo --print-events`.
final class DemoProcess {
  let process = Process()
  let out: LineReader
  let err: LineReader
  private(set) var lines: [String] = []
  /// The "ready" line's `key=value` fields.
  private(set) var ready: [String: String] = [:]

  init(environment: [String: String], arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: try sheenPath())
    process.arguments = ["demo", "--print-events"] + arguments
    process.environment = environment
    let o = Pipe()
    let e = Pipe()
    process.standardOutput = o
    process.standardError = e
    out = LineReader(o.fileHandleForReading.fileDescriptor)
    err = LineReader(e.fileHandleForReading.fileDescriptor)
    try spawn(process)
    guard let line = readLine(until: { $0.hasPrefix("ready ") }, timeout: 15) else {
      kill(process.processIdentifier, SIGKILL)
      _ = waitForExit(process, timeout: 5)
      throw TestFailure("sheen demo never said ready; stderr: \(err.rest())")
    }
    for field in line.split(separator: " ").dropFirst() {
      let kv = field.split(separator: "=", maxSplits: 1)
      if kv.count == 2 { ready[String(kv[0])] = String(kv[1]) }
    }
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      _ = waitForExit(process, timeout: 5)
    }
  }

  /// Reads output lines until one satisfies `match` (returned), or `timeout` seconds pass.
  func readLine(until match: (String) -> Bool, timeout: Double) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while let line = out.readLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
      lines.append(line)
      if match(line) { return line }
    }
    return nil
  }

  /// Waits for the exit status (nil after `timeout` seconds), then collects remaining output.
  func exitStatus(timeout: Double) -> Int32? {
    guard waitForExit(process, timeout: timeout) else { return nil }
    while !out.atEnd { out.fill(timeout: 0.2) }
    lines += out.rest().split(separator: "\n").map(String.init)
    return process.terminationStatus
  }

  /// Standard error so far.
  func standardError() -> String {
    for _ in 0..<10 where !err.atEnd { err.fill(timeout: 0.05) }
    return err.rest()
  }
}
