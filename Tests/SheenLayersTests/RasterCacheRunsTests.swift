import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// The raster cache's store, its budget, what it keeps under moves that are not whole pixels,
/// and runs of still siblings under a changing parent (RasterCache.swift, RunStore.swift).
@Suite struct RasterCacheRunsTests {
  // MARK: The store

  @Test func theStoreHandsOutBlocksFirstFitAndMergesWhatIsGivenBack() throws {
    let store = try #require(RunStore(capacity: 64 * 100))
    #expect(store.capacity == 8192)
    let a = try #require(store.allocate(100))  // 128 bytes
    let b = try #require(store.allocate(64))
    let c = try #require(store.allocate(1000))  // 1024
    #expect(a == 0 && b == 128 && c == 192)
    #expect(store.used == 128 + 64 + 1024)
    store.release(b, bytes: 64)
    // First fit: the hole left by b.
    #expect(store.allocate(10) == 128)
    store.release(128, bytes: 10)
    store.release(a, bytes: 100)
    // a and b's blocks merged: 192 bytes from 0.
    #expect(store.allocate(192) == 0)
    store.release(0, bytes: 192)
    store.release(c, bytes: 1000)
    // Everything merged back into one range.
    #expect(store.used == 0)
    #expect(store.largestFree == 8192)
    #expect(store.allocate(8192) == 0)
    #expect(store.allocate(1) == nil)
    #expect(store.highWater == 8192)
  }

  @Test func aRunImageInTheStoreCompositesAsOneOfItsOwn() throws {
    let source = try RasterCacheTests.mixedSurface()
    let store = try #require(RunStore(capacity: 1 << 16))
    let m = RunImage.Measure(source)
    let made = try #require(store.make(source, m))
    let own = RunImage(source)
    #expect(made.image.byteCount == own.byteCount)
    let a = try Surface(width: 70, height: 10)
    let b = try Surface(width: 70, height: 10)
    Canvas(surface: a).draw(made.image, x: 3, y: 2)
    Canvas(surface: b).draw(own, x: 3, y: 2)
    #expect(a.pixels == b.pixels)
    #expect(a.pixels.contains { $0 != 0 })
    // Given back and handed out again, over other pixels: the image made there is the new one.
    store.release(made.offset, bytes: m.bytes)
    let other = try Surface(width: 61, height: 7)
    other.clear(0xFF33_6699)
    let again = try #require(store.make(other, RunImage.Measure(other)))
    #expect(again.offset == made.offset)
    let c = try Surface(width: 70, height: 10)
    Canvas(surface: c).draw(again.image, x: 0, y: 0)
    #expect(c[60, 6] == 0xFF33_6699 && c[61, 6] == 0)
  }

  // MARK: Budget

  /// Rows scrolled away are let go within a few frames, and the store never passes the budget.
  @Test func whatLeavesTheScreenIsLetGoAndTheStoreStaysInItsBudget() throws {
    let scene = RasterCacheTests.Scene()
    let renderer = RasterCacheTests.automatic()
    renderer.context.rasterCache.budget = 200_000
    let s = try Surface(width: 400, height: 260)
    for _ in 0..<6 { scene.draw(renderer, into: s) }
    #expect(renderer.context.rasterCache.count >= 4)
    #expect(renderer.context.rasterCache.storeHighWater <= 200_000)
    // The cards leave the screen (the root is moved far below it).
    scene.root.frame.origin.y = 2000
    for _ in 0...RasterCache.unusedFrames + 1 { scene.draw(renderer, into: s) }
    #expect(renderer.context.rasterCache.count == 0)
    #expect(renderer.context.rasterCache.bytes == 0)
  }

  /// A screen that needs more than the budget keeps what fits and draws the rest as it is: no
  /// bitmap made frame after frame to be let go of the next.
  @Test func aScreenOverTheBudgetDoesNotMakeBitmapsInTurn() throws {
    let scene = RasterCacheTests.Scene()
    let renderer = RasterCacheTests.automatic()
    let s = try Surface(width: 400, height: 260)
    for _ in 0..<8 { scene.draw(renderer, into: s) }
    let all = renderer.context.rasterCache.bytes
    #expect(all > 0)
    let fewer = FrameRenderer(threads: 1)
    fewer.rasterizesAutomatically = true
    // Room for about half of the cards.
    fewer.context.rasterCache.budget = all / 2
    var made = 0
    for frame in 0..<60 {
      fewer.context.resetStatistics()
      scene.draw(fewer, into: s)
      if frame > RasterCache.stableFrames + 1 { made += fewer.context.statistics.rasterCacheMisses }
      let fresh = try RasterCacheTests.fresh([scene.root], 400, 260)
      RasterCacheTests.expectClose(s, fresh, "over the budget, frame \(frame)")
    }
    #expect(fewer.context.rasterCache.count >= 1)
    // At most one attempt per subtree every `retryFrames` frames (about 2 over 55 frames).
    #expect(made <= 4 * 3, "\(made) bitmaps made")
  }

  // MARK: Moves that are not whole pixels

  /// Moving by fractions of a pixel, turning or scaling every frame: kept at first sight (the
  /// first frame, within rounding of a fresh render), then never again (each frame is another
  /// drawing, and a layer made into a bitmap lately waits to be drawn the same way for
  /// `stableFrames` frames), so every later frame is exactly a fresh render.
  @Test func subtreesMovingByFractionsTurningOrScalingAreNotKept() throws {
    for motion in ["fraction", "turn", "scale"] {
      let scene = RasterCacheTests.Scene()
      let renderer = RasterCacheTests.automatic()
      let s = try Surface(width: 400, height: 260)
      var composited = 0
      for frame in 0..<10 {
        let f = Double(frame)
        for c in scene.cards {
          switch motion {
          case "fraction": c.transform = LayerTransform(translationX: 0.37 * f, translationY: 0.21 * f)
          case "turn": c.transform = LayerTransform(rotation: 0.05 * f)
          default: c.transform = LayerTransform(scale: 1 + 0.01 * f)
          }
        }
        renderer.context.resetStatistics()
        scene.draw(renderer, into: s)
        let fresh = try RasterCacheTests.fresh([scene.root], 400, 260)
        if frame == 0 {
          #expect(renderer.context.statistics.rasterCacheMisses == scene.cards.count, "\(motion)")
          RasterCacheTests.expectClose(s, fresh, "\(motion), frame 0")
          continue
        }
        composited +=
          renderer.context.statistics.rasterCacheHits + renderer.context.statistics.rasterCacheMisses
        #expect(s.pixels == fresh.pixels, "\(motion), frame \(frame)")
      }
      // Nor are their sublayers, which move, turn or scale with them.
      #expect(composited == 0, "\(motion)")
      #expect(renderer.context.rasterCache.count == 0, "\(motion)")
    }
  }

  /// At rest at a fractional place: kept (under its place within the pixel) and within rounding
  /// of a fresh render; moved by whole pixels from there: the same bitmap; moved to another
  /// place within the pixel: drawn again.
  @Test func aSubtreeAtAFractionalPlaceIsKeptThereAndDrawnAgainAtAnother() throws {
    let scene = RasterCacheTests.Scene()
    let renderer = RasterCacheTests.automatic()
    let s = try Surface(width: 400, height: 300)
    func frame(_ x: Double, _ y: Double) throws -> RenderContext.Statistics {
      scene.root.frame.origin = Point(x: x, y: y)
      renderer.context.resetStatistics()
      scene.draw(renderer, into: s)
      let fresh = try RasterCacheTests.fresh([scene.root], 400, 300)
      RasterCacheTests.expectClose(s, fresh, "at \(x), \(y)")
      return renderer.context.statistics
    }
    for _ in 0...RasterCache.stableFrames { _ = try frame(0.4, 0.7) }
    let rest = try frame(0.4, 0.7)
    #expect(rest.rasterCacheHits == scene.cards.count && rest.rasterCacheMisses == 0)
    let whole = try frame(3.4, -4.3)
    #expect(whole.rasterCacheHits == scene.cards.count && whole.rasterCacheMisses == 0)
    // Another place within the pixel: nothing kept fits; drawn as it is until it rests.
    let other = try frame(3.9, -4.1)
    #expect(other.rasterCacheHits == 0)
    for _ in 0..<RasterCache.stableFrames { _ = try frame(3.9, -4.1) }
    let kept = try frame(3.9, -4.1)
    #expect(kept.rasterCacheHits == scene.cards.count && kept.rasterCacheMisses == 0)
  }

  // MARK: How much is made per frame

  /// The first frame (the cache holding nothing) makes every bitmap it finds worth making; a
  /// new screen after it (other layers) is made at most a tenth of the frame's pixels a frame
  /// (at least `fewestMadePixels`), drawn directly meanwhile, every frame within rounding of a
  /// fresh render; then all of it is composited from kept bitmaps.
  @Test func aBoundedShareOfTheFrameIsMadePerFrame() throws {
    let first = RasterCacheTests.Scene(count: 20)
    let second = RasterCacheTests.Scene(count: 20)
    let renderer = RasterCacheTests.automatic()
    let w = 400
    let h = 1200
    let s = try Surface(width: w, height: h)
    renderer.context.resetStatistics()
    first.draw(renderer, into: s)
    #expect(renderer.context.statistics.rasterCacheMisses == 20)
    let bound = max(RasterCache.fewestMadePixels, w * h / RasterCache.makeFraction)
    var frames = 0
    var made = 0
    for frame in 0..<12 {
      renderer.context.resetStatistics()
      second.draw(renderer, into: s)
      let stats = renderer.context.statistics
      #expect(
        stats.rasterCachePixelsMade <= bound, "frame \(frame): \(stats.rasterCachePixelsMade) pixels made")
      made += stats.rasterCacheMisses
      if stats.rasterCacheMisses > 0 { frames += 1 }
      RasterCacheTests.expectClose(s, try RasterCacheTests.fresh([second.root], w, h), "frame \(frame)")
      if frame == 11 { #expect(stats.rasterCacheHits == 20 && stats.rasterCacheMisses == 0) }
    }
    // Each card made once, over several frames.
    #expect(made == 20)
    #expect(frames >= 3, "made in \(frames) frames")
  }

  // MARK: Runs of still siblings

  /// A card whose sublayers are a header, texts and shapes, with one in the middle changing
  /// every frame (a pressed button).
  final class PressedCard {
    let root = Layer()
    let card = Layer()
    let button = Layer()
    var frame = 0
    init(x: Double = 20, y: Double = 14) {
      root.frame = Rect(x: 0, y: 0, width: 400, height: 300)
      card.frame = Rect(x: x, y: y, width: 300, height: 220)
      card.backgroundColor = .white
      card.cornerRadius = 16
      card.masksToBounds = true
      card.shadowOpacity = 0.3
      card.shadowRadius = 6
      card.shadowPath = Path(roundedRect: card.bounds, cornerRadius: 16)
      let header = GradientLayer()
      header.frame = Rect(x: 0, y: 0, width: 300, height: 70)
      header.colors = [.testRed, .testBlue]
      card.addSublayer(header)
      for (i, words) in ["A title", "Two lines of a subtitle"].enumerated() {
        let t = TextLayer()
        t.frame = Rect(x: 14, y: 80 + Double(i) * 24, width: 270, height: 20)
        t.string = words
        t.fontSize = 14
        card.addSublayer(t)
      }
      button.frame = Rect(x: 14, y: 140, width: 120, height: 36)
      button.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
      button.cornerRadius = 18
      card.addSublayer(button)
      for i in 0..<3 {
        let tag = ShapeLayer()
        tag.frame = Rect(x: 150 + Double(i) * 44, y: 146, width: 40, height: 24)
        tag.path = Path(roundedRect: Rect(x: 0, y: 0, width: 40, height: 24), cornerRadius: 12)
        tag.fillColor = Color(red: 0.9, green: 0.9, blue: 0.95)
        tag.strokeColor = Color(red: 0.5, green: 0.5, blue: 0.6)
        tag.lineWidth = 1
        card.addSublayer(tag)
      }
      root.addSublayer(card)
    }

    /// The next frame: the button shrinks a little more (never as it was: a card drawn as in a
    /// frame before would be composited whole from the bitmap made at first sight).
    func draw(_ r: FrameRenderer, into s: Surface, scale: Double = 1) {
      frame += 1
      button.transform = LayerTransform(scale: 1 - 0.004 * Double(frame))
      r.render([root], into: s, transform: Transform(scaleX: scale, y: scale), background: .white)
    }
  }

  @Test func aChangingSublayerLeavesItsStillSiblingsKeptInRuns() throws {
    for scale in [1.0, 1.5, 2.0] {
      let card = PressedCard()
      let renderer = RasterCacheTests.automatic()
      // One strip: layers are counted once a frame (a layer that crosses strips is drawn in each).
      renderer.stripPixels = 0
      // The card is half of this small frame: no bound on the pixels made per frame (that is
      // tested by aBoundedShareOfTheFrameIsMadePerFrame).
      renderer.context.rasterCache.pixelsMadePerFrameFraction = 0
      let w = Int(400 * scale)
      let h = Int(300 * scale)
      let s = try Surface(width: w, height: h)
      var made = 0
      for frame in 0..<12 {
        renderer.context.resetStatistics()
        card.draw(renderer, into: s, scale: scale)
        let stats = renderer.context.statistics
        let fresh = try RasterCacheTests.fresh([card.root], w, h, scale: scale)
        RasterCacheTests.expectClose(s, fresh, "scale \(scale), frame \(frame)")
        if frame > RasterCache.stableFrames {
          // The header and texts as one bitmap, the tags as another; the card's background
          // and the button drawn as they are.
          #expect(stats.rasterCacheHits + stats.rasterCacheMisses == 2, "scale \(scale), frame \(frame)")
          #expect(stats.layersDrawn == 5, "scale \(scale), frame \(frame): \(stats.layersDrawn) layers drawn")
          if frame > RasterCache.stableFrames + 1 { made += stats.rasterCacheMisses }
        }
      }
      // Made once, not frame after frame.
      #expect(made == 0, "scale \(scale)")
    }
  }

  @Test func runsOfSiblingsDrawTheSamePixelsOnOneAndTwoThreads() throws {
    let one = PressedCard()
    let two = PressedCard()
    let r1 = RasterCacheTests.automatic(threads: 1)
    let r2 = RasterCacheTests.automatic(threads: 2)
    for r in [r1, r2] { r.context.rasterCache.pixelsMadePerFrameFraction = 0 }
    let a = try Surface(width: 400, height: 300)
    let b = try Surface(width: 400, height: 300)
    for frame in 0..<14 {
      // Whole-pixel moves: the bands' border cuts the runs at different rows.
      for c in [one, two] { c.card.frame.origin.y = 14 + Double(frame % 4) * 7 }
      one.draw(r1, into: a)
      two.draw(r2, into: b)
      #expect(a.pixels == b.pixels, "frame \(frame)")
    }
    #expect(r1.context.statistics.rasterCacheHits > 0)
  }

  // MARK: Scenes made for no benchmark

  /// Every gallery scene (1920x1080) at half size (larger scales cost minutes in a debug build;
  /// the demo at 1.5x is in RasterCacheDemoTests), drawn by a renderer that keeps bitmaps (the
  /// first frame makes them and composites them, the second composites what the first made) is
  /// within source-over rounding of one that draws every layer: at most 2/255 in a channel, over
  /// 1/255 on under 0.2% of pixels.
  @Test func galleryScenesFromKeptBitmapsMatchAFreshRender() throws {
    let dir = ReferenceImage.packageRoot.appendingPathComponent("Scenes/Gallery")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
    #expect(files.count >= 5)
    var composited = 0
    for f in files.sorted() {
      let scene = try Scene.decode(contentsOfFile: dir.appendingPathComponent(f).path)
      for scale in [0.5] {
        let t = Transform(scaleX: scene.scale * scale, y: scene.scale * scale)
        let w = Int((Double(scene.pixelWidth) * scale).rounded())
        let h = Int((Double(scene.pixelHeight) * scale).rounded())
        let kept = RasterCacheTests.automatic()
        let s = try Surface(width: w, height: h)
        for _ in 0..<2 {
          kept.render(scene.layers, into: s, transform: t, background: scene.background ?? .clear)
        }
        composited += kept.context.statistics.rasterCacheHits
        let fresh = try Surface(width: w, height: h)
        FrameRenderer(threads: 1).render(
          scene.layers, into: fresh, transform: t, background: scene.background ?? .clear)
        RasterCacheTests.expectClose(s, fresh, "\(f) at \(scale)x")
      }
    }
    #expect(composited > 0)
  }
}
