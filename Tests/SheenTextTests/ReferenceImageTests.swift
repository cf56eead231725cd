import Foundation
import SheenRaster
import Testing

@testable import SheenText

/// Reference PNGs in Tests/References/text. Set SHEEN_UPDATE_REFERENCES=1 to rewrite them (and
/// look at them before committing). Text coverage is float work: a pixel may differ by a few
/// levels, and a handful may differ more.
@Suite struct ReferenceImageTests {
  static let directory = checkoutDirectory.appendingPathComponent("Tests/References/text")
  static let paragraph =
    "Sheen draws text with its own TrueType parser: kerning in “AVATAR” and “Tokyo”, "
    + "composites like é, ñ and Å, and a word far too long to fit, Donaudampfschifffahrt, "
    + "broken between characters."

  func render(_ weight: Font.Weight) throws -> Surface {
    let surface = try Surface(width: 240, height: 112)
    let canvas = Canvas(surface: surface)
    canvas.clear(.white)
    let style = TextStyle(font: try Font.bundled(weight), size: 13, wraps: true, truncation: .end)
    let layout = TextLayout(ReferenceImageTests.paragraph, style: style, width: 224, height: 104)
    canvas.drawText(layout, at: Point(x: 8, y: 4), color: Color(red: 0.1, green: 0.1, blue: 0.15))
    return surface
  }

  func compare(_ actual: Surface, _ name: String) throws {
    let path = ReferenceImageTests.directory.appendingPathComponent("\(name).png").path
    let update = ProcessInfo.processInfo.environment["SHEEN_UPDATE_REFERENCES"] != nil
    if update || !FileManager.default.fileExists(atPath: path) {
      try FileManager.default.createDirectory(
        at: ReferenceImageTests.directory, withIntermediateDirectories: true)
      try actual.writePNG(to: path)
      if !update { Issue.record("wrote missing reference \(path); look at it and commit it") }
      return
    }
    let expected = try Surface(contentsOfPNG: path)
    #expect(expected.width == actual.width && expected.height == actual.height)
    guard expected.width == actual.width, expected.height == actual.height else { return }
    var differing = 0
    for y in 0..<actual.height {
      for x in 0..<actual.width {
        let a = actual[x, y]
        let b = expected[x, y]
        for shift in stride(from: 0, through: 24, by: 8) {
          let ca = Int((a >> UInt32(shift)) & 0xFF)
          let cb = Int((b >> UInt32(shift)) & 0xFF)
          if abs(ca - cb) > 3 {
            differing += 1
            break
          }
        }
      }
    }
    if differing > 8 {
      let out = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-text-\(name).png").path
      try? actual.writePNG(to: out)
      Issue.record("\(name): \(differing) pixels differ from \(path); actual written to \(out)")
    }
  }

  @Test func paragraphRegular() throws {
    try compare(try render(.regular), "paragraph-regular")
  }

  @Test func paragraphBold() throws {
    try compare(try render(.bold), "paragraph-bold")
  }
}
