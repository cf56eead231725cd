import Testing

@testable import SheenLayers
@testable import SheenRaster

/// The raster cache (RasterCache.swift): kept bitmaps of unchanged subtrees, and `shouldRasterize`.
@Suite struct RasterCacheTests {
  /// A row of cards with every kind of drawing: rounded clips, a gradient header, text, a shape,
  /// shadows of both kinds (path and alpha), a border, group opacity and a mask.
  final class Scene {
    let root = Layer()
    var cards: [Layer] = []
    var texts: [TextLayer] = []
    var headers: [GradientLayer] = []
    var dots: [ShapeLayer] = []
    /// A small layer whose colour changes every frame (`tick`), so that the root's subtree
    /// changes every frame and the cards are kept one by one.
    let ticker = Layer()
    var ticks = 0

    init(count: Int = 4) {
      root.frame = Rect(x: 0, y: 0, width: 400, height: 300)
      ticker.frame = Rect(x: 380, y: 0, width: 10, height: 10)
      root.addSublayer(ticker)
      for i in 0..<count {
        let card = Layer()
        card.frame = Rect(x: 10 + Double(i % 2) * 130, y: 12 + Double(i / 2) * 110, width: 110, height: 90)
        card.backgroundColor = .white
        card.cornerRadius = 12
        card.shadowOpacity = 0.35
        card.shadowRadius = 4
        card.shadowOffset = Size(width: 0, height: 3)
        if i % 2 == 0 { card.shadowPath = Path(roundedRect: card.bounds, cornerRadius: 12) }
        let clip = Layer()
        clip.frame = card.bounds
        clip.cornerRadius = 12
        clip.masksToBounds = true
        let header = GradientLayer()
        header.frame = Rect(x: 0, y: 0, width: 110, height: 30)
        header.colors = [.testRed, .testBlue]
        clip.addSublayer(header)
        card.addSublayer(clip)
        let text = TextLayer()
        text.frame = Rect(x: 8, y: 36, width: 94, height: 18)
        text.string = "Card \(i) text"
        text.fontSize = 12
        card.addSublayer(text)
        let dot = ShapeLayer()
        dot.frame = Rect(x: 8, y: 60, width: 40, height: 20)
        dot.path = Path(roundedRect: Rect(x: 0, y: 0, width: 40, height: 20), cornerRadius: 10)
        dot.fillColor = Color(red: 0.2, green: 0.6, blue: 0.3)
        dot.strokeColor = Color(red: 0.1, green: 0.2, blue: 0.1)
        dot.lineWidth = 1
        card.addSublayer(dot)
        card.borderWidth = 1
        card.borderColor = Color(red: 0, green: 0, blue: 0, alpha: 0.2)
        if i == 3 {
          card.opacity = 0.8
          let m = ShapeLayer()
          m.frame = card.bounds
          m.path = Path(ellipseIn: card.bounds)
          card.mask = m
        }
        root.addSublayer(card)
        cards.append(card)
        texts.append(text)
        headers.append(header)
        dots.append(dot)
      }
    }

    /// Draws the next frame (the ticker's colour changes).
    func draw(
      _ renderer: FrameRenderer, into s: Surface, scale: Double = 1
    ) {
      ticks += 1
      ticker.backgroundColor = Color(red: Double(ticks % 256) / 255, green: 0.5, blue: 0.5)
      renderer.render([root], into: s, transform: Transform(scaleX: scale, y: scale), background: .white)
    }
  }

  /// A frame of `layers` drawn with nothing kept (a fresh renderer, no automatic bitmaps).
  static func fresh(_ layers: [Layer], _ w: Int, _ h: Int, scale: Double = 1) throws -> Surface {
    let s = try Surface(width: w, height: h)
    let r = FrameRenderer(threads: 1)
    r.render(layers, into: s, transform: Transform(scaleX: scale, y: scale), background: .white)
    return s
  }

  /// The largest difference of one channel between two surfaces.
  static func maxDifference(_ a: Surface, _ b: Surface) -> Int {
    var worst = 0
    for (p, q) in zip(a.pixels, b.pixels) where p != q {
      for shift in stride(from: 0, to: 32, by: 8) {
        worst = max(worst, abs(Int((p >> UInt32(shift)) & 255) - Int((q >> UInt32(shift)) & 255)))
      }
    }
    return worst
  }

  /// The fraction of pixels with a channel more than 1/255 apart.
  static func fractionOverOne(_ a: Surface, _ b: Surface) -> Double {
    var n = 0
    for (p, q) in zip(a.pixels, b.pixels) where p != q {
      if (0..<4).contains(where: { k in
        abs(Int((p >> UInt32(8 * k)) & 255) - Int((q >> UInt32(8 * k)) & 255)) > 1
      }) {
        n += 1
      }
    }
    return Double(n) / Double(max(1, a.width * a.height))
  }

  /// A kept bitmap composited differs from drawing its subtree directly only by source-over
  /// rounding where its translucent pixels meet what is below: within 2/255 where up to three
  /// translucent layers meet at one pixel (a shadow, an anti-aliased corner and a border), within
  /// 1/255 on all but a few edge pixels.
  static func expectClose(_ a: Surface, _ b: Surface, _ what: String) {
    #expect(maxDifference(a, b) <= 2, "\(what)")
    #expect(fractionOverOne(a, b) < 0.002, "\(what)")
  }

  // MARK: Run images

  /// A surface with every kind of run: transparent, translucent (a shadow's fall-off), long and
  /// short opaque runs of one colour and opaque pixels that all differ.
  static func mixedSurface() throws -> Surface {
    let s = try Surface(width: 61, height: 7)
    for y in 0..<7 {
      for x in 0..<61 {
        var p: UInt32 = 0
        switch (x + y * 3) % 61 {
        case 0..<5: p = 0
        case 5..<14: p = Pixel.premultiplied(r: 10, g: 20, b: 30, a: UInt8(20 * (x % 12) + 1))
        case 14..<30: p = 0xFFFF_FFFF
        case 30..<33: p = 0xFF11_2233
        default: p = 0xFF00_0000 | UInt32(x * 4001 + y * 77) & 0xFF_FFFF
        }
        s[x, y] = p
      }
    }
    return s
  }

  @Test func runImagesCompositeAsTheirSurface() throws {
    let source = try RasterCacheTests.mixedSurface()
    let runs = RunImage(source)
    // Source-over of each pixel, worked out per pixel, onto a patterned background.
    let expected = try Surface(width: 80, height: 12)
    let got = try Surface(width: 80, height: 12)
    for y in 0..<12 {
      for x in 0..<80 {
        let bg = Pixel.premultiplied(r: UInt8(x * 3), g: UInt8(y * 20), b: 90, a: 255)
        expected[x, y] = bg
        got[x, y] = bg
      }
    }
    for y in 0..<7 {
      for x in 0..<61 { expected[x + 5, y + 3] = Pixel.sourceOver(source[x, y], expected[x + 5, y + 3]) }
    }
    Canvas(surface: got).draw(runs, x: 5, y: 3)
    #expect(got.pixels == expected.pixels)
    // Cut by a rectangular clip: the same pixels inside it, none outside.
    let clipped = try Surface(width: 80, height: 12)
    let c = Canvas(surface: clipped)
    c.clip(to: Rect(x: 20, y: 4, width: 30, height: 3))
    c.draw(runs, x: 5, y: 3)
    for y in 0..<12 {
      for x in 0..<80 {
        let inside = x >= 20 && x < 50 && y >= 4 && y < 7
        #expect(clipped[x, y] == (inside ? Pixel.sourceOver(source[x - 5, y - 3], 0) : 0))
      }
    }
    // Under a soft clip, as the surface blitted through the same clip.
    let soft = try Surface(width: 80, height: 12)
    let blitted = try Surface(width: 80, height: 12)
    for (s, draw) in [(soft, true), (blitted, false)] {
      let k = Canvas(surface: s)
      k.clear(.white)
      k.clip(to: Path(ellipseIn: Rect(x: 3, y: 1, width: 60, height: 10)))
      if draw { k.draw(runs, x: 5, y: 3) } else { k.blit(source, x: 5, y: 3) }
    }
    #expect(soft.pixels == blitted.pixels)
    // A card's white body with a line of text: a few bytes a row where one colour repeats.
    let card = try Surface(width: 200, height: 100)
    card.clear(0xFFFF_FFFF)
    for x in 20..<120 { card[x, 50] = 0xFF00_0000 | UInt32(x * 999) & 0xFF_FFFF }
    #expect(RunImage(card).byteCount < card.width * card.height * 4 / 10)
  }

  // MARK: Automatic bitmaps

  /// Frames of a scene drawn by one renderer: after a few, subtrees come from kept bitmaps, and
  /// every frame matches a render with nothing kept within 1/255.
  func checkCachedMatchesFresh(scale: Double, turn: Double) throws {
    let scene = Scene()
    if turn != 0 {
      for c in scene.cards { c.transform = LayerTransform(rotation: turn) }
    }
    let w = Int(400 * scale)
    let h = Int(260 * scale)
    let renderer = RasterCacheTests.automatic()
    let s = try Surface(width: w, height: h)
    for frame in 0..<6 {
      renderer.context.resetStatistics()
      scene.draw(renderer, into: s, scale: scale)
      let stats = renderer.context.statistics
      let fresh = try RasterCacheTests.fresh([scene.root], w, h, scale: scale)
      RasterCacheTests.expectClose(s, fresh, "frame \(frame), scale \(scale), turn \(turn)")
      if frame >= RasterCache.stableFrames {
        #expect(stats.rasterCacheHits > 0, "frame \(frame): nothing from the cache")
        #expect(stats.shapeRasterizations == 0)
      }
    }
    #expect(renderer.context.rasterCache.count > 0)
  }

  /// A renderer that keeps unchanged subtrees automatically.
  static func automatic(threads: Int = 1) -> FrameRenderer {
    let r = FrameRenderer(threads: threads)
    r.rasterizesAutomatically = true
    return r
  }

  @Test func keptBitmapsMatchAFreshRender() throws {
    try checkCachedMatchesFresh(scale: 1, turn: 0)
    try checkCachedMatchesFresh(scale: 2, turn: 0)
    try checkCachedMatchesFresh(scale: 1.5, turn: 0)
    // Turned: kept under its linear transform and drawn the same.
    try checkCachedMatchesFresh(scale: 1, turn: 0.3)
  }

  @Test func oneAndTwoThreadsDrawTheSamePixelsWithKeptBitmaps() throws {
    let scene = Scene()
    let one = RasterCacheTests.automatic(threads: 1)
    let two = RasterCacheTests.automatic(threads: 2)
    let a = try Surface(width: 400, height: 260)
    let b = try Surface(width: 400, height: 260)
    for frame in 0..<8 {
      scene.root.frame.origin.y = -Double(frame * 3)
      scene.draw(one, into: a)
      scene.ticks -= 1
      scene.draw(two, into: b)
      #expect(a.pixels == b.pixels, "frame \(frame)")
    }
    #expect(one.context.statistics.rasterCacheHits > 0)
  }

  /// Draws frames until the cards are kept, then makes `change` and checks the next frame is a
  /// fresh render's (within 1/255) and differs from before.
  func checkInvalidation(_ name: String, _ change: (Scene) -> Void) throws {
    let scene = Scene()
    let renderer = RasterCacheTests.automatic()
    let s = try Surface(width: 400, height: 260)
    for _ in 0...RasterCache.stableFrames {
      scene.draw(renderer, into: s)
    }
    renderer.context.resetStatistics()
    scene.draw(renderer, into: s)
    #expect(renderer.context.statistics.rasterCacheHits >= 4, "\(name): cards not kept")
    let before = s.pixels
    change(scene)
    for frame in 0..<2 {
      scene.draw(renderer, into: s)
      let fresh = try RasterCacheTests.fresh([scene.root], 400, 260)
      RasterCacheTests.expectClose(s, fresh, "\(name), frame \(frame) after the change")
      #expect(s.pixels != before, "\(name): the change does not show")
    }
  }

  @Test func anyChangeBelowMakesANewBitmap() throws {
    try checkInvalidation("colour") { $0.dots[1].fillColor = Color(red: 0.9, green: 0.1, blue: 0.5) }
    try checkInvalidation("text") { $0.texts[2].string = "Other words" }
    try checkInvalidation("gradient") { $0.headers[0].colors = [.testBlue, .testRed] }
    try checkInvalidation("shadow") { $0.cards[1].shadowRadius = 9 }
    try checkInvalidation("hidden") { $0.dots[0].isHidden = true }
    try checkInvalidation("moved within") { $0.texts[1].frame.origin.x += 3 }
    try checkInvalidation("image") { scene in
      let image = try! RasterImage(width: 8, height: 8) { c in c.clear(.testRed) }
      scene.dots[3].contents = image
    }
  }

  @Test func aSubtreeMovedByWholePixelsIsCompositedFromItsBitmap() throws {
    let scene = Scene()
    let renderer = RasterCacheTests.automatic()
    let s = try Surface(width: 400, height: 300)
    for frame in 0..<12 {
      // By whole pixels, every card staying within the frame.
      scene.root.frame.origin = Point(x: Double(frame % 3), y: -Double(frame % 4) * 3)
      renderer.context.resetStatistics()
      scene.draw(renderer, into: s)
      let stats = renderer.context.statistics
      if frame > RasterCache.stableFrames {
        // Every card from its bitmap: only the root and the cards are drawn, nothing made.
        #expect(stats.rasterCacheHits == scene.cards.count, "frame \(frame)")
        #expect(stats.rasterCacheMisses == 0, "frame \(frame)")
        #expect(stats.layersDrawn == 2 + scene.cards.count, "frame \(frame)")
        #expect(stats.shapeRasterizations == 0 && stats.blurs == 0)
        let fresh = try RasterCacheTests.fresh([scene.root], 400, 300)
        RasterCacheTests.expectClose(s, fresh, "moved, frame \(frame)")
      }
    }
  }

  @Test func aSubtreeChangingEveryFrameIsNotKeptButItsStillPartsAre() throws {
    let scene = Scene(count: 2)
    let renderer = RasterCacheTests.automatic()
    let s = try Surface(width: 400, height: 260)
    var made = 0
    for frame in 0..<12 {
      // An animation inside card 0: its dot moves every frame.
      scene.dots[0].frame.origin.x = 8 + Double(frame)
      renderer.context.resetStatistics()
      scene.draw(renderer, into: s)
      let stats = renderer.context.statistics
      if frame > RasterCache.stableFrames {
        made += stats.rasterCacheMisses
        // Card 1 and card 0's unchanging clip (with its header) are kept.
        #expect(stats.rasterCacheHits >= 1, "frame \(frame)")
      }
    }
    // Nothing made again frame after frame.
    #expect(made == 0)
  }

  @Test func theBudgetHolds() throws {
    let scene = Scene(count: 4)
    let renderer = RasterCacheTests.automatic()
    renderer.context.rasterCache.budget = 150_000
    let s = try Surface(width: 400, height: 260)
    for frame in 0..<40 {
      // New text every 5 frames: new bitmaps, old ones let go.
      if frame % 5 == 0 { for (i, t) in scene.texts.enumerated() { t.string = "Card \(i) #\(frame)" } }
      scene.draw(renderer, into: s)
      #expect(renderer.context.rasterCache.bytes <= 150_000)
      #expect(renderer.context.statistics.rasterCacheBytes <= 150_000)
    }
    #expect(renderer.context.statistics.rasterCacheMisses > 0)
    renderer.context.rasterCache.budget = 0
    #expect(renderer.context.rasterCache.bytes == 0)
  }

  // MARK: shouldRasterize

  @Test func aRasterizedLayerIsDrawnOnceAndMatches() throws {
    for scale in [1.0, 2.0] {
      let scene = Scene()
      let card = scene.cards[1]
      card.shouldRasterize = true
      card.rasterizationScale = scale
      let renderer = FrameRenderer(threads: 1)
      let w = Int(400 * scale)
      let h = Int(260 * scale)
      let s = try Surface(width: w, height: h)
      for frame in 0..<3 {
        renderer.context.resetStatistics()
        scene.draw(renderer, into: s, scale: scale)
        let stats = renderer.context.statistics
        #expect(stats.rasterCacheHits == (frame == 0 ? 0 : 1))
        #expect(stats.rasterCacheMisses == (frame == 0 ? 1 : 0))
        card.shouldRasterize = false
        let fresh = try RasterCacheTests.fresh([scene.root], w, h, scale: scale)
        card.shouldRasterize = true
        RasterCacheTests.expectClose(s, fresh, "rasterized, scale \(scale), frame \(frame)")
      }
      // A change below: drawn again.
      scene.texts[1].string = "Changed"
      renderer.context.resetStatistics()
      scene.draw(renderer, into: s, scale: scale)
      #expect(renderer.context.statistics.rasterCacheMisses == 1)
      card.shouldRasterize = false
      let fresh = try RasterCacheTests.fresh([scene.root], w, h, scale: scale)
      RasterCacheTests.expectClose(s, fresh, "rasterized and changed, scale \(scale)")
    }
  }

  /// A layer rasterized at half the screen's scale is a half-size picture magnified: as blurry
  /// as a render at half size scaled up (as on iOS), not as sharp as the layer drawn directly.
  @Test func halfTheScaleIsBlurryLikeIOS() throws {
    let stripes = Layer()
    stripes.frame = Rect(x: 20, y: 20, width: 64, height: 64)
    stripes.backgroundColor = .white
    for i in 0..<16 {
      let bar = Layer()
      bar.frame = Rect(x: Double(i * 4), y: 0, width: 1, height: 64)
      bar.backgroundColor = .black
      stripes.addSublayer(bar)
    }
    let sharp = try RasterCacheTests.fresh([stripes], 120, 120)
    stripes.shouldRasterize = true
    stripes.rasterizationScale = 0.5
    let rasterized = try RasterCacheTests.fresh([stripes], 120, 120)
    // The layer drawn at half size, then magnified twice with bilinear sampling.
    stripes.shouldRasterize = false
    let half = try Surface(width: 36, height: 36)
    let hc = Canvas(surface: half)
    Compositor().render(
      [stripes], in: hc,
      transform: Transform(scaleX: 0.5, y: 0.5).concatenating(Transform(translationX: -8, y: -8)))
    let expected = try Surface(width: 120, height: 120)
    let ec = Canvas(surface: expected)
    ec.clear(.white)
    ec.draw(half, transform: Transform(scaleX: 2, y: 2).concatenating(Transform(translationX: 16, y: 16)))
    var worstInside = 0
    var sharpDifference = 0
    for y in 24..<80 {
      for x in 24..<80 {
        let g = Int(Pixel.green(rasterized[x, y]))
        worstInside = max(worstInside, abs(g - Int(Pixel.green(expected[x, y]))))
        sharpDifference = max(sharpDifference, abs(g - Int(Pixel.green(sharp[x, y]))))
      }
    }
    #expect(worstInside <= 2)
    // The sharp render has black bars on white; the blurry one has no pixel near black.
    #expect(sharpDifference > 60)
    #expect((24..<80).allSatisfy { x in Pixel.green(rasterized[x, 50]) > 60 })
  }
}
