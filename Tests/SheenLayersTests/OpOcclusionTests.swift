import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// What later opaque layers cover in a band is not drawn, op by op and in part: a stacked card's
/// covered strip, the window's background under opaque cards, the band's clear under a full
/// cover. The pixels are those drawn with nothing left out.
@Suite struct OpOcclusionTests {
  static func card(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double = 0) -> Layer {
    let l = Layer()
    l.frame = Rect(x: x, y: y, width: w, height: h)
    l.backgroundColor = Color(red: 0.98, green: 0.97, blue: 0.95)
    l.cornerRadius = radius
    return l
  }

  /// Renders with and without occlusion (same pixels); returns the counts with it.
  func counts(
    _ layers: @autoclosure () -> [Layer], width: Int = 300, height: Int = 300, scale: Double = 1
  ) throws -> RenderContext.Statistics {
    let on = Compositor()
    let off = Compositor()
    off.skipsOccludedLayers = false
    let a = try render(layers(), width: width, height: height, scale: scale, compositor: on)
    let b = try render(layers(), width: width, height: height, scale: scale, compositor: off)
    let same = a.pixels == b.pixels
    #expect(same)
    let o = off.context.statistics
    #expect(o.opsOccluded == 0 && o.pixelsNotDrawn == 0 && o.layersOccluded == 0)
    return on.context.statistics
  }

  @Test func theBackgroundUnderAnOpaqueCardIsNotFilled() throws {
    // A window's background, an opaque square card on it: the 100 x 100 pixels under the card
    // are filled once, by the card.
    func scene() -> [Layer] {
      let window = Self.card(0, 0, 300, 300)
      window.addSublayer(Self.card(50, 50, 100, 100))
      return [window]
    }
    let s = try counts(scene())
    #expect(s.pixelsNotDrawn == 100 * 100)
    #expect(s.opsOccluded == 0)
  }

  @Test func aStackedCardDrawsOnlyItsVisibleStrip() throws {
    // Three 200 x 100 cards at 60-point steps, each with a label: the first two cards' lower 40
    // rows lie under the next card, and the first card's label there is not drawn at all.
    func scene() -> [Layer] {
      (0..<3).map { k in
        let c = Self.card(40, 20 + Double(k) * 60, 200, 100)
        let label = TextLayer()
        label.frame = Rect(x: 10, y: 70, width: 150, height: 20)
        label.string = "Card \(k)"
        label.foregroundColor = .black
        c.addSublayer(label)
        return c
      }
    }
    let s = try counts(scene())
    // Each covered card's background skips 200 x 40 pixels; each covered label (20 rows under
    // the next card) is left out whole, its layer too.
    #expect(s.layersOccluded == 2)
    #expect(s.opsOccluded >= 2)
    #expect(s.pixelsNotDrawn >= 2 * 200 * 40)
  }

  @Test func aShadowedCardUnderTheNextIsClippedToItsStrip() throws {
    // Rounded, shadowed cards: the shadow under the next card is skipped too, and the pixels
    // are the same at 1, 1.5 and 2 pixels per point.
    func scene() -> [Layer] {
      (0..<4).map { k in
        let c = Self.card(30, 10 + Double(k) * 50, 220, 110, radius: 12)
        c.shadowOpacity = 0.3
        c.shadowRadius = 8
        c.shadowOffset = Size(width: 0, height: 4)
        let header = Self.card(0, 0, 220, 30)
        header.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8)
        c.masksToBounds = true
        c.addSublayer(header)
        return c
      }
    }
    for scale in [1.0, 1.5, 2.0] {
      let s = try counts(scene(), width: Int(300 * scale), height: Int(300 * scale), scale: scale)
      #expect(s.pixelsNotDrawn > Int(3 * 150 * 40 * scale * scale), "\(scale)x")
    }
  }

  @Test func aTranslucentOrTurnedCoverHidesNothing() throws {
    for cover in 0..<3 {
      func scene() -> [Layer] {
        let window = Self.card(0, 0, 300, 300)
        let c = Self.card(50, 50, 100, 100)
        switch cover {
        case 0: c.opacity = 0.98
        case 1: c.backgroundColor = Color(red: 0.9, green: 0.9, blue: 0.9, alpha: 0.99)
        default: c.transform = LayerTransform(rotation: 0.2)
        }
        window.addSublayer(c)
        return [window]
      }
      let s = try counts(scene())
      #expect(s.pixelsNotDrawn == 0 && s.opsOccluded == 0, "cover \(cover)")
    }
  }

  @Test func theClearUnderAFullCoverIsSkipped() throws {
    let paper = rgba(Color(red: 0.98, green: 0.97, blue: 0.95).premultiplied)
    for threads in [1, 2] {
      let r = FrameRenderer(threads: threads)
      let s = try Surface(width: 100, height: 80)
      // A root that covers everything, and a clear root holding such a layer: no band clears.
      let holder = Layer()
      holder.frame = Rect(x: 0, y: 0, width: 100, height: 80)
      holder.addSublayer(Self.card(0, 0, 100, 80))
      for layers in [[Self.card(0, 0, 100, 80)], [holder]] {
        r.context.resetStatistics()
        r.render(layers, into: s, background: .black)
        #expect(r.context.statistics.opsOccluded == threads, "\(threads) threads")
        #expect(rgba(s[50, 40]) == paper)
      }
      // Half covered: the clear is drawn in the other half only.
      r.context.resetStatistics()
      r.render([Self.card(0, 40, 100, 40)], into: s, background: .black)
      #expect(r.context.statistics.pixelsNotDrawn == 100 * 40)
      #expect(rgba(s[50, 20]) == rgba(Color.black.premultiplied) && rgba(s[50, 60]) == paper)
    }
  }

  /// Every scene file (the gallery, the seed stories), and frames on one and two threads: the
  /// same pixels with and without occlusion.
  @Test func sceneFilesAreTheSameWithAndWithoutOcclusion() throws {
    let files = try galleryAndTestSceneFiles()
    #expect(files.count >= 10)
    var left = 0
    for path in files {
      let scene = try Scene.decode(contentsOfFile: path)
      let t = Transform(scaleX: scene.scale, y: scene.scale)
      var frames: [[UInt32]] = []
      for (threads, occluding) in [(1, false), (1, true), (2, true)] {
        let r = FrameRenderer(threads: threads)
        r.skipsOccludedLayers = occluding
        let s = try Surface(width: scene.pixelWidth, height: scene.pixelHeight)
        r.render(scene.layers, into: s, transform: t, background: scene.background ?? .clear)
        frames.append(s.pixels)
        left += r.context.statistics.pixelsNotDrawn
      }
      let same = frames[0] == frames[1] && frames[0] == frames[2]
      #expect(same, "\(path)")
    }
    #expect(left > 0)
  }
}
