// The `sheen` command line: one subcommand per job, each in its own file; their options are all
// declared in Commands.swift.
import Foundation
import SheenCommandLine

// Past a file-size limit (ulimit -f) a write fails with EFBIG and is reported, instead of the
// default SIGXFSZ ending the process mid-file.
signal(SIGXFSZ, SIG_IGN)
// Likewise a write to a closed pipe (`sheen render x.json -o - | head -c 1`) fails with EPIPE and
// is reported, instead of SIGPIPE ending the process without a word.
signal(SIGPIPE, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
switch arguments.first {
case "demo": exit(runDemo(rest))
case "dump": exit(runDump(rest))
case "render": exit(runRender(rest))
case "sample": exit(runSample(rest))
case "bench": exit(runBench(rest))
case "preview": exit(runPreview(rest))
case "help":
  print(TopArgs.command.help)
  exit(0)
default:
  var status: Int32 = 0
  guard let parsed = parseCommandLine(TopArgs.command, arguments, status: &status) else { exit(status) }
  if parsed[TopArgs.version] {
    print("sheen \(sheenVersion)")
    exit(0)
  }
  // No command (or one that is not known, which the parser names).
  writeError("sheen: no command given\n\(TopArgs.command.shortUsage)")
  exit(64)
}
