// Every input a fuzzer crashed on (Tests/FuzzRegressions/scene) and the seed corpus
// (Fuzz/Corpus/scene), put through what the scene fuzz target does: decode, then render at most
// 64 × 64 pixels.
import Foundation
import SheenLayers
import SheenRaster
import SheenTestSupport
import Testing

@Suite struct FuzzRegressionTests {
  @Test(arguments: fuzzInputs("scene"))
  func sceneInputRendersOrIsRefused(_ file: String) throws {
    let data = try #require(FileManager.default.contents(atPath: file))
    guard let scene = try? Scene.decode([UInt8](data)) else { return }
    let width = max(1, min(scene.pixelWidth, 64))
    let height = max(1, min(scene.pixelHeight, 64))
    let canvas = Canvas(surface: try Surface(width: width, height: height))
    canvas.clear(scene.background ?? .clear)
    Compositor().render(scene.layers, in: canvas, transform: Transform(scaleX: scene.scale, y: scene.scale))
  }
}
