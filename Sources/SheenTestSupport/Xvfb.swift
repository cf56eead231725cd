// Shared by the test targets that run processes and X servers (SheenX11Tests, SheenDemoTests):
// a private Xvfb per test, processes run with timeouts, and lines read from pipes.

import Foundation

/// An Xvfb server private to one test: `-displayfd` picks a free display number.
public final class Xvfb {
  /// The `Xvfb` executable, if installed.
  public static let path: String? = findExecutable("Xvfb")
  public static var isInstalled: Bool {
    path != nil && findExecutable("xdotool") != nil && findExecutable("xwd") != nil
  }
  public static let skipMessage =
    "Xvfb, xdotool or xwd is not installed (apt-get install xvfb xdotool x11-apps)"

  public let process: Process
  /// Such as `:3`.
  public let display: String

  /// Starts `Xvfb -screen 0 <screen>` plus `extraArguments` (for example `-extension MIT-SHM`).
  public init(screen: String = "1024x768x24", extraArguments: [String] = []) throws {
    guard let path = Xvfb.path else { throw TestFailure("Xvfb is not installed") }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", screen] + extraArguments
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try spawn(p)
    process = p
    let reader = LineReader(out.fileHandleForReading.fileDescriptor)
    guard let line = reader.readLine(timeout: 10), let n = Int(line.trimmingCharacters(in: .whitespaces))
    else {
      kill(p.processIdentifier, SIGKILL)
      p.waitUntilExit()
      throw TestFailure("Xvfb did not report a display number within 10 s")
    }
    display = ":\(n)"
  }

  deinit { stop() }

  /// Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it.
  public func stop() {
    guard process.isRunning else { return }
    process.terminate()
    if !waitForExit(process, timeout: 5) {
      kill(process.processIdentifier, SIGKILL)
      _ = waitForExit(process, timeout: 5)
    }
  }

  /// Kills the server outright, as a crash would.
  public func crash() {
    kill(process.processIdentifier, SIGKILL)
    _ = waitForExit(process, timeout: 5)
  }

  /// The environment for a client of this server.
  public var environment: [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["DISPLAY"] = display
    return env
  }

  /// Runs an X client (xdotool, xwd) against this server; throws on a non-zero status.
  @discardableResult
  public func run(_ tool: String, _ arguments: [String], timeout: Double = 10) throws -> String {
    guard let path = findExecutable(tool) else { throw TestFailure("\(tool) is not installed") }
    let result = try runProcess(path, arguments, environment: environment, timeout: timeout)
    guard result.status == 0 else {
      throw TestFailure(
        "\(tool) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
    }
    return result.stdout
  }
}

public struct TestFailure: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

public func findExecutable(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for dir in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"] {
    let candidate = "\(dir)/\(name)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}

/// Waits for `process` to exit; false after `timeout` seconds.
public func waitForExit(_ process: Process, timeout: Double) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while process.isRunning {
    if Date() > deadline { return false }
    usleep(5_000)
  }
  return true
}

/// Stops `process`: SIGTERM, then SIGKILL after `grace` seconds; waits for it either way.
public func stopProcess(_ process: Process, grace: Double = 5) {
  guard process.isRunning else { return }
  kill(process.processIdentifier, SIGTERM)
  if !waitForExit(process, timeout: grace) {
    kill(process.processIdentifier, SIGKILL)
    _ = waitForExit(process, timeout: 5)
  }
}

public struct ProcessResult {
  public var status: Int32
  public var stdout: String
  public var stderr: String
}

/// Runs a program to completion (killed after `timeout` seconds) and collects its output.
public func runProcess(
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
public final class LineReader {
  public let fd: Int32
  private var buffer: [UInt8] = []
  public private(set) var atEnd = false

  public init(_ fd: Int32) { self.fd = fd }

  /// Reads whatever is available within `timeout` seconds.
  public func fill(timeout: Double) {
    guard !atEnd else { return }
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return }
    var chunk = [UInt8](repeating: 0, count: 4096)
    let n = read(fd, &chunk, chunk.count)
    if n <= 0 { atEnd = true } else { buffer += chunk[0..<n] }
  }

  /// The next line (without its newline), or nil at end of file or after `timeout` seconds.
  public func readLine(timeout: Double) -> String? {
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
  public func rest() -> String {
    defer { buffer = [] }
    return String(decoding: buffer, as: UTF8.self)
  }
}

/// Starts `process` with SIGINT and SIGTERM unblocked. Test threads (libdispatch's pool) block
/// them, and a child inherits the mask: an Xvfb or `sheen` started from there would ignore them.
public func spawn(_ process: Process) throws {
  var set = sigset_t()
  var old = sigset_t()
  sigemptyset(&set)
  sigaddset(&set, SIGINT)
  sigaddset(&set, SIGTERM)
  pthread_sigmask(SIG_UNBLOCK, &set, &old)
  defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
  try process.run()
}

/// Runs `body` with a private Xvfb, and stops the server after every X object made in `body`
/// is gone (a connection must never outlive its server in this process: that is an X IO error,
/// which exits).
public func withXvfb(
  screen: String = "1024x768x24", extraArguments: [String] = [], _ body: (Xvfb) throws -> Void
) throws {
  let server = try Xvfb(screen: screen, extraArguments: extraArguments)
  defer { server.stop() }
  try body(server)
}
