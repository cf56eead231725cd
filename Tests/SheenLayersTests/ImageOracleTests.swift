import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// The image scenes of Tests/Scenes/images (every gravity, both filters at strong minification and
/// magnification, rotated and faded images, alpha PNGs over gradients, every PNG colour type,
/// EXIF-oriented JPEGs, sprite parts and nine parts) against the Skia oracle's pictures of them
/// (Tests/References/images, made by Scripts/image-references.py), with compare.py's measures:
/// PSNR over premultiplied RGBA and the share of pixels off by more than 8/255.
@Suite struct ImageOracleTests {
  static let scenes = ReferenceImage.packageRoot.appendingPathComponent("Tests/Scenes/images")

  /// PSNR (dB) and the share of pixels whose largest channel difference exceeds 8.
  static func compare(_ a: Surface, _ b: Surface) -> (psnr: Double, over: Double) {
    var sum = 0.0
    var over = 0
    for y in 0..<a.height {
      for x in 0..<a.width {
        let p = a[x, y]
        let q = b[x, y]
        var worst = 0
        for shift: UInt32 in [0, 8, 16, 24] {
          let d = Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF)
          sum += Double(d * d)
          worst = max(worst, abs(d))
        }
        if worst > 8 { over += 1 }
      }
    }
    let n = Double(a.width * a.height)
    let mse = sum / (n * 4)
    return (mse == 0 ? .infinity : 10 * log10(255 * 255 / mse), Double(over) / n)
  }

  static func render(_ name: String) throws -> Surface {
    let scene = try Scene.decode(contentsOfFile: scenes.appendingPathComponent("\(name).json").path)
    let s = try Surface(width: scene.pixelWidth, height: scene.pixelHeight)
    let c = Canvas(surface: s)
    c.clear(scene.background ?? .clear)
    Compositor().render(scene.layers, in: c, transform: Transform(scaleX: scene.scale, y: scene.scale))
    return s
  }

  @Test(arguments: [
    ("gravity", 35.0), ("clip-and-shadow", 35), ("magnify", 35), ("magnify-sprites", 35), ("minify", 35),
    ("minify-linear", 30), ("transformed", 35), ("alpha-formats", 35), ("jpeg-exif", 35), ("nine-part", 35),
    ("stretched-edges", 35),
  ])
  func matchesTheOracle(_ name: String, _ minimum: Double) throws {
    let ours = try ImageOracleTests.render(name)
    let skia = try Surface(
      contentsOfPNG: ReferenceImage.directory("images").appendingPathComponent("\(name).png").path)
    #expect(ours.width == skia.width && ours.height == skia.height)
    let (psnr, over) = ImageOracleTests.compare(ours, skia)
    if psnr < minimum || over > 0.01 {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-image-\(name).png").path
      try? ours.writePNG(to: path)
      Issue.record(
        "\(name): psnr \(psnr) dB (at least \(minimum)), over \(over) (at most 0.01); ours: \(path)")
    }
  }

  /// Steady frames of an image scene resample nothing: the second frame draws kept pixels.
  @Test func steadyFramesResampleNothing() throws {
    let scene = try Scene.decode(
      contentsOfFile: ImageOracleTests.scenes.appendingPathComponent("gravity.json").path)
    let s = try Surface(width: scene.pixelWidth, height: scene.pixelHeight)
    let c = Canvas(surface: s)
    let compositor = Compositor()
    let t = Transform(scaleX: scene.scale, y: scene.scale)
    compositor.render(scene.layers, in: c, transform: t)
    let first = s.pixels
    #expect(compositor.context.statistics.imageResamples > 0)
    compositor.context.resetStatistics()
    c.clear()
    compositor.render(scene.layers, in: c, transform: t)
    #expect(compositor.context.statistics.imageResamples == 0)
    #expect(s.pixels == first)
    // Moved by whole pixels (a scroll on the pixel grid): still nothing resampled, same picture.
    compositor.context.resetStatistics()
    c.clear()
    compositor.render(scene.layers, in: c, transform: t.concatenating(Transform(translationX: 3, y: -7)))
    #expect(compositor.context.statistics.imageResamples == 0)
    #expect(s[103, 93] == first[100 + 100 * s.width])
  }
}
