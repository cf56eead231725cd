import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// The seed stories as scene files (Tests/Scenes), rendered and compared with reference PNGs
/// that were looked at (Tests/References/scenes), with their behaviour stated in numbers.
@Suite struct SceneStoryTests {
  static let scenes = ReferenceImage.packageRoot.appendingPathComponent("Tests/Scenes")

  /// Decodes and renders a scene file as `sheen render` does.
  func render(_ name: String) throws -> (Scene, Surface) {
    let scene = try Scene.decode(
      contentsOfFile: SceneStoryTests.scenes.appendingPathComponent("\(name).json").path)
    let s = try Surface(width: scene.pixelWidth, height: scene.pixelHeight)
    let c = Canvas(surface: s)
    c.clear(scene.background ?? .clear)
    Compositor().render(scene.layers, in: c, transform: Transform(scaleX: scene.scale, y: scene.scale))
    // Text is float work drawn through cached glyph masks: allow a few levels and a few pixels.
    if let m = ReferenceImage.mismatch(s, area: "scenes", name: name, tolerance: 3, maxDiffering: 24) {
      Issue.record("\(m)")
    }
    return (scene, s)
  }

  /// The pixel at a point of the scene (points; scale 2).
  func at(_ s: Surface, _ x: Double, _ y: Double) -> UInt32 { s[Int(x * 2), Int(y * 2)] }

  @Test func seed000() throws {
    let (_, s) = try render("seed000-clipped-shadow")
    // The view that masks to its bounds has no shadow at all outside its frame (20, 20, 160, 44).
    // (Down to y = 66: the second view's exact Gaussian shadow reaches a level above that.)
    for y in stride(from: 0.25, to: 66, by: 0.5) {
      for x in stride(from: 0.25, to: 200, by: 0.5) where !(x > 20 && x < 180 && y > 20 && y < 64) {
        if at(s, x, y) != 0xFFFF_FFFF {
          Issue.record("shadow pixel at \(x), \(y)")
          return
        }
      }
    }
    // The fix casts it: below and right of the second view, darker than the background.
    #expect(luminance(at(s, 100, 127)) < 240)
    #expect(luminance(at(s, 181.5, 104)) < 245)
    // And the view's corners are round: its top-left corner pixel is not blue.
    #expect(Pixel.blue(at(s, 20.25, 80.25)) < 128 || Pixel.red(at(s, 20.25, 80.25)) > 128)
  }

  @Test func seed001() throws {
    let (_, s) = try render("seed001-container-shadow")
    let background = Color(hex: "#F2F2F7")!.premultiplied
    // Clear cells: just outside the card's rounded corner the shadow darkens the background, and
    // the orange header is clipped round (no orange there).
    let corner = at(s, 17.5, 17.5)
    #expect(luminance(corner) < luminance(background) - 1)
    #expect(!(Pixel.red(corner) > 200 && Pixel.blue(corner) < 60))
    // White cells: the same place is the cell's white, square corner.
    #expect(at(s, 169.5, 17.5) == 0xFFFF_FFFF)
    // Both cast a shadow below.
    #expect(luminance(at(s, 84, 156)) < luminance(background) - 5)
    #expect(luminance(at(s, 236, 156)) < luminance(background) - 5)
  }

  @Test func seed002() throws {
    let (_, s) = try render("seed002-gradient-button")
    // The background gradient runs from #FF6B6B on the left to #E83E8C on the right.
    let left = at(s, 33, 40)
    let right = at(s, 207, 40)
    #expect(Pixel.green(left) > Pixel.green(right))
    #expect(Pixel.blue(right) > Pixel.blue(left))
    // The 1-point gradient border: the top edge is lighter than the fill just inside it.
    #expect(luminance(at(s, 120, 30.75)) > luminance(at(s, 120, 33)) + 20)
    // A shadow below, radius 4 corners, and a white title in the middle.
    #expect(luminance(at(s, 120, 76)) < luminance(Color(hex: "#F2F2F7")!.premultiplied) - 5)
    var white = 0
    for x in stride(from: 60.0, to: 180, by: 0.5) where at(s, x, 52) == 0xFFFF_FFFF { white += 1 }
    #expect(white > 10)
  }

  @Test func seed003() throws {
    let (_, s) = try render("seed003-cell-shadow-path")
    // The content view is rounded and clipped: the header's corner pixel is not green.
    let corner = at(s, 20.25, 20.25)
    #expect(!(Pixel.green(corner) > 150 && Pixel.red(corner) < 120))
    // The cell's own layer casts the shadow through its shadowPath: below and around it.
    #expect(luminance(at(s, 130, 133)) < 225)
    #expect(luminance(at(s, 130, 12)) > luminance(at(s, 130, 133)))
  }

  @Test func seed004() throws {
    let (_, s) = try render("seed004-chosen-corners")
    let background = Color(hex: "#1C1C1E")!.premultiplied
    // topLeft and bottomRight are round (the corner pixel shows the background); the other two
    // are square, white border.
    #expect(at(s, 20.25, 25.25) == background)
    #expect(at(s, 109.75, 84.75) == background)
    #expect(at(s, 109.75, 25.25) == 0xFFFF_FFFF)
    #expect(at(s, 20.25, 84.75) == 0xFFFF_FFFF)
    // The border follows the arc: on the diagonal of the top-left corner, the stroke is there.
    let d = 20 - 19 * 0.7071
    #expect(luminance(at(s, 20 + d, 25 + d)) > 150)
  }

  @Test func everyErrorExitsTwoWithItsKeyPathAndWritesNothing() throws {
    guard sheenExecutable != nil else {
      Issue.record("sheen is not built next to the tests")
      return
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-render-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let cases: [(String, String)] = [
      (
        ##"{"width": 10, "height": 10, "layers": [{}, {}, {"sublayers": [{"shadowRadius": -4}]}]}"##,
        "layers[2].sublayers[0].shadowRadius: expected a number ≥ 0, got -4"
      ),
      (
        ##"{"width": 10, "height": 10, "layers": [{"frame": [0, 0, 1, 1], "frame": [0, 0, 2, 2]}]}"##,
        "layers[0].frame"
      ),
      (##"{"width": 10, "height": 10, "layers": [{"type": "shape", "path": "M 0 0 L"}]}"##, "layers[0].path"),
      (##"{"width": 0, "height": 10, "layers": []}"##, "width"),
      (##"{"width": 10, "height": 10, "layers": [{"colors": ["#FFFFFF"]}]}"##, "layers[0].colors"),
      (
        ##"{"width": 10, "height": 10, "layers": [{"backgroundColor": "#GG0000"}]}"##,
        "layers[0].backgroundColor"
      ),
      ("{", "line 1"),
      (
        ##"{"width": 10, "height": 10, "layers": [{"type": "text", "fontWeight": "w600"}]}"##,
        "layers[0].fontWeight"
      ),
      (
        ##"{"width": 10, "height": 10, "layers": [{}, {"type": "text", "fontFamily": ""}]}"##,
        "layers[1].fontFamily"
      ),
    ]
    for (i, (json, expected)) in cases.enumerated() {
      let input = dir.appendingPathComponent("bad\(i).json")
      let output = dir.appendingPathComponent("bad\(i).png")
      try Data(json.utf8).write(to: input)
      let r = try runSheen(["render", input.path, "-o", output.path])
      #expect(r.status == 2, "case \(i): \(r.standardError)")
      #expect(r.standardError.contains(expected), "case \(i): \(r.standardError)")
      #expect(!FileManager.default.fileExists(atPath: output.path))
    }
    // A string that is not UTF-8 is refused by the JSON reader.
    let input = dir.appendingPathComponent("latin1.json")
    let output = dir.appendingPathComponent("latin1.png")
    try Data(
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "string": "caf"##.utf8 + [0xE9]
        + Array(##""}]}"##.utf8)
    )
    .write(to: input)
    let r = try runSheen(["render", input.path, "-o", output.path])
    #expect(r.status == 2 && r.standardError.contains("invalid UTF-8"), "\(r.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  /// A family nobody has is not an error: fontconfig's default draws it (DejaVu Sans here).
  @Test func unknownFamilyFallsBack() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-family-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var pictures: [[UInt32]] = []
    for family in ["No Such Family 42", "DejaVu Sans"] {
      let input = dir.appendingPathComponent("f.json")
      let output = dir.appendingPathComponent("f.png")
      let scene =
        ##"{"width": 120, "height": 30, "background": "#FFFFFF", "layers": [{"type": "text", "frame": [4, 4, 112, 22], "string": "Fallback", "fontFamily": "FAMILY"}]}"##
      try Data(scene.replacingOccurrences(of: "FAMILY", with: family).utf8).write(to: input)
      let r = try runProcess(
        try sheenPath(), ["render", input.path, "-o", output.path],
        environment: ProcessInfo.processInfo.environment.merging(["FONTCONFIG_FILE": ScriptTests.fontconfig])
        { $1 },
        timeout: 60)
      #expect(r.status == 0, "\(family): \(r.stderr)")
      pictures.append(try Surface(contentsOfPNG: output.path).pixels)
    }
    #expect(pictures[0] == pictures[1])
    #expect(Set(pictures[0]).count > 2)
  }
}
