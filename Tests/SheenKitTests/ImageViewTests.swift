import Foundation
import SheenLayers
import SheenRaster
import Testing

@testable import SheenKit

/// UIImage, UIImageView and CALayer's contents properties: what UIKit code sets reaches the
/// layer, and what is drawn is where UIKit puts it.
@Suite struct ImageViewTests {
  /// A 4 × 2 image: left half red, right half blue.
  static func halves() -> UIImage {
    let s = try! Surface(width: 4, height: 2)
    for y in 0..<2 {
      for x in 0..<4 { s[x, y] = x < 2 ? 0xFFFF_0000 : 0xFF00_00FF }
    }
    return UIImage(rasterImage: RasterImage(surface: s))
  }

  @Test func bundledImages() throws {
    let astronaut = try #require(UIImage(named: "astronaut"))
    #expect(astronaut.size == CGSize(width: 320, height: 320))
    #expect(astronaut.scale == 1)
    // Decoded once: asking again shares the pixels.
    #expect(UIImage(named: "astronaut.jpg")?.cgImage == astronaut.cgImage)
    #expect(UIImage(named: "no-such-image") == nil)
    #expect(UIImage(named: "../Fonts/DejaVuSans") == nil)
    #expect(UIImage(contentsOfFile: "/no/such/file.png") == nil)
    #expect(UIImage.scale(ofFile: "/a/icon@2x.png") == 2)
  }

  @Test func imageViewContentModes() throws {
    let view = UIImageView(image: ImageViewTests.halves())
    #expect(view.frame.size == CGSize(width: 4, height: 2))
    #expect(view.layer.sheenLayer.contents != nil)
    view.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
    let modes: [(UIViewContentMode, ContentsGravity)] = [
      (.scaleToFill, .resize), (.scaleAspectFit, .resizeAspect), (.scaleAspectFill, .resizeAspectFill),
      (.redraw, .resize), (.center, .center), (.top, .top), (.bottom, .bottom), (.left, .left),
      (.right, .right), (.topLeft, .topLeft), (.topRight, .topRight), (.bottomLeft, .bottomLeft),
      (.bottomRight, .bottomRight),
    ]
    for (mode, gravity) in modes {
      view.contentMode = mode
      #expect(view.layer.sheenLayer.contentsGravity == gravity)
      #expect(view.layer.contentsGravity.rawValue == gravity.rawValue)
    }
    // Aspect fit in 8 x 8: the 4 x 2 image becomes 8 x 4, centred: rows 2..<6 show it.
    view.contentMode = .scaleAspectFit
    view.backgroundColor = .white
    let s = try view.renderImage()
    #expect(s[1, 0] == 0xFFFF_FFFF)
    #expect(s[1, 3] == 0xFFFF_0000)
    #expect(s[6, 4] == 0xFF00_00FF)
    #expect(s[6, 7] == 0xFFFF_FFFF)
    // Top-left at natural size: only the top-left 4 x 2 pixels.
    view.contentMode = .topLeft
    let t = try view.renderImage()
    #expect(
      t[0, 0] == 0xFFFF_0000 && t[3, 1] == 0xFF00_00FF && t[5, 1] == 0xFFFF_FFFF && t[0, 3] == 0xFFFF_FFFF)
  }

  @Test func aspectFillSpillsUnlessClipped() throws {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: 16, height: 8))
    root.backgroundColor = .white
    let view = UIImageView(image: ImageViewTests.halves())
    view.frame = CGRect(x: 6, y: 2, width: 4, height: 4)
    view.contentMode = .scaleAspectFill
    root.addSubview(view)
    // The 4 x 2 image fills 4 x 4 as 8 x 4: it spills 2 points on each side.
    let spilled = try root.renderImage()
    #expect(spilled[4, 3] == 0xFFFF_0000)
    #expect(spilled[11, 3] == 0xFF00_00FF)
    view.clipsToBounds = true
    let clipped = try root.renderImage()
    #expect(clipped[4, 3] == 0xFFFF_FFFF)
    #expect(clipped[11, 3] == 0xFFFF_FFFF)
    #expect(clipped[6, 3] == 0xFFFF_0000)
  }

  @Test func layerContentsProperties() {
    let layer = CALayer()
    let image = ImageViewTests.halves()
    layer.contents = image.cgImage
    #expect(layer.sheenLayer.contents === image.cgImage?.rasterImage)
    #expect((layer.contents as? CGImage) == image.cgImage)
    layer.contents = image
    #expect(layer.sheenLayer.contents === image.cgImage?.rasterImage)
    layer.contents = "not an image"
    #expect(layer.sheenLayer.contents == nil)
    layer.contentsGravity = .bottomRight
    #expect(layer.sheenLayer.contentsGravity == .bottomRight)
    layer.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
    #expect(layer.sheenLayer.contentsRect == Rect(x: 0.5, y: 0, width: 0.5, height: 1))
    layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
    #expect(layer.sheenLayer.contentsCenter == Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
    layer.contentsScale = 2
    #expect(layer.sheenLayer.contentsScale == 2)
    layer.minificationFilter = .trilinear
    layer.magnificationFilter = .nearest
    #expect(layer.sheenLayer.minificationFilter == .trilinear)
    #expect(layer.sheenLayer.magnificationFilter == .nearest)
  }

  @Test func resizableImagesStretchInNineParts() throws {
    // 4 x 2 points at scale 1 with 1-point caps left and right: the middle is x 0.25..0.75.
    let image = ImageViewTests.halves().resizableImage(
      withCapInsets: UIEdgeInsets(top: 0, left: 1, bottom: 0, right: 1), resizingMode: .stretch)
    #expect(image.contentsCenter == CGRect(x: 0.25, y: 0, width: 0.5, height: 1))
    let view = UIImageView(image: image)
    view.frame = CGRect(x: 0, y: 0, width: 20, height: 2)
    #expect(view.layer.sheenLayer.contentsCenter == Rect(x: 0.25, y: 0, width: 0.5, height: 1))
    let s = try view.renderImage()
    // Caps keep 1 point; the middle (one red and one blue pixel) stretches over 18.
    #expect(s[0, 0] == 0xFFFF_0000)
    #expect(s[19, 0] == 0xFF00_00FF)
    #expect(s[4, 0] == 0xFFFF_0000)
    #expect(s[15, 0] == 0xFF00_00FF)
  }

  /// A 6 × 5 image whose pixel (x, y) has red 40x + 10, green 40y + 10, blue 200 (a distinct
  /// colour per pixel, so that every destination pixel says which image pixel it shows).
  static func numbered() -> UIImage {
    let s = try! Surface(width: 6, height: 5)
    for y in 0..<5 {
      for x in 0..<6 { s[x, y] = 0xFF00_00C8 | UInt32(40 * x + 10) << 16 | UInt32(40 * y + 10) << 8 }
    }
    return UIImage(rasterImage: RasterImage(surface: s))
  }

  /// `.tile`: the caps keep their size, the centre and edges repeat their part at its natural
  /// size from the top-left of their area, the last tiles cut (UIKit). Expected pixels worked out
  /// by hand from the 6 × 5 numbered image with caps left 1, right 2, top 1, bottom 1: columns
  /// 1...3 and rows 1...3 repeat.
  @Test func resizableImagesTileInNineParts() throws {
    let image = ImageViewTests.numbered().resizableImage(
      withCapInsets: UIEdgeInsets(top: 1, left: 1, bottom: 1, right: 2), resizingMode: .tile)
    #expect(image.resizingMode == .tile)
    let view = UIImageView(image: image)
    // 14 wide: cap 1, then 11 of repeated columns (3 whole tiles of 3 and 2 of a fourth), cap 2.
    // 9 high: cap 1, then 7 of repeated rows (2 tiles of 3 and 1 of a third), cap 1.
    view.frame = CGRect(x: 0, y: 0, width: 14, height: 9)
    #expect(view.layer.sheenLayer.contentsCenterTiles)
    let s = try view.renderImage()
    func column(_ x: Int) -> Int {
      if x == 0 { return 0 }
      if x >= 12 { return x - 12 + 4 }
      return 1 + (x - 1) % 3
    }
    func row(_ y: Int) -> Int {
      if y == 0 { return 0 }
      if y == 8 { return 4 }
      return 1 + (y - 1) % 3
    }
    var wrong: [String] = []
    for y in 0..<9 {
      for x in 0..<14 {
        let expected = 0xFF00_00C8 | UInt32(40 * column(x) + 10) << 16 | UInt32(40 * row(y) + 10) << 8
        if s[x, y] != expected { wrong.append("(\(x), \(y)): \(String(s[x, y], radix: 16))") }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(12))")
    // The same caps with `.stretch` draw something else (the middle stretched, not repeated).
    let stretched = UIImageView(
      image: ImageViewTests.numbered().resizableImage(
        withCapInsets: UIEdgeInsets(top: 1, left: 1, bottom: 1, right: 2), resizingMode: .stretch))
    stretched.frame = view.frame
    #expect(!stretched.layer.sheenLayer.contentsCenterTiles)
    #expect(try stretched.renderImage().pixels != s.pixels)
    // Without caps, a tiled image repeats whole; a plain image (never made resizable) stretches.
    let pattern = UIImageView(image: ImageViewTests.numbered().resizableImage(withCapInsets: .zero))
    pattern.frame = CGRect(x: 0, y: 0, width: 13, height: 7)
    let p = try pattern.renderImage()
    #expect(p[7, 6] == 0xFF00_00C8 | UInt32(40 * 1 + 10) << 16 | UInt32(40 * 1 + 10) << 8)
    #expect(p[12, 5] == 0xFF00_00C8 | UInt32(40 * 0 + 10) << 16 | UInt32(40 * 0 + 10) << 8)
    let plain = UIImageView(image: ImageViewTests.numbered())
    plain.frame = CGRect(x: 0, y: 0, width: 12, height: 10)
    #expect(!plain.layer.sheenLayer.contentsCenterTiles)
    let corner = try plain.renderImage()[11, 9]
    #expect(corner == 0xFF00_00C8 | UInt32(40 * 5 + 10) << 16 | UInt32(40 * 4 + 10) << 8)
  }
}
