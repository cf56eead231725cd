import Foundation
import SheenRaster
import Testing

@testable import SheenKit

/// The same drawings through SheenKit's CGContext and through Skia
/// (Scripts/skia-cgcontext-references.py, which wrote Tests/References/cgcontext/*.png): each at
/// least 35 dB PSNR.
@Suite struct CGContextSkiaTests {
  static let size = CGSize(width: 120, height: 90)

  static func reference(_ name: String) throws -> Surface {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return try Surface(
      contentsOfPNG: root.appendingPathComponent("Tests/References/cgcontext/\(name).png").path)
  }

  /// PSNR over all four premultiplied channels.
  static func psnr(_ a: Surface, _ b: Surface) -> Double {
    var sum = 0.0
    for y in 0..<a.height {
      for x in 0..<a.width {
        let p = a[x, y]
        let q = b[x, y]
        for s: UInt32 in [0, 8, 16, 24] {
          let d = Double(Int((p >> s) & 0xFF) - Int((q >> s) & 0xFF))
          sum += d * d
        }
      }
    }
    let mse = sum / Double(a.width * a.height * 4)
    return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
  }

  func check(_ name: String, scale: CGFloat = 1, size: CGSize = size, _ draw: (CGContext) -> Void) throws {
    let format = UIGraphicsImageRendererFormat()
    format.scale = scale
    let image = UIGraphicsImageRenderer(size: size, format: format).image { draw($0.cgContext) }
    let ours = try #require(image.cgImage?.surface)
    let skia = try CGContextSkiaTests.reference(name)
    try #require(ours.width == skia.width && ours.height == skia.height)
    let db = CGContextSkiaTests.psnr(ours, skia)
    print("cgcontext \(name): \(String(format: "%.1f", db)) dB PSNR against Skia")
    if db < 35 { try? ours.writePNG(to: "/tmp/sheen-cgcontext-\(name).png") }
    #expect(db >= 35, "\(name): \(db) dB (ours in /tmp/sheen-cgcontext-\(name).png)")
  }

  static func rgb(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
    CGColor(red: r, green: g, blue: b, alpha: a)
  }

  @Test func fills() throws {
    try check("fills") { c in
      let pts = (0..<5).map { i -> CGPoint in
        let a = -CGFloat.pi / 2 + CGFloat(i) * 4 * .pi / 5
        return CGPoint(x: 60 + 40 * cos(a), y: 45 + 40 * sin(a))
      }
      c.setFillColor(Self.rgb(0.9, 0.2, 0.2))
      c.addLines(between: pts)
      c.closePath()
      c.fillPath()
      c.setFillColor(Self.rgb(0.1, 0.3, 0.9, 0.7))
      c.addLines(between: pts.map { CGPoint(x: $0.x + 30, y: $0.y + 10) })
      c.closePath()
      c.fillPath(using: .evenOdd)
      c.setFillColor(Self.rgb(0.1, 0.7, 0.3))
      c.fillEllipse(in: CGRect(x: 4, y: 50, width: 36, height: 30))
      c.setFillColor(Self.rgb(0.5, 0.2, 0.6))
      c.fill(CGRect(x: 5.5, y: 5.25, width: 20, height: 14.5))
    }
  }

  @Test func strokes() throws {
    try check("strokes") { c in
      c.setStrokeColor(Self.rgb(0.2, 0.2, 0.8))
      c.setLineWidth(7)
      for (i, style) in [(CGLineCap.butt, CGLineJoin.miter), (.round, .round), (.square, .bevel)].enumerated()
      {
        let x = CGFloat(15 + 35 * i)
        c.setLineCap(style.0)
        c.setLineJoin(style.1)
        c.move(to: CGPoint(x: x, y: 75))
        c.addLine(to: CGPoint(x: x + 10, y: 15))
        c.addLine(to: CGPoint(x: x + 22, y: 70))
        c.strokePath()
      }
      c.setLineCap(.butt)
      c.setLineJoin(.miter)
      c.setStrokeColor(Self.rgb(0.8, 0.3, 0.1, 0.8))
      c.stroke(CGRect(x: 8, y: 8, width: 104, height: 74), width: 1.5)
    }
  }

  @Test func dashes() throws {
    try check("dashes", scale: 2) { c in
      c.setStrokeColor(Self.rgb(0, 0, 0))
      c.setLineWidth(4)
      c.setLineDash(phase: 3, lengths: [12, 6])
      c.move(to: CGPoint(x: 10, y: 20))
      c.addLine(to: CGPoint(x: 110, y: 20))
      c.strokePath()
      c.setStrokeColor(Self.rgb(0.1, 0.5, 0.8))
      c.setLineWidth(2)
      c.setLineCap(.round)
      c.setLineDash(phase: 0, lengths: [8, 4, 2, 4])
      c.addRect(CGRect(x: 15, y: 35, width: 90, height: 40))
      c.strokePath()
    }
  }

  @Test func curvesAndArcs() throws {
    try check("curves") { c in
      c.setStrokeColor(Self.rgb(0.7, 0.1, 0.4))
      c.setLineWidth(3)
      c.move(to: CGPoint(x: 10, y: 80))
      c.addCurve(to: CGPoint(x: 80, y: 20), control1: CGPoint(x: 30, y: 0), control2: CGPoint(x: 60, y: 100))
      c.addQuadCurve(to: CGPoint(x: 110, y: 40), control: CGPoint(x: 100, y: 0))
      c.strokePath()
      c.setFillColor(Self.rgb(0.2, 0.6, 0.3, 0.8))
      c.move(to: CGPoint(x: 30, y: 45))
      c.addArc(
        center: CGPoint(x: 30, y: 45), radius: 20, startAngle: 0, endAngle: .pi * 1.25, clockwise: false)
      c.closePath()
      c.fillPath()
      c.setFillColor(Self.rgb(0.2, 0.3, 0.8, 0.8))
      c.move(to: CGPoint(x: 90, y: 45))
      c.addArc(
        center: CGPoint(x: 90, y: 45), radius: 18, startAngle: 0, endAngle: .pi * 1.25, clockwise: true)
      c.closePath()
      c.fillPath()
      c.setStrokeColor(Self.rgb(0, 0, 0))
      c.setLineWidth(2)
      c.move(to: CGPoint(x: 40, y: 85))
      c.addArc(tangent1End: CGPoint(x: 100, y: 85), tangent2End: CGPoint(x: 100, y: 55), radius: 15)
      c.addLine(to: CGPoint(x: 100, y: 55))
      c.strokePath()
    }
  }

  @Test func transformsAndStates() throws {
    try check("transforms", scale: 2) { c in
      c.saveGState()
      c.translateBy(x: 60, y: 45)
      c.rotate(by: .pi / 6)
      c.scaleBy(x: 1.5, y: 0.75)
      c.setFillColor(Self.rgb(0.9, 0.5, 0.1))
      c.fill(CGRect(x: -20, y: -20, width: 40, height: 40))
      c.restoreGState()
      c.saveGState()
      c.concatenate(CGAffineTransform(a: 1, b: 0, c: 0.3, d: 1, tx: 5, ty: 10))
      c.setFillColor(Self.rgb(0.1, 0.4, 0.9))
      c.fillEllipse(in: CGRect(x: 0, y: 0, width: 30, height: 20))
      c.restoreGState()
      c.restoreGState()  // unbalanced: ignored
      c.setFillColor(Self.rgb(0.3, 0.3, 0.3))
      c.fill(CGRect(x: 90, y: 60, width: 20, height: 20))
    }
  }

  @Test func clips() throws {
    try check("clips") { c in
      c.saveGState()
      c.addEllipse(in: CGRect(x: 10, y: 10, width: 100, height: 70))
      c.clip()
      c.clip(to: CGRect(x: 0, y: 0, width: 80, height: 90))
      c.setFillColor(Self.rgb(0.2, 0.5, 0.9))
      c.fill(CGRect(x: 0, y: 0, width: 120, height: 90))
      c.restoreGState()
      c.saveGState()
      c.addRect(CGRect(x: 70, y: 20, width: 40, height: 50))
      c.addRect(CGRect(x: 80, y: 30, width: 20, height: 30))
      c.clip(using: .evenOdd)
      c.setFillColor(Self.rgb(0.9, 0.3, 0.2, 0.8))
      c.fill(CGRect(x: 0, y: 0, width: 120, height: 90))
      c.restoreGState()
    }
  }

  static var gradient: CGGradient {
    CGGradient(
      colorsSpace: CGColorSpaceCreateDeviceRGB(),
      colors: [rgb(1, 0.2, 0.2), rgb(0.2, 0.8, 0.3), rgb(0.2, 0.3, 1)], locations: [0, 0.4, 1])!
  }

  @Test func linearGradients() throws {
    try check("linear") { c in
      for (y0, options) in [
        (0, CGGradientDrawingOptions()), (45, [.drawsBeforeStartLocation, .drawsAfterEndLocation]),
      ] {
        c.saveGState()
        c.clip(to: CGRect(x: 0, y: CGFloat(y0), width: 120, height: 45))
        c.drawLinearGradient(
          Self.gradient, start: CGPoint(x: 30, y: CGFloat(y0) + 10), end: CGPoint(x: 90, y: CGFloat(y0) + 35),
          options: options)
        c.restoreGState()
      }
    }
  }

  @Test func radialGradients() throws {
    try check("radial") { c in
      c.saveGState()
      c.clip(to: CGRect(x: 0, y: 0, width: 60, height: 90))
      c.drawRadialGradient(
        Self.gradient, startCenter: CGPoint(x: 30, y: 45), startRadius: 8, endCenter: CGPoint(x: 30, y: 45),
        endRadius: 26, options: [])
      c.restoreGState()
      c.saveGState()
      c.clip(to: CGRect(x: 60, y: 0, width: 60, height: 90))
      c.drawRadialGradient(
        Self.gradient, startCenter: CGPoint(x: 80, y: 35), startRadius: 4, endCenter: CGPoint(x: 92, y: 50),
        endRadius: 24, options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
      c.restoreGState()
    }
  }

  @Test func alphaAndBlendModes() throws {
    try check("alpha-blend") { c in
      c.setFillColor(Self.rgb(0.9, 0.8, 0.1))
      c.fill(CGRect(x: 10, y: 10, width: 60, height: 60))
      c.setAlpha(0.5)
      c.setFillColor(Self.rgb(0.2, 0.4, 0.9))
      c.fillEllipse(in: CGRect(x: 40, y: 25, width: 60, height: 50))
      c.setAlpha(1)
      c.setBlendMode(.multiply)
      c.setFillColor(Self.rgb(0.9, 0.3, 0.3))
      c.fill(CGRect(x: 20, y: 40, width: 80, height: 30))
      c.setBlendMode(.screen)
      c.setFillColor(Self.rgb(0.5, 0.9, 0.9, 0.6))
      c.fill(CGRect(x: 80, y: 5, width: 30, height: 30))
    }
  }

  @Test func shadow() throws {
    try check("shadow", scale: 2, size: CGSize(width: 110, height: 80)) { c in
      c.setShadow(offset: CGSize(width: 4, height: 6), blur: 8, color: Self.rgb(0, 0, 0, 0.5))
      c.setFillColor(Self.rgb(0.95, 0.95, 0.98))
      c.addPath(
        CGPath(roundedRect: CGRect(x: 15, y: 15, width: 75, height: 45), cornerWidth: 8, cornerHeight: 8))
      c.fillPath()
    }
  }

  @Test func transparencyLayer() throws {
    try check("layer") { c in
      c.setFillColor(Self.rgb(1, 1, 1))
      c.fill(CGRect(x: 0, y: 0, width: 120, height: 90))
      c.setAlpha(0.5)
      c.beginTransparencyLayer(auxiliaryInfo: nil)
      c.setFillColor(Self.rgb(0.9, 0.1, 0.1))
      c.fillEllipse(in: CGRect(x: 15, y: 15, width: 50, height: 50))
      c.setFillColor(Self.rgb(0.1, 0.1, 0.9))
      c.fillEllipse(in: CGRect(x: 45, y: 25, width: 50, height: 50))
      c.endTransparencyLayer()
    }
  }

  @Test func clear() throws {
    try check("clear") { c in
      c.setFillColor(Self.rgb(0.3, 0.6, 0.3))
      c.fill(CGRect(x: 0, y: 0, width: 120, height: 90))
      c.clear(CGRect(x: 20, y: 20, width: 40.5, height: 30.5))
    }
  }
}
