import Foundation
import SheenLayers
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenKit

/// Helpers for the seed tests: rendering a view at scale 2, comparing it with its reference
/// (Tests/References/seeds) and with the equivalent scene, and reading pixels in points.
enum SeedPicture {
  /// Text is float work drawn through cached glyph masks: a few levels and a few pixels.
  static let tolerance = 3
  static let maxDiffering = 24

  /// Renders `view` with `renderImage(scale: 2)` and records a mismatch with its reference.
  static func render(_ view: UIView, name: String) throws -> Surface {
    let s = try view.renderImage(scale: 2)
    if let m = ReferenceImage.mismatch(
      s, area: "seeds", name: name, tolerance: tolerance, maxDiffering: maxDiffering)
    {
      Issue.record("\(m)")
    }
    return s
  }

  /// Renders a scene file's text as `sheen render` does.
  static func renderScene(_ json: String) throws -> Surface {
    let scene = try Scene.decode(Array(json.utf8))
    let s = try Surface(width: scene.pixelWidth, height: scene.pixelHeight)
    let c = Canvas(surface: s)
    c.clear(scene.background ?? .clear)
    Compositor().render(scene.layers, in: c, transform: Transform(scaleX: scene.scale, y: scene.scale))
    return s
  }

  /// The number of pixels whose channels differ by more than `tolerance`.
  static func differing(_ a: Surface, _ b: Surface) -> Int {
    guard a.width == b.width, a.height == b.height else { return Int.max }
    var n = 0
    for y in 0..<a.height {
      for x in 0..<a.width where ReferenceImage.largestChannelDifference(a[x, y], b[x, y]) > tolerance {
        n += 1
      }
    }
    return n
  }

  /// Records an issue unless the view's picture is the scene's within the golden tolerance.
  static func expectSame(_ view: Surface, asScene json: String, _ name: String) throws {
    let scene = try renderScene(json)
    let n = differing(view, scene)
    #expect(n <= maxDiffering, "\(name): \(n) pixels differ from the equivalent scene")
  }
}

/// The pixel at a point (scale 2).
func at(_ s: Surface, _ x: Double, _ y: Double) -> UInt32 { s[Int(x * 2), Int(y * 2)] }

func luminance(_ p: UInt32) -> Double { Double(Pixel.red(p) + Pixel.green(p) + Pixel.blue(p)) / 3 }

/// A view of `width × height` points filled with `color`: the page the seed views sit on.
func page(_ width: CGFloat, _ height: CGFloat, _ color: UIColor) -> UIView {
  let v = UIView(frame: CGRect(x: 0, y: 0, width: width, height: height))
  v.backgroundColor = color
  return v
}
