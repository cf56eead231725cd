// Every input a fuzzer crashed on (Tests/FuzzRegressions/svg) and the seed corpus (Fuzz/Corpus/svg),
// put through what the svg fuzz target does: parse, then fill and stroke on a small canvas.
import Foundation
import SheenRaster
import SheenTestSupport
import Testing

@Suite struct FuzzRegressionTests {
  static let inputs = fuzzInputs("svg")

  @Test(arguments: inputs)
  func svgInputParsesOrIsRefused(_ file: String) throws {
    let data = try #require(FileManager.default.contents(atPath: file))
    guard let path = try? Path(svgData: String(decoding: data, as: UTF8.self)) else { return }
    let canvas = Canvas(surface: try Surface(width: 64, height: 64))
    canvas.fill(path, paint: .solid(.black), rule: .evenOdd)
    let box = path.controlBounds
    if box.width.isFinite, box.height.isFinite, box.width > 0, box.height > 0 {
      let s = 64 / max(box.width, box.height)
      canvas.scaleBy(x: s, y: s)
      canvas.translateBy(x: -box.minX, y: -box.minY)
      canvas.fill(path, paint: .solid(.black))
      canvas.stroke(path, style: StrokeStyle(width: 1.5, join: .round), paint: .solid(.black))
    }
  }

  @Test func regressionInputsAreThere() {
    #expect(Self.inputs.contains { $0.contains("FuzzRegressions") })
  }
}
