import SheenLayers
import SheenRaster
import Testing

@testable import SheenKit

/// `CALayer.shouldRasterize` and `rasterizationScale`, as UIKit code sets them.
@Suite struct ShouldRasterizeTests {
  /// A card view: rounded, clipped, shadowed, with a label and a coloured subview.
  func card() -> UIView {
    let card = UIView(frame: CGRect(x: 20, y: 20, width: 160, height: 90))
    card.backgroundColor = .white
    card.layer.cornerRadius = 14
    card.layer.shadowOpacity = 0.3
    card.layer.shadowRadius = 6
    card.layer.shadowOffset = CGSize(width: 0, height: 3)
    let stripe = UIView(frame: CGRect(x: 0, y: 0, width: 160, height: 24))
    stripe.backgroundColor = .systemBlue
    card.addSubview(stripe)
    let label = UILabel(frame: CGRect(x: 12, y: 34, width: 136, height: 20))
    label.text = "Rasterized once"
    card.addSubview(label)
    return card
  }

  func render(_ layer: Layer, _ renderer: FrameRenderer, scale: Double) throws -> Surface {
    let s = try Surface(width: Int(220 * scale), height: Int(140 * scale))
    renderer.render([layer], into: s, transform: Transform(scaleX: scale, y: scale), background: .white)
    return s
  }

  @Test func aRasterizedViewIsDrawnOnceThenComposited() throws {
    for scale in [1.0, 2.0] {
      let view = card()
      view.layoutIfNeeded()
      view.layer.shouldRasterize = true
      view.layer.rasterizationScale = CGFloat(scale)
      #expect(view.layer.sheenLayer.shouldRasterize)
      #expect(view.layer.sheenLayer.rasterizationScale == scale)
      let renderer = FrameRenderer(threads: 1)
      _ = try render(view.layer.sheenLayer, renderer, scale: scale)
      renderer.context.resetStatistics()
      let kept = try render(view.layer.sheenLayer, renderer, scale: scale)
      let stats = renderer.context.statistics
      #expect(stats.rasterCacheHits == 1 && stats.rasterCacheMisses == 0)
      // Only the card itself is drawn: its subviews come with its bitmap.
      #expect(stats.layersDrawn == 1)
      view.layer.shouldRasterize = false
      let direct = try render(view.layer.sheenLayer, FrameRenderer(threads: 1), scale: scale)
      var worst = 0
      for (p, q) in zip(kept.pixels, direct.pixels) where p != q {
        for k in 0..<4 {
          worst = max(worst, abs(Int((p >> UInt32(8 * k)) & 255) - Int((q >> UInt32(8 * k)) & 255)))
        }
      }
      #expect(worst <= 2, "scale \(scale)")
    }
  }

  @Test func rasterizationScaleIsKeptSane() {
    let layer = CALayer()
    #expect(layer.shouldRasterize == false)
    #expect(layer.rasterizationScale == 1)
    layer.rasterizationScale = 0
    #expect(layer.rasterizationScale == 1)
    layer.rasterizationScale = .nan
    #expect(layer.rasterizationScale == 1)
    layer.rasterizationScale = 3
    #expect(layer.sheenLayer.rasterizationScale == 3)
  }
}
