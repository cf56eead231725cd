import Foundation
import SheenRaster

/// `sheen sample [-o OUT.png]`: renders a sample picture (placeholder until the rasterizer lands).
func runSample(_ args: [String]) -> Int32 {
  FileHandle.standardError.write(Data("sheen sample: not yet available\n".utf8))
  return 1
}
