import Testing

@testable import SheenRaster

/// Whether two pixels differ by at most `tolerance` in every channel.
func close(_ a: UInt32, _ b: UInt32, _ tolerance: Int) -> Bool {
  for shift: UInt32 in [0, 8, 16, 24] {
    let ca = Int((a >> shift) & 0xFF)
    let cb = Int((b >> shift) & 0xFF)
    if abs(ca - cb) > tolerance { return false }
  }
  return true
}

@Suite struct PaintTests {
  let red = Color(red: 1, green: 0, blue: 0)
  let blue = Color(red: 0, green: 0, blue: 1)
  let green = Color(red: 0, green: 1, blue: 0)

  @Test func linearGradientHitsItsStops() throws {
    // Stops at pixel centres 0.5, 50.5 and 100.5 of a 101-pixel row.
    let s = try Surface(width: 101, height: 1)
    let g = Gradient(colors: [red, green, blue])
    Canvas(surface: s).fill(
      Rect(x: 0, y: 0, width: 101, height: 1),
      paint: .linearGradient(g, start: Point(x: 0.5, y: 0), end: Point(x: 100.5, y: 0)))
    // The ramp is a 256-entry table, so a stop between two entries is within one step
    // (1/255 of the ramp: at most 2 levels per channel between adjacent stops).
    #expect(s[0, 0] == red.premultiplied)
    #expect(close(s[50, 0], green.premultiplied, 2))
    #expect(s[100, 0] == blue.premultiplied)
    // Halfway between red and green, unpremultiplied interpolation gives (0.5, 0.5, 0); the
    // 256-entry table is within one step (1/255 of the ramp, i.e. 2 levels between 2 stops).
    let mid = s[25, 0]
    #expect(abs(Int(Pixel.red(mid)) - 128) <= 3 && abs(Int(Pixel.green(mid)) - 128) <= 3)
    // Padding beyond the ends.
    let t = try Surface(width: 10, height: 1)
    Canvas(surface: t).fill(
      Rect(x: 0, y: 0, width: 10, height: 1),
      paint: .linearGradient(g, start: Point(x: 4, y: 0), end: Point(x: 6, y: 0)))
    #expect(t[0, 0] == red.premultiplied && t[9, 0] == blue.premultiplied)
  }

  @Test func gradientInterpolatesUnpremultiplied() {
    // From transparent white to opaque black, the middle is mid-grey at half alpha, not darker.
    let g = Gradient(colors: [Color(red: 1, green: 1, blue: 1, alpha: 0), .black])
    let mid = g.color(at: 0.5)
    #expect(abs(Int(Pixel.alpha(mid)) - 128) <= 1)
    #expect(abs(Int(Pixel.red(mid)) - 64) <= 1)
  }

  @Test func degenerateGradientsFillWithTheLastColour() throws {
    let s = try Surface(width: 4, height: 4)
    let g = Gradient(colors: [red, blue])
    let c = Canvas(surface: s)
    c.fill(Rect(x: 0, y: 0, width: 2, height: 4), paint: .linearGradient(g, start: .zero, end: .zero))
    c.fill(Rect(x: 2, y: 0, width: 2, height: 4), paint: .radialGradient(g, center: .zero, radius: 0))
    #expect(s.pixels.allSatisfy { $0 == blue.premultiplied })
  }

  @Test func radialGradientDependsOnDistanceOnly() throws {
    let s = try Surface(width: 41, height: 41)
    let g = Gradient(colors: [red, blue])
    Canvas(surface: s).fill(
      Rect(x: 0, y: 0, width: 41, height: 41),
      paint: .radialGradient(g, center: Point(x: 20.5, y: 20.5), radius: 20))
    #expect(s[20, 20] == red.premultiplied)
    #expect(s[0, 20] == blue.premultiplied || Pixel.blue(s[0, 20]) >= 250)
    #expect(close(s[20, 10], s[10, 20], 1) && close(s[30, 20], s[20, 30], 1))
    // At distance 10 (t = 0.5), half way.
    #expect(abs(Int(Pixel.red(s[30, 20])) - 128) <= 2)
  }

  @Test(arguments: [1.0, 2.0, 3.5, 6.0])
  func strokeWidthMeasuredAcrossTheLine(_ width: Double) throws {
    let s = try Surface(width: 40, height: 40)
    var p = Path()
    p.move(to: Point(x: 5, y: 20.3))
    p.addLine(to: Point(x: 35, y: 20.3))
    Canvas(surface: s).stroke(p, style: StrokeStyle(width: width), paint: .solid(.white))
    // The column's summed coverage is the width of the stroke.
    var sum = 0.0
    for y in 0..<40 { sum += Double(Pixel.alpha(s[20, y])) / 255 }
    #expect(abs(sum - width) < 0.01)
    // Butt caps: nothing left of x = 5.
    #expect(Pixel.alpha(s[4, 20]) == 0)
  }

  @Test func diagonalStrokeWidth() throws {
    let s = try Surface(width: 64, height: 64)
    var p = Path()
    p.move(to: Point(x: 0, y: 0))
    p.addLine(to: Point(x: 64, y: 64))
    Canvas(surface: s).stroke(p, style: StrokeStyle(width: 4), paint: .solid(.white))
    // Across a 45-degree line, a horizontal cut through the stroke is width * sqrt(2).
    var sum = 0.0
    for x in 0..<64 { sum += Double(Pixel.alpha(s[x, 32])) / 255 }
    #expect(abs(sum - 4 * 2.0.squareRoot()) < 0.02)
  }

  @Test func sourceOverOnPremultipliedPixels() throws {
    let s = try Surface(width: 2, height: 1)
    let c = Canvas(surface: s)
    c.clear(Color(red: 0, green: 0, blue: 1))
    c.fill(Rect(x: 0, y: 0, width: 2, height: 1), paint: .solid(Color(red: 1, green: 0, blue: 0, alpha: 0.5)))
    // 0.5 red over opaque blue: (128, 0, 127, 255).
    let p = s[0, 0]
    #expect(Pixel.alpha(p) == 255 && abs(Int(Pixel.red(p)) - 128) <= 1 && abs(Int(Pixel.blue(p)) - 127) <= 1)
  }

  @Test func globalAlphaScalesEverything() throws {
    let s = try Surface(width: 4, height: 1)
    let c = Canvas(surface: s)
    c.globalAlpha = 0.25
    c.fill(Rect(x: 0, y: 0, width: 4, height: 1), paint: .solid(.white))
    #expect(s.pixels.allSatisfy { abs(Int(Pixel.alpha($0)) - 64) <= 1 })
  }
}

@Suite struct ClipAndGroupTests {
  @Test func clipToPathIsAntiAliasedAndRestored() throws {
    let s = try Surface(width: 20, height: 10)
    let c = Canvas(surface: s)
    c.save()
    c.clip(to: Path(rect: Rect(x: 0, y: 0, width: 5.5, height: 10)))
    c.fill(Rect(x: 0, y: 0, width: 20, height: 10), paint: .solid(.white))
    c.restore()
    #expect(Pixel.alpha(s[4, 5]) == 255)
    #expect(abs(Int(Pixel.alpha(s[5, 5])) - 128) <= 1)
    #expect(Pixel.alpha(s[6, 5]) == 0)
    c.fill(Rect(x: 10, y: 0, width: 10, height: 10), paint: .solid(.white))
    #expect(Pixel.alpha(s[15, 5]) == 255)
  }

  @Test func nestedClipsMultiply() throws {
    let s = try Surface(width: 10, height: 1)
    let c = Canvas(surface: s)
    c.clip(to: Path(rect: Rect(x: 0, y: 0, width: 5.5, height: 1)))
    c.clip(to: Path(rect: Rect(x: 5.0, y: 0, width: 5, height: 1)))
    c.fill(Rect(x: 0, y: 0, width: 10, height: 1), paint: .solid(.white))
    #expect(abs(Int(Pixel.alpha(s[5, 0])) - 128) <= 1)
    #expect(Pixel.alpha(s[4, 0]) == 0 && Pixel.alpha(s[6, 0]) == 0)
  }

  /// The fraction of pixel (x, y) inside `r`: the coverage an exact clip to `r` gives it.
  func areaInside(_ r: Rect, _ x: Int, _ y: Int) -> Double {
    let fx = max(0, min(Double(x + 1), r.maxX) - max(Double(x), r.minX))
    let fy = max(0, min(Double(y + 1), r.maxY) - max(Double(y), r.minY))
    return fx * fy
  }

  /// Every pixel's alpha is 255 times its area inside `r`, within one level.
  func expectAreaCoverage(_ s: Surface, _ r: Rect, sourceLocation: SourceLocation = #_sourceLocation) {
    for y in 0..<s.height {
      for x in 0..<s.width {
        let expected = Int((areaInside(r, x, y) * 255).rounded())
        let got = Int(Pixel.alpha(s[x, y]))
        #expect(abs(got - expected) <= 1, "pixel (\(x), \(y))", sourceLocation: sourceLocation)
      }
    }
  }

  // A clip to an axis-aligned rectangle off the pixel grid makes no mask until drawing crosses
  // its edge (Canvas.resolveClip); these check every way of drawing across or inside one.

  @Test func fractionalRectClipCoversByArea() throws {
    let r = Rect(x: 2.25, y: 1.5, width: 10.5, height: 7.75)
    let s = try Surface(width: 16, height: 12)
    let c = Canvas(surface: s)
    c.clip(to: r)
    c.fill(Rect(x: 0, y: 0, width: 16, height: 12), paint: .solid(.white))
    expectAreaCoverage(s, r)
  }

  @Test func maskAndClearAcrossFractionalRectClipAreClipped() throws {
    let r = Rect(x: 1.75, y: 2.5, width: 6.5, height: 4.25)
    let full = try AlphaMask(width: 12, height: 10)
    full.base.update(repeating: 255, count: 120)
    let s = try Surface(width: 12, height: 10)
    let c = Canvas(surface: s)
    c.clip(to: r)
    c.draw(mask: full, color: .white)
    expectAreaCoverage(s, r)
    let cleared = try Surface(width: 12, height: 10)
    let c2 = Canvas(surface: cleared)
    c2.clip(to: r)
    c2.clear(.white)
    expectAreaCoverage(cleared, r)
  }

  @Test func drawingInsideFractionalRectClipIsUnchanged() throws {
    let r = Rect(x: 0.5, y: 0.25, width: 14.5, height: 11.5)
    let disc = Path(ellipseIn: Rect(x: 2.3, y: 1.7, width: 9.4, height: 8.1))
    let dot = try AlphaMask(width: 3, height: 2, originX: 5, originY: 5)
    dot.base.update(repeating: 200, count: 6)
    func draw(clipped: Bool) throws -> Surface {
      let s = try Surface(width: 16, height: 12)
      let c = Canvas(surface: s)
      if clipped { c.clip(to: r) }
      c.fill(disc, paint: .solid(Color(red: 1, green: 0, blue: 0)))
      c.draw(mask: dot, color: Color(red: 0, green: 0, blue: 1, alpha: 0.5))
      return s
    }
    #expect(try draw(clipped: true).pixels == draw(clipped: false).pixels)
  }

  @Test func pathClipWithinFractionalRectClipMultiplies() throws {
    let r = Rect(x: 3.5, y: 0, width: 20, height: 5.25)
    let disc = Path(ellipseIn: Rect(x: 1, y: 1, width: 10, height: 10))
    let both = try Surface(width: 12, height: 12)
    let c = Canvas(surface: both)
    c.clip(to: r)
    c.clip(to: disc)
    c.fill(Rect(x: 0, y: 0, width: 12, height: 12), paint: .solid(.white))
    let discOnly = try Surface(width: 12, height: 12)
    let d = Canvas(surface: discOnly)
    d.clip(to: disc)
    d.fill(Rect(x: 0, y: 0, width: 12, height: 12), paint: .solid(.white))
    for y in 0..<12 {
      for x in 0..<12 {
        let expected = Int((Double(Pixel.alpha(discOnly[x, y])) * areaInside(r, x, y)).rounded())
        #expect(abs(Int(Pixel.alpha(both[x, y])) - expected) <= 1, "pixel (\(x), \(y))")
      }
    }
  }

  @Test func fractionalRectClipEndsAtRestoreAndHoldsInGroups() throws {
    let r = Rect(x: 2.5, y: 2.5, width: 5, height: 5)
    let s = try Surface(width: 10, height: 10)
    let c = Canvas(surface: s)
    c.save()
    c.clip(to: r)
    c.beginGroup()
    c.fill(Rect(x: 0, y: 0, width: 10, height: 10), paint: .solid(.white))
    c.endGroup()
    expectAreaCoverage(s, r)
    c.restore()
    c.fill(Rect(x: 0, y: 0, width: 10, height: 10), paint: .solid(.white))
    #expect(s.pixels.allSatisfy { Pixel.alpha($0) == 255 })
  }

  @Test func maskDrawnAroundHolesLeavesThemAlone() throws {
    let s = try Surface(width: 20, height: 8)
    let c = Canvas(surface: s)
    let m = try AlphaMask(width: 20, height: 8)
    m.base.update(repeating: 128, count: 160)
    // Two overlapping holes and one apart, given out of order; one reaches outside the mask.
    let holes = [
      IntRect(x: 14, y: 2, width: 9, height: 3), IntRect(x: 2, y: 1, width: 4, height: 4),
      IntRect(x: 4, y: 3, width: 4, height: 4),
    ]
    c.draw(mask: m, color: .white, skipping: holes)
    for y in 0..<8 {
      for x in 0..<20 {
        let inHole = holes.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
        #expect(Pixel.alpha(s[x, y]) == (inHole ? 0 : 128), "pixel (\(x), \(y))")
      }
    }
  }

  @Test func poolsKeepWhatFramesUseAndFreeTheRest() throws {
    let c = Canvas(surface: try Surface(width: 64, height: 64))
    // A large group once (a rare event), then a small one every frame.
    c.beginGroup()
    c.endGroup()
    for _ in 0..<200 {
      c.beginGroup(bounds: IntRect(x: 0, y: 0, width: 8, height: 8))
      c.endGroup()
      c.trimPools(age: 120)
    }
    // The small group keeps reusing the large surface, so it stays; one more large group
    // returns nothing new to the pool.
    #expect(c.groupPool.count == 1)
    // A second surface, used once, goes after 120 frames without use.
    c.beginGroup()
    c.beginGroup()
    c.endGroup()
    c.endGroup()
    #expect(c.groupPool.count == 2)
    for _ in 0..<121 {
      c.beginGroup(bounds: IntRect(x: 0, y: 0, width: 8, height: 8))
      c.endGroup()
      c.trimPools(age: 120)
    }
    #expect(c.groupPool.count == 1)
  }

  @Test func maskPoolKeepsAFewMasksAndFreesStaleOnesBeyondItsBudget() throws {
    let c = Canvas(surface: try Surface(width: 64, height: 64))
    // A soft clip (a rotated square) needs a mask, given back at restore.
    func clipOnce() {
      c.save()
      c.transform = Transform(rotationAngle: 0.3)
      c.clip(to: Path(rect: Rect(x: 10, y: 10, width: 30, height: 30)))
      c.fill(Rect(x: 0, y: 0, width: 64, height: 64), paint: .solid(.white))
      c.restore()
    }
    clipOnce()
    #expect(c.maskPool.count == 1)
    // Unused for longer than `age`, it stays while the pool is within its budget...
    for _ in 0..<200 { c.trimPools(age: 120) }
    #expect(c.maskPool.count == 1)
    // ... and goes once the pool is over it.
    clipOnce()
    for _ in 0..<200 { c.trimPools(age: 120, maskBudget: 16) }
    #expect(c.maskPool.isEmpty)
    // A mask made for a clip cut by the canvas' clip holds the whole clip: the same clip cut
    // less (a band border that moved) reuses it.
    c.save()
    c.clip(to: Rect(x: 0, y: 0, width: 64, height: 20))
    clipOnce()
    c.restore()
    let first = try #require(c.maskPool.first?.mask)
    clipOnce()
    #expect(c.maskPool.count == 1 && c.maskPool.first?.mask === first)
  }

  @Test func groupOpacityAppliesOnce() throws {
    let s = try Surface(width: 10, height: 1)
    let c = Canvas(surface: s)
    c.beginGroup()
    c.fill(Rect(x: 0, y: 0, width: 10, height: 1), paint: .solid(.white))
    c.fill(Rect(x: 0, y: 0, width: 10, height: 1), paint: .solid(.white))
    c.endGroup(opacity: 0.5)
    #expect(s.pixels.allSatisfy { abs(Int(Pixel.alpha($0)) - 128) <= 1 })
  }

  @Test func maskMultipliesAGroup() throws {
    let s = try Surface(width: 10, height: 1)
    let c = Canvas(surface: s)
    let m = try AlphaMask(width: 10, height: 1)
    m.fill(Path(rect: Rect(x: 0, y: 0, width: 2.25, height: 1)))
    c.beginGroup()
    c.fill(Rect(x: 0, y: 0, width: 10, height: 1), paint: .solid(.white))
    c.endGroup(opacity: 1, mask: m)
    #expect(Pixel.alpha(s[0, 0]) == 255 && Pixel.alpha(s[1, 0]) == 255)
    #expect(abs(Int(Pixel.alpha(s[2, 0])) - 64) <= 1)
    #expect(Pixel.alpha(s[3, 0]) == 0)
  }

  @Test func drawSurfaceWithTransformSamplesBilinearly() throws {
    let src = try Surface(width: 2, height: 1)
    src[0, 0] = 0xFF00_0000
    src[1, 0] = 0xFFFF_FFFF
    let dst = try Surface(width: 4, height: 1)
    let c = Canvas(surface: dst)
    c.draw(src, transform: Transform(scaleX: 2, y: 1))
    // Centres of destination pixels map to source x = 0.25, 0.75, 1.25, 1.75: clamped at the
    // ends to the edge texels' blend with transparency, between them a ramp.
    let v1 = Int(Pixel.red(dst[1, 0]))
    let v2 = Int(Pixel.red(dst[2, 0]))
    #expect(abs(v1 - 64) <= 2 && abs(v2 - 191) <= 2)
    // An integer translation copies pixels exactly.
    let copy = try Surface(width: 4, height: 1)
    Canvas(surface: copy).draw(src, transform: Transform(translationX: 1, y: 0))
    #expect(copy[1, 0] == 0xFF00_0000 && copy[2, 0] == 0xFFFF_FFFF && copy[0, 0] == 0)
  }
}

@Suite struct MaskTests {
  @Test func maskMultipliesASurfacesAlpha() throws {
    let s = try Surface(width: 4, height: 2)
    s.clear(Color(red: 1, green: 0.5, blue: 0).premultiplied)
    let m = try AlphaMask(width: 3, height: 2, originX: 1, originY: 0)
    m.fill(Path(rect: Rect(x: 1, y: 0, width: 1.5, height: 2)))
    m[2, 1] = 255
    s.multiplyAlpha(by: m)
    #expect(s[0, 0] == 0)  // outside the mask
    #expect(s[1, 0] == Color(red: 1, green: 0.5, blue: 0).premultiplied)
    // Half covered: every premultiplied channel halves.
    #expect(abs(Int(Pixel.alpha(s[2, 0])) - 128) <= 1 && abs(Int(Pixel.red(s[2, 0])) - 128) <= 1)
    #expect(s[3, 0] == 0 && s[3, 1] == Color(red: 1, green: 0.5, blue: 0).premultiplied)
  }
}
