import Foundation
import SheenDemo
import SheenKit
import SheenRaster
import Testing

@testable import SheenLayers

/// A press on a scene the demo does not have: the demo's button on a card turned and scaled by
/// its transform, inside a clear container that casts a shadow of its alpha. Counted, not timed:
/// every frame of the press and the spring back blurs nothing and draws no `draw(_:)` view, the
/// only shapes rasterized are the button's own (background, border, border mask, title, at each
/// scale it passes through), and nothing once it rests. The container's shadow is worked out per
/// pixel (the card's rounded rectangle) or, with a triangle standing out of the card, blurred
/// once and kept: the button scales on the card's opaque background, which the alpha does not
/// see.
@Suite struct TransformedPressTests {
  /// The window, the button, and the container whose shadow is the card's.
  func scene(turn: CGFloat, scale: CGFloat, starred: Bool) -> (UIWindow, PrimaryButton, UIView) {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 420, height: 320))
    window.backgroundColor = UIColor(white: 0.93, alpha: 1)
    let container = UIView(frame: CGRect(x: 60, y: 50, width: 300, height: 200))
    container.layer.shadowColor = UIColor.black.cgColor
    container.layer.shadowOpacity = 0.3
    container.layer.shadowRadius = 6
    container.layer.shadowOffset = CGSize(width: 0, height: 3)
    let card = UIView(frame: container.bounds)
    card.backgroundColor = .white
    card.layer.cornerRadius = 14
    card.transform = CGAffineTransform(rotationAngle: turn).scaledBy(x: scale, y: scale)
    container.addSubview(card)
    let title = UILabel(frame: CGRect(x: 18, y: 16, width: 260, height: 24))
    title.text = "A card the demo does not have"
    card.addSubview(title)
    if starred {
      // A triangle standing out of the card: the container's alpha is no longer rounded
      // rectangles, so its shadow is blurred (once) rather than worked out per pixel.
      let tab = CAShapeLayer()
      tab.frame = CGRect(x: 250, y: -18, width: 36, height: 24)
      let p = UIBezierPath()
      p.move(to: CGPoint(x: 0, y: 24))
      p.addLine(to: CGPoint(x: 18, y: 0))
      p.addLine(to: CGPoint(x: 36, y: 24))
      p.close()
      tab.path = p.cgPath
      tab.fillColor = UIColor.white.cgColor
      card.layer.addSublayer(tab)
    }
    let button = PrimaryButton(hue: 0.35)
    button.setTitle("Open", for: .normal)
    button.frame = CGRect(x: 18, y: 140, width: 120, height: 34)
    card.addSubview(button)
    window.addSubview(container)
    return (window, button, container)
  }

  @Test(arguments: [(0.0, 1.0, false), (0.2, 1.1, false), (-0.35, 0.8, false), (0.2, 1.1, true)])
  func aPressCostsOnlyTheButtonsShapes(turn: Double, scale: Double, starred: Bool) throws {
    let (window, button, container) = scene(turn: CGFloat(turn), scale: CGFloat(scale), starred: starred)
    let surface = try Surface(width: 420, height: 320)
    let context = window.renderer.context
    window.renderFrame(into: surface, time: 0)
    window.renderFrame(into: surface, time: 1.0 / 60)
    // The container's shadow is the card's rounded rectangle (worked out per pixel), unless the
    // triangle stands out of it (then blurred).
    #expect((container.layer.sheenLayer.alphaShapes == nil) == starred)
    let center = button.convert(CGPoint(x: button.bounds.midX, y: button.bounds.midY), to: nil)
    var shapes: [Int] = []
    var scales: [Double] = []
    for n in 2..<60 {
      let time = Double(n) / 60
      if n == 3 {
        window.dispatch(
          .pointerDown(Point(x: center.x, y: center.y), button: .left, modifiers: []), time: time)
      }
      if n == 15 {
        window.dispatch(.pointerUp(Point(x: center.x, y: center.y), button: .left, modifiers: []), time: time)
      }
      context.resetStatistics()
      let draws = window.displayCount
      window.renderFrame(into: surface, time: time)
      let s = context.statistics
      #expect(s.blurs == 0, "turn \(turn), scale \(scale), triangle \(starred), frame \(n): \(s.blurs) blurs")
      #expect(window.displayCount == draws, "frame \(n): a draw(_:) view drew")
      #expect(s.imageResamples == 0, "frame \(n): \(s.imageResamples) image resamples")
      shapes.append(s.shapeRasterizations)
      scales.append(button.layer.sheenLayer.transform.scaleX)
    }
    #expect((scales.min() ?? 1) < 0.97, "the button never shrank: \(scales)")
    #expect(abs((scales.last ?? 0) - 1) < 1e-3, "not settled: \(scales)")
    // One shape at most per layer of the button (its background, its border's gradient and
    // stroked mask, its title), not the card's, the label's or the container's.
    #expect((shapes.max() ?? 0) <= 5, "shapes per frame \(shapes)")
    #expect(shapes.suffix(3).allSatisfy { $0 == 0 }, "\(shapes)")
  }
}
