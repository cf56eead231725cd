import Foundation
import SheenTestSupport

/// The paths of every scene file in `Scenes/Gallery` and `Tests/Scenes` (not their folders'
/// subfolders), sorted by folder then name: the scenes tests draw every way they can be drawn.
func galleryAndTestSceneFiles() throws -> [String] {
  var files: [String] = []
  for dir in ["Scenes/Gallery", "Tests/Scenes"] {
    let url = ReferenceImage.packageRoot.appendingPathComponent(dir)
    for f in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    where f.hasSuffix(".json") {
      files.append(url.appendingPathComponent(f).path)
    }
  }
  return files
}
