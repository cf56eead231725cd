import Foundation
import SheenTestSupport
import Testing

/// The `sheen` executable's command lines: every subcommand's help, and bad usage refused with one
/// line naming what was wrong and exit status 64, before any work is done.
@Suite struct SheenCommandTests {
  @Test func versionAndTopLevelHelp() throws {
    let v = try runSheen(["--version"])
    #expect(v.status == 0 && v.standardOutput.hasPrefix("sheen "))
    let h = try runSheen(["--help"])
    #expect(h.status == 0)
    for c in ["demo", "dump", "render", "bench", "sample", "--version"] {
      #expect(h.standardOutput.contains(c))
    }
    let none = try runSheen([])
    #expect(none.status == 64)
    let unknown = try runSheen(["frobnicate"])
    #expect(unknown.status == 64 && unknown.standardError.hasPrefix("sheen: unknown command 'frobnicate'"))
  }

  /// Each subcommand's help lists every option it takes, and asking for it runs nothing.
  @Test(arguments: [
    (
      ["demo"],
      [
        "--fps", "--size", "--frames", "--scale", "--script", "--title", "--test-pattern", "--print-events",
        "--backend", "--no-raster-cache", "exit status",
      ]
    ),
    (
      ["dump"],
      [
        "--out", "--size", "--scale", "--frames", "--script", "--overlay", "--threads", "--stats", "--scene",
        "--no-raster-cache", "wait N", "36000",
      ]
    ),
    (["render"], ["SCENE.json", "--output", "--scale", "--repeat", "exit status"]),
    (["sample"], ["--output", "--scale"]),
    (
      ["bench"],
      [
        "raster", "cards", "--offscreen", "--threads", "--size", "--frames", "--seconds", "--warmup",
        "--plot", "--overlay", "--backend", "--cold", "--no-raster-cache",
      ]
    ),
    (["bench", "raster"], ["--runs"]),
    (["bench", "cards"], ["--runs", "--threads", "--size"]),
    (["bench", "press"], ["--runs", "--sections", "--threads", "--size", "--ui", "--no-raster-cache"]),
    (["bench", "tap"], ["--runs", "--card", "--threads", "--size", "--no-raster-cache"]),
  ])
  func helpIsComplete(command: [String], mentions: [String]) throws {
    let r = try runSheen(command + ["--help"])
    #expect(r.status == 0)
    #expect(r.standardOutput.hasPrefix("usage: sheen \(command.joined(separator: " "))"))
    for m in mentions { #expect(r.standardOutput.contains(m), "\(command) --help lacks \(m)") }
    // Nothing ran: no benchmark table, no file written.
    for ran in ["ns/pixel", "cards frame ", "wrote"] { #expect(!r.standardOutput.contains(ran)) }
  }

  /// Every command's --help, found by walking the top-level help and each command's "commands:"
  /// list: it exits 0 having run nothing, starts with its usage, names every option of its
  /// "options:" list in the usage lines (or says "[options]"), and ends with its exit statuses;
  /// the top-level help names every subcommand of bench. `sheen --version` prints one line.
  @Test func everyHelpIsComplete() throws {
    func commands(in help: String) -> [String] {
      var names: [String] = []
      var inList = false
      for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
        if line == "commands:" {
          inList = true
        } else if inList, line.hasPrefix("  "), let name = line.split(separator: " ").first {
          names.append(String(name))
        } else {
          inList = false
        }
      }
      return names
    }
    let top = try runSheen(["--help"])
    #expect(top.status == 0)
    var queue = commands(in: top.standardOutput).map { [$0] }
    #expect(queue.count == 6, "\(queue)")
    var seen = 0
    while let command = queue.first {
      queue.removeFirst()
      seen += 1
      let r = try runSheen(command + ["--help"])
      let help = r.standardOutput
      #expect(r.status == 0, "\(command): \(r.standardError)")
      #expect(help.hasPrefix("usage: sheen \(command.joined(separator: " "))"), "\(command)")
      #expect(help.contains("exit status:"), "\(command) --help has no exit statuses")
      for ran in ["ns/pixel", "cards frame ", "wrote"] {
        #expect(!help.contains(ran), "\(command) --help ran something")
      }
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
      let usage = lines.prefix { !$0.isEmpty }.joined(separator: " ")
      guard let start = lines.firstIndex(of: "options:") else {
        Issue.record("\(command) --help lists no options")
        continue
      }
      for line in lines[(start + 1)...].prefix(while: { $0.hasPrefix("  -") }) {
        let names = line.split(separator: " ").prefix { $0.hasPrefix("-") }.map {
          $0.trimmingCharacters(in: [","])
        }
        if names.contains("--help") { continue }
        #expect(
          usage.contains("[options]") || names.contains { usage.contains($0) },
          "\(command) --help: \(names) is not in the usage line")
      }
      let subs = commands(in: help)
      queue += subs.map { command + [$0] }
      if command == ["bench"] {
        #expect(subs.count == 8)
        let line = top.standardOutput.split(separator: "\n").first { $0.hasPrefix("  bench ") } ?? ""
        for s in subs { #expect(line.contains(s), "sheen --help's bench line lacks \(s)") }
      }
    }
    #expect(seen == 14)
    let version = try runSheen(["--version"])
    #expect(version.status == 0)
    #expect(
      version.standardOutput.hasPrefix("sheen ") && version.standardOutput.split(separator: "\n").count == 1)
  }

  /// `bench --cold` times the first pass through a short list and says how many frames dropped.
  @Test func coldBenchCountsDroppedFrames() throws {
    let r = try runSheen([
      "bench", "--offscreen", "--cold", "--threads", "1", "--size", "320x240", "--cards", "12", "--plot",
      FileManager.default.temporaryDirectory.appendingPathComponent("cold-\(getpid()).png").path,
    ])
    #expect(r.status == 0, "\(r.standardError)")
    #expect(r.standardOutput.contains("cold first pass"), "\(r.standardOutput)")
    let line = r.standardOutput.split(separator: "\n").first { $0.hasPrefix("dropped frames: ") }
    #expect(line?.hasSuffix(" over 16.7 ms") == true, "\(r.standardOutput)")
    #expect(r.standardOutput.contains("first-pass p99 / warm p50: "))
  }

  /// `bench press` presses a button in every section and holds each frame to the median: one line
  /// per section with its counts (no blur: the button's shadow is worked out per pixel), then the
  /// worst section against the target.
  @Test func pressBenchReportsEverySection() throws {
    let r = try runSheen(
      ["bench", "press", "--runs", "1", "--sections", "8,2", "--size", "240x160"], timeout: 120)
    #expect(r.status == 0, "\(r.standardError)")
    let sections = r.standardOutput.split(separator: "\n").filter { $0.hasPrefix("section ") }
    #expect(sections.count == 2, "\(r.standardOutput)")
    for (k, line) in zip([2, 8], sections) {
      #expect(line.hasPrefix("section \(k) (card \((k - 1) * 26)): median "), "\(line)")
      #expect(line.contains("; 0 blurs, at most "), "\(line)")
      #expect(line.contains(" page faults, ") && line.hasSuffix(" ms of system time (all runs)"), "\(line)")
    }
    #expect(r.standardOutput.contains("\nslowest frame / median, worst section: "), "\(r.standardOutput)")
  }

  /// `bench tap` taps a card's button in both lists and sets the twin's tap frame against the
  /// UIKit list's press-animation frames: the tap did change the card's state (its frame asked
  /// for bodies), and the ratio is printed.
  @Test func tapBenchTapsTheTwinsButton() throws {
    let r = try runSheen(["bench", "tap", "--runs", "1", "--card", "27", "--size", "480x360"], timeout: 120)
    #expect(r.status == 0, "\(r.standardError)")
    let out = r.standardOutput
    #expect(out.hasPrefix("a tap on card 27's button, 480x360, 1 thread(s), 1 runs"), "\(out)")
    #expect(out.contains("\nUIKit list: calm frames (12-33) median "), "\(out)")
    let bodies = out.split(separator: "\n").first { $0.hasPrefix("bodies the twin's tap frame asked for: ") }
    let count = bodies.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    #expect(count >= 1, "\(out)")
    #expect(out.contains("\ntwin's tap frame (34) "), "\(out)")
    #expect(out.contains("x (target at most 1x)"), "\(out)")
  }

  /// Bad usage: exit 64, the first line of stderr names the command and what was wrong, nothing
  /// else happens (no window looked for, no benchmark run, no file written).
  @Test(arguments: [
    (["bench", "--bogus"], "sheen bench: unknown option '--bogus'"),
    (["bench", "raster", "--bogus"], "sheen bench raster: unknown option '--bogus'"),
    (
      ["bench", "cards", "--runs", "0"],
      "sheen bench cards: --runs: '0' is not a whole number from 1 to 100000"
    ),
    (["bench", "--frames", "1000000000000"], "sheen bench: --frames: '1000000000000' is not"),
    (["bench", "--frames", "5", "--seconds", "1"], "sheen bench: --frames and --seconds"),
    (["bench", "--cold", "--warmup", "0"], "sheen bench: --cold times the first pass"),
    (
      ["bench", "flamegraph"],
      "sheen bench: unknown command 'flamegraph' (commands: raster, cards, text, photos, press, tap, layout, draw)"
    ),
    (["bench", "--cards", "0"], "sheen bench: --cards: '0' is not a whole number from 1 to 1000000"),
    (
      ["bench", "tap", "--card", "208"],
      "sheen bench tap: --card: '208' is not a whole number from 0 to 207"
    ),
    (
      ["bench", "press", "--sections", "0,3"],
      "sheen bench press: --sections: '0,3' is not a list of section numbers from 1 to 8 such as 1,8 (no spaces)"
    ),
    (["dump", "--cards", "-5"], "sheen dump: --cards: '-5' is not a whole number from 1 to 1000000"),
    (["demo", "--cards", "1000000000000"], "sheen demo: --cards: '1000000000000' is not a whole number"),
    (
      ["bench", "layout", "--runs", "0"],
      "sheen bench layout: --runs: '0' is not a whole number from 1 to 100000"
    ),
    (["demo", "--size", "abcx16x16"], "sheen demo: --size: 'abcx16x16' is not"),
    (["demo", "--fps", "nan"], "sheen demo: --fps: 'nan' is not"),
    (["demo", "--script", "wait nan"], "sheen demo: --script: step 'wait nan': wait takes"),
    (
      ["demo", "--script", "wheel -9223372036854775808"],
      "sheen demo: --script: step 'wheel -9223372036854775808'"
    ),
    (["dump", "--frames", " 3"], "sheen dump: --frames: ' 3' is not"),
    (["dump", "--frames", "+3"], "sheen dump: --frames: '+3' is not"),
    (["dump", "--frames", "0,+3"], "sheen dump: --frames: '0,+3' is not"),
    (["demo", "--size", "+800x600"], "sheen demo: --size: '+800x600' is not"),
    (
      ["render", "--repeat", "+5", "x.json", "-o", "x.png"],
      "sheen render: --repeat: '+5' is not a whole number from 1 to 100000"
    ),
    (["dump", "--script", "wait inf"], "sheen dump: --script: step 'wait inf'"),
    (["dump", "--script", "wait 1e300"], "sheen dump: --script: step 'wait 1e300'"),
    (["dump", "--script", "wait 1e9"], "sheen dump: --script: step 'wait 1e9'"),
    (["dump", "--script", "wheel 100000000"], "sheen dump: --script: step 'wheel 100000000'"),
    (["dump", "--script", "wheel -1e19"], "sheen dump: --script: step 'wheel -1e19'"),
    (["dump", "--script", "tap-button nan"], "sheen dump: --script: step 'tap-button nan'"),
    (
      ["dump", "--script", "wait 30000, wait 30000"],
      "sheen dump: --script: step 'wait 30000': the script is longer than 36000 frames"
    ),
    (["dump", "--threads", "0"], "sheen dump: --threads: '0' is not"),
    (
      ["render", "--repeat", "9223372036854775807", "x.json", "-o", "x.png"],
      "sheen render: --repeat: '9223372036854775807' is not"
    ),
    (["render", "x.json"], "sheen render: no output file given"),
    (["render", "-o", "x.png"], "sheen render: no SCENE.json given"),
    (["render", "a.json", "b.json", "-o", "x.png"], "sheen render: unexpected argument 'b.json'"),
    (["sample", "--scale", "0"], "sheen sample: --scale: '0' is not"),
    (["sample", "--bogus\n\u{1B}[31m"], "sheen sample: unknown option '--bogus\\n\\u{1B}[31m'"),
  ])
  func badUsageIsOneLineAndExit64(args: [String], expected: String) throws {
    let r = try runSheen(args)
    #expect(r.status == 64, "\(args): \(r.standardError)")
    let first = r.standardError.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
    #expect(first.hasPrefix(expected), "\(args): \(first)")
    #expect(r.standardError.contains("usage: sheen"))
    #expect(r.standardOutput.isEmpty)
  }

  /// An error from the file system names the user's path: its control characters are escaped
  /// and the message is one line (dump printed Foundation's description with a raw escape
  /// sequence; found by Scripts/hostile.py).
  @Test func fileErrorsAreOneCleanLine() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-escapes-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("\u{1B}[2J\nx.png").path
    try Data("a file".utf8).write(to: URL(fileURLWithPath: file))
    for args in [
      ["dump", "-o", file, "--size", "16x16"], ["dump", "-o", file + "/sub", "--size", "16x16"],
      ["sample", "-o", file + "/sub.png"],
    ] {
      let r = try runSheen(args)
      #expect(r.status == 1, "\(args): \(r.standardError)")
      #expect(r.standardError.hasPrefix("sheen \(args[0]): "))
      #expect(r.standardError.split(separator: "\n").count == 1, "\(r.standardError)")
      #expect(!r.standardError.dropLast().unicodeScalars.contains { $0.value < 0x20 }, "\(r.standardError)")
    }
  }

  /// A huge argument (an argument is at most 128 KiB on Linux) is echoed shortened by bytes, on
  /// one line.
  @Test func hugeValuesAreElided() throws {
    let huge = String(repeating: "ü", count: 60_000)
    let r = try runSheen(["demo", "--size", huge])
    #expect(r.status == 64)
    let first = r.standardError.split(separator: "\n").first ?? ""
    #expect(first.utf8.count < 400)
    #expect(first.contains("(120000 bytes)"))
  }
}

extension SheenCommandTests {
  /// A preview's canvas is --size times --scale: past 16384 pixels a side it is refused as bad
  /// usage before anything is made (it failed with status 1 once the surface was asked for, and
  /// 16384 × 16384 at scale 8 would be 64 GiB).
  @Test func aPreviewCanvasTooLargeIsBadUsage() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-preview-\(UUID()).png")
      .path
    let r = try runSheen([
      "preview", "SwiftUICardView_Previews", "-o", out, "--size", "16384x16384", "--scale", "8",
    ])
    #expect(r.status == 64)
    #expect(
      r.standardError.hasPrefix(
        "sheen preview: --size 16384x16384 at --scale 8.0 is a canvas of 131072x131072 pixels, over 16384 on a side\n"
      ),
      "\(r.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
