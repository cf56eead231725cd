import Foundation
import SheenTestSupport
import Testing

/// Scripts/cairo-vs-sheen.py, which `./run.sh perf` times the gallery against cairo with: its
/// summary of interleaved rounds (each side's least run median, the rounds' own ratios) checked
/// on made-up rounds by its `--self-test`, which needs Python but not cairo.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
struct PerfScriptTests {
  @Test func cairoComparisonSummarisesRoundsRobustly() throws {
    let root = ReferenceImage.packageRoot.path
    let r = try runProcess(
      "/usr/bin/python3", ["Scripts/cairo-vs-sheen.py", "--self-test"], directory: root, timeout: 60)
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("self-test: ok"))
    // The perf table runs it with the interleaved rounds the README describes.
    let table = try String(contentsOfFile: root + "/Scripts/perf-table.sh", encoding: .utf8)
    #expect(table.contains("Scripts/cairo-vs-sheen.py \"$bin\" Scenes/Gallery/*.json --rounds 9"))
  }
}
