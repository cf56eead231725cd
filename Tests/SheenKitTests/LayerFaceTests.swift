import Foundation
import SheenLayers
import Testing

@testable import SheenKit

private final class TaggedShapeLayer: CAShapeLayer {
  var note = ""
}

@Suite struct LayerFaceTests {
  @Test func insertedFacesComeBackFromSublayers() throws {
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 60))
    view.backgroundColor = .white
    // Seed 000: a shape layer made and inserted inside a function, not kept anywhere else.
    func addShadowLayer() {
      let shadowLayer = TaggedShapeLayer()
      shadowLayer.note = "kept"
      view.layer.cornerRadius = 20
      shadowLayer.path = UIBezierPath(roundedRect: view.bounds, cornerRadius: view.layer.cornerRadius).cgPath
      shadowLayer.shadowPath = shadowLayer.path
      shadowLayer.fillColor = view.backgroundColor?.cgColor
      shadowLayer.shadowColor = UIColor.darkGray.cgColor
      shadowLayer.shadowOffset = CGSize(width: 2.0, height: 2.0)
      shadowLayer.shadowOpacity = 0.4
      shadowLayer.shadowRadius = 5.0
      view.layer.insertSublayer(shadowLayer, at: 0)
    }
    addShadowLayer()
    let first = try #require(view.layer.sublayers?.first as? TaggedShapeLayer)
    #expect(first.note == "kept")
    #expect(first === view.layer.sublayers?.first)
    #expect(first.superlayer === view.layer)
    let shape = try #require(first.sheenLayer as? ShapeLayer)
    #expect(shape.shadowOffset == .init(width: 2, height: 2))
    #expect(shape.shadowOpacity == Double(Float(0.4)))
    #expect(shape.fillColor == .white)
    #expect(shape.shadowPath == shape.path)
    // The real layer's properties are the face's.
    #expect(view.layer.sheenLayer.cornerRadius == 20)
    view.layer.cornerRadius = 7
    #expect(view.layer.sheenLayer.cornerRadius == 7)
    view.layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
    #expect(view.layer.sheenLayer.maskedCorners == [.topLeft, .bottomRight])
    view.clipsToBounds = true
    #expect(view.layer.masksToBounds && view.layer.sheenLayer.masksToBounds)
  }

  @Test func subviewLayersAndInsertionOrder() {
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
    let a = UIView()
    let b = UIView()
    view.addSubview(a)
    view.addSubview(b)
    let g = CAGradientLayer()
    view.layer.insertSublayer(g, below: b.layer)
    #expect(
      view.layer.sublayers!.map { ObjectIdentifier($0) }
        == [a.layer, g, b.layer].map { ObjectIdentifier($0) })
    let c = UIView()
    view.insertSubview(c, at: 0)
    #expect(view.layer.sublayers!.first === c.layer)
    #expect(view.subviews.map { ObjectIdentifier($0) } == [c, a, b].map { ObjectIdentifier($0) })
  }

  @Test func gradientTextAndMaskFaces() throws {
    let g = CAGradientLayer()
    g.frame = CGRect(x: 0, y: 0, width: 80, height: 30)
    g.colors = [UIColor.red.cgColor, UIColor.blue.cgColor]
    g.locations = [0, 1]
    g.startPoint = CGPoint(x: 0, y: 0.5)
    let m = CAShapeLayer()
    m.lineWidth = 1
    m.path = UIBezierPath(roundedRect: g.bounds, cornerRadius: 4).cgPath
    m.fillColor = UIColor.clear.cgColor
    m.strokeColor = UIColor.black.cgColor
    g.mask = m
    let real = try #require(g.sheenLayer as? GradientLayer)
    #expect(real.colors == [.init(red: 1, green: 0, blue: 0), .init(red: 0, green: 0, blue: 1)])
    #expect(real.locations == [0, 1] && real.startPoint == .init(x: 0, y: 0.5))
    #expect(g.mask === m && real.mask === m.sheenLayer)
    let t = CATextLayer()
    t.string = "Hi"
    t.fontSize = 12
    t.alignmentMode = .center
    let text = try #require(t.sheenLayer as? TextLayer)
    #expect(text.string == "Hi" && text.fontSize == 12 && text.alignmentMode == .center)
  }

  @Test func facesAreReleasedWithTheirView() {
    weak var face: CALayer?
    weak var real: Layer?
    do {
      let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
      let s = CAShapeLayer()
      view.layer.addSublayer(s)
      face = s
      real = s.sheenLayer
      #expect(face != nil)
    }
    #expect(face == nil && real == nil)
  }

  @Test func colorsPathsAndTransforms() {
    #expect(UIColor(hue: 0, saturation: 1, brightness: 1, alpha: 1) == .red)
    #expect(UIColor(hue: 2.0 / 3.0, saturation: 1, brightness: 1, alpha: 1) == .blue)
    #expect(UIColor.darkGray.cgColor.color.red == 1.0 / 3.0)
    #expect(UIColor.white.withAlphaComponent(0.5).cgColor.alpha == 0.5)
    let p = UIBezierPath(
      roundedRect: CGRect(x: 0, y: 0, width: 40, height: 20), byRoundingCorners: [.topLeft],
      cornerRadii: CGSize(width: 8, height: 8))
    #expect(p.cgPath.boundingBox == CGRect(x: 0, y: 0, width: 40, height: 20))
    let t = CGAffineTransform(scaleX: 0.95, y: 0.95).rotated(by: 0.3).translatedBy(x: 4, y: 5)
    let back = CGAffineTransform(t.layerTransform)
    for (x, y) in [
      (back.a, t.a), (back.b, t.b), (back.c, t.c), (back.d, t.d), (back.tx, t.tx), (back.ty, t.ty),
    ] {
      #expect(abs(x - y) < 1e-12)
    }
    #expect(UIFont.systemFont(ofSize: 12, weight: .bold).isBold)
    #expect(!UIFont.systemFont(ofSize: 12, weight: .medium).isBold)
  }

  @Test func renderPNGDrawsTheTree() throws {
    let v = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
    v.backgroundColor = .red
    let img = try v.renderImage(scale: 2)
    #expect(img.width == 40 && img.height == 40)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sheenkit-\(UUID()).png").path
    try v.renderPNG(to: path, scale: 1)
    #expect(FileManager.default.fileExists(atPath: path))
    try? FileManager.default.removeItem(atPath: path)
    #expect(img[20, 20] == 0xFFFF_0000)
  }
}
