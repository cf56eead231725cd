import Testing

@testable import SheenRaster

/// `Canvas.blit` (and any image drawn one pixel for one) copies the image's rows: checked against
/// source-over computed by hand, pixel by pixel, at whole-pixel offsets partly outside the canvas
/// and through a clip.
@Suite struct BlitTests {
  /// A 5x4 premultiplied image: opaque, half-transparent and clear pixels.
  private func image() throws -> Surface {
    let s = try Surface(width: 5, height: 4)
    for y in 0..<4 {
      for x in 0..<5 {
        let a = UInt32([255, 128, 0, 255, 64][x])
        let r = min(a, UInt32(40 * x + 10 * y))
        let g = min(a, UInt32(30 * y + 5))
        let b = min(a, UInt32(7 * (x + y)))
        s[x, y] = a << 24 | r << 16 | g << 8 | b
      }
    }
    return s
  }

  /// Premultiplied source-over, per channel: s + d * (255 - sa) / 255, rounded.
  private func over(_ s: UInt32, _ d: UInt32) -> [Int] {
    let sa = Int(s >> 24)
    return [24, 16, 8, 0].map { shift in
      let sc = Int((s >> UInt32(shift)) & 255)
      let dc = Int((d >> UInt32(shift)) & 255)
      return sc + (dc * (255 - sa) + 127) / 255
    }
  }

  @Test(arguments: [(0, 0), (3, 2), (-2, -1), (7, 5), (-4, 6)])
  func blitIsSourceOverOfTheImageRows(offset: (Int, Int)) throws {
    let src = try image()
    let target = try Surface(width: 9, height: 8)
    let background: UInt32 = 0xFF20_4060
    target.clear(background)
    let canvas = Canvas(surface: target)
    canvas.blit(src, x: offset.0, y: offset.1)
    for y in 0..<8 {
      for x in 0..<9 {
        let s = src[x - offset.0, y - offset.1]
        let expected = over(s, background)
        let got = [24, 16, 8, 0].map { Int((target[x, y] >> UInt32($0)) & 255) }
        for c in 0..<4 {
          #expect(abs(got[c] - expected[c]) <= 1, "(\(x), \(y)) channel \(c): \(got) != \(expected)")
        }
      }
    }
  }

  /// On a clear canvas the copy is exact, and a clip rectangle keeps only its pixels.
  @Test func blitCopiesExactlyAndHonoursTheClip() throws {
    let src = try image()
    let target = try Surface(width: 8, height: 6)
    let canvas = Canvas(surface: target)
    canvas.clip(to: Rect(x: 2, y: 0, width: 3, height: 6))
    canvas.blit(src, x: 1, y: 1)
    for y in 0..<6 {
      for x in 0..<8 {
        let inside = x >= 2 && x < 5
        #expect(target[x, y] == (inside ? src[x - 1, y - 1] : 0), "(\(x), \(y))")
      }
    }
  }

  /// Half a pixel off the grid the image is still resampled (bilinear): the copy is only for
  /// whole-pixel offsets.
  @Test func fractionalOffsetsAreStillFiltered() throws {
    let src = try Surface(width: 2, height: 1)
    src[0, 0] = 0xFF00_0000
    src[1, 0] = 0xFFFF_FFFF
    // Pixel 1's centre (1.5) maps to 1.0 in the image: halfway between the two texel centres.
    var out = [UInt32](repeating: 0, count: 3)
    out.withUnsafeMutableBufferPointer {
      Shader.image(src, Transform(translationX: -0.5, y: 0)).shade(
        x: 0, y: 0, count: 3, into: $0.baseAddress!)
    }
    let red = Int((out[1] >> 16) & 255)
    // Whole-pixel offsets copy: pixel 1 is texel 0 shifted by one.
    var copied = [UInt32](repeating: 7, count: 4)
    copied.withUnsafeMutableBufferPointer {
      Shader.image(src, Transform(translationX: -1, y: 0)).shade(x: 0, y: 0, count: 4, into: $0.baseAddress!)
    }
    #expect(copied == [0, 0xFF00_0000, 0xFFFF_FFFF, 0])
    #expect(abs(red - 128) <= 1, "\(String(out[1], radix: 16))")
  }
}
