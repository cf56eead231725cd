import Foundation

/// The built `sheen` executable, next to the test bundle in the build directory (nil when it has
/// not been built: `swift build --product sheen` first, which `./run.sh test` does).
public let sheenExecutable: String? = {
  let dirs = [
    Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    Bundle.main.bundleURL.deletingLastPathComponent(),
  ]
  for dir in dirs {
    let candidate = dir.appendingPathComponent("sheen").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}()

/// What a finished command printed and how it ended.
public struct CommandResult: Sendable {
  public var status: Int32
  public var standardOutput: String
  public var standardError: String
}

/// Runs `sheen` with `arguments` to completion (killing it after `timeout` seconds).
public func runSheen(_ arguments: [String], timeout: Double = 60) throws -> CommandResult {
  guard let path = sheenExecutable else {
    throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "sheen is not built"])
  }
  let p = Process()
  p.executableURL = URL(fileURLWithPath: path)
  p.arguments = arguments
  let out = Pipe()
  let err = Pipe()
  p.standardOutput = out
  p.standardError = err
  try p.run()
  // Read both pipes while the process runs, so a full pipe cannot stall it.
  let group = DispatchGroup()
  nonisolated(unsafe) var outData = Data()
  nonisolated(unsafe) var errData = Data()
  DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
  DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
  let deadline = Date().addingTimeInterval(timeout)
  while p.isRunning && Date() < deadline { usleep(10_000) }
  if p.isRunning { p.terminate() }
  p.waitUntilExit()
  group.wait()
  return CommandResult(
    status: p.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
    standardError: String(decoding: errData, as: UTF8.self))
}

/// The release `sheen` of this checkout (`.build/release/sheen`, which `./run.sh test` builds
/// before the tests), for tests that measure speed, memory or allocations of the real binary.
public let releaseSheenPath = ReferenceImage.packageRoot.appendingPathComponent(".build/release/sheen").path

/// Why the release `sheen` cannot be run (a sentence for the test's failure), or nil when it can.
public func releaseSheenMissing() -> String? {
  FileManager.default.isExecutableFile(atPath: releaseSheenPath)
    ? nil
    : "no release build at \(releaseSheenPath): run `swift build -c release --product sheen` (./run.sh test does)"
}
