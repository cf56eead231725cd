import Foundation

public func sheenPath() throws -> String {
  guard let path = sheenExecutable else {
    throw TestFailure("the sheen executable is not next to the tests: swift build --product sheen first")
  }
  return path
}

/// A running `sheen demo --print-events` on a test's Xvfb.
public final class DemoProcess {
  public let process = Process()
  public let out: LineReader
  public let err: LineReader
  public private(set) var lines: [String] = []
  /// From the "ready" line.
  public private(set) var windowID: UInt = 0
  public private(set) var shmID: Int32?

  public init(server: Xvfb, arguments: [String] = []) throws {
    process.executableURL = URL(fileURLWithPath: try sheenPath())
    process.arguments = ["demo", "--print-events", "--size", "320x240"] + arguments
    process.environment = server.environment
    let o = Pipe()
    let e = Pipe()
    process.standardOutput = o
    process.standardError = e
    out = LineReader(o.fileHandleForReading.fileDescriptor)
    err = LineReader(e.fileHandleForReading.fileDescriptor)
    try process.run()
    guard let ready = readLine(until: { $0.hasPrefix("ready ") }, timeout: 15) else {
      kill(process.processIdentifier, SIGKILL)
      throw TestFailure("sheen demo never said ready; stderr: \(err.rest())")
    }
    for field in ready.split(separator: " ") {
      let kv = field.split(separator: "=", maxSplits: 1)
      guard kv.count == 2 else { continue }
      if kv[0] == "window" { windowID = UInt(kv[1].dropFirst(2), radix: 16) ?? 0 }
      if kv[0] == "shm" { shmID = Int32(kv[1]) }
    }
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      _ = waitForExit(process, timeout: 5)
    }
  }

  /// Reads output lines until one satisfies `match` (returned), or `timeout` seconds pass.
  public func readLine(until match: (String) -> Bool, timeout: Double) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while let line = out.readLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
      lines.append(line)
      if match(line) { return line }
    }
    return nil
  }

  /// Waits for the exit status (nil after `timeout` seconds), then collects remaining output.
  public func exitStatus(timeout: Double) -> Int32? {
    guard waitForExit(process, timeout: timeout) else { return nil }
    while !out.atEnd { out.fill(timeout: 0.2) }
    lines += out.rest().split(separator: "\n").map(String.init)
    return process.terminationStatus
  }

  /// Standard error so far.
  public func standardError() -> String {
    for _ in 0..<10 where !err.atEnd { err.fill(timeout: 0.05) }
    return err.rest()
  }
}
