import Foundation
import SheenDemo
import SheenKit
import SheenLayers
import SheenRaster
import Testing

/// A press in any section of the demo costs only the pressed button's own work: the issue's
/// press bound (`sheen dump --script "show-card I, wait 2, press-button I, ..." --stats`) read
/// as counters rather than timings. Every frame of the press and the spring back blurs nothing,
/// draws no `draw(_:)` view and resamples no image; the only shapes rasterized
/// are the pressed button's (its background, border mask and title, at the scales it passes
/// through), and none once it has settled.
@Suite struct PressWorkTests {
  @Test(arguments: 0..<DemoContent.sectionCount)
  func aPressInSectionCostsOnlyTheButtonsShapes(section: Int) throws {
    // Two columns (a container row's shadow takes the shape of both of its cards).
    let w = makeDemo(width: 660, height: 300)
    let card = section * DemoContent.cardsPerSection + 1
    let script = try DemoScript("show-card \(card), wait 2, press-button \(card), wait 8, release, wait 34")
    let state = DemoScript.State()
    let surface = try Surface(width: 660, height: 300)
    let context = w.renderer.context
    var pressedScales: [Double] = []
    var shapesPerFrame: [Int] = []
    for n in 0..<script.length {
      let time = Double(n) / 60
      script.apply(to: w, frame: n, time: time, state: state)
      context.resetStatistics()
      let glyphs = context.textRenderer.cache.statistics.rasterizations
      let draws = w.displayCount
      w.renderFrame(into: surface, time: time)
      if n == 0 {
        // show-card put the card on screen, its button wholly inside the window.
        let center = try #require(w.buttonCenter(ofCard: card), "card \(card) not made")
        #expect(center.y > 0 && center.y < 300, "card \(card)'s button at \(center)")
        continue
      }
      let s = context.statistics
      #expect(s.blurs == 0, "section \(section) frame \(n): \(s.blurs) blurs")
      #expect(w.displayCount == draws, "section \(section) frame \(n): a draw(_:) view drew")
      #expect(s.imageResamples == 0, "section \(section) frame \(n): \(s.imageResamples) image resamples")
      if n < 3 {
        // Before the press: nothing at all.
        #expect(s.shapeRasterizations == 0 && s.analyticShadows == 0, "section \(section) frame \(n): \(s)")
        #expect(context.textRenderer.cache.statistics.rasterizations == glyphs)
      }
      shapesPerFrame.append(s.shapeRasterizations)
      let b = try #require(w.cards.cardView(at: card)?.button)
      pressedScales.append(b.layer.sheenLayer.transform.scaleX)
    }
    // The press happened (the button shrank) and settled back.
    #expect((pressedScales.min() ?? 1) < 0.97, "section \(section): the button never shrank")
    #expect(abs((pressedScales.last ?? 0) - 1) < 1e-3, "section \(section): not settled")
    // The button's own layers only (background, border mask, title, at each scale it passes
    // through; with the card's tap count when it changes), not the card's or the row's, and
    // nothing once it rests. (A scaled layer is rasterized again at each scale: only the
    // translation of a kept shape is free.)
    #expect((shapesPerFrame.max() ?? 0) <= 8, "section \(section): shapes per frame \(shapesPerFrame)")
    #expect(shapesPerFrame.suffix(3).allSatisfy { $0 == 0 }, "section \(section): \(shapesPerFrame)")
  }
}
