import Foundation
import SheenTestSupport
import Testing

@testable import SheenRaster

/// Every blend mode against Skia's picture of the same test card (Scripts/skia-blend-card.py,
/// which documents the card and writes Tests/References/blend/skia-blend-card.bin).
@Suite struct BlendModeTests {
  // The card's colours, straight alpha, as in the script.
  static let destinations: [(UInt8, UInt8, UInt8, UInt8)] = [
    (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255), (0, 0, 0, 255),
    (128, 128, 128, 255), (255, 200, 40, 200), (30, 144, 255, 128), (200, 60, 180, 64),
    (90, 220, 120, 20), (0, 0, 0, 0), (250, 240, 230, 255),
  ]
  static let sources: [(UInt8, UInt8, UInt8, UInt8)] = [
    (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255), (0, 0, 0, 255),
    (128, 128, 128, 255), (40, 80, 220, 180), (255, 120, 0, 128), (20, 200, 200, 60),
    (230, 30, 90, 10), (0, 0, 0, 0), (70, 50, 30, 230),
  ]
  static let modes: [BlendMode] = [
    .clear, .copy, .sourceIn, .sourceOut, .sourceAtop, .destinationOver, .destinationIn,
    .destinationOut, .destinationAtop, .xor, .plusLighter, .plusDarker, .multiply, .screen, .overlay,
    .darken, .lighten, .colorDodge, .colorBurn, .hardLight, .softLight, .difference, .exclusion, .hue,
    .saturation, .color, .luminosity, .normal,
  ]
  static let width = 3 * sources.count
  static let height = 2 * destinations.count

  static func color(_ c: (UInt8, UInt8, UInt8, UInt8)) -> Color { Color(r8: c.0, g8: c.1, b8: c.2, a8: c.3) }

  /// The card drawn by Sheen with `mode`.
  static func card(_ mode: BlendMode) throws -> Surface {
    let s = try Surface(width: width, height: height)
    let c = Canvas(surface: s)
    for (j, d) in destinations.enumerated() {
      c.fill(Rect(x: 0, y: Double(2 * j), width: Double(width), height: 2), paint: .solid(color(d)))
    }
    c.blendMode = mode
    for (i, src) in sources.enumerated() {
      c.fill(
        Rect(x: Double(3 * i) + 0.5, y: 0, width: 2, height: Double(height)), paint: .solid(color(src)))
    }
    return s
  }

  @Test func everyModeIsWithinTwoLevelsOfSkia() throws {
    let url = ReferenceImage.directory("blend").appendingPathComponent("skia-blend-card.bin")
    let data = [UInt8](try Data(contentsOf: url))
    let size = BlendModeTests.width * BlendModeTests.height * 4
    #expect(data.count == size * BlendModeTests.modes.count)
    #expect(Set(BlendModeTests.modes).count == BlendMode.allCases.count)
    for (k, mode) in BlendModeTests.modes.enumerated() {
      let s = try BlendModeTests.card(mode)
      var worst = 0
      var at = (0, 0)
      for y in 0..<s.height {
        for x in 0..<s.width {
          let o = k * size + (y * s.width + x) * 4
          // Skia's bytes are R, G, B, A premultiplied.
          let skia =
            UInt32(data[o + 3]) << 24 | UInt32(data[o]) << 16 | UInt32(data[o + 1]) << 8
            | UInt32(data[o + 2])
          let d = ReferenceImage.largestChannelDifference(s[x, y], skia)
          if d > worst { (worst, at) = (d, (x, y)) }
        }
      }
      #expect(worst <= 2, "\(mode): \(worst) levels from Skia at \(at)")
    }
  }

  @Test func transparentSourceModesThatClearStillDraw() throws {
    // Copy with a transparent colour empties the shape (CG and Skia agree); source-over skips.
    let s = try Surface(width: 4, height: 4)
    let c = Canvas(surface: s)
    c.fill(Rect(x: 0, y: 0, width: 4, height: 4), paint: .solid(.white))
    c.blendMode = .copy
    c.fill(Rect(x: 0, y: 0, width: 2, height: 4), paint: .solid(.clear))
    #expect(s[0, 0] == 0 && s[3, 0] == 0xFFFF_FFFF)
  }

  @Test func groupsCompositeWithTheBlendMode() throws {
    let s = try Surface(width: 4, height: 1)
    let c = Canvas(surface: s)
    c.fill(Rect(x: 0, y: 0, width: 4, height: 1), paint: .solid(Color(red: 0.5, green: 0.5, blue: 0.5)))
    c.beginGroup()
    c.fill(Rect(x: 0, y: 0, width: 2, height: 1), paint: .solid(Color(red: 1, green: 0, blue: 0)))
    c.endGroupDeferred().map { g in
      c.blendMode = .multiply
      c.composite(g)
      c.recycle(g)
    }
    // Multiply: red (1, 0, 0) times grey (0.5) = (0.5, 0, 0); outside the group's pixels the
    // group is transparent and multiply leaves the grey.
    #expect(close(s[0, 0], 0xFF80_0000, 1) && close(s[3, 0], 0xFF80_8080, 1))
  }
}
