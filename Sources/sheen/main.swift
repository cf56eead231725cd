// The `sheen` command line: one subcommand per job, each in its own file.
import Foundation

let usage = """
  usage: sheen <command> [options]

  commands:
    demo     open the demo window (Wayland or X11: --backend wayland|x11)
    dump     render frames of the demo to PNGs, headless
    render   render a scene file to PNG (SCENE.md)
    bench    time the demo scrolling (--offscreen, --threads N), or `bench raster`, `bench cards`
    sample   render a sample picture to PNG

  `sheen <command> --help` describes each command.
  """

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
  FileHandle.standardError.write(Data((usage + "\n").utf8))
  exit(64)
}
let rest = Array(arguments.dropFirst())
switch command {
case "demo": exit(runDemo(rest))
case "dump": exit(runDump(rest))
case "render": exit(runRender(rest))
case "sample": exit(runSample(rest))
case "bench": exit(runBench(rest))
case "-h", "--help", "help":
  print(usage)
  exit(0)
default:
  FileHandle.standardError.write(Data("sheen: unknown command '\(command)'\n\(usage)\n".utf8))
  exit(64)
}

/// A command line that a subcommand cannot take: the message says what was wrong (exit 64).
struct UsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
