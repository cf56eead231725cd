import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// Layers that a later sibling covers with opaque colour, shadow and all, are not drawn, and the
/// frame is the same as when they are.
@Suite struct OcclusionTests {
  /// A shadowed rounded card with a sublayer, an opaque panel over it, a card over the panel.
  func scene(panel: Rect, panelOpacity: Double = 1, panelRotation: Double = 0) -> [Layer] {
    let card = Layer()
    card.frame = Rect(x: 40, y: 30, width: 80, height: 50)
    card.backgroundColor = .testRed
    card.cornerRadius = 8
    card.shadowOpacity = 0.5
    card.shadowRadius = 3
    card.shadowOffset = Size(width: 0, height: 2)
    let dot = Layer()
    dot.frame = Rect(x: 10, y: 10, width: 20, height: 20)
    dot.backgroundColor = .testBlue
    card.addSublayer(dot)
    let cover = Layer()
    cover.frame = panel
    cover.backgroundColor = Color(red: 0.95, green: 0.95, blue: 0.97)
    cover.opacity = panelOpacity
    if panelRotation != 0 { cover.transform = LayerTransform(rotation: panelRotation) }
    let top = Layer()
    top.frame = Rect(x: 110, y: 70, width: 70, height: 50)
    top.backgroundColor = .testBlue
    top.cornerRadius = 10
    top.shadowOpacity = 0.4
    top.shadowRadius = 4
    return [card, cover, top]
  }

  /// Renders with and without leaving out covered layers: the same pixels; returns how many
  /// layers were left out.
  func occluded(_ layers: @autoclosure () -> [Layer]) throws -> Int {
    let on = Compositor()
    let off = Compositor()
    off.skipsOccludedLayers = false
    let a = try render(layers(), width: 200, height: 140, compositor: on)
    let b = try render(layers(), width: 200, height: 140, compositor: off)
    #expect(a.pixels == b.pixels)
    #expect(off.context.statistics.layersOccluded == 0)
    return on.context.statistics.layersOccluded
  }

  @Test func aCardUnderAnOpaquePanelIsNotDrawn() throws {
    // The card's shadow reaches about 3σ + 2 below it: the panel covers that with room to spare.
    #expect(try occluded(scene(panel: Rect(x: 20, y: 10, width: 130, height: 100))) == 1)
    let s = try render(scene(panel: Rect(x: 20, y: 10, width: 130, height: 100)), width: 200, height: 140)
    #expect(rgba(s[60, 50]) == rgba(Color(red: 0.95, green: 0.95, blue: 0.97).premultiplied))
  }

  @Test func aCardWhoseShadowShowsIsDrawn() throws {
    // The panel ends 2 points under the card: its shadow shows below the panel.
    #expect(try occluded(scene(panel: Rect(x: 20, y: 10, width: 130, height: 72))) == 0)
    // A translucent panel, or a turned one, covers nothing for certain.
    #expect(try occluded(scene(panel: Rect(x: 20, y: 10, width: 130, height: 100), panelOpacity: 0.98)) == 0)
    #expect(try occluded(scene(panel: Rect(x: 0, y: -20, width: 170, height: 160), panelRotation: 0.1)) == 0)
  }

  @Test func underASoftClipNothingIsLeftOut() throws {
    let clip = Layer()
    clip.frame = Rect(x: 0, y: 0, width: 200, height: 140)
    clip.cornerRadius = 30
    clip.masksToBounds = true
    for l in scene(panel: Rect(x: 20, y: 10, width: 130, height: 100)) { clip.addSublayer(l) }
    // Covers count only inside the rounded clip's interior (the pixels are the same: `occluded`
    // compares them), so no more is left out than without the clip.
    let open = try occluded(scene(panel: Rect(x: 20, y: 10, width: 130, height: 100)))
    #expect(try occluded([clip]) <= open)
  }

  /// Bands drawn on two threads leave out what each band's rows let them, and the frame is the
  /// one thread's.
  @Test func twoThreadsDrawTheSameFrame() throws {
    var frames: [[UInt32]] = []
    for threads in [1, 2] {
      let s = try Surface(width: 200, height: 140)
      let r = FrameRenderer(threads: threads)
      let layers = scene(panel: Rect(x: 20, y: 10, width: 130, height: 100))
      for _ in 0..<3 { r.render(layers, into: s, background: .white) }
      #expect(r.context.statistics.layersOccluded >= 3)
      frames.append(s.pixels)
    }
    #expect(frames[0] == frames[1])
  }
}
