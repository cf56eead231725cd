import Foundation
import SheenTestSupport
import Testing

/// SheenUI in optimized code: the release `sheen` renders the SwiftUI previews (colours and
/// shapes whose types have no stored properties, `Rectangle`, `Circle`, the badge's check).
/// Swift 6.3.1's optimizer miscompiles `withUnsafeBytes(of:)` for such values (README, "Your
/// SwiftUI code on Linux"); SheenUI's byte comparisons take the size from `MemoryLayout`, and
/// this test catches a return of the crash, which debug tests cannot see.
@Suite struct ReleaseBuildTests {
  @Test(.timeLimit(.minutes(2))) func releaseSheenRendersTheSwiftUIPreviews() throws {
    let sheen = ReferenceImage.packageRoot.appendingPathComponent(".build/release/sheen").path
    guard FileManager.default.isExecutableFile(atPath: sheen) else {
      Issue.record(
        "no release build at \(sheen): run `swift build -c release --product sheen` (./run.sh test does)")
      return
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-release-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for name in ["SwiftUICardView_Previews", "SwiftUISectionView_Previews"] {
      let out = dir.appendingPathComponent("\(name).png").path
      let p = Process()
      p.executableURL = URL(fileURLWithPath: sheen)
      p.arguments = ["preview", name, "-o", out]
      p.standardError = FileHandle.nullDevice
      try p.run()
      p.waitUntilExit()
      #expect(p.terminationReason == .exit && p.terminationStatus == 0, "sheen preview \(name)")
      let size = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
      #expect(size > 1000, "\(name): \(size) bytes written")
    }
  }
}
