import Foundation
import SheenRaster
import SheenTestSupport
import Testing

/// The raster cache is on by default in the demo and in `sheen`'s demo commands.
@Suite struct RasterCacheDefaultTests {
  /// The automatic raster cache is on by default in the demo (`sheen dump` here): a frame after
  /// a few at rest draws fewer layers than with `--no-raster-cache` (its cards are composited from
  /// kept bitmaps), within source-over rounding of the same frame drawn whole (2/255); and
  /// `--raster-cache`, which turned it on before it was the default, is accepted and changes
  /// nothing.
  @Test func theRasterCacheIsOnByDefaultAndOffOnlyWhenAsked() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-cache-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    var layers: [String: Int] = [:]
    var frames: [String: Surface] = [:]
    for (name, extra) in [("default", []), ("on", ["--raster-cache"]), ("off", ["--no-raster-cache"])] {
      let out = folder.appendingPathComponent(name).path
      let r = try runSheen(
        ["dump", "-o", out, "--size", "240x180", "--frames", "6", "--script", "wait 6", "--stats"] + extra,
        timeout: 120)
      #expect(r.status == 0, "\(name): \(r.standardError)")
      let line = r.standardOutput.split(separator: "\n").first { $0.hasPrefix("frame 5:") } ?? ""
      let drawn = line.split(separator: ",").first { $0.hasSuffix(" layers drawn") }
      layers[name] = drawn.flatMap { Int($0.split(separator: " ").first ?? "") }
      frames[name] = try Surface(contentsOfPNG: (out as NSString).appendingPathComponent("frame-0005.png"))
    }
    let on = try #require(layers["default"])
    let off = try #require(layers["off"])
    #expect(on < off, "layers drawn: \(on) with the cache, \(off) without")
    #expect(layers["on"] == on)
    let a = try #require(frames["default"])
    let b = try #require(frames["off"])
    #expect(frames["on"]?.pixels == a.pixels)
    var worst = 0
    for (p, q) in zip(a.pixels, b.pixels) where p != q {
      for k in 0..<4 {
        worst = max(worst, abs(Int((p >> UInt32(8 * k)) & 255) - Int((q >> UInt32(8 * k)) & 255)))
      }
    }
    #expect(worst <= 2, "worst channel difference \(worst)")
  }
}
