import Foundation
import SheenRaster
import Testing

@testable import SheenKit

/// UIKit's drawing helpers, string drawing, renderers and bad input.
@Suite struct CustomDrawingTests {
  static func render(_ size: CGSize = CGSize(width: 40, height: 30), scale: CGFloat = 1, _ body: () -> Void)
    -> Surface
  {
    let f = UIGraphicsImageRendererFormat()
    f.scale = scale
    return UIGraphicsImageRenderer(size: size, format: f).image { _ in body() }.cgImage!.surface
  }

  @Test func bezierPathHelpersDrawAsTheContextCalls() throws {
    let viaUIKit = CustomDrawingTests.render {
      UIColor.red.setFill()
      UIColor.blue.setStroke()
      let p = UIBezierPath(roundedRect: CGRect(x: 4, y: 4, width: 30, height: 20), cornerRadius: 5)
      p.lineWidth = 3
      p.lineJoinStyle = .round
      p.fill()
      p.stroke()
      let clip = UIBezierPath(ovalIn: CGRect(x: 20, y: 10, width: 18, height: 18))
      clip.addClip()
      UIColor.green.set()
      UIRectFill(CGRect(x: 0, y: 0, width: 40, height: 30))
    }
    let viaCG = CustomDrawingTests.render {
      let c = UIGraphicsGetCurrentContext()!
      c.setFillColor(UIColor.red.cgColor)
      c.setStrokeColor(UIColor.blue.cgColor)
      let p = CGPath(roundedRect: CGRect(x: 4, y: 4, width: 30, height: 20), cornerWidth: 5, cornerHeight: 5)
      c.addPath(p)
      c.fillPath()
      c.setLineWidth(3)
      c.setLineJoin(.round)
      c.addPath(p)
      c.strokePath()
      c.addEllipse(in: CGRect(x: 20, y: 10, width: 18, height: 18))
      c.clip()
      c.setFillColor(UIColor.green.cgColor)
      c.fill(CGRect(x: 0, y: 0, width: 40, height: 30))
    }
    #expect(viaUIKit.pixels == viaCG.pixels)
    // The helpers leave the context's state as they found it: the pen width stays 1.
    #expect(viaUIKit[10, 14] == UIColor.red.color.premultiplied)
    #expect(viaUIKit[29, 19] == UIColor.green.color.premultiplied)
  }

  @Test func fillWithBlendModeAndAlpha() throws {
    let s = CustomDrawingTests.render {
      UIColor.white.setFill()
      UIRectFill(CGRect(x: 0, y: 0, width: 40, height: 30))
      UIColor(red: 1, green: 0, blue: 0, alpha: 1).setFill()
      UIBezierPath(rect: CGRect(x: 0, y: 0, width: 20, height: 30)).fill(with: .multiply, alpha: 0.5)
    }
    // White times red at half strength: (1, 0.5, 0.5).
    #expect(close(s[5, 5], 0xFFFF_8080, 1))
    #expect(s[30, 5] == 0xFFFF_FFFF)
  }

  @Test func noCurrentContextOutsideDrawing() {
    #expect(UIGraphicsGetCurrentContext() == nil)
    UIColor.red.setFill()  // no context: nothing happens
    UIBezierPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4)).fill()
    "text".draw(at: .zero, withAttributes: nil)
    _ = CustomDrawingTests.render { UIGraphicsPushContext(CGContext(width: 2, height: 2)!) }
    #expect(UIGraphicsGetCurrentContext() == nil)
  }

  @Test func badInputDoesNotCrash() throws {
    let s = CustomDrawingTests.render {
      let c = UIGraphicsGetCurrentContext()!
      for _ in 0..<3 { c.restoreGState() }
      c.endTransparencyLayer()
      c.move(to: CGPoint(x: CGFloat.nan, y: 4))
      c.addLine(to: CGPoint(x: 10, y: CGFloat.infinity))
      c.addCurve(to: .zero, control1: CGPoint(x: CGFloat.nan, y: 0), control2: .zero)
      c.fillPath()
      c.addArc(center: .zero, radius: .nan, startAngle: 0, endAngle: 1, clockwise: false)
      c.addArc(tangent1End: .zero, tangent2End: .zero, radius: -3)
      c.strokePath()
      c.move(to: CGPoint(x: 5, y: 5))
      c.addLine(to: CGPoint(x: 5, y: 5))
      c.setLineCap(.round)
      c.setLineWidth(4)
      c.strokePath()  // a zero-length subpath: a dot with round caps
      c.setLineDash(phase: .nan, lengths: [-1, 2])
      c.setLineDash(phase: 0, lengths: [0, 0])
      c.stroke(CGRect(x: 1, y: 1, width: 0, height: 0))
      c.setShadow(offset: CGSize(width: CGFloat.nan, height: 0), blur: 1e9, color: UIColor.black.cgColor)
      c.fill(CGRect(x: 20, y: 20, width: 5, height: 5))
      c.setShadow(offset: .zero, blur: 1e9, color: UIColor.black.cgColor)
      c.fill(CGRect(x: 20, y: 20, width: 5, height: 5))
      c.setShadow(offset: .zero, blur: 0, color: nil)
      c.scaleBy(x: 0, y: 0)
      c.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
      c.stroke(CGRect(x: 0, y: 0, width: 10, height: 10))
      c.drawLinearGradient(
        CGGradient(colorsSpace: nil, colors: [UIColor.red.cgColor], locations: nil)!, start: .zero,
        end: .zero, options: [])
      c.beginTransparencyLayer(auxiliaryInfo: nil)
      c.saveGState()
      // Left open: the renderer ends the drawing regardless.
    }
    #expect(s[5, 5] >> 24 == 255)  // the dot
    #expect(CGGradient(colorsSpace: nil, colors: [], locations: nil) == nil)
    #expect(CGGradient(colorsSpace: nil, colors: [.black], locations: [0, 1]) == nil)
  }

  @Test func zeroAndEnormousRenderersGiveEmptyImages() {
    var ran = 0
    for size in [
      CGSize.zero, CGSize(width: 0, height: 10), CGSize(width: CGFloat.nan, height: 1),
      CGSize(width: 1e7, height: 1e7), CGSize(width: 40000, height: 1),
    ] {
      let image = UIGraphicsImageRenderer(size: size).image { ctx in
        ran += 1
        ctx.fill(CGRect(x: 0, y: 0, width: 1e9, height: 1e9))
      }
      #expect(image.cgImage == nil && image.size == .zero && image.pngData() == nil)
    }
    #expect(ran == 5)
    #expect(UIGraphicsImageRenderer(size: .zero).pngData { _ in }.isEmpty)
  }

  /// JPEG data from a renderer and from an image decode back to the drawing (lossy: within a
  /// few levels at quality 0.95, further at 0.2 but smaller); transparent parts come out black.
  @Test func jpegDataDecodesBackToTheDrawing() throws {
    let size = CGSize(width: 64, height: 48)
    func draw(_ ctx: UIGraphicsImageRendererContext) {
      UIColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1).setFill()
      ctx.fill(CGRect(x: 0, y: 0, width: 64, height: 24))
      UIColor(red: 0.1, green: 0.4, blue: 0.8, alpha: 1).setFill()
      ctx.fill(CGRect(x: 0, y: 24, width: 32, height: 24))
    }
    let renderer = UIGraphicsImageRenderer(size: size)
    let best = renderer.jpegData(withCompressionQuality: 0.95, actions: draw)
    let worst = renderer.jpegData(withCompressionQuality: 0.2, actions: draw)
    #expect(best.starts(with: [0xFF, 0xD8, 0xFF]) && worst.count < best.count)
    let decoded = try RasterImage(decoding: [UInt8](best)).surface
    #expect(decoded.width == 64 && decoded.height == 48)
    func channels(_ p: UInt32) -> [Int] { [16, 8, 0].map { Int((p >> $0) & 0xFF) } }
    func near(_ p: UInt32, _ q: [Int], _ tolerance: Int) -> Bool {
      zip(channels(p), q).allSatisfy { abs($0 - $1) <= tolerance } && p >> 24 == 255
    }
    // Inside each area, away from the edges JPEG's blocks blur.
    #expect(near(decoded[16, 8], [230, 77, 26], 4))
    #expect(near(decoded[12, 36], [26, 102, 204], 4))
    #expect(near(decoded[52, 40], [0, 0, 0], 4), "transparent is black")
    let rough = try RasterImage(decoding: [UInt8](worst)).surface
    #expect(near(rough[16, 8], [230, 77, 26], 24))
    // UIImage.jpegData; an empty image has none; quality out of range or NaN is clamped.
    let image = renderer.image(actions: draw)
    #expect(image.jpegData(compressionQuality: 0.95) == best)
    #expect(image.jpegData(compressionQuality: 7) == image.jpegData(compressionQuality: 1))
    #expect(image.jpegData(compressionQuality: -1) == image.jpegData(compressionQuality: 0))
    #expect(image.jpegData(compressionQuality: .nan) == image.jpegData(compressionQuality: 0.75))
    #expect(UIGraphicsImageRenderer(size: .zero).jpegData(withCompressionQuality: 1) { _ in }.isEmpty)
  }

  @Test func rendererHonoursScaleOpaqueAndBounds() throws {
    let f = UIGraphicsImageRendererFormat()
    f.scale = 3
    f.opaque = true
    let r = UIGraphicsImageRenderer(bounds: CGRect(x: 10, y: 10, width: 4, height: 2), format: f)
    let image = r.image { ctx in
      UIColor.red.setFill()
      ctx.fill(CGRect(x: 10, y: 10, width: 2, height: 2))
    }
    let s = try #require(image.cgImage?.surface)
    #expect(s.width == 12 && s.height == 6 && image.size == CGSize(width: 4, height: 2) && image.scale == 3)
    #expect(s[0, 0] == 0xFFFF_0000 && s[11, 5] == 0xFF00_0000)
    let png = try #require(image.pngData())
    #expect(try Surface(pngData: [UInt8](png)).pixels == s.pixels)
  }

  @Test func imagesDrawUprightThroughUIKitAndFlippedThroughCG() throws {
    let tall = UIGraphicsImageRenderer(size: CGSize(width: 2, height: 4)).image { ctx in
      UIColor.red.setFill()
      ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
      UIColor.blue.setFill()
      ctx.fill(CGRect(x: 0, y: 2, width: 2, height: 2))
    }
    let upright = CustomDrawingTests.render(CGSize(width: 2, height: 4)) { tall.draw(at: .zero) }
    #expect(upright[0, 0] == 0xFFFF_0000 && upright[0, 3] == 0xFF00_00FF)
    let flipped = CustomDrawingTests.render(CGSize(width: 2, height: 4)) {
      UIGraphicsGetCurrentContext()!.draw(tall.cgImage!, in: CGRect(x: 0, y: 0, width: 2, height: 4))
    }
    #expect(flipped[0, 0] == 0xFF00_00FF && flipped[0, 3] == 0xFFFF_0000)
  }

  @Test func clipToMaskKeepsWhereTheMaskIsOpaque() throws {
    // A mask opaque in its first row of pixels, transparent in its second: CG puts the first row
    // at the rectangle's max-y edge.
    let mask = UIGraphicsImageRenderer(size: CGSize(width: 1, height: 2)).image { ctx in
      UIColor.white.setFill()
      ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
    }
    let s = CustomDrawingTests.render(CGSize(width: 10, height: 10)) {
      let c = UIGraphicsGetCurrentContext()!
      c.clip(to: CGRect(x: 0, y: 0, width: 10, height: 10), mask: mask.cgImage!)
      c.setFillColor(UIColor.red.cgColor)
      c.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
    }
    // (Sampled bilinearly: the 1x2 mask stretched over 10x10 points fades between its rows.)
    #expect(s[5, 1] == 0 && s[5, 7] >> 24 > 0xE0 && Pixel.red(s[5, 7]) == s[5, 7] >> 24)
  }

  @Test func stringDrawingAndMeasuring() throws {
    let font = UIFont.systemFont(ofSize: 14)
    let plain = "Sales" as NSString
    let size = plain.size(withAttributes: [.font: font])
    #expect(size.width > 25 && size.width < 45)
    #expect(abs(size.height - font.lineHeight) < 0.01)
    let kerned = plain.size(withAttributes: [.font: font, .kern: 2.0])
    #expect(abs(kerned.width - size.width - 10) < 0.01)
    let para = NSMutableParagraphStyle()
    para.alignment = .right
    let wrapped = "one two three four five six".boundingRect(
      with: CGSize(width: 60, height: CGFloat.greatestFiniteMagnitude), options: .usesLineFragmentOrigin,
      attributes: [.font: font], context: nil)
    #expect(wrapped.width <= 60 && wrapped.height >= 3 * font.lineHeight - 0.01)
    let s = CustomDrawingTests.render(CGSize(width: 100, height: 20)) {
      plain.draw(
        in: CGRect(x: 0, y: 0, width: 100, height: 20),
        withAttributes: [.font: font, .foregroundColor: UIColor.blue, .paragraphStyle: para])
    }
    // Right-aligned blue ink: nothing in the left half, blue in the right.
    var left = 0
    var right = 0
    for y in 0..<20 {
      for x in 0..<100 where s[x, y] >> 24 > 128 {
        if x < 50 { left += 1 } else { right += 1 }
        #expect(Pixel.blue(s[x, y]) >= Pixel.red(s[x, y]))
      }
    }
    #expect(left == 0 && right > 20)
    let attributed = NSAttributedString(string: "Sales", attributes: [.font: font])
    #expect(attributed.size() == size)
  }
}

func close(_ a: UInt32, _ b: UInt32, _ tolerance: Int) -> Bool {
  for shift: UInt32 in [0, 8, 16, 24]
  where abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) > tolerance {
    return false
  }
  return true
}
