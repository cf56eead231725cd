import SheenTestSupport
import Testing

@testable import SheenRaster

/// Translucent black kept as alphas in a run image (RunImage.swift, kind 3): a shadow's pixels
/// take a byte each, and the image still composites, expands and draws through a clip exactly as
/// the surface it was made from.
@Suite struct RunImageShadowTests {
  /// Rows of every neighbourhood translucent black can have: stretches of 1 to 12 black pixels
  /// alone, at the start, middle and end of coloured translucent ones, next to opaque and
  /// transparent pixels, and a shadow's falloff.
  static func shadowSurface() throws -> Surface {
    let w = 96
    let s = try Surface(width: w, height: 24)
    let colour = { (x: Int) in Pixel.premultiplied(r: 200, g: 40, b: UInt8(x), a: UInt8(30 + x % 200)) }
    let black = { (x: Int) in UInt32(1 + (x * 37) % 254) << 24 }
    for y in 0..<24 {
      let n = 1 + y % 12
      for x in 0..<w {
        var p: UInt32
        switch y / 12 {
        case 0:
          // Black stretches of n between coloured translucent, opaque and transparent pixels.
          switch x % (3 * n + 9) {
          case 0..<n: p = black(x)
          case n..<(n + 3): p = colour(x)
          case (n + 3)..<(2 * n + 3): p = black(x)
          case (2 * n + 3)..<(2 * n + 6): p = 0xFF12_3456 &+ UInt32(x)
          case (2 * n + 6)..<(3 * n + 6): p = black(x)
          default: p = 0
          }
        default:
          // A shadow's falloff from an opaque card's edge, and one coloured pixel in it.
          let d = abs(x - 48)
          p = d < 8 ? 0xFFFF_FFFF : (d < 40 ? UInt32(255 - (d - 8) * 7) << 24 : 0)
          if x == 20 + n { p = colour(x) }
        }
        s[x, y] = p
      }
    }
    return s
  }

  /// A background with every channel varying.
  static func background(_ w: Int, _ h: Int) throws -> Surface {
    let s = try Surface(width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        s[x, y] = Pixel.premultiplied(
          r: UInt8(x * 5 % 256), g: UInt8(y * 11 % 256), b: 90, a: UInt8(128 + x % 128))
      }
    }
    return s
  }

  @Test func translucentBlackCompositesExactlyAsItsPixels() throws {
    let source = try Self.shadowSurface()
    let runs = RunImage(source)
    // Each row expands to the surface's row.
    let line = try Surface(width: source.width, height: 1)
    for y in 0..<source.height {
      runs.expand(row: y, into: line.row(0))
      for x in 0..<source.width { #expect(line[x, 0] == source[x, y], "row \(y), column \(x)") }
    }
    // Source-over of each pixel, worked out one pixel at a time, over a varied background, at
    // an offset (quads of four and the leftovers start at other columns).
    for offset in [0, 1, 3] {
      let expected = try Self.background(110, 30)
      let got = try Self.background(110, 30)
      for y in 0..<source.height {
        for x in 0..<source.width {
          expected[x + offset, y + 2] = Pixel.sourceOver(source[x, y], expected[x + offset, y + 2])
        }
      }
      Canvas(surface: got).draw(runs, x: offset, y: 2)
      #expect(got.pixels == expected.pixels, "offset \(offset)")
    }
    // Cut by a clip that starts within runs.
    let clipped = try Self.background(110, 30)
    let reference = try Self.background(110, 30)
    let c = Canvas(surface: clipped)
    c.clip(to: Rect(x: 13, y: 4, width: 61, height: 9))
    c.draw(runs, x: 0, y: 0)
    for y in 4..<13 {
      for x in 13..<74 { reference[x, y] = Pixel.sourceOver(source[x, y], reference[x, y]) }
    }
    #expect(clipped.pixels == reference.pixels)
    // Through a soft clip, as the surface blitted through the same clip.
    let soft = try Self.background(110, 30)
    let blitted = try Self.background(110, 30)
    for (s, draw) in [(soft, true), (blitted, false)] {
      let k = Canvas(surface: s)
      k.clip(to: Path(ellipseIn: Rect(x: 2, y: 1, width: 100, height: 26)))
      if draw { k.draw(runs, x: 4, y: 2) } else { k.blit(source, x: 4, y: 2) }
    }
    #expect(soft.pixels == blitted.pixels)
  }

  @Test func aShadowTakesAByteAPixel() throws {
    // A card's shadow: translucent black all round an opaque white body.
    let s = try Surface(width: 300, height: 200)
    for y in 0..<200 {
      for x in 0..<300 {
        let d = max(max(20 - x, x - 279), max(20 - y, y - 179), 0)
        s[x, y] = d == 0 ? 0xFFFF_FFFF : UInt32(max(1, 200 - d * 9)) << 24
      }
    }
    let shadowPixels = 300 * 200 - 260 * 160
    let image = RunImage(s)
    // A byte for each shadow pixel, runs of 8 bytes (at most four a row), row starts.
    #expect(image.byteCount <= shadowPixels + 200 * (4 * 8 + 4) + 16)
    #expect(image.byteCount > shadowPixels)
    // Short black stretches among coloured translucent pixels stay with them (a run costs more
    // than the three bytes a pixel saves): one run a row.
    let mixed = try Surface(width: 64, height: 4)
    for y in 0..<4 {
      for x in 0..<64 {
        mixed[x, y] = x % 4 < 2 ? UInt32(90) << 24 : Pixel.premultiplied(r: 50, g: 60, b: 70, a: 90)
      }
    }
    #expect(RunImage(mixed).byteCount == RunImage.runsOffset(4) + 4 * 8 + 64 * 4 * 4)
  }

  /// Random rows of runs of every kind: the image composites as the per-pixel formula.
  @Test func randomRowsCompositeAsTheirPixels() throws {
    var rng = SplitMix(seed: 0x5EED_17B)
    for round in 0..<40 {
      let w = 1 + Int(rng.next() % 150)
      let h = 1 + Int(rng.next() % 6)
      let s = try Surface(width: w, height: h)
      for y in 0..<h {
        var x = 0
        while x < w {
          let n = 1 + Int(rng.next() % 14)
          let kind = rng.next() % 5
          for i in x..<min(w, x + n) {
            let a = UInt8(1 + rng.next() % 254)
            switch kind {
            case 0: s[i, y] = 0
            case 1: s[i, y] = UInt32(a) << 24
            case 2: s[i, y] = Pixel.premultiplied(r: UInt8(rng.next() % 256), g: 7, b: 9, a: a)
            case 3: s[i, y] = 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
            default: s[i, y] = 0xFF40_5060
            }
          }
          x += n
        }
      }
      let image = RunImage(s)
      let ox = Int(rng.next() % 5)
      let expected = try Self.background(w + 5, h + 1)
      let got = try Self.background(w + 5, h + 1)
      for y in 0..<h {
        for x in 0..<w { expected[x + ox, y + 1] = Pixel.sourceOver(s[x, y], expected[x + ox, y + 1]) }
      }
      Canvas(surface: got).draw(image, x: ox, y: 1)
      #expect(got.pixels == expected.pixels, "round \(round)")
      // Through a soft clip (coverage 0, 255 and between, quads of each and mixed): as the
      // surface blitted through the same clip (each pixel scaled by its coverage, then over).
      let soft = try Self.background(w + 5, h + 1)
      let blitted = try Self.background(w + 5, h + 1)
      for (t, draw) in [(soft, true), (blitted, false)] {
        let k = Canvas(surface: t)
        k.clip(to: Path(ellipseIn: Rect(x: 0.3, y: -2.6, width: Double(w) + 3.1, height: Double(h) + 5.4)))
        if draw { k.draw(image, x: ox, y: 1) } else { k.blit(s, x: ox, y: 1) }
      }
      #expect(soft.pixels == blitted.pixels, "round \(round), soft clip")
    }
  }
}
