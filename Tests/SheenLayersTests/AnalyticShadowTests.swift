import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// Shadows of rounded rectangles, worked out per pixel: against the Gaussian integrated here
/// another way, whatever came before, and with nothing blurred while layers animate.
@Suite struct AnalyticShadowTests {
  /// The blur of a rounded rectangle (`rect`, one corner radius `r`) at a pixel centre, by
  /// summing thin rows of the shape, each blurred across by the closed form Φ(b) - Φ(a) and
  /// weighted by the Gaussian down the rows (midpoint rule, 1/20 pixel). The pixel's own area is
  /// the box that √(σ² + 1/12) stands for (within half a level for σ ≥ 0.5).
  static func reference(_ x: Double, _ y: Double, rect: Rect, r: Double, sigma: Double) -> Double {
    let s = (sigma * sigma + 1.0 / 12).squareRoot()
    func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
    let dv = 0.05
    var total = 0.0
    var v = max(rect.minY, y - 6 * s) + dv / 2
    while v < min(rect.maxY, y + 6 * s) {
      // The row's extent: the rectangle, pulled in along the corner arcs.
      var inset = 0.0
      let fromEdge = min(v - rect.minY, rect.maxY - v)
      if fromEdge < r {
        let d = r - fromEdge
        inset = r - (r * r - d * d).squareRoot()
      }
      let a = rect.minX + inset
      let b = rect.maxX - inset
      let g = exp(-0.5 * (y - v) * (y - v) / (s * s)) / (s * (2 * Double.pi).squareRoot())
      total += g * dv * (phi((b - x) / s) - phi((a - x) / s))
      v += dv
    }
    return total
  }

  func shadowLayer(_ frame: Rect, radius: Double, sigma: Double, offset: Size, path: Bool) -> Layer {
    let l = Layer()
    l.frame = frame
    l.cornerRadius = radius
    l.shadowOpacity = 1
    l.shadowRadius = sigma
    l.shadowOffset = offset
    if path {
      l.shadowPath = Path(roundedRect: l.bounds, cornerRadius: radius)
    } else {
      l.backgroundColor = .white
    }
    return l
  }

  /// A black shadow on a clear canvas at fractional positions and offsets, of a `shadowPath`
  /// and of a layer's own alpha, is within 3/255 of the Gaussian (the target is 4), at σ 1 to
  /// 20 (the range; wide blurs checked on a sparser grid of pixels).
  @Test(arguments: [
    (1.0, 0.3, 0.7, 0.5, 0.5), (2.5, 0.55, 0.25, 1.25, 3.75), (6.0, 0.5, 0.5, -2.5, 1.5),
    (12.0, 0.125, 0.875, 0.75, -3.25), (20.0, 0.625, 0.375, -1.5, 6.5),
  ])
  func aRoundedRectShadowIsTheGaussian(
    _ sigma: Double, _ fx: Double, _ fy: Double, _ dx: Double, _ dy: Double
  ) throws {
    for path in [true, false] {
      let frame = Rect(x: 3 * sigma + 6 + fx, y: 3 * sigma + 6 + fy, width: 40.5, height: 27.25)
      let layer = shadowLayer(frame, radius: 9, sigma: sigma, offset: Size(width: dx, height: dy), path: path)
      let w = Int(frame.maxX + 3 * sigma + 8)
      let h = Int(frame.maxY + 3 * sigma + 8)
      let compositor = Compositor()
      let s = try render([layer], width: w, height: h, background: .clear, compositor: compositor)
      #expect(compositor.context.statistics.blurs == 0)
      let shape = frame.offsetBy(dx: dx, dy: dy)
      var worst = 0.0
      let step = sigma < 10 ? 2 : 5
      for y in stride(from: 0, to: h, by: step) {
        for x in stride(from: 0, to: w, by: step) {
          // A body on top hides its own pixels (and the edge pixels it half covers).
          if !path && x >= Int(frame.minX) - 1 && x <= Int(frame.maxX) + 1 && y >= Int(frame.minY) - 1
            && y <= Int(frame.maxY) + 1
          {
            continue
          }
          let want = 255 * Self.reference(Double(x) + 0.5, Double(y) + 0.5, rect: shape, r: 9, sigma: sigma)
          worst = max(worst, abs(Double(Pixel.alpha(s[x, y])) - want))
        }
      }
      #expect(worst <= 3, "sigma \(sigma), shadowPath \(path): \(worst)/255")
    }
  }

  /// The shadows of cards that do not overlap add up: a clear row's shadow is the sum of its
  /// cards' (not their union drawn one over another).
  @Test func aRowsShadowIsTheSumOfItsCards() throws {
    let row = Layer()
    row.frame = Rect(x: 10.25, y: 12.5, width: 100, height: 30)
    row.shadowOpacity = 1
    row.shadowRadius = 4
    row.shadowOffset = Size(width: 0, height: 0)
    for i in 0..<2 {
      let card = Layer()
      card.frame = Rect(x: Double(i) * 54, y: 0, width: 46, height: 30)
      card.backgroundColor = .white
      card.cornerRadius = 6
      card.masksToBounds = true
      let label = Layer()
      label.frame = Rect(x: 0, y: 0, width: 46, height: 10)
      label.backgroundColor = .testBlue
      card.addSublayer(label)
      row.addSublayer(card)
    }
    let compositor = Compositor()
    let s = try render([row], width: 130, height: 60, background: .clear, compositor: compositor)
    #expect(compositor.context.statistics.blurs == 0)
    #expect(row.alphaShapes?.count == 2)
    // Between the cards, where both shadows reach.
    for y in [14, 27, 40] {
      for x in [57, 60, 63] {
        var want = 0.0
        for i in 0..<2 {
          let card = Rect(x: 10.25 + Double(i) * 54, y: 12.5, width: 46, height: 30)
          want += Self.reference(Double(x) + 0.5, Double(y) + 0.5, rect: card, r: 6, sigma: 4)
        }
        let got = Double(Pixel.alpha(s[x, y]))
        #expect(abs(got - 255 * min(1, want)) <= 3, "(\(x), \(y)): \(got) for \(255 * want)")
      }
    }
  }

  /// What a frame shows does not depend on what was drawn before: a card stepped through
  /// quarter pixels and its shadow's offset through eighths, each frame equal to a fresh render.
  @Test func aShadowIsTheSameWhateverCameBefore() throws {
    let kept = Compositor()
    for path in [true, false] {
      let card = shadowLayer(
        Rect(x: 10, y: 10, width: 50, height: 30), radius: 8, sigma: 1, offset: Size(width: 0, height: 2),
        path: path)
      for step in 0..<12 {
        card.frame.origin.x = 10 + Double(step) * 0.25
        card.shadowOffset = Size(width: Double(step % 5) * 0.125, height: 2)
        let drawn = try render([card], width: 80, height: 60, compositor: kept)
        let fresh = try render([card], width: 80, height: 60)
        #expect(drawn.pixels == fresh.pixels, "step \(step), shadowPath \(path)")
      }
    }
    #expect(kept.context.statistics.blurs == 0)
  }

  /// A pressed button (its scale, shadow radius and offset animated) inside a card of a row
  /// with one alpha shadow, and the cards themselves faded, scaled and turned: nothing is
  /// blurred, and every frame equals a fresh render.
  @Test func animatingShadowedLayersBlursNothing() throws {
    let row = Layer()
    row.frame = Rect(x: 10, y: 10, width: 170, height: 70)
    row.shadowOpacity = 0.3
    row.shadowRadius = 6
    row.shadowOffset = Size(width: 0, height: 3)
    var buttons: [Layer] = []
    var cards: [Layer] = []
    for i in 0..<2 {
      let card = Layer()
      card.frame = Rect(x: Double(i) * 90, y: 0, width: 80, height: 70)
      card.backgroundColor = .white
      card.cornerRadius = 12
      card.masksToBounds = true
      let button = Layer()
      button.frame = Rect(x: 20, y: 40, width: 44, height: 20)
      button.shadowOpacity = 0.2
      button.shadowRadius = 1
      button.shadowOffset = Size(width: 0, height: 0.5)
      let fill = GradientLayer()
      fill.frame = button.bounds
      fill.cornerRadius = 4
      fill.colors = [.testBlue, .testRed]
      button.addSublayer(fill)
      card.addSublayer(button)
      row.addSublayer(card)
      buttons.append(button)
      cards.append(card)
    }
    let other = Layer()
    other.frame = Rect(x: 40, y: 100, width: 100, height: 50)
    other.backgroundColor = .white
    other.cornerRadius = 10
    other.shadowOpacity = 0.4
    other.shadowRadius = 5
    other.shadowOffset = Size(width: 0, height: 4)
    let kept = Compositor()
    _ = try render([row, other], width: 200, height: 170, compositor: kept)
    #expect(row.alphaShapes?.count == 2)
    #expect(buttons[0].alphaShapes?.count == 1)
    kept.context.resetStatistics()
    for f in 0..<10 {
      let t = Double(f) / 9
      buttons[0].transform = LayerTransform(scale: 1 - 0.05 * t)
      buttons[0].shadowRadius = 1 - 0.5 * t
      buttons[0].shadowOffset = Size(width: 0, height: 0.5 - 0.25 * t)
      other.opacity = 1 - 0.5 * t
      other.transform = LayerTransform(scaleX: 1 + 0.1 * t, scaleY: 1 + 0.1 * t, rotation: 0.3 * t)
      cards[1].opacity = 1 - 0.3 * t
      let drawn = try render([row, other], width: 200, height: 170, compositor: kept)
      let fresh = try render([row, other], width: 200, height: 170)
      #expect(drawn.pixels == fresh.pixels, "frame \(f)")
    }
    #expect(kept.context.statistics.blurs == 0)
  }

  /// A shape that is not a rounded rectangle, or alpha that is not made of them, still blurs.
  @Test func otherShapesAreBlurred() throws {
    let ellipse = Layer()
    ellipse.frame = Rect(x: 10, y: 10, width: 40, height: 30)
    ellipse.shadowOpacity = 0.5
    ellipse.shadowPath = Path(ellipseIn: ellipse.bounds)
    #expect(Path(ellipseIn: ellipse.bounds).roundedRectGeometry == nil)
    let g = Path(
      roundedRect: Rect(x: 1, y: 2, width: 30, height: 20),
      radii: CornerRadii(
        topLeft: 1, topRight: 2, bottomRight: 3, bottomLeft: 0))
    #expect(
      g.roundedRectGeometry?.radii == CornerRadii(topLeft: 1, topRight: 2, bottomRight: 3, bottomLeft: 0))
    #expect(
      Path(rect: Rect(x: 1, y: 2, width: 3, height: 4)).roundedRectGeometry?.rect
        == Rect(x: 1, y: 2, width: 3, height: 4))
    let overlapping = Layer()
    overlapping.frame = Rect(x: 60, y: 10, width: 60, height: 40)
    overlapping.shadowOpacity = 0.5
    for x in [0.0, 20.0] {
      let c = Layer()
      c.frame = Rect(x: x, y: 0, width: 40, height: 40)
      c.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.5)
      overlapping.addSublayer(c)
    }
    // An image on a clear layer: its alpha is the image's.
    let picture = Layer()
    picture.frame = Rect(x: 10, y: 45, width: 20, height: 20)
    picture.shadowOpacity = 0.5
    picture.contents = try RasterImage(width: 4, height: 4) { c in
      c.fill(Path(ellipseIn: Rect(x: 0, y: 0, width: 4, height: 4)), paint: .solid(.testBlue))
    }
    let compositor = Compositor()
    _ = try render([ellipse, overlapping, picture], width: 140, height: 70, compositor: compositor)
    #expect(overlapping.alphaShapes == nil)
    #expect(picture.alphaShapes == nil)
    #expect(compositor.context.statistics.blurs == 3)
  }
}
