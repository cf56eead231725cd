import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// Shadows of layers whose alpha is a rounded rectangle only because of a clip or a mask (as
/// SwiftUI-shaped views build them: a card's white fill is a sublayer of the clipping view, a
/// button's border is a gradient seen through a stroke): worked out per pixel, with nothing
/// blurred while what they hold animates.
@Suite struct ClippedAlphaShadowTests {
  /// A clear card clipped to radius `radius`, its opaque fill a sublayer, with a label and a
  /// button of its own shadow inside.
  func card(_ frame: Rect, radius: Double) -> (card: Layer, button: Layer) {
    let card = Layer()
    card.frame = frame
    card.cornerRadius = radius
    card.masksToBounds = true
    let fill = Layer()
    fill.frame = card.bounds
    fill.backgroundColor = .white
    card.addSublayer(fill)
    let label = ShapeLayer()
    label.frame = Rect(x: 6, y: 6, width: 20, height: 10)
    label.path = Path(ellipseIn: label.bounds)
    label.fillColor = .testBlue
    card.addSublayer(label)
    let button = Layer()
    button.frame = Rect(x: 10, y: frame.height - 26, width: 40, height: 20)
    button.shadowOpacity = 0.2
    button.shadowRadius = 1
    button.shadowOffset = Size(width: 0, height: 0.5)
    button.backgroundColor = .testRed
    card.addSublayer(button)
    return (card, button)
  }

  /// A row's shadow of clear clipped cards is the sum of the cards' rounded rectangles, however
  /// the buttons inside them animate.
  @Test func aClippedCardIsItsRoundedBounds() throws {
    let row = Layer()
    row.frame = Rect(x: 10.5, y: 8.25, width: 130, height: 60)
    row.shadowOpacity = 1
    row.shadowRadius = 4
    row.shadowOffset = Size(width: 0, height: 2)
    var buttons: [Layer] = []
    for i in 0..<2 {
      let (c, b) = card(Rect(x: Double(i) * 70, y: 0, width: 60, height: 60), radius: 10)
      row.addSublayer(c)
      buttons.append(b)
    }
    let kept = Compositor()
    var s = try render([row], width: 160, height: 90, background: .clear, compositor: kept)
    #expect(row.alphaShapes?.count == 2)
    #expect(row.alphaShapes?.allSatisfy { $0.radii == CornerRadii(all: 10) && $0.weight == 1 } == true)
    for f in 0..<8 {
      let t = Double(f) / 7
      buttons[0].transform = LayerTransform(scale: 1 - 0.05 * t)
      buttons[0].shadowRadius = 1 - 0.5 * t
      s = try render([row], width: 160, height: 90, background: .clear, compositor: kept)
      let fresh = try render([row], width: 160, height: 90, background: .clear)
      #expect(s.pixels == fresh.pixels, "frame \(f)")
    }
    #expect(kept.context.statistics.blurs == 0)
    // Below the cards and between them, the Gaussian of the two rounded rectangles.
    for (x, y) in [(30, 70), (75, 40), (80, 72), (120, 75), (65, 5)] {
      var want = 0.0
      for i in 0..<2 {
        let r = Rect(x: 10.5 + Double(i) * 70, y: 10.25, width: 60, height: 60)
        want += AnalyticShadowTests.reference(Double(x) + 0.5, Double(y) + 0.5, rect: r, r: 10, sigma: 4)
      }
      let got = Double(Pixel.alpha(s[x, y]))
      #expect(abs(got - 255 * min(1, want)) <= 3, "(\(x), \(y)): \(got) for \(255 * want)")
    }
  }

  /// A button drawn as SheenUI draws `.background(gradient.cornerRadius(4))` with an
  /// `.overlay(RoundedRectangle(cornerRadius: 4).strokeBorder(gradient, lineWidth: 0.5))`: a
  /// clipping view holding the gradient, a label, and a border gradient half a line larger seen
  /// through a stroked rounded rectangle. Its alpha is the rounded rectangle.
  func button(_ frame: Rect, borderWidth: Double, inset: Bool) -> Layer {
    let button = Layer()
    button.frame = frame
    button.shadowOpacity = 1
    button.shadowRadius = 1.5
    button.shadowOffset = Size(width: 0, height: 0.5)
    let clip = Layer()
    clip.frame = button.bounds
    clip.cornerRadius = 4
    clip.masksToBounds = true
    let fill = GradientLayer()
    fill.frame = clip.bounds
    fill.colors = [.testBlue, .testRed]
    clip.addSublayer(fill)
    button.addSublayer(clip)
    let label = ShapeLayer()
    label.frame = Rect(x: 14, y: 6, width: frame.width - 28, height: frame.height - 12)
    label.path = Path(ellipseIn: label.bounds)
    label.fillColor = .white
    button.addSublayer(label)
    let h = borderWidth / 2
    let border = GradientLayer()
    border.frame = button.bounds.insetBy(dx: -h, dy: -h)
    border.colors = [.testRed, .testBlue]
    let stroke = ShapeLayer()
    stroke.frame = Rect(x: h, y: h, width: frame.width, height: frame.height)
    let d = inset ? h : 0
    stroke.path = Path(roundedRect: stroke.bounds.insetBy(dx: d, dy: d), cornerRadius: 4 - d)
    stroke.fillColor = nil
    stroke.strokeColor = .black
    stroke.lineWidth = borderWidth
    border.mask = stroke
    button.addSublayer(border)
    return button
  }

  @Test func aButtonUnderItsBorderIsItsRoundedRectangle() throws {
    let b = button(Rect(x: 8.25, y: 6.5, width: 60, height: 28), borderWidth: 0.5, inset: true)
    let kept = Compositor()
    let s = try render([b], width: 80, height: 44, background: .clear, compositor: kept)
    #expect(b.alphaShapes == [ShadowShape(rect: b.bounds, radii: CornerRadii(all: 4))])
    #expect(kept.context.statistics.blurs == 0)
    // The shadow around the button: the Gaussian of its rounded rectangle.
    let shape = Rect(x: 8.25, y: 7, width: 60, height: 28)
    for (x, y) in [(4, 20), (70, 20), (30, 36), (30, 37), (7, 36), (69, 5)] {
      let want =
        255 * AnalyticShadowTests.reference(Double(x) + 0.5, Double(y) + 0.5, rect: shape, r: 4, sigma: 1.5)
      let got = Double(Pixel.alpha(s[x, y]))
      #expect(abs(got - want) <= 3, "(\(x), \(y)): \(got) for \(want)")
    }
  }

  /// Where the alpha is not a rounded rectangle, it is not taken for one: a border stroked
  /// outside the fill, a clip only partly covered, a mask of unknown reach.
  @Test func otherAlphasAreNotTakenForTheirBounds() throws {
    // The border's stroke reaches a quarter point past the fill.
    let outside = button(Rect(x: 8, y: 6, width: 60, height: 28), borderWidth: 0.5, inset: false)
    // A clipped card whose white fill covers its top half only.
    let half = Layer()
    half.frame = Rect(x: 8, y: 50, width: 60, height: 40)
    half.cornerRadius = 8
    half.masksToBounds = true
    half.shadowOpacity = 1
    half.shadowRadius = 2
    let top = Layer()
    top.frame = Rect(x: 0, y: 0, width: 60, height: 20)
    top.backgroundColor = .white
    half.addSublayer(top)
    let kept = Compositor()
    _ = try render([outside, half], width: 80, height: 100, background: .clear, compositor: kept)
    #expect(outside.alphaShapes == nil)
    // The top half's rectangle is cut by the clip's corners: not a shape of even alpha.
    #expect(half.alphaShapes == nil)
    #expect(kept.context.statistics.blurs == 2)
  }

  /// A stroked rounded rectangle's reach: half the line around it, its arcs grown by as much,
  /// its square corners square.
  @Test func aStrokedRoundedRectangleReachesHalfItsLine() throws {
    let s = ShapeLayer()
    s.frame = Rect(x: 0, y: 0, width: 40, height: 30)
    s.path = Path(
      roundedRect: Rect(x: 5, y: 5, width: 30, height: 20),
      radii: CornerRadii(topLeft: 6, topRight: 0, bottomRight: 3, bottomLeft: 0))
    s.fillColor = nil
    s.strokeColor = .black
    s.lineWidth = 2
    s.resolveAlphaShapes()
    #expect(s.alphaSupport.rect == Rect(x: 4, y: 4, width: 32, height: 22))
    #expect(s.alphaSupport.radii == CornerRadii(topLeft: 7, topRight: 0, bottomRight: 4, bottomLeft: 0))
  }
}
