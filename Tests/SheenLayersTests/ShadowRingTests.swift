import Foundation
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// A shadow of rounded rectangles is recorded as the ring its layer's body leaves showing: the
/// pixels the layer's own opaque parts cover, and coverage the shadow's colour blends to
/// nothing, are left out of the kept recording, and the frame's pixels are those of the shadow
/// worked out afresh (no recording, nothing left out) with the body drawn over it.
@Suite struct ShadowRingTests {
  /// The coverage of a placed recording: filled in opaque black over a clear surface, each
  /// pixel's alpha is its coverage.
  func coverage(_ p: ShadowCache.Placed, width: Int, height: Int) throws -> [UInt8] {
    let s = try Surface(width: width, height: height)
    let c = Canvas(surface: s)
    c.clear(.clear)
    c.fill(p.mask, offsetX: p.dx, offsetY: p.dy, paint: .solid(.black))
    return s.pixels.map { UInt8(truncatingIfNeeded: $0 >> 24) }
  }

  @Test func aShadowIsRecordedWithoutItsCutAndItsFaintestCoverage() throws {
    let cache = ShadowCache()
    let canvas = Canvas(surface: try Surface(width: 4, height: 4))
    let profiles = ShadowProfiles()
    var stats = RenderContext.Statistics()
    let shapes = [ShadowShape(rect: Rect(x: 0, y: 0, width: 60, height: 40), radii: CornerRadii(all: 10))]
    let ctm = Transform(translationX: 20.3, y: 18.6)
    let offset = Point(x: 0.25, y: 2.5)
    // The card's opaque parts in device pixels (the cross between its corners).
    let cut = [IntRect(x: 21, y: 29, width: 59, height: 19), IntRect(x: 31, y: 19, width: 39, height: 39)]
    let floor: UInt8 = 3
    let whole = try #require(
      cache.analyticShadow(
        shapes: shapes, ctm: ctm, sigma: 4, offset: offset, floor: 1, canvas: canvas, profiles: profiles,
        stats: &stats))
    let ring = try #require(
      cache.analyticShadow(
        shapes: shapes, ctm: ctm, sigma: 4, offset: offset, floor: floor, cut: cut, canvas: canvas,
        profiles: profiles, stats: &stats))
    #expect(!whole.isCut && ring.isCut)
    // Fewer bytes: no inside, and no faint edge.
    #expect(ring.mask.byteCount < whole.mask.byteCount * 3 / 4)
    let w = 110
    let h = 90
    let a = try coverage(whole, width: w, height: h)
    let b = try coverage(ring, width: w, height: h)
    var kept = 0
    for y in 0..<h {
      for x in 0..<w {
        let inCut = cut.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
        let want: UInt8 = inCut || a[y * w + x] < floor ? 0 : a[y * w + x]
        #expect(b[y * w + x] == want, "(\(x), \(y)): \(b[y * w + x]), want \(want)")
        if want > 0 { kept += 1 }
      }
    }
    #expect(kept > 1000)
    // Asked again (the next frame), the same recordings are given: nothing is worked out again.
    let made = stats.analyticShadows
    let again = try #require(
      cache.analyticShadow(
        shapes: shapes, ctm: ctm, sigma: 4, offset: offset, floor: floor, cut: cut, canvas: canvas,
        profiles: profiles, stats: &stats))
    #expect(again.isCut && again.mask === ring.mask && stats.analyticShadows == made)
    // The same card one whole pixel along shares the ring; its cut moved with it.
    let moved = cut.map { IntRect(x: $0.x + 1, y: $0.y, width: $0.width, height: $0.height) }
    let along = try #require(
      cache.analyticShadow(
        shapes: shapes, ctm: Transform(translationX: 21.3, y: 18.6), sigma: 4, offset: offset, floor: floor,
        cut: moved, canvas: canvas, profiles: profiles, stats: &stats))
    #expect(along.isCut && along.mask === ring.mask && along.dx == ring.dx + 1)
    // A different cut is another recording.
    let other = try #require(
      cache.analyticShadow(
        shapes: shapes, ctm: ctm, sigma: 4, offset: offset, floor: floor, cut: [cut[0]], canvas: canvas,
        profiles: profiles, stats: &stats))
    #expect(other.isCut && other.mask !== ring.mask)
  }

  /// Cards over a coloured background (light shadows as the gallery's tiles, at fractional
  /// places, one with an opaque sublayer and one with a translucent background, so their own
  /// parts differ), drawn as a frame, then again: every pixel equals the shadows filled afresh
  /// (`fillShadow`, nothing recorded or left out) with the cards drawn over them.
  @Test func aFrameOfRingsEqualsShadowsWorkedOutAfresh() throws {
    func cards() -> [Layer] {
      var layers: [Layer] = []
      for k in 0..<6 {
        let l = Layer()
        l.frame = Rect(
          x: 12.25 + Double(k % 3) * 60.5, y: 10.5 + Double(k / 3) * 62.75, width: 44, height: 48)
        l.cornerRadius = 9
        l.backgroundColor = k == 4 ? Color(red: 1, green: 1, blue: 1, alpha: 0.6) : .white
        l.shadowOpacity = k == 5 ? 1 : 0.2
        l.shadowRadius = k == 2 ? 1 : 4
        l.shadowOffset = Size(width: Double(k) * 0.25, height: 2)
        if k == 1 {
          let icon = Layer()
          icon.frame = Rect(x: 10, y: 8, width: 24, height: 24)
          icon.cornerRadius = 12
          icon.backgroundColor = .testBlue
          l.addSublayer(icon)
        }
        layers.append(l)
      }
      return layers
    }
    let background = Color(red: 0.95, green: 0.95, blue: 0.97)
    let w = 200
    let h = 140
    let compositor = Compositor()
    let first = try render(cards(), width: w, height: h, background: background, compositor: compositor)
    let second = try render(cards(), width: w, height: h, background: background, compositor: compositor)
    #expect(compositor.context.statistics.blurs == 0)
    // The reference: each card's shadow filled per pixel, then the card with no shadow.
    let s = try Surface(width: w, height: h)
    let c = Canvas(surface: s)
    c.clear(background)
    let plain = Compositor()
    for l in cards() {
      l.resolveAlphaShapes()
      let shapes = try #require(l.alphaShapes)
      let ctm = Transform(translationX: l.frame.minX, y: l.frame.minY)
      let color = Color.black.withAlphaMultiplied(by: l.shadowOpacity)
      #expect(
        c.fillShadow(
          shapes, transform: ctm, sigma: l.shadowRadius, dx: l.shadowOffset.width, dy: l.shadowOffset.height,
          color: color, skipping: [], profiles: plain.context.shadowProfiles))
      l.shadowOpacity = 0
      plain.render([l], in: c)
    }
    var differing = 0
    for (k, (p, q)) in zip(first.pixels, s.pixels).enumerated() where p != q {
      if differing < 5 {
        Issue.record("pixel (\(k % w), \(k / w)): \(String(p, radix: 16)), want \(String(q, radix: 16))")
      }
      differing += 1
    }
    #expect(differing == 0)
    #expect(second.pixels == first.pixels)
  }

  /// A recorded shadow's spans of partial coverage take in zeros beside them to be whole quads
  /// long (nearly all of a tile's ring), and those zeros leave their pixels as they are: the ring
  /// filled over a noisy background is, pixel by pixel, its coverage's source-over (worked out
  /// here per channel) and the background untouched where its coverage is 0.
  @Test func ringSpansAreWholeQuadsAndTheirZerosChangeNothing() throws {
    let cache = ShadowCache()
    let canvas = Canvas(surface: try Surface(width: 4, height: 4))
    var stats = RenderContext.Statistics()
    let shapes = [ShadowShape(rect: Rect(x: 0, y: 0, width: 78, height: 84), radii: CornerRadii(all: 12))]
    let ctm = Transform(translationX: 24, y: 24)
    let cut = [IntRect(x: 24, y: 36, width: 78, height: 60), IntRect(x: 36, y: 24, width: 54, height: 84)]
    let ring = try #require(
      cache.analyticShadow(
        shapes: shapes, ctm: ctm, sigma: 4, offset: Point(x: 0, y: 2), floor: 3, cut: cut, canvas: canvas,
        profiles: ShadowProfiles(), stats: &stats))
    let mask = ring.mask
    var partial = 0
    var whole = 0
    for r in mask.runs where r.start >= 0 {
      partial += 1
      if r.count % 4 == 0 { whole += 1 }
    }
    #expect(partial > 100 && whole * 100 >= partial * 95, "\(whole) of \(partial) spans are whole quads")
    // Filled over noise.
    let w = 140
    let h = 140
    let s = try Surface(width: w, height: h)
    var seed: UInt32 = 99
    for k in 0..<(w * h) {
      seed = seed &* 1_103_515_245 &+ 12345
      let a = UInt32(seed >> 24)
      // Premultiplied: no channel above alpha.
      let c = (seed >> 8) & 0xFF
      s[k % w, k / w] = a << 24 | min(c, a) << 16 | min(c / 2, a) << 8 | min(c / 3, a)
    }
    let before = s.pixels
    let black = try coverage(ring, width: w, height: h)
    let color = Color.black.withAlphaMultiplied(by: 0.2)
    Canvas(surface: s).fill(mask, offsetX: ring.dx, offsetY: ring.dy, paint: .solid(color))
    let after = s.pixels
    let ca = Int(color.premultiplied >> 24)
    var differing = 0
    for k in 0..<(w * h) {
      let cov = Int(black[k])
      let d = before[k]
      var want = d
      if cov > 0 {
        let sa = Int((Double(ca * cov) / 255).rounded())
        want = 0
        for shift in stride(from: 0, through: 24, by: 8) {
          let dc = Int((d >> UInt32(shift)) & 0xFF)
          let v = (shift == 24 ? sa : 0) + Int((Double(dc * (255 - sa)) / 255).rounded())
          want |= UInt32(v) << UInt32(shift)
        }
      }
      if after[k] != want {
        if differing < 5 {
          Issue.record(
            "(\(k % w), \(k / w)): \(String(after[k], radix: 16)), want \(String(want, radix: 16))")
        }
        differing += 1
      }
    }
    #expect(differing == 0)
  }
}
