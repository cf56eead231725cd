import SheenTestSupport
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

  /// Changes deep in a tree after it was drawn reach the next frame, although each frame
  /// prepares only the paths to what changed (`Layer.needsPrepare`): a tree drawn, changed and
  /// drawn again matches one built with the changes from the start.
  @Test func changesAfterAFrameReachTheNext() throws {
    func tree() -> Layer {
      let root = Layer()
      root.frame = Rect(x: 0, y: 0, width: 150, height: 100)
      for l in scene() { root.addSublayer(l) }
      return root
    }
    func change(_ root: Layer) {
      let cards = root.sublayers
      cards[0].sublayers[0].sublayers[0].frame.origin.y = 5  // a header inside a clip
      cards[1].shadowOffset = Size(width: 3, height: 4)
      cards[2].sublayers[1].isHidden = true
      cards[0].opacity = 0.5
      cards[3].mask?.frame.origin.x = 12
      let added = Layer()
      added.frame = Rect(x: 10, y: 20, width: 30, height: 12)
      added.backgroundColor = .testRed
      added.shadowOpacity = 0.8
      added.shadowRadius = 2
      cards[1].sublayers[0].addSublayer(added)
      (cards[0].sublayers[1] as? TextLayer)?.string = "Changed"
      // Out of the card, which draws as a group (opacity): the group must grow to hold it.
      cards[0].sublayers[1].frame.origin.x = 40
      cards[2].sublayers[0].sublayers[0].removeFromSuperlayer()
      cards[3].transform = LayerTransform(rotation: 0.2)
      cards[1].anchorPoint = Point(x: 0, y: 0)
    }
    let renderer = FrameRenderer(threads: 1)
    let drawn = tree()
    let s = try Surface(width: 150, height: 100)
    renderer.render([drawn], into: s, background: .white)
    change(drawn)
    renderer.render([drawn], into: s, background: .white)
    let fresh = tree()
    change(fresh)
    let expected = try Surface(width: 150, height: 100)
    FrameRenderer(threads: 1).render([fresh], into: expected, background: .white)
    #expect(s.pixels == expected.pixels)
    // And the change is visible at all (the first frame differs).
    let before = try Surface(width: 150, height: 100)
    FrameRenderer(threads: 1).render([tree()], into: before, background: .white)
    #expect(before.pixels != expected.pixels)
  }

  /// Shapes moved by whole pixels are drawn from the coverage cache, not rasterized again, and
  /// the frame is exactly what a renderer with empty caches draws there.
  @Test func shapesMovedByWholePixelsAreNotRasterizedAgain() throws {
    let layers = scene()
    let renderer = FrameRenderer(threads: 2)
    let s = try Surface(width: 150, height: 100)
    renderer.render(layers, into: s, background: .white)
    #expect(renderer.context.statistics.shapeRasterizations > 0)
    renderer.context.resetStatistics()
    for l in layers {
      l.frame.origin.x += 3
      l.frame.origin.y -= 7
    }
    renderer.render(layers, into: s, background: .white)
    #expect(renderer.context.statistics.shapeRasterizations == 0)
    let fresh = try Surface(width: 150, height: 100)
    FrameRenderer(threads: 1).render(layers, into: fresh, background: .white)
    #expect(s.pixels == fresh.pixels)
    // A move by a fraction of a pixel rasterizes again.
    for l in layers { l.frame.origin.x += 0.5 }
    renderer.render(layers, into: s, background: .white)
    #expect(renderer.context.statistics.shapeRasterizations > 0)
  }

  /// Rounded bounds and borders are kept by their geometry: a list of equal cards records each
  /// shape once, and a card of another size or radius records its own.
  @Test func equalShapesOfDifferentLayersShareOneRecording() throws {
    func card(_ x: Double, radius: Double = 8) -> Layer {
      let l = Layer()
      l.frame = Rect(x: x, y: 10, width: 30, height: 40)
      l.backgroundColor = .testRed
      l.cornerRadius = radius
      l.borderWidth = 2
      l.borderColor = .testBlue
      return l
    }
    let renderer = FrameRenderer(threads: 1)
    let s = try Surface(width: 150, height: 60)
    renderer.render([card(5), card(40), card(75)], into: s, background: .white)
    // One background and one border.
    #expect(renderer.context.statistics.shapeRasterizations == 2)
    renderer.context.resetStatistics()
    renderer.render([card(5), card(40), card(110, radius: 6)], into: s, background: .white)
    #expect(renderer.context.statistics.shapeRasterizations == 2)
    let fresh = try render([card(5), card(40), card(110, radius: 6)], width: 150, height: 60)
    #expect(s.pixels == fresh.pixels)
  }

  /// A text layer is drawn from its recorded coverage: what glyph by glyph drawing shows (to a
  /// level, where neighbouring glyphs' edges overlap), recorded once, and moved by whole pixels
  /// without recording again.
  @Test func textIsRecordedOnceAndMatchesGlyphByGlyphDrawing() throws {
    let text = TextLayer()
    text.frame = Rect(x: 3.25, y: 4, width: 140, height: 40)
    text.string = "Wavy AVAWA text, kerned: fly!"
    text.fontSize = 13
    text.isWrapped = true
    text.foregroundColor = Color(red: 0.1, green: 0.2, blue: 0.6)
    let renderer = FrameRenderer(threads: 1)
    let s = try Surface(width: 150, height: 50)
    renderer.render([text], into: s, background: .white)
    #expect(renderer.context.statistics.shapeRasterizations == 1)
    // Glyph by glyph, as the layer drew before text was recorded.
    let direct = try Surface(width: 150, height: 50)
    let c = Canvas(surface: direct)
    c.clear(.white)
    c.transform = Transform(translationX: 3.25, y: 4)
    c.clip(to: text.bounds)
    c.drawText(try #require(text.layout), at: .zero, color: text.foregroundColor)
    #expect(ReferenceImage.largestChannelDifference(s, direct) <= 1)
    #expect(s.pixels.filter { Pixel.red($0) < 250 }.count > 300)
    renderer.context.resetStatistics()
    text.frame.origin.x += 9
    text.frame.origin.y += 2
    renderer.render([text], into: s, background: .white)
    #expect(renderer.context.statistics.shapeRasterizations == 0)
    let fresh = try Surface(width: 150, height: 50)
    FrameRenderer(threads: 1).render([text], into: fresh, background: .white)
    #expect(s.pixels == fresh.pixels)
    // New text records again.
    text.string = "Other words"
    renderer.render([text], into: s, background: .white)
    #expect(renderer.context.statistics.shapeRasterizations == 1)
  }

  /// Text and shape layers are recorded by what makes their shapes, not by which layer shows
  /// them: a reused list cell that shows content it or another cell showed before, or two labels
  /// of the same text in other colours, rasterize nothing; anything that changes the shape
  /// (string, size, font, path, stroke width) records anew; the pixels are what fresh caches draw.
  @Test func reusedLayersShowingKnownContentRasterizeNothing() throws {
    func label(_ string: String, y: Double, color: Color = .black) -> TextLayer {
      let t = TextLayer()
      t.frame = Rect(x: 4.5, y: y, width: 120, height: 20)
      t.string = string
      t.fontSize = 12
      t.foregroundColor = color
      return t
    }
    func tag(y: Double, width: Double = 40) -> ShapeLayer {
      let l = ShapeLayer()
      l.frame = Rect(x: 130, y: y, width: 60, height: 20)
      l.path = Path(roundedRect: Rect(x: 0, y: 0, width: width, height: 16), radii: CornerRadii(all: 5))
      l.fillColor = .testBlue
      l.strokeColor = .testRed
      l.lineWidth = 1.5
      return l
    }
    let renderer = FrameRenderer(threads: 1)
    let s = try Surface(width: 200, height: 100)
    let a = label("First card", y: 4)
    let b = label("Second card", y: 30)
    let t = tag(y: 4)
    renderer.render([a, b, t], into: s, background: .white)
    // Two texts, the tag's fill and its stroke.
    #expect(renderer.context.statistics.shapeRasterizations == 4)
    // The cells are reused: each shows what the other showed, and a third label the same text in
    // another colour; a second tag the same path.
    renderer.context.resetStatistics()
    a.string = "Second card"
    b.string = "First card"
    let c = label("First card", y: 56, color: .testRed)
    let u = tag(y: 30)
    renderer.render([a, b, c, t, u], into: s, background: .white)
    #expect(renderer.context.statistics.shapeRasterizations == 0)
    let fresh = try Surface(width: 200, height: 100)
    FrameRenderer(threads: 1).render([a, b, c, t, u], into: fresh, background: .white)
    #expect(s.pixels == fresh.pixels)
    #expect(s.pixels.filter { Pixel.green($0) < 128 && Pixel.red($0) > 200 }.count > 20)  // red text shows
    // What changes a shape records it again: a new string, a wider label, a bolder font (one
    // each), another path, a wider stroke (fill and stroke each: one signature covers both).
    renderer.context.resetStatistics()
    a.string = "Third card"
    b.frame.size.width = 100
    c.fontWeight = .bold
    u.path = Path(roundedRect: Rect(x: 0, y: 0, width: 44, height: 16), radii: CornerRadii(all: 5))
    t.lineWidth = 2
    renderer.render([a, b, c, t, u], into: s, background: .white)
    #expect(renderer.context.statistics.shapeRasterizations == 7)
    FrameRenderer(threads: 1).render([a, b, c, t, u], into: fresh, background: .white)
    #expect(s.pixels == fresh.pixels)
  }

  /// The background is cleared to wherever a root layer does not certainly paint opaque colour
  /// (the renderer skips clearing under it): around it and in its rounded corners.
  @Test func backgroundShowsWhereTheRootIsNotOpaque() throws {
    let root = Layer()
    root.frame = Rect(x: 10.5, y: 5, width: 100, height: 80)
    root.backgroundColor = .white
    root.cornerRadius = 12
    let full = Layer()
    full.frame = Rect(x: 0, y: 0, width: 150, height: 100)
    full.backgroundColor = .testBlue
    for layers in [[root], [full, root]] {
      let s = try Surface(width: 150, height: 100)
      Canvas(surface: s).clear(.testRed)  // what the last frame left
      for threads in [1, 2] {
        FrameRenderer(threads: threads).render(layers, into: s, background: .black)
        let expected = try render(layers, width: 150, height: 100, background: .black)
        #expect(s.pixels == expected.pixels, "\(layers.count) roots, \(threads) threads")
      }
    }
  }

  /// Band borders follow the work: with everything to draw in the top quarter, the top band
  /// shrinks; and wherever the borders are, the pixels are those of one thread.
  @Test func bandsFollowTheWorkWithTheSamePixels() throws {
    var layers: [Layer] = []
    for i in 0..<40 {
      let l = Layer()
      l.frame = Rect(x: Double(i % 8) * 18 + 2, y: Double(i / 8) * 5, width: 16, height: 4)
      l.backgroundColor = .testRed
      l.cornerRadius = 2
      l.opacity = 0.9
      let t = TextLayer()
      t.frame = Rect(x: 0, y: 0, width: 16, height: 4)
      t.string = "work \(i)"
      t.fontSize = 4
      l.addSublayer(t)
      layers.append(l)
    }
    let renderer = FrameRenderer(threads: 2)
    let one = FrameRenderer(threads: 1)
    let s = try Surface(width: 150, height: 100)
    let expected = try Surface(width: 150, height: 100)
    for frame in 0..<12 {
      for l in layers { l.frame.origin.x += frame % 2 == 0 ? 1 : -1 }
      renderer.render(layers, into: s, background: .white)
      one.render(layers, into: expected, background: .white)
      #expect(s.pixels == expected.pixels, "frame \(frame), bands \(renderer.bandRows)")
    }
    let rows = renderer.bandRows
    #expect(rows.count == 2 && rows[0].lowerBound == 0 && rows[1].upperBound == 100)
    #expect(rows[0].count < rows[1].count, "bands \(rows)")
  }

  /// With all the work in the last of four bands, the first border moves past the second's old
  /// place: the bands stay ranges that cover the surface in order (this trapped: `sheen dump
  /// --threads 4` crashed).
  @Test func bordersMovingPastEachOtherKeepTheBandsInOrder() throws {
    let renderer = FrameRenderer(threads: 4)
    let s = try Surface(width: 100, height: 400)
    _ = renderer.bands(for: s)
    #expect(renderer.bandRows == [0..<100, 100..<200, 200..<300, 300..<400])
    for seconds in [[0, 0, 0, 1.0], [1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 0, 0.001]] {
      renderer.rebalance(afterBandsTook: seconds)
      let rows = renderer.bandRows
      #expect(rows.first?.lowerBound == 0 && rows.last?.upperBound == 400, "\(rows)")
      for k in 0..<rows.count {
        #expect(rows[k].count >= 8, "\(rows)")
        if k > 0 { #expect(rows[k - 1].upperBound == rows[k].lowerBound, "\(rows)") }
      }
    }
  }
}
