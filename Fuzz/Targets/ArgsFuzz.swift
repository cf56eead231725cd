// libFuzzer target: argument vectors for every `sheen` subcommand, parsed by the declarations in
// Sources/sheen/Commands.swift (compiled in with this file). The input is split at NUL bytes into
// arguments; its first byte picks the subcommand. Nothing may trap; a refusal must be one line
// without control characters, at most a few hundred bytes, naming an option or argument.
import Glibc
import SheenCommandLine

private let commands = [
  TopArgs.command, DemoArgs.command, DumpArgs.command, RenderArgs.command, SampleArgs.command,
  BenchArgs.command, BenchArgs.raster, BenchArgs.cards,
]

/// Words the parser knows, so that mutations reach the value checks quickly.
private let words: [String] =
  commands.flatMap { $0.options.flatMap(\.info.names) } + [
    "--help", "--", "-", "wait", "wheel", "fling", "tap-button", "key home", "nan", "inf", "1e300", "-1e19",
    "9223372036854775807", "-9223372036854775808", "800x600", "0x0", " 3", "0,30,", "steady 1e5",
  ]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard size > 0 else { return 0 }
  let command = commands[Int(data[0]) % commands.count]
  var args: [String] = []
  var current: [UInt8] = []
  func flush() {
    // A byte 0x01 followed by an index stands for a known word.
    if current.count == 2, current[0] == 1 {
      args.append(words[Int(current[1]) % words.count])
    } else {
      args.append(String(decoding: current, as: UTF8.self))
    }
    current.removeAll()
  }
  for i in 1..<size {
    if data[i] == 0 { flush() } else { current.append(data[i]) }
  }
  if !current.isEmpty { flush() }
  do throws(UsageError) {
    guard let parsed = try command.parse(args) else {
      precondition(!command.help.isEmpty)
      return 0
    }
    // The typed values are within their declared ranges (options are read with their own
    // command's declarations: another command's `--scale` may have another range).
    switch command.path {
    case "sheen demo":
      if let s = parsed[DemoArgs.size] {
        precondition((1...16384).contains(s.width) && (1...16384).contains(s.height))
      }
      if let f = parsed[DemoArgs.fps] { precondition(f.isFinite && f >= 0 && f <= 1000) }
      if let s = parsed[SharedArgs.scale] { precondition(s.isFinite && s >= 0.25 && s <= 8) }
    case "sheen dump":
      if let frames = parsed[DumpArgs.frames] {
        precondition(
          frames.count <= DumpArgs.maxFrame + 1 && frames.allSatisfy { (0...DumpArgs.maxFrame).contains($0) })
      }
    case "sheen render":
      if let s = parsed[RenderArgs.scale] { precondition(s.isFinite && s >= 0.01 && s <= 100) }
      precondition(parsed.positionals.count == 1)
    default: break
    }
  } catch {
    let m = error.message
    precondition(!m.isEmpty && m.utf8.count < 600, "message of \(m.utf8.count) bytes")
    precondition(
      !m.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" },
      "control character in \(m.debugDescription)")
  }
  return 0
}
