// Scenes that SCENE.md accepts, with numbers at the ends of their ranges: each must render (what
// the structure-aware fuzzer `Fuzz/run.sh scenegen` explores at random), and where the result is
// known, render it.
import Foundation
import SheenLayers
import SheenRaster
import Testing

@Suite struct ValidExtremeSceneTests {
  func renderScene(_ json: String, width: Int = 32, height: Int = 32) throws -> Surface {
    let scene = try Scene.decode(Array(json.utf8))
    let surface = try Surface(width: min(width, scene.pixelWidth), height: min(height, scene.pixelHeight))
    let canvas = Canvas(surface: surface)
    canvas.clear(scene.background ?? .clear)
    Compositor().render(scene.layers, in: canvas, transform: Transform(scaleX: scene.scale, y: scene.scale))
    return surface
  }

  /// A shadowed layer whose device position lies beyond Int's range (9.2e18), directly or as a far
  /// frame scaled down by its parent's transform: the shadow caches' translation snap trapped.
  @Test(arguments: ["1e19", "9.3e18", "-9.3e18", "1e300", "1.7976931348623157e308"])
  func shadowsFarAwayRender(_ x: String) throws {
    for shadowPath in ["", ", \"shadowPath\": \"M0 0 H10 V10 Z\""] {
      let json = """
        {"width": 32, "height": 32, "layers": [
          {"frame": [\(x), 4, 10, 10], "backgroundColor": "#FF0000", "shadowOpacity": 1\(shadowPath)},
          {"frame": [0, 0, 32, 32], "transform": {"scale": 1e-300},
           "sublayers": [{"frame": [\(x), 2, 8, 8], "backgroundColor": "#00FF00", "shadowOpacity": 1,
                          "shadowRadius": 2\(shadowPath)}]},
          {"frame": [4, 4, 8, 8], "backgroundColor": "#0000FF"}]}
        """
      let s = try renderScene(json)
      // The near layer still draws.
      #expect(s[8, 8] == 0xFF00_00FF)
    }
  }

  /// A shadowRadius of 1e-306 or a subnormal (valid: >= 0) trapped in the blur's weights; any
  /// radius below a tenth of a pixel blurs nothing, so the shadow is the shape itself.
  @Test(arguments: ["1e-306", "5e-324", "2.2250738585072014e-308", "1e-9", "0.05"])
  func tinyShadowRadiiDrawASharpShadow(_ radius: String) throws {
    for shadowPath in ["", ", \"shadowPath\": \"M0 0 H8 V8 H0 Z\""] {
      let json = """
        {"width": 32, "height": 32, "background": "#FFFFFF", "layers": [
          {"frame": [4, 4, 8, 8], "backgroundColor": "#0000FF", "shadowOpacity": 1,
           "shadowOffset": [10, 10], "shadowRadius": \(radius)\(shadowPath)}]}
        """
      let s = try renderScene(json)
      #expect(s[17, 17] == 0xFF00_0000, "\(radius): inside the shadow")
      #expect(s[13, 13] == 0xFFFF_FFFF, "\(radius): outside both")
      #expect(s[8, 8] == 0xFF00_00FF)
    }
  }

  /// The largest legal numbers everywhere a number ≥ 0 goes.
  @Test func hugeLegalNumbersRender() throws {
    for v in ["1e19", "1e300", "1.7976931348623157e308"] {
      let json = """
        {"width": 16, "height": 16, "layers": [
          {"type": "shape", "frame": [0, 0, \(v), \(v)], "cornerRadius": \(v), "borderWidth": \(v),
           "shadowOpacity": 0.5, "shadowRadius": \(v), "shadowOffset": [\(v), -\(v)], "lineWidth": \(v),
           "strokeColor": "#000000", "path": "M0 0 L\(v) \(v) A\(v) \(v) \(v) 1 1 -\(v) 3 Z",
           "anchorPoint": [\(v), -\(v)], "transform": {"scale": [\(v), 1e-300], "rotation": \(v)},
           "sublayers": [{"type": "text", "frame": [0, 0, 16, 16], "fontSize": \(v), "string": "Hi"}]}]}
        """
      _ = try renderScene(json)
    }
  }
}
