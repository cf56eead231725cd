// Shared by the test targets: comparing rendered surfaces with reference PNGs that a person
// looked at, in Tests/References/<area>/<name>.png.

import Foundation
import SheenRaster

/// Reference-image comparison with a per-channel tolerance and a count of pixels allowed over
/// it. Set `SHEEN_UPDATE_REFERENCES=1` to rewrite the references (look at them before
/// committing). On a mismatch the actual picture and a diff are written next to each other in
/// the temporary directory, and the returned message says where.
public enum ReferenceImage {
  /// The package's root directory, found from this file's path at build time.
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The directory of one area's references.
  public static func directory(_ area: String) -> URL {
    packageRoot.appendingPathComponent("Tests/References/\(area)")
  }

  /// Compares `actual` with `area/name.png`. Returns nil when they match (or the reference was
  /// just written on request), else a message for the test to record.
  public static func mismatch(
    _ actual: Surface, area: String, name: String, tolerance: Int = 2, maxDiffering: Int = 0
  ) -> String? {
    let dir = directory(area)
    let path = dir.appendingPathComponent("\(name).png").path
    let update = ProcessInfo.processInfo.environment["SHEEN_UPDATE_REFERENCES"] != nil
    if update || !FileManager.default.fileExists(atPath: path) {
      do {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try actual.writePNG(to: path)
      } catch {
        return "cannot write reference \(path): \(error)"
      }
      return update ? nil : "wrote missing reference \(path); look at it and commit it"
    }
    let expected: Surface
    do {
      expected = try Surface(contentsOfPNG: path)
    } catch {
      return "cannot read reference: \(error)"
    }
    guard expected.width == actual.width, expected.height == actual.height else {
      return
        "\(name): size \(actual.width)x\(actual.height) differs from the reference's \(expected.width)x\(expected.height)"
    }
    var differing = 0
    var worst = 0
    let diff = try? Surface(width: actual.width, height: actual.height)
    for y in 0..<actual.height {
      for x in 0..<actual.width {
        let d = largestChannelDifference(actual[x, y], expected[x, y])
        worst = max(worst, d)
        if d > tolerance {
          differing += 1
          diff?[x, y] = 0xFFFF_0000
        } else {
          diff?[x, y] = 0xFF00_0000 | (0x0001_0101 * (0xC0 + (Pixel.alpha(actual[x, y]) >> 2)))
        }
      }
    }
    if differing <= maxDiffering { return nil }
    let tmp = FileManager.default.temporaryDirectory
    let actualPath = tmp.appendingPathComponent("sheen-\(area)-\(name)-actual.png").path
    let diffPath = tmp.appendingPathComponent("sheen-\(area)-\(name)-diff.png").path
    try? actual.writePNG(to: actualPath)
    try? diff?.writePNG(to: diffPath)
    return "\(name): \(differing) pixels differ by more than \(tolerance) (largest \(worst)) from \(path); "
      + "actual: \(actualPath), diff: \(diffPath)"
  }

  /// The largest difference in any channel between two surfaces of the same size.
  public static func largestChannelDifference(_ a: Surface, _ b: Surface) -> Int {
    zip(a.pixels, b.pixels).reduce(0) { max($0, largestChannelDifference($1.0, $1.1)) }
  }

  /// The largest difference between the four channels of two pixels.
  public static func largestChannelDifference(_ a: UInt32, _ b: UInt32) -> Int {
    var worst = 0
    for shift: UInt32 in [0, 8, 16, 24] {
      worst = max(worst, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)))
    }
    return worst
  }
}
