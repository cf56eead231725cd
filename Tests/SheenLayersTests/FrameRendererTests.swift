import Testing

@testable import SheenLayers
@testable import SheenRaster

@Suite struct FrameRendererTests {
  /// A small scene with every kind of work a band can split: shadows of both kinds, clips,
  /// gradients, text, group opacity and a mask.
  func scene() -> [Layer] {
    var layers: [Layer] = []
    for i in 0..<4 {
      let card = Layer()
      card.frame = Rect(x: 8 + Double(i % 2) * 70, y: 6 + Double(i / 2) * 45.5, width: 60, height: 38)
      card.backgroundColor = .white
      card.cornerRadius = 9
      card.shadowOpacity = 0.4
      card.shadowRadius = Double(1 + i)
      card.shadowOffset = Size(width: 0, height: 2)
      if i % 2 == 0 { card.shadowPath = Path(roundedRect: card.bounds, cornerRadius: 9) }
      let header = GradientLayer()
      header.frame = Rect(x: 0, y: 0, width: 60, height: 14)
      header.colors = [.testRed, .testBlue]
      let clip = Layer()
      clip.frame = card.bounds
      clip.cornerRadius = 9
      clip.masksToBounds = true
      clip.addSublayer(header)
      card.addSublayer(clip)
      let text = TextLayer()
      text.frame = Rect(x: 4, y: 16, width: 52, height: 18)
      text.string = "Card \(i)"
      text.fontSize = 11
      card.addSublayer(text)
      if i == 3 {
        card.opacity = 0.7
        let m = ShapeLayer()
        m.frame = card.bounds
        m.path = Path(ellipseIn: card.bounds)
        card.mask = m
      }
      layers.append(card)
    }
    return layers
  }

  @Test func bandsOnTwoThreadsGiveTheSamePixelsAsOne() throws {
    let layers = scene()
    let one = try Surface(width: 150, height: 100)
    let two = try Surface(width: 150, height: 100)
    FrameRenderer(threads: 1).render(layers, into: one, background: .white)
    FrameRenderer(threads: 2).render(layers, into: two, background: .white)
    #expect(one.pixels == two.pixels)
    // And the same as the plain compositor on one canvas.
    let plain = try render(layers, width: 150, height: 100)
    #expect(plain.pixels == one.pixels)
  }

  @Test func scrollingReusesShadowsOnEveryThread() throws {
    let layers = scene()
    let renderer = FrameRenderer(threads: 2)
    let s = try Surface(width: 150, height: 100)
    renderer.render(layers, into: s, background: .white)
    renderer.context.resetStatistics()
    for l in layers { l.frame.origin.y += 3 }
    renderer.render(layers, into: s, background: .white)
    #expect(renderer.context.statistics.blurs == 0)
  }
}
