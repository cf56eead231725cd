import Foundation
import SheenTestSupport
import Testing

@testable import SheenRaster

/// Image decoding (every PNG colour type, JPEG kinds, EXIF orientation, broken files) against
/// pixel values Pillow reads from the same files, and the sampling arithmetic against values
/// worked out by hand.
@Suite struct ImageTests {
  static let folder = ReferenceImage.packageRoot.appendingPathComponent("Tests/Scenes/images").path

  static func image(_ name: String) throws -> RasterImage {
    try RasterImage(contentsOfFile: "\(folder)/\(name)")
  }

  /// Checks pixels against straight-alpha RGBA values (Pillow's reading, EXIF applied).
  func check(
    _ name: String, size: (Int, Int), _ pixels: [(Int, Int, (UInt8, UInt8, UInt8, UInt8))], tolerance: Int = 0
  ) throws {
    let im = try ImageTests.image(name)
    #expect(im.width == size.0 && im.height == size.1, "\(name): \(im.width)x\(im.height)")
    for (x, y, c) in pixels {
      let expected = Pixel.premultiplied(r: c.0, g: c.1, b: c.2, a: c.3)
      let d = ReferenceImage.largestChannelDifference(im.surface[x, y], expected)
      #expect(
        d <= tolerance,
        "\(name) at \(x), \(y): \(String(im.surface[x, y], radix: 16)) vs \(String(expected, radix: 16))")
    }
  }

  @Test func pngColourTypes() throws {
    let alpha: [(Int, Int, (UInt8, UInt8, UInt8, UInt8))] = [
      (64, 48, (216, 228, 200, 255)), (5, 5, (191, 218, 50, 0)), (20, 30, (223, 78, 74, 163)),
      (100, 60, (8, 49, 101, 255)),
    ]
    try check("alpha.png", size: (128, 96), alpha)
    // Interlaced (Adam7), with gAMA and cHRM chunks that are not applied.
    try check("alpha-interlaced.png", size: (128, 96), alpha)
    try check("palette.png", size: (128, 96), [(0, 0, (0, 0, 0, 0))])
    // 16 bits per sample: the high byte.
    try check("grey16.png", size: (64, 40), [(0, 0, (0, 0, 0, 255)), (10, 5, (41, 41, 41, 255))])
    try check(
      "grey-alpha.png", size: (64, 40), [(10, 5, (40, 40, 40, 30)), (63, 39, (252, 252, 252, 234))])
    try check(
      "bits1.png", size: (48, 32),
      [(0, 0, (255, 255, 255, 255)), (4, 0, (0, 0, 0, 255)), (5, 5, (255, 255, 255, 255))])
    #expect(try ImageTests.image("alpha.png").isOpaque == false)
    #expect(try ImageTests.image("photo.jpg").isOpaque)
  }

  @Test func jpegKinds() throws {
    let photo: [(Int, Int, (UInt8, UInt8, UInt8, UInt8))] = [
      (0, 0, (21, 12, 7, 255)), (100, 60, (233, 150, 54, 255)),
    ]
    try check("photo.jpg", size: (200, 133), photo, tolerance: 2)
    try check("photo-progressive.jpg", size: (200, 133), photo, tolerance: 2)
    try check(
      "grey.jpg", size: (200, 133), [(0, 0, (14, 14, 14, 255)), (100, 60, (164, 164, 164, 255))], tolerance: 2
    )
    try check(
      "cmyk.jpg", size: (200, 133), [(0, 0, (21, 13, 8, 255)), (100, 60, (235, 150, 56, 255))], tolerance: 3)
  }

  /// Each file stores the photo turned or mirrored, with the EXIF orientation that undoes it.
  @Test(arguments: 2...8) func exifOrientation(_ o: Int) throws {
    let upright = try ImageTests.image("photo.jpg")
    let im = try ImageTests.image("exif\(o).jpg")
    #expect(im.width == 200 && im.height == 133)
    // Away from edges, JPEG's loss moves a pixel by a few levels at most.
    var worst = 0
    for (x, y) in [(100, 60), (50, 30), (150, 100), (30, 110)] {
      worst = max(worst, ReferenceImage.largestChannelDifference(im.surface[x, y], upright.surface[x, y]))
    }
    #expect(worst <= 12, "orientation \(o): \(worst)")
  }

  @Test func brokenFilesAreRefused() {
    let cases = [
      ("broken/text.png", "not a PNG or JPEG"), ("broken/empty.jpg", "not a PNG or JPEG"),
      ("broken/truncated.jpg", "truncated JPEG"), ("broken/truncated.png", "end of data"),
      ("broken/corrupt.png", "IDAT"),
      ("broken/huge.png", "exceeds 16384 on a side"), ("missing.png", "No such file"),
      ("broken", "is a folder"),
    ]
    for (name, reason) in cases {
      do {
        _ = try ImageTests.image(name)
        Issue.record("\(name) was decoded")
      } catch {
        #expect("\(error)".contains(reason), "\(name): \(error)")
      }
    }
    // Any prefix of a valid file is refused or decoded, never a crash.
    let bytes = Array(try! Data(contentsOf: URL(fileURLWithPath: "\(ImageTests.folder)/photo.jpg")))
    for n in stride(from: 0, to: bytes.count, by: 997) { _ = try? RasterImage(decoding: Array(bytes[..<n])) }
  }

  /// The decoded-image cache stays within its budget, letting the least recently used go, and
  /// decodes a file again only once it was let go.
  @Test func decodedImagesStayWithinTheBudget() throws {
    // photo.jpg is 200 x 133 (106,400 bytes decoded): room for two.
    let cache = ImageFileCache(budget: 250_000, maxEntries: 100)
    let names = ["photo.jpg", "photo-progressive.jpg", "grey.jpg", "cmyk.jpg", "exif2.jpg", "exif3.jpg"]
    for n in names { _ = try cache.image(atPath: "\(ImageTests.folder)/\(n)") }
    #expect(cache.statistics.count == 2)
    #expect(cache.statistics.bytes <= 250_000)
    #expect(cache.statistics.decodes == 6)
    // The two most recent are kept: asking again decodes nothing.
    _ = try cache.image(atPath: "\(ImageTests.folder)/exif3.jpg")
    _ = try cache.image(atPath: "\(ImageTests.folder)/exif2.jpg")
    #expect(cache.statistics.decodes == 6)
    // The first was let go: decoded again.
    _ = try cache.image(atPath: "\(ImageTests.folder)/photo.jpg")
    #expect(cache.statistics.decodes == 7)
    // A count limit too.
    let few = ImageFileCache(budget: 1 << 30, maxEntries: 3)
    for n in names { _ = try few.image(atPath: "\(ImageTests.folder)/\(n)") }
    #expect(few.statistics.count == 3)
  }

  // MARK: Sampling arithmetic

  /// A 2 × 2 opaque grey image (values in every channel).
  static func grey(_ v: [UInt32], width: Int, height: Int) -> RasterImage {
    let s = try! Surface(width: width, height: height)
    for (i, g) in v.enumerated() { s[i % width, i / width] = 0xFF00_0000 | g * 0x0001_0101 }
    return RasterImage(surface: s)
  }

  @Test func bilinearAtKnownPoints() throws {
    // [0, 255; 128, 64] drawn at 2x on a pixel-aligned 4 x 4 destination: device centre (1.5,
    // 1.5) reads image (0.75, 0.75), a quarter of the way from pixel (0, 0) to (1, 1) on each
    // axis: 0.75 (0.75·0 + 0.25·255) + 0.25 (0.75·128 + 0.25·64) = 75.8. The corner pixels read
    // the image's corners (clamped half a pixel inside: nothing from beyond).
    let im = ImageTests.grey([0, 255, 128, 64], width: 2, height: 2)
    let s = try Surface(width: 4, height: 4)
    Canvas(surface: s).drawImage(im, in: Rect(x: 0, y: 0, width: 4, height: 4))
    func g(_ x: Int, _ y: Int) -> Int { Int(s[x, y] & 0xFF) }
    #expect(abs(g(1, 1) - 76) <= 1)
    #expect(g(0, 0) == 0)
    #expect(g(3, 0) == 255)
    #expect(g(0, 3) == 128)
    #expect(g(3, 3) == 64)
    // (2.5, 1.5) reads (1.25, 0.75): 0.75 (0.25·0 + 0.75·255) + 0.25 (0.25·128 + 0.75·64) = 163.4.
    #expect(abs(g(2, 1) - 163) <= 1)
    // Nearest: each device pixel takes the image pixel under its centre.
    let n = try Surface(width: 4, height: 4)
    Canvas(surface: n).drawImage(im, in: Rect(x: 0, y: 0, width: 4, height: 4), magnification: .nearest)
    #expect(
      n.pixels.map { Int($0 & 0xFF) } == [0, 0, 255, 255, 0, 0, 255, 255, 128, 128, 64, 64, 128, 128, 64, 64])
  }

  @Test func aStrictSourceRectangleIsNeverLeft() throws {
    // Columns 0 and 1 are 0, column 2 is 255: drawing columns 0-1 magnified 8x never shows 255.
    let im = ImageTests.grey([0, 0, 255, 0, 0, 255], width: 3, height: 2)
    let s = try Surface(width: 16, height: 16)
    Canvas(surface: s).drawImage(
      im, source: Rect(x: 0, y: 0, width: 2, height: 2), in: Rect(x: 0, y: 0, width: 16, height: 16))
    #expect(s.pixels.allSatisfy { $0 == 0xFF00_0000 })
  }

  @Test func aPixelAlignedImageIsCopied() throws {
    let im = ImageTests.grey(Array(0..<12).map { UInt32($0 * 20) }, width: 4, height: 3)
    let s = try Surface(width: 8, height: 8)
    let c = Canvas(surface: s)
    c.translateBy(x: 2, y: 3)
    c.drawImage(im, in: Rect(x: 0, y: 0, width: 4, height: 3), magnification: .linear)
    for y in 0..<3 {
      for x in 0..<4 { #expect(s[x + 2, y + 3] == im.surface[x, y]) }
    }
    #expect(s[1, 3] == 0 && s[6, 3] == 0 && s[2, 2] == 0 && s[2, 6] == 0)
  }

  @Test func mipLevels() throws {
    // Box filters on even sides (sums truncated, as Skia): (0 + 100 + 200 + 40) / 4 = 85.
    let a = ImageTests.grey([0, 100, 200, 40], width: 2, height: 2)
    #expect(a.mipLevelCount == 1)
    #expect(a.mipLevel(1).width == 1 && a.mipLevel(1).height == 1)
    #expect(a.mipLevel(1)[0, 0] & 0xFF == 85)
    // An odd side takes three pixels weighted 1, 2, 1: (0 + 2·100 + 200) / 4 = 100.
    let b = ImageTests.grey([0, 100, 200], width: 3, height: 1)
    #expect(b.mipLevel(1).width == 1)
    #expect(b.mipLevel(1)[0, 0] & 0xFF == 100)
    // Halving rounds down to at least 1, until both sides are 1: 5 x 3 -> 2 x 1 -> 1 x 1.
    let c = ImageTests.grey(Array(repeating: 50, count: 15), width: 5, height: 3)
    #expect(c.mipLevelCount == 2)
    #expect(c.mipLevel(1).width == 2 && c.mipLevel(1).height == 1)
    #expect(c.mipLevel(2).width == 1 && c.mipLevel(2).height == 1)
    #expect(c.mipLevel(9) === c.mipLevel(2))
    // The level: log2 of image pixels per device pixel, less half a level (Skia's raster
    // choice): 64 -> 16 pixels is level 1.5; 64 -> 32 is 0.5; magnified is below 0.
    #expect(ImageSampler.levelOfDetail(inverse: Transform(scaleX: 4, y: 4)) == 1.5)
    #expect(ImageSampler.levelOfDetail(inverse: Transform(scaleX: 2, y: 1)) == 0.5)
    #expect(ImageSampler.levelOfDetail(inverse: Transform(scaleX: 0.5, y: 0.5)) < 0)
    // Trilinear at level 1.5: levels 1 and 2 blended half and half. An image whose level 1 is
    // flat 100 and level 2 flat 100 gives 100 wherever it is sampled.
    let flat = ImageTests.grey(Array(repeating: 100, count: 64), width: 8, height: 8)
    let s = try Surface(width: 2, height: 2)
    Canvas(surface: s).drawImage(flat, in: Rect(x: 0, y: 0, width: 2, height: 2), minification: .trilinear)
    #expect(s.pixels.allSatisfy { $0 & 0xFF == 100 })
  }
}
