import SheenLayers
import SheenRaster
import Testing

@testable import SheenKit

/// Seed 000: `makeRoundedAndShadowed(view:)` (the clipped version and the shadow-layer fix) and
/// `OurCustomView` with its `ShadowableRoundableView` protocol, as the article wrote them.
@Suite struct Seed000Tests {
  /// Two blue buttons on a white page: the clipped version above, the article's end result below.
  func makeButtons() -> (page: UIView, clipped: UIView, fixed: UIView) {
    let root = page(200, 140, .white)
    let clipped = UIView(frame: CGRect(x: 20, y: 20, width: 160, height: 44))
    clipped.backgroundColor = .systemBlue
    ClippedVersion().makeRoundedAndShadowed(view: clipped)
    let fixed = UIView(frame: CGRect(x: 20, y: 80, width: 160, height: 44))
    fixed.backgroundColor = .systemBlue
    makeRoundedAndShadowed(view: fixed)
    root.addSubview(clipped)
    root.addSubview(fixed)
    return (root, clipped, fixed)
  }

  /// The layer tree the two functions build, written as a scene file.
  static let scene = """
    { "width": 200, "height": 140, "scale": 2, "background": "#FFFFFF",
      "layers": [
        { "frame": [20, 20, 160, 44], "backgroundColor": "#007AFF", "cornerRadius": 20,
          "masksToBounds": true, "shadowColor": "#555555", "shadowOffset": [2, 2],
          "shadowOpacity": 0.4, "shadowRadius": 5 },
        { "frame": [20, 80, 160, 44], "backgroundColor": "#007AFF", "cornerRadius": 20,
          "sublayers": [
            { "type": "shape", "frame": [0, 0, 0, 0],
              "path": { "roundedRect": [0, 0, 160, 44], "cornerRadius": 20 }, "fillColor": "#007AFF",
              "shadowPath": { "roundedRect": [0, 0, 160, 44], "cornerRadius": 20 },
              "shadowColor": "#555555", "shadowOffset": [2, 2], "shadowOpacity": 0.4, "shadowRadius": 5 }
          ] }
      ] }
    """

  @Test func clippedVersionHasNoShadowAndTheFixHasOne() throws {
    let (root, clipped, fixed) = makeButtons()
    let s = try SeedPicture.render(root, name: "seed000-rounded-and-shadowed")
    try SeedPicture.expectSame(s, asScene: Self.scene, "seed000")
    // The clipped version: every property is set, yet masksToBounds cuts the whole shadow. Not
    // one pixel outside its frame (20, 20, 160, 44) differs from the white page (down to y = 66,
    // where the second view's shadow, an exact Gaussian, reaches a level).
    #expect(clipped.layer.shadowOpacity == 0.4 && clipped.layer.masksToBounds)
    var shadowPixels = 0
    for y in stride(from: 0.25, to: 66, by: 0.5) {
      for x in stride(from: 0.25, to: 200, by: 0.5) where !(x > 20 && x < 180 && y > 20 && y < 64) {
        if at(s, x, y) != 0xFFFF_FFFF { shadowPixels += 1 }
      }
    }
    #expect(shadowPixels == 0)
    // Its corners are round: the corner pixel is the page's white.
    #expect(at(s, 20.25, 20.25) == 0xFFFF_FFFF)
    // The fix: the shape layer at index 0 casts the shadow below and to the right.
    let shadowLayer = try #require(fixed.layer.sublayers?.first as? CAShapeLayer)
    #expect(fixed.layer.sublayers?.count == 1)
    #expect(shadowLayer.shadowPath == shadowLayer.path)
    #expect(shadowLayer.path?.boundingBox == fixed.bounds)
    #expect(shadowLayer.fillColor == UIColor.systemBlue.cgColor)
    #expect(luminance(at(s, 100, 126)) < 235)
    #expect(luminance(at(s, 182, 104)) < 245)
    // The shadow is offset (2, 2): darker below than above the same edge.
    #expect(luminance(at(s, 100, 126)) < luminance(at(s, 100, 78)) - 10)
    // The fix's corners are round too.
    #expect(Pixel.blue(at(s, 20.25, 80.25)) < 200 || Pixel.red(at(s, 20.25, 80.25)) > 200)
  }

  /// The article's intermediate fix (no shadowPath) draws the same picture: the shadow of a
  /// shape layer without a shadowPath follows its path.
  @Test func shadowPathChangesNothingVisible() throws {
    let (root, _, fixed) = makeButtons()
    let withPath = try root.renderImage(scale: 2)
    fixed.layer.sublayers?.first?.removeFromSuperlayer()
    ShadowLayerVersion().makeRoundedAndShadowed(view: fixed)
    #expect((fixed.layer.sublayers?.first as? CAShapeLayer)?.shadowPath == nil)
    let withoutPath = try root.renderImage(scale: 2)
    #expect(SeedPicture.differing(withPath, withoutPath) <= SeedPicture.maxDiffering)
  }

  /// `OurCustomView`: every inspectable property re-lays out the view, and the next frame shows
  /// the change; the shadow layer is made once, lazily, at index 0.
  @Test func customViewLaysOutAgainWhenAPropertyChanges() throws {
    let root = page(200, 90, .white)
    let view = OurCustomView(frame: CGRect(x: 20, y: 20, width: 160, height: 44))
    view.backgroundColor = .systemTeal
    root.addSubview(view)
    view.cornerRadius = 22
    #expect(view.needsLayout)
    let s = try SeedPicture.render(root, name: "seed000-our-custom-view")
    #expect(!view.needsLayout)
    #expect(view.layer.sublayers?.count == 1)
    #expect(view.layer.sublayers?.first === view.shadowLayer)
    #expect(view.layer.cornerRadius == 22)
    #expect(view.shadowLayer.shadowOffset == CGSize(width: 3, height: 3))
    #expect(view.shadowLayer.shadowRadius == 4)
    #expect(view.shadowLayer.shadowOpacity == 0.4)
    #expect(view.shadowLayer.fillColor == UIColor.systemTeal.cgColor)
    #expect(view.shadowLayer.shadowPath?.boundingBox == view.bounds)
    // A fully rounded pill: the corners of the frame show the page, the shadow falls below.
    #expect(at(s, 20.25, 20.25) == 0xFFFF_FFFF)
    #expect(luminance(at(s, 100, 66)) < 240)

    // Each property asks for layout; the next render applies it.
    let changes: [(String, () -> Void)] = [
      ("cornerRadius", { view.cornerRadius = 8 }),
      ("shadowColor", { view.shadowColor = .systemRed }),
      ("shadowOffsetWidth", { view.shadowOffsetWidth = 0 }),
      ("shadowOffsetHeight", { view.shadowOffsetHeight = 8 }),
      ("shadowOpacity", { view.shadowOpacity = 0.8 }),
      ("shadowRadius", { view.shadowRadius = 2 }),
    ]
    for (name, change) in changes {
      change()
      #expect(view.needsLayout, "\(name) did not ask for layout")
      view.layoutIfNeeded()
    }
    #expect(view.layer.cornerRadius == 8)
    #expect(view.shadowLayer.shadowColor == UIColor.systemRed.cgColor)
    #expect(view.shadowLayer.shadowOffset == CGSize(width: 0, height: 8))
    #expect(view.shadowLayer.shadowOpacity == 0.8)
    #expect(view.shadowLayer.shadowRadius == 2)
    #expect(view.layer.sublayers?.count == 1)
    let after = try root.renderImage(scale: 2)
    // Radius 8 leaves the frame's corner pixel teal now, and the red shadow sits 8 points down.
    #expect(Pixel.green(at(after, 20.75, 20.75)) > 100)
    let below = at(after, 100, 70)
    #expect(Pixel.red(below) > Pixel.green(below) + 40)

    // A new size re-lays out too: the path follows the bounds.
    view.frame = CGRect(x: 20, y: 10, width: 120, height: 60)
    #expect(view.needsLayout)
    view.layoutIfNeeded()
    #expect(view.shadowLayer.path?.boundingBox == CGRect(x: 0, y: 0, width: 120, height: 60))
  }
}
