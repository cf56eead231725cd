import Foundation
import SheenRaster
import Testing

@testable import SheenKit

/// Bad input to custom drawing: unbalanced state, degenerate paths, NaN anywhere, unusable
/// renderer sizes. Nothing crashes, and each case draws what UIKit and Core Graphics draw.
@Suite struct DrawingBadInputTests {
  static let size = CGSize(width: 40, height: 30)

  static func render(scale: CGFloat = 1, _ body: (CGContext) -> Void) -> Surface {
    let f = UIGraphicsImageRendererFormat()
    f.scale = scale
    return UIGraphicsImageRenderer(size: size, format: f).image { body($0.cgContext) }.cgImage!.surface
  }

  static func same(_ a: Surface, _ b: Surface) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height { for x in 0..<a.width where a[x, y] != b[x, y] { return false } }
    return true
  }

  static func inked(_ s: Surface) -> Int {
    var n = 0
    for y in 0..<s.height { for x in 0..<s.width where s[x, y] >> 24 != 0 { n += 1 } }
    return n
  }

  /// A drawing, call by call, that uses the state a bad call would spoil: the CTM, a path, the
  /// pen, a dash, the alpha, a shadow, a clip.
  static let drawing: [@Sendable (CGContext) -> Void] = [
    { $0.translateBy(x: 2, y: 1) },
    { $0.setFillColor(UIColor.red.cgColor) },
    { $0.move(to: CGPoint(x: 2, y: 2)) },
    { $0.addLine(to: CGPoint(x: 20, y: 2)) },
    { $0.addQuadCurve(to: CGPoint(x: 20, y: 14), control: CGPoint(x: 26, y: 8)) },
    {
      $0.addCurve(to: CGPoint(x: 2, y: 14), control1: CGPoint(x: 14, y: 18), control2: CGPoint(x: 8, y: 10))
    },
    { $0.closePath() },
    { $0.fillPath() },
    { $0.setStrokeColor(UIColor.blue.cgColor) },
    { $0.setLineWidth(3) },
    { $0.setLineDash(phase: 1, lengths: [4, 2]) },
    { $0.stroke(CGRect(x: 4, y: 18, width: 30, height: 8)) },
    { $0.setAlpha(0.6) },
    { $0.setShadow(offset: CGSize(width: 1, height: 1), blur: 2, color: UIColor.black.cgColor) },
    { $0.fillEllipse(in: CGRect(x: 24, y: 4, width: 10, height: 10)) },
    { $0.clip(to: CGRect(x: 0, y: 0, width: 36, height: 20)) },
    { $0.addArc(center: CGPoint(x: 30, y: 20), radius: 6, startAngle: 0, endAngle: 3, clockwise: false) },
    { $0.strokePath() },
  ]

  /// Every call given NaN is ignored: inserted anywhere in the drawing, it changes no pixel (as
  /// Core Graphics, which logs "invalid numeric value (NaN)" and ignores the value).
  @Test(arguments: Array(0..<24)) func nanIsIgnored(_ which: Int) {
    let n = CGFloat.nan
    let p = CGPoint(x: n, y: 3)
    let r = CGRect(x: 1, y: n, width: 4, height: 4)
    let calls: [(CGContext) -> Void] = [
      { $0.translateBy(x: n, y: 0) },
      { $0.scaleBy(x: 1, y: n) },
      { $0.rotate(by: n) },
      { $0.concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: n, ty: 0)) },
      { $0.move(to: p) },
      { $0.addLine(to: p) },
      { $0.addCurve(to: .zero, control1: p, control2: .zero) },
      { $0.addQuadCurve(to: p, control: .zero) },
      { $0.addArc(center: .zero, radius: n, startAngle: 0, endAngle: 1, clockwise: true) },
      { $0.addArc(tangent1End: p, tangent2End: .zero, radius: 2) },
      { $0.addRect(r) },
      { $0.addEllipse(in: r) },
      { $0.setLineWidth(n) },
      { $0.setMiterLimit(n) },
      { $0.setLineDash(phase: n, lengths: [1, 2]) },
      { $0.setLineDash(phase: 0, lengths: [1, n]) },
      { $0.setAlpha(n) },
      { $0.setShadow(offset: CGSize(width: n, height: 0), blur: 1, color: UIColor.green.cgColor) },
      { $0.setFillColor(red: n, green: 0, blue: 0, alpha: 1) },
      { $0.setStrokeColor(CGColor(red: 0, green: n, blue: 0, alpha: 1)) },
      { $0.fill(r) },
      { $0.stroke(r) },
      { $0.clip(to: r) },
      { $0.clear(r) },
    ]
    let clean = Self.render { c in for step in Self.drawing { step(c) } }
    #expect(Self.inked(clean) > 300)
    // Before the drawing, with the path half built, with the pen set, before the last stroke.
    for at in [0, 4, 11, 17] {
      let spoiled = Self.render { c in
        for (i, step) in Self.drawing.enumerated() {
          if i == at { calls[which](c) }
          step(c)
        }
      }
      #expect(Self.same(clean, spoiled), "call \(which) before step \(at) changed the drawing")
    }
  }

  /// Gradients, images and transparency layers given NaN draw nothing and keep the state.
  @Test func nanGradientsImagesAndLayers() throws {
    let n = CGFloat.nan
    let g = try #require(
      CGGradient(colorsSpace: nil, colors: [UIColor.red.cgColor, UIColor.blue.cgColor], locations: nil))
    let image = try #require(
      UIGraphicsImageRenderer(size: CGSize(width: 4, height: 4)).image { _ in }.cgImage)
    let s = Self.render { c in
      c.drawLinearGradient(g, start: CGPoint(x: n, y: 0), end: CGPoint(x: 10, y: 0), options: [])
      c.drawRadialGradient(
        g, startCenter: .zero, startRadius: 0, endCenter: CGPoint(x: 5, y: 5), endRadius: n, options: [])
      c.draw(image, in: CGRect(x: 0, y: 0, width: n, height: 4))
      c.clip(to: CGRect(x: n, y: 0, width: 4, height: 4), mask: image)
      c.beginTransparencyLayer(in: CGRect(x: 0, y: 0, width: n, height: 4), auxiliaryInfo: nil)
      c.setFillColor(UIColor.red.cgColor)
      c.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
      c.endTransparencyLayer()
      c.fill(CGRect(x: 20, y: 0, width: 10, height: 10))  // the layer kept red to itself: black
    }
    #expect(Self.inked(s) == 200 && s[5, 5] == 0xFFFF_0000 && s[25, 5] == 0xFF00_0000)
  }

  /// More restores than saves, and ends of transparency layers that were never begun, are
  /// ignored: the state in effect stays (Core Graphics logs and ignores them too).
  @Test func moreRestoresThanSaves() {
    let s = Self.render { c in
      c.setFillColor(UIColor.red.cgColor)
      for _ in 0..<5 { c.restoreGState() }
      c.endTransparencyLayer()
      c.fill(CGRect(x: 0, y: 0, width: 10, height: 10))  // still red
      c.saveGState()
      c.setFillColor(UIColor.blue.cgColor)
      c.translateBy(x: 10, y: 0)
      c.restoreGState()
      c.restoreGState()  // one too many
      c.fill(CGRect(x: 0, y: 10, width: 10, height: 10))  // red, not moved
      // Inside a transparency layer, restores cannot pop the state from before it.
      c.beginTransparencyLayer(auxiliaryInfo: nil)
      c.restoreGState()
      c.restoreGState()
      c.setFillColor(UIColor.green.cgColor)
      c.fill(CGRect(x: 20, y: 0, width: 10, height: 10))
      c.endTransparencyLayer()
      c.endTransparencyLayer()
      c.fill(CGRect(x: 20, y: 10, width: 10, height: 10))  // the layer kept its colour change to itself
      c.saveGState()  // left open: the renderer ends the drawing anyway
      c.beginTransparencyLayer(auxiliaryInfo: nil)
    }
    #expect(s[5, 5] == 0xFFFF_0000 && s[5, 15] == 0xFFFF_0000 && s[15, 5] == 0)
    #expect(s[25, 5] == 0xFF00_FF00 && s[25, 15] == 0xFFFF_0000)
    // A view whose draw(_:) restores more than it saves leaves the next draw unharmed.
    final class Unbalanced: UIView {
      override func draw(_ rect: CGRect) {
        let c = UIGraphicsGetCurrentContext()!
        c.restoreGState()
        c.restoreGState()
        UIColor.red.setFill()
        UIRectFill(bounds)
      }
    }
    let v = Unbalanced(frame: CGRect(x: 0, y: 0, width: 8, height: 8))
    let a = UIGraphicsImageRenderer(size: CGSize(width: 8, height: 8)).image { _ in
      v.drawHierarchy(in: v.bounds, afterScreenUpdates: true)
    }
    #expect(a.cgImage?.surface[4, 4] == 0xFFFF_0000)
  }

  /// Degenerate paths: empty paths, lines without a start, zero-length segments, zero-size
  /// rectangles and ellipses, zero radii and collinear tangents draw what Core Graphics does.
  @Test func degeneratePaths() {
    let s = Self.render { c in
      c.setFillColor(UIColor.red.cgColor)
      c.setStrokeColor(UIColor.red.cgColor)
      c.fillPath()  // empty
      c.strokePath()
      c.closePath()  // no point
      c.addLine(to: CGPoint(x: 30, y: 30))  // no current point: ignored
      c.addCurve(to: .zero, control1: .zero, control2: .zero)
      c.addQuadCurve(to: .zero, control: .zero)
      c.addArc(tangent1End: .zero, tangent2End: CGPoint(x: 5, y: 5), radius: 3)
      c.fillPath()
      c.fill(CGRect(x: 2, y: 2, width: 0, height: 10))  // zero width
      c.fillEllipse(in: CGRect(x: 2, y: 2, width: 10, height: 0))
      c.addArc(center: CGPoint(x: 10, y: 10), radius: 0, startAngle: 0, endAngle: 6, clockwise: false)
      c.fillPath()
      c.move(to: CGPoint(x: 5, y: 5))
      c.addLine(to: CGPoint(x: 5, y: 5))
      c.setLineWidth(4)
      c.strokePath()  // butt caps: a zero-length segment draws nothing
    }
    #expect(Self.inked(s) == 0)
    let dots = Self.render { c in
      c.setStrokeColor(UIColor.red.cgColor)
      c.setLineWidth(4)
      c.setLineCap(.round)
      c.move(to: CGPoint(x: 5, y: 5))
      c.addLine(to: CGPoint(x: 5, y: 5))
      c.strokePath()  // round caps: a dot
      c.setLineCap(.square)
      c.move(to: CGPoint(x: 20, y: 5))
      c.closePath()
      c.strokePath()  // a closed single point with square caps: a square
      // Collinear tangents: a line to the first tangent point.
      c.setLineCap(.butt)
      c.move(to: CGPoint(x: 2, y: 20))
      c.addArc(tangent1End: CGPoint(x: 20, y: 20), tangent2End: CGPoint(x: 30, y: 20), radius: 5)
      c.strokePath()
      // A path of 200,000 segments strokes in bounded time.
      c.move(to: .zero)
      for i in 0..<200_000 { c.addLine(to: CGPoint(x: CGFloat(i % 40), y: 28)) }
      c.setLineWidth(1)
      c.strokePath()
    }
    #expect(dots[5, 5] == 0xFFFF_0000 && dots[20, 5] == 0xFFFF_0000 && dots[15, 20] == 0xFFFF_0000)
    #expect(dots[25, 20] == 0, "nothing past the first tangent point")
    #expect(dots[10, 28] >> 24 > 0)
  }

  /// Infinite coordinates are not NaN: they pass to the rasterizer, which draws nothing for them.
  @Test func infinitiesDrawNothingAndDoNotCrash() {
    let inf = CGFloat.infinity
    let s = Self.render { c in
      c.setFillColor(UIColor.red.cgColor)
      c.fill(CGRect(x: 0, y: 0, width: inf, height: 10))
      c.move(to: CGPoint(x: -inf, y: 0))
      c.addLine(to: CGPoint(x: inf, y: inf))
      c.addLine(to: CGPoint(x: 0, y: 30))
      c.fillPath()
      c.setLineWidth(inf)
      c.stroke(CGRect(x: 1, y: 1, width: 5, height: 5))
      c.setLineWidth(1)
      c.scaleBy(x: 1e300, y: 1e300)
      c.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
    }
    _ = s
  }

  /// Renderers of unusable sizes give empty images after running their block; a scale that is
  /// not usable draws at 1; the largest side allowed works.
  @Test func rendererSizesAndScales() {
    for scale in [CGFloat(0), -2, .nan, .infinity] {
      let f = UIGraphicsImageRendererFormat()
      f.scale = scale
      let image = UIGraphicsImageRenderer(size: CGSize(width: 3, height: 2), format: f).image { c in
        c.fill(CGRect(x: 0, y: 0, width: 3, height: 2))
      }
      #expect(image.cgImage?.surface.width == 3 && image.scale == 1, "scale \(scale)")
    }
    var ran = 0
    for bounds in [
      CGRect(x: CGFloat.nan, y: 0, width: 4, height: 4), CGRect(x: 0, y: 0, width: 0, height: 4),
      CGRect(x: 0, y: 0, width: 4, height: CGFloat.infinity), CGRect(x: 0, y: 0, width: 32769, height: 1),
    ] {
      let image = UIGraphicsImageRenderer(bounds: bounds, format: .default()).image { c in
        ran += 1
        c.cgContext.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        c.cgContext.saveGState()
      }
      #expect(image.cgImage == nil && image.pngData() == nil && image.jpegData(compressionQuality: 1) == nil)
    }
    #expect(ran == 4)
    let wide = UIGraphicsImageRenderer(size: CGSize(width: 32768, height: 1)).image { c in
      c.fill(CGRect(x: 32767, y: 0, width: 1, height: 1))
    }
    #expect(wide.cgImage?.surface[32767, 0] == 0xFF00_0000)
  }
}
