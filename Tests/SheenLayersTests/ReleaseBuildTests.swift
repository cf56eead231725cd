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
    let sheen = releaseSheenPath
    if let missing = releaseSheenMissing() {
      Issue.record(Comment(rawValue: missing))
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

  /// The release `sheen` carries Swift's runtime and Foundation inside it (Package.swift,
  /// `staticSwift`): loaded as shared libraries they put about 5 MB more pages in the demo's
  /// resident set at 1080p. The dynamic loader lists what it would load
  /// (`LD_TRACE_LOADED_OBJECTS`, what `ldd` asks), and no Swift library may be among them.
  @Test(.timeLimit(.minutes(1))) func releaseSheenLoadsNoSwiftSharedLibrary() throws {
    let sheen = releaseSheenPath
    if let missing = releaseSheenMissing() {
      Issue.record(Comment(rawValue: missing))
      return
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: sheen)
    p.environment = ["LD_TRACE_LOADED_OBJECTS": "1"]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let listing = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(p.terminationStatus == 0)
    // The listing itself: the C libraries the binary does load.
    #expect(listing.contains("libc.so") && listing.contains("libharfbuzz"), "\(listing)")
    let swiftLibraries = listing.split(separator: "\n").filter { line in
      ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"].contains {
        line.contains($0)
      }
    }
    #expect(swiftLibraries.isEmpty, "loaded as shared libraries: \(swiftLibraries)")
  }
}
