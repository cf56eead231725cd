import Foundation
import SheenDemo
import SheenKit
import SheenRaster
import Testing

/// The custom chart drawn through `draw(_:)` in a window and through UIGraphicsImageRenderer.
@Suite struct ChartTests {
  final class CountingChart: ChartView {
    var draws = 0
    override func draw(_ rect: CGRect) {
      draws += 1
      super.draw(rect)
    }
  }

  @Test func windowAndRendererDrawTheSamePixels() throws {
    for scale in [1, 2] {
      let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 340, height: 240))
      window.scale = CGFloat(scale)
      let surface = try Surface(width: 340 * scale, height: 240 * scale)
      let chart = CountingChart(frame: CGRect(x: 20, y: 20, width: 300, height: 200))
      window.addSubview(chart)
      for i in 0..<5 { window.renderFrame(into: surface, time: Double(i) / 60) }
      #expect(chart.draws == 1)
      let format = UIGraphicsImageRendererFormat()
      format.scale = CGFloat(scale)
      let image = UIGraphicsImageRenderer(size: chart.bounds.size, format: format).image { _ in
        chart.draw(CGRect(origin: .zero, size: chart.bounds.size))
      }
      let drawn = try #require(image.cgImage?.rasterImage.surface)
      var worst = 0
      var differing = 0
      for y in 0..<drawn.height {
        for x in 0..<drawn.width {
          let a = drawn[x, y]
          // The window's black shows through the card's rounded corners only.
          let b = surface[20 * scale + x, 20 * scale + y]
          let expected = a &+ Pixel.scale(0xFF00_0000, by: 255 - (a >> 24))
          var d = 0
          for s: UInt32 in [0, 8, 16, 24] {
            d = max(d, abs(Int((expected >> s) & 0xFF) - Int((b >> s) & 0xFF)))
          }
          worst = max(worst, d)
          if d > 0 { differing += 1 }
        }
      }
      #expect(worst == 0, "scale \(scale): \(differing) pixels differ, by up to \(worst)")
      // It drew something: the curve's colour and the white card.
      #expect(drawn[150 * scale, 100 * scale] != 0)
      // New values redraw it once.
      let before = chart.draws
      chart.values = [3, 1, 4, 1, 5, 9, 2, 6]
      for i in 5..<9 { window.renderFrame(into: surface, time: Double(i) / 60) }
      #expect(chart.draws == before + 1)
    }
  }
}
