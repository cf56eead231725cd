import Foundation
import SheenTestSupport
import Testing

/// `sheen render` never loses what was at its output path: a failed write (here a file-size
/// limit) leaves the old file, a symbolic link or a device node as it was; a SIGTERM mid-encode
/// leaves the old file whole and no temporary file behind; `-o -` writes the PNG to stdout.
@Suite struct OutputSafetyTests {
  let dir: URL
  init() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-out-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  }

  /// A scene of `side` × `side` points of noise-like gradients (a PNG that does not compress to
  /// nothing).
  func scene(side: Int) throws -> String {
    let path = dir.appendingPathComponent("scene-\(side).json").path
    let json = """
      {"width": \(side), "height": \(side), "background": "#336699", "layers": [
        {"type": "gradient", "frame": [0, 0, \(side), \(side)], "colors": ["#FF0000", "#00FF00", "#0000FF"],
         "gradientType": "radial", "startPoint": [0.3, 0.3], "endPoint": [0.31, 0.29]},
        {"type": "text", "frame": [3, 3, \(side - 6), \(side - 6)], "isWrapped": true, "fontSize": 5,
         "string": "\(String(repeating: "Sheen draws on the CPU. ", count: 40))"}]}
      """
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Runs `sheen render` under `sh -c` with a file-size limit of `blocks` × 512 bytes.
  func renderLimited(_ scene: String, _ out: String, blocks: Int) throws -> (
    status: Int32, standardError: String
  ) {
    let sheen = try sheenPath()
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", "ulimit -f \(blocks); exec \"$0\" render \"$1\" -o \"$2\"", sheen, scene, out]
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: e, as: UTF8.self))
  }

  @Test func aFailedWriteKeepsTheOldFileAndTheLink() throws {
    let scene = try scene(side: 600)
    let old = Data("the user's file".utf8)
    let target = dir.appendingPathComponent("kept.png").path
    try old.write(to: URL(fileURLWithPath: target))
    let link = dir.appendingPathComponent("link.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "kept.png")
    for out in [target, link] {
      let r = try renderLimited(scene, out, blocks: 4)
      #expect(r.status == 1, "\(r.standardError)")
      #expect(r.standardError.hasPrefix("sheen render: cannot write"), "\(r.standardError)")
      #expect(r.standardError.split(separator: "\n").count == 1)
      #expect(FileManager.default.contents(atPath: target) == old)
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "kept.png")
    // No temporary file left behind.
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
    #expect(left.isEmpty, "\(left)")
  }

  @Test func aSuccessfulWriteReplacesThroughTheLinkAndKeepsTheMode() throws {
    let scene = try scene(side: 40)
    let target = dir.appendingPathComponent("real.png").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    chmod(target, 0o640)
    let link = dir.appendingPathComponent("via.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let r = try runSheen(["render", scene, "-o", link])
    #expect(r.status == 0, "\(r.standardError)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    let bytes = try #require(FileManager.default.contents(atPath: target))
    #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    let attributes = try FileManager.default.attributesOfItem(atPath: target)
    #expect((attributes[.posixPermissions] as? Int) == 0o640)
  }

  @Test func aDeviceIsWrittenInPlaceNotReplaced() throws {
    let scene = try scene(side: 20)
    let r = try runSheen(["render", scene, "-o", "/dev/null"])
    #expect(r.status == 0, "\(r.standardError)")
    var st = stat()
    #expect(stat("/dev/null", &st) == 0 && st.st_mode & S_IFMT == S_IFCHR)
  }

  @Test func dashWritesThePNGToStandardOutput() throws {
    let scene = try scene(side: 20)
    let r = try runSheen(["render", scene, "-o", "-"])
    #expect(r.status == 0)
    #expect(Array(r.standardOutput.utf8.prefix(4)) == [0xEF, 0xBF, 0xBD, 0x50])  // 0x89 is not UTF-8
    #expect(!FileManager.default.fileExists(atPath: "-"))
  }

  /// A signal that ends the process (kill's SIGTERM, a closed terminal's SIGHUP, SIGUSR1) while
  /// the PNG is being encoded (a 4096 × 4096 one takes a while): the old file is whole, and the
  /// temporary file is gone.
  @Test(.timeLimit(.minutes(2)), arguments: [("TERM", 143), ("HUP", 129), ("USR1", 138)])
  func aSignalMidEncodeKeepsTheOldFile(signal: String, status: Int) throws {
    let scene = try scene(side: 4096)
    let target = dir.appendingPathComponent("big.png").path
    let old = Data("previous picture".utf8)
    try old.write(to: URL(fileURLWithPath: target))
    // A shell starts the render, waits for the temporary file to appear (when encoding starts)
    // and sends the signal; it prints the render's status (128 + the signal's number: killed by
    // it) or "done" if the encode finished first.
    let script = """
      "$0" render "$1" -o "$2/big.png" 2>/dev/null & pid=$!
      i=0
      while [ $i -lt 100000 ]; do
        if ls -A "$2" | grep -q '^[.]big[.]png[.]'; then kill -$3 $pid; wait $pid; echo $?; exit 0; fi
        kill -0 $pid 2>/dev/null || { echo done; exit 0; }
        i=$((i + 1))
      done
      echo timeout
      """
    // Spawned with no signal blocked (a test runner's threads block SIGTERM and SIGCHLD, which
    // Foundation's Process passes on).
    let said = try runWithSignalsUnblocked([
      "/bin/sh", "-c", script, try sheenPath(), scene, dir.path, signal,
    ])
    #expect(said == "\(status)\n", "\(said)")
    #expect(FileManager.default.contents(atPath: target) == old)
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
    #expect(left.isEmpty, "\(left)")
  }
}

extension OutputSafetyTests {
  /// `-o -` into a pipe whose reader goes away (`| head -c 1`): the write fails with EPIPE and is
  /// reported on one line with status 1, rather than SIGPIPE ending the process unheard.
  @Test(.timeLimit(.minutes(2))) func aClosedPipeIsAnErrorLine() throws {
    let scene = try scene(side: 2048)
    let script = """
      ("$0" render "$1" -o - 2>"$2/err"; echo $? >"$2/status") | head -c 1 >/dev/null
      cat "$2/status"
      """
    let said = try runWithSignalsUnblocked(["/bin/sh", "-c", script, try sheenPath(), scene, dir.path])
    #expect(said == "1\n", "\(said)")
    let err = try String(contentsOfFile: dir.appendingPathComponent("err").path, encoding: .utf8)
    #expect(err.hasPrefix("sheen render: cannot write"), "\(err)")
    #expect(err.split(separator: "\n").count == 1, "\(err)")
  }
}

/// Runs `argv` with an empty signal mask and default signal dispositions, and returns what it
/// printed on standard output.
func runWithSignalsUnblocked(_ argv: [String]) throws -> String {
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var empty = sigset_t()
  sigemptyset(&empty)
  var defaults = sigset_t()
  sigemptyset(&defaults)
  for s in [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGCHLD, SIGPIPE] { sigaddset(&defaults, s) }
  posix_spawnattr_setsigmask(&attributes, &empty)
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  var fds: [Int32] = [0, 0]
  guard pipe(&fds) == 0 else { throw POSIXError(.EIO) }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
  posix_spawn_file_actions_addclose(&actions, fds[0])
  var cArgs = argv.map { strdup($0) } + [nil]
  defer { for a in cArgs { free(a) } }
  var pid: pid_t = 0
  let rc = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgs, environ)
  close(fds[1])
  guard rc == 0 else {
    close(fds[0])
    throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO)
  }
  let data = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
  var status: Int32 = 0
  waitpid(pid, &status, 0)
  return String(decoding: data, as: UTF8.self)
}
