import Foundation
import SheenTestSupport

struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

func findExecutable(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for dir in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"] {
    let candidate = "\(dir)/\(name)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}

/// Waits for `process` to exit; false after `timeout` seconds.
func waitForExit(_ process: Process, timeout: Double) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while process.isRunning {
    if Date() > deadline { return false }
    usleep(5_000)
  }
  return true
}

/// Stops `process`: SIGTERM, then SIGKILL after `grace` seconds; waits for it either way.
func stopProcess(_ process: Process, grace: Double = 5) {
  guard process.isRunning else { return }
  kill(process.processIdentifier, SIGTERM)
  if !waitForExit(process, timeout: grace) {
    kill(process.processIdentifier, SIGKILL)
    _ = waitForExit(process, timeout: 5)
  }
}

/// Starts `process` with SIGINT and SIGTERM unblocked (test threads block them, and a child
/// inherits the mask).
func spawn(_ process: Process) throws {
  var set = sigset_t()
  var old = sigset_t()
  sigemptyset(&set)
  sigaddset(&set, SIGINT)
  sigaddset(&set, SIGTERM)
  pthread_sigmask(SIG_UNBLOCK, &set, &old)
  defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
  try process.run()
}

struct ProcessResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs a program to completion (killed after `timeout` seconds) and collects its output.
func runProcess(
  _ path: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
  timeout: Double
) throws -> ProcessResult {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: path)
  p.arguments = arguments
  if let environment { p.environment = environment }
  if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
  let out = Pipe()
  let err = Pipe()
  p.standardOutput = out
  p.standardError = err
  try spawn(p)
  let outReader = LineReader(out.fileHandleForReading.fileDescriptor)
  let errReader = LineReader(err.fileHandleForReading.fileDescriptor)
  let deadline = Date().addingTimeInterval(timeout)
  while p.isRunning || !outReader.atEnd || !errReader.atEnd {
    if Date() > deadline {
      kill(p.processIdentifier, SIGKILL)
      _ = waitForExit(p, timeout: 5)
      throw TestFailure("\(path) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    outReader.fill(timeout: 0.01)
    errReader.fill(timeout: 0.01)
  }
  _ = waitForExit(p, timeout: 5)
  return ProcessResult(status: p.terminationStatus, stdout: outReader.rest(), stderr: errReader.rest())
}

/// Reads lines from a pipe with timeouts (never blocks past the deadline).
final class LineReader {
  let fd: Int32
  private var buffer: [UInt8] = []
  private(set) var atEnd = false

  init(_ fd: Int32) { self.fd = fd }

  /// Reads whatever is available within `timeout` seconds.
  func fill(timeout: Double) {
    guard !atEnd else { return }
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return }
    var chunk = [UInt8](repeating: 0, count: 4096)
    let n = read(fd, &chunk, chunk.count)
    if n <= 0 { atEnd = true } else { buffer += chunk[0..<n] }
  }

  /// The next line (without its newline), or nil at end of file or after `timeout` seconds.
  func readLine(timeout: Double) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let i = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<i], as: UTF8.self)
        buffer.removeSubrange(...i)
        return line
      }
      let remaining = deadline.timeIntervalSinceNow
      if atEnd || remaining <= 0 { return nil }
      fill(timeout: min(remaining, 0.1))
    }
  }

  /// Everything buffered so far, consumed.
  func rest() -> String {
    defer { buffer = [] }
    return String(decoding: buffer, as: UTF8.self)
  }
}

/// The built `sheen` executable, next to the test bundle in the build directory.
func sheenPath() throws -> String {
  guard let path = sheenExecutable else {
    throw TestFailure("the sheen executable is not next to the tests: swift build --product sheen first")
  }
  return path
}

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
