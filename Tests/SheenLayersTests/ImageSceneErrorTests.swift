import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// SCENE.md's image errors: each is refused with one line naming the key path.
@Suite struct ImageSceneErrorTests {
  static let folder = ReferenceImage.packageRoot.appendingPathComponent("Tests/Scenes/images").path

  func error(_ layer: String) -> String? {
    let json = "{\"width\": 10, \"height\": 10, \"layers\": [{\"frame\": [0, 0, 10, 10]}, \(layer)]}"
    do {
      _ = try Scene.decode(Array(json.utf8), images: SceneImageSource(folder: ImageSceneErrorTests.folder))
      return nil
    } catch {
      return error.description
    }
  }

  @Test func refusals() {
    let cases: [(String, String)] = [
      (
        "{\"contents\": \"missing.png\"}",
        "layers[1].contents: cannot read image \"missing.png\": No such file"
      ),
      ("{\"contents\": \"broken\"}", "layers[1].contents: cannot read image \"broken\": is a folder"),
      (
        "{\"contents\": \"/etc/passwd\"}",
        "layers[1].contents: expected a path relative to the scene file's folder"
      ),
      (
        "{\"contents\": \"../images/alpha.png\"}",
        "layers[1].contents: \"../images/alpha.png\" leaves the scene"
      ),
      ("{\"contents\": \"broken/text.png\"}", "cannot read image \"broken/text.png\": not a PNG or JPEG"),
      ("{\"contents\": \"broken/empty.jpg\"}", "cannot read image \"broken/empty.jpg\": not a PNG or JPEG"),
      (
        "{\"contents\": \"broken/truncated.jpg\"}",
        "cannot read image \"broken/truncated.jpg\": truncated JPEG"
      ),
      ("{\"contents\": \"broken/truncated.png\"}", "cannot read image \"broken/truncated.png\":"),
      ("{\"contents\": \"broken/corrupt.png\"}", "cannot read image \"broken/corrupt.png\":"),
      ("{\"contents\": \"broken/huge.png\"}", "image of 20000x10 pixels exceeds 16384 on a side"),
      ("{\"contents\": 3}", "layers[1].contents: expected a path"),
      ("{\"contentsGravity\": \"middle\"}", "layers[1].contentsGravity: expected one of \"resize\""),
      ("{\"contentsScale\": 0}", "layers[1].contentsScale: expected a number > 0, got 0"),
      ("{\"contentsRect\": [0, 0, -1, 1]}", "layers[1].contentsRect[2]: expected a size ≥ 0, got -1"),
      ("{\"contentsCenter\": [0, 0, 1]}", "layers[1].contentsCenter: expected an array of 4 numbers, got 3"),
      ("{\"minificationFilter\": \"cubic\"}", "layers[1].minificationFilter: expected one of \"nearest\""),
      (
        "{\"magnificationFilter\": \"trilinear\"}",
        "layers[1].magnificationFilter: expected one of \"nearest\""
      ),
    ]
    for (layer, expected) in cases {
      guard let e = error(layer) else {
        Issue.record("\(layer) was accepted")
        continue
      }
      #expect(e.contains(expected), "\(layer): \(e)")
      #expect(!e.contains("\n"))
    }
  }

  @Test func aSymbolicLinkOutOfTheFolderIsRefused() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-link-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let link = dir.appendingPathComponent("out.png").path
    try? FileManager.default.removeItem(atPath: link)
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: ImageSceneErrorTests.folder + "/alpha.png")
    let json = "{\"width\": 10, \"height\": 10, \"layers\": [{\"contents\": \"out.png\"}]}"
    #expect {
      _ = try Scene.decode(Array(json.utf8), images: SceneImageSource(folder: dir.path))
    } throws: { ($0 as? SceneError)?.description.contains("leaves the scene file's folder") == true }
  }

  @Test func oneFileIsDecodedOnceForEveryLayer() throws {
    let cache = ImageFileCache(budget: 1 << 30, maxEntries: 10)
    let json =
      "{\"width\": 10, \"height\": 10, \"layers\": [{\"contents\": \"photo.jpg\"}, {\"contents\": \"./photo.jpg\"}]}"
    let scene = try Scene.decode(
      Array(json.utf8), images: SceneImageSource(folder: ImageSceneErrorTests.folder, cache: cache))
    #expect(scene.layers[0].contents === scene.layers[1].contents)
    #expect(cache.statistics.decodes == 1)
  }

  /// `Scene.encoded(imagePath:)` writes image layers that read back the same.
  @Test func imageLayersReadBack() throws {
    let source = try Scene.decode(
      contentsOfFile: ImageSceneErrorTests.folder + "/nine-part.json")
    let text = source.encoded { $0.width == 36 ? "bubble.png" : "sprites.png" }
    #expect(text.contains("\"contents\": \"bubble.png\""))
    let back = try Scene.decode(
      Array(text.utf8), images: SceneImageSource(folder: ImageSceneErrorTests.folder))
    for (a, b) in zip(source.layers, back.layers) where a.contents != nil {
      #expect(b.contents === a.contents || b.contents?.width == a.contents?.width)
      #expect(a.contentsCenter == b.contentsCenter && a.contentsScale == b.contentsScale)
      #expect(a.contentsRect == b.contentsRect && a.contentsGravity == b.contentsGravity)
    }
    // Without a path for it, an image is left out.
    #expect(!source.encoded().contains("contents"))
  }
}
