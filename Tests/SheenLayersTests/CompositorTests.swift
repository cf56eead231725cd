import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

@Suite struct CompositorTests {
  func square(_ x: Double, _ color: Color, opacity: Double = 1) -> Layer {
    let l = Layer()
    l.frame = Rect(x: x, y: 10, width: 40, height: 40)
    l.backgroundColor = color
    l.opacity = opacity
    return l
  }

  /// A shadow skips what its layer's opaque body covers: for rounded corners, the inset square
  /// and the cross of bands between the corners, each wholly inside the rounded shape (a part
  /// reaching into a corner's cut-out would leave shadow pixels unblended that show).
  @Test func opaquePartsOfARoundedLayerAreTheCrossBetweenItsCorners() throws {
    let l = Layer()
    l.frame = Rect(x: 5, y: 7, width: 78, height: 84)
    l.backgroundColor = .white
    l.cornerRadius = 12
    l.maskedCorners = [.topLeft, .topRight, .bottomRight]
    l.shadowOpacity = 0.3
    Layer.prepareForDrawingTree([l])
    let parts = l.opaqueParts
    #expect(parts.contains(Rect(x: 0, y: 12, width: 78, height: 60)))
    #expect(parts.contains(Rect(x: 12, y: 0, width: 54, height: 84)))
    // Every corner of every part lies inside the rounded rectangle.
    let r = 12.0
    for p in parts {
      for (x, y) in [(p.minX, p.minY), (p.maxX, p.minY), (p.minX, p.maxY), (p.maxX, p.maxY)] {
        // The centres of the three rounded corners' arcs.
        for (cx, cy, sx, sy) in [(r, r, -1.0, -1.0), (78 - r, r, 1, -1), (78 - r, 84 - r, 1, 1)] {
          let outside = (x - cx) * sx > 0 && (y - cy) * sy > 0
          if outside { #expect(((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() <= r + 1e-9) }
        }
      }
    }
    // Square corners need no cross.
    l.cornerRadius = 0
    Layer.prepareForDrawingTree([l])
    #expect(l.opaqueParts == [l.bounds])
  }

  @Test func groupOpacityDiffersFromPerChildOpacity() throws {
    let group = Layer()
    group.frame = Rect(x: 0, y: 0, width: 100, height: 60)
    group.opacity = 0.5
    group.addSublayer(square(10, .testRed))
    group.addSublayer(square(30, .testBlue))
    let g = try render([group], width: 100, height: 60)
    let perChild = try render(
      [square(10, .testRed, opacity: 0.5), square(30, .testBlue, opacity: 0.5)], width: 100, height: 60)
    // In the overlap the group shows only blue at half strength over white: (128, 128, 255).
    // Per child, blue covers red covering white: (128, 64, 191).
    let overlapGroup = rgba(g[40, 30])
    let overlapChild = rgba(perChild[40, 30])
    #expect(abs(overlapGroup.r - 128) <= 1 && abs(overlapGroup.g - 128) <= 1 && overlapGroup.b == 255)
    #expect(abs(overlapChild.r - 128) <= 1 && abs(overlapChild.g - 64) <= 1 && abs(overlapChild.b - 191) <= 1)
  }

  @Test func maskAlphaClipsContentAndShadow() throws {
    let l = Layer()
    l.frame = Rect(x: 20, y: 20, width: 60, height: 60)
    l.backgroundColor = .testRed
    l.shadowOpacity = 1
    l.shadowRadius = 2
    l.shadowOffset = Size(width: 0, height: 10)
    let m = ShapeLayer()
    m.frame = l.bounds
    m.path = Path(rect: Rect(x: 0, y: 0, width: 30, height: 60))
    l.mask = m
    let s = try render([l], width: 100, height: 100)
    #expect(s[30, 50] == Color.testRed.premultiplied)
    #expect(s[70, 50] == 0xFFFF_FFFF)
    // The shadow below the masked-out half is masked out too.
    #expect(s[70, 85] == 0xFFFF_FFFF)
    // Below the visible half the shadow would be at y 85, but the mask ends at y 80.
    #expect(s[30, 85] == 0xFFFF_FFFF)
  }

  @Test func hiddenMaskHidesEverything() throws {
    let l = square(10, .testRed)
    let m = Layer()
    m.frame = l.bounds
    m.backgroundColor = .black
    m.isHidden = true
    l.mask = m
    let s = try render([l], width: 60, height: 60)
    #expect(s.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
  }

  @Test func scaledLayerKeepsAntiAliasedEdges() throws {
    let l = Layer()
    l.frame = Rect(x: 10, y: 10, width: 20, height: 20)
    l.backgroundColor = .black
    l.transform = LayerTransform(scale: 1.3)
    let s = try render([l], width: 50, height: 50)
    // Scaled about the centre (20, 20): edges at 20 +- 13, so x = 7 is 0% and x = 33 is ~0%,
    // 6.9..7.0: the pixel containing x = 7.0 boundary is fully outside; try a fractional edge.
    let l2 = Layer()
    l2.frame = Rect(x: 10, y: 10, width: 21, height: 21)
    l2.backgroundColor = .black
    l2.transform = LayerTransform(scale: 1.5)
    let s2 = try render([l2], width: 60, height: 60)
    // Centre 20.5, half size 15.75: left edge at 4.75, so pixel 4 is a quarter covered.
    let v = luminance(s2[4, 20])
    #expect(abs(v - 255 * 0.75) <= 2)
    #expect(luminance(s[20, 20]) == 0)
  }

  /// (Shapes other than rounded rectangles: those are worked out per pixel, with no blur.)
  @Test func movingALayerDoesNotBlurAgain() throws {
    let card = Layer()
    card.frame = Rect(x: 10, y: 10, width: 50, height: 30)
    card.backgroundColor = .white
    card.cornerRadius = 8
    card.shadowOpacity = 0.3
    card.shadowPath = Path(ellipseIn: card.bounds)
    let alpha = Layer()
    alpha.frame = Rect(x: 70, y: 10, width: 50, height: 30)
    alpha.shadowOpacity = 0.3
    let inner = ShapeLayer()
    inner.frame = alpha.bounds
    inner.fillColor = .white
    inner.path = Path(ellipseIn: alpha.bounds)
    alpha.addSublayer(inner)
    let compositor = Compositor()
    _ = try render([card, alpha], width: 140, height: 80, compositor: compositor)
    #expect(compositor.context.statistics.blurs == 2)
    compositor.context.resetStatistics()
    card.frame.origin.y += 17
    alpha.frame.origin.y += 17
    let moved = try render([card, alpha], width: 140, height: 80, compositor: compositor)
    #expect(compositor.context.statistics.blurs == 0)
    // And the moved shadow equals a fresh render of the moved layers.
    let fresh = try render([card, alpha], width: 140, height: 80)
    #expect(moved.pixels == fresh.pixels)
    // A change of shape blurs again.
    compositor.context.resetStatistics()
    inner.path = Path(ellipseIn: Rect(x: 0, y: 0, width: 40, height: 30))
    card.shadowPath = Path(ellipseIn: Rect(x: 0, y: 0, width: 40, height: 30))
    _ = try render([card, alpha], width: 140, height: 80, compositor: compositor)
    #expect(compositor.context.statistics.blurs == 2)
  }

  /// A shadow made from a layer's alpha is keyed by a signature of its subtree, kept between
  /// frames: every change anywhere below the layer (however deep, in a mask too) must make a new
  /// one, and so a new blur whose pixels equal a fresh render's.
  @Test func aShadowFollowsEveryChangeBelowIt() throws {
    let card = Layer()
    card.frame = Rect(x: 10, y: 10, width: 60, height: 40)
    card.shadowOpacity = 0.5
    card.shadowRadius = 2
    let row = Layer()
    row.frame = card.bounds
    card.addSublayer(row)
    let dot = Layer()
    dot.frame = Rect(x: 5, y: 5, width: 20, height: 10)
    dot.backgroundColor = .white
    row.addSublayer(dot)
    // A triangle: the card's alpha is not made of rounded rectangles, so its shadow is blurred.
    let triangle = ShapeLayer()
    triangle.frame = Rect(x: 30, y: 20, width: 20, height: 15)
    var tri = Path()
    tri.move(to: Point(x: 0, y: 15))
    tri.addLine(to: Point(x: 10, y: 0))
    tri.addLine(to: Point(x: 20, y: 15))
    tri.closeSubpath()
    triangle.path = tri
    card.addSublayer(triangle)
    let compositor = Compositor()
    _ = try render([card], width: 90, height: 70, compositor: compositor)
    let changes: [(String, () -> Void)] = [
      ("a grandchild's colour", { dot.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5) }),
      ("a grandchild moving", { dot.frame.origin.x += 7 }),
      ("a grandchild hidden", { dot.isHidden = true }),
      // (Shown again as it was, it would find the earlier blur still cached.)
      (
        "a grandchild shown at another opacity",
        {
          dot.isHidden = false
          dot.opacity = 0.4
        }
      ),
      (
        "a new great-grandchild",
        {
          let l = Layer()
          l.frame = Rect(x: 1, y: 1, width: 4, height: 4)
          l.backgroundColor = .white
          dot.addSublayer(l)
        }
      ),
      (
        "a mask on the row",
        {
          let m = Layer()
          m.frame = Rect(x: 0, y: 0, width: 30, height: 40)
          m.backgroundColor = .white
          row.mask = m
        }
      ),
      ("the mask's size", { row.mask?.frame.size.width = 50 }),
      (
        "a grandchild's shadow offset",
        {
          dot.shadowOpacity = 1
          dot.shadowRadius = 1
          dot.shadowOffset = Size(width: 0, height: 4)
        }
      ),
      ("the grandchild's shadow moving", { dot.shadowOffset = Size(width: 3, height: -2) }),
    ]
    for (what, change) in changes {
      compositor.context.resetStatistics()
      change()
      let drawn = try render([card], width: 90, height: 70, compositor: compositor)
      // Once the grandchild casts a shadow, that is blurred too: its alpha (a translucent colour
      // under an opaque square) is not made of rounded rectangles that do not overlap. Moving
      // that shadow changes the card's alpha, not the grandchild's: its own blur is kept.
      let expected = what == "a grandchild's shadow offset" ? 2 : 1
      #expect(compositor.context.statistics.blurs == expected, "\(what)")
      let fresh = try render([card], width: 90, height: 70)
      #expect(drawn.pixels == fresh.pixels, "\(what)")
    }
    // Moving the card itself, or a change beside it, keeps its shadow.
    let other = Layer()
    other.frame = Rect(x: 0, y: 60, width: 5, height: 5)
    other.backgroundColor = .white
    compositor.context.resetStatistics()
    card.frame.origin.y += 3
    other.backgroundColor = .black
    _ = try render([card, other], width: 90, height: 70, compositor: compositor)
    #expect(compositor.context.statistics.blurs == 0)
  }

  /// A kept shadow leaves out what lies under the opaque cards that cast it, two pixels in from
  /// their edges. Wherever the row then sits within a pixel (the kept blur is reused, moved by
  /// whole pixels), the frame equals one of the same history whose cards are a shade short of
  /// opaque, under which nothing is left out.
  @Test func whatAShadowLeavesOutUnderItsCardsNeverShows() throws {
    func row(cardAlpha: Double, y: Double) -> Layer {
      let row = Layer()
      row.frame = Rect(x: 8, y: y, width: 104, height: 40)
      row.shadowOpacity = 0.8
      row.shadowRadius = 3
      row.shadowOffset = Size(width: 1, height: 3)
      for i in 0..<2 {
        let card = Layer()
        card.frame = Rect(x: Double(i) * 54, y: 0, width: 50, height: 40)
        card.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: cardAlpha)
        card.cornerRadius = 6
        row.addSublayer(card)
      }
      // An ellipse between the cards: the row's alpha is not made of rounded rectangles, so its
      // shadow is blurred and kept.
      let dot = ShapeLayer()
      dot.frame = Rect(x: 50, y: 16, width: 4, height: 8)
      dot.path = Path(ellipseIn: dot.bounds)
      dot.fillColor = Color(red: 1, green: 1, blue: 1, alpha: cardAlpha)
      row.addSublayer(dot)
      return row
    }
    let kept = Compositor()
    let keptReference = Compositor()
    let opaque = row(cardAlpha: 1, y: 10)
    let shade = row(cardAlpha: 254.0 / 255, y: 10)
    for y in stride(from: 10.0, through: 13, by: 0.25) {
      opaque.frame.origin.y = y
      shade.frame.origin.y = y
      let cut = try render([opaque], width: 130, height: 70, compositor: kept)
      let reference = try render([shade], width: 130, height: 70, compositor: keptReference)
      #expect(ReferenceImage.largestChannelDifference(cut, reference) <= 2, "row at y = \(y)")
    }
    #expect(kept.context.statistics.blurs <= 2)
    // The shadow's offset moves, near and far: the kept blur (made in the row's own coordinates,
    // Compositor+LocalShadow.swift) is placed anew, nothing is blurred again, and nothing left
    // out shows.
    for (dy, blurs) in [(5.0, 0), (7.0, 0), (1.0, 0), (12.0, 0), (9.0, 0), (-3.0, 0), (2.5, 0)] {
      kept.context.resetStatistics()
      opaque.shadowOffset = Size(width: 1, height: dy)
      shade.shadowOffset = Size(width: 1, height: dy)
      let cut = try render([opaque], width: 130, height: 70, compositor: kept)
      let reference = try render([shade], width: 130, height: 70, compositor: keptReference)
      #expect(ReferenceImage.largestChannelDifference(cut, reference) <= 2, "shadow offset \(dy)")
      #expect(kept.context.statistics.blurs == blurs, "shadow offset \(dy)")
    }
  }

  @Test func hitTestingHonoursTransformsClipsAndHidden() {
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 200, height: 200)
    let card = Layer()
    card.frame = Rect(x: 20, y: 20, width: 100, height: 100)
    card.cornerRadius = 30
    card.masksToBounds = true
    root.addSublayer(card)
    let child = Layer()
    child.frame = Rect(x: 50, y: 50, width: 100, height: 100)
    card.addSublayer(child)
    #expect(root.hitTest(Point(x: 100, y: 100)) === child)
    #expect(root.hitTest(Point(x: 40, y: 40)) === card)
    // Inside the frame's corner square but outside the rounded corner: misses the card.
    #expect(root.hitTest(Point(x: 22, y: 22)) === root)
    // The child beyond the card's clip is not hit.
    #expect(root.hitTest(Point(x: 140, y: 140)) === root)
    child.isHidden = true
    #expect(root.hitTest(Point(x: 100, y: 100)) === card)
    card.transform = LayerTransform(translationX: 100, translationY: 0)
    #expect(root.hitTest(Point(x: 50, y: 70)) === root)
    #expect(root.hitTest(Point(x: 150, y: 70)) === card)
  }

  /// A background under an opaque sublayer that covers it is not drawn; under a soft clip
  /// (rounded corners) it still is, since it shows through the partly covered edge pixels.
  @Test func backgroundUnderAnOpaqueSublayer() throws {
    for rounded in [false, true] {
      let parent = Layer()
      parent.frame = Rect(x: 4, y: 3, width: 40, height: 30)
      parent.backgroundColor = .testRed
      parent.cornerRadius = rounded ? 8 : 0
      parent.masksToBounds = true
      let cover = Layer()
      cover.frame = parent.bounds
      cover.backgroundColor = .testBlue
      parent.addSublayer(cover)
      let got = try render([parent], width: 48, height: 40)
      // The same drawing done by hand: clip, background, then the cover.
      let expected = try Surface(width: 48, height: 40)
      let c = Canvas(surface: expected)
      c.clear(.white)
      c.transform = Transform(translationX: 4, y: 3)
      let shape = Path(roundedRect: Rect(x: 0, y: 0, width: 40, height: 30), cornerRadius: rounded ? 8 : 0)
      c.clip(to: shape)
      c.fill(shape, paint: .solid(.testRed))
      c.fill(Rect(x: 0, y: 0, width: 40, height: 30), paint: .solid(.testBlue))
      #expect(ReferenceImage.largestChannelDifference(got, expected) <= 1, "rounded: \(rounded)")
      if rounded {
        // An edge pixel of the rounded corner mixes red in: green falls below the white-and-blue
        // mix it would be without the background.
        #expect(rgba(got[6, 5]).g < 200 && rgba(got[6, 5]).r > 0)
      }
    }
  }
}
