import Foundation
import SheenTestSupport
import Testing

@testable import SheenRaster

/// Recorded coverage (`Canvas.recordCoverage`) drawn anywhere gives what filling the path there
/// gives: the same spans, moved by whole pixels.
@Suite struct CoverageRecordingTests {
  let shapes: [(String, Path, FillRule)] = {
    var ring = Path(ellipseIn: Rect(x: 1, y: 2, width: 26, height: 20))
    ring.addPath(Path(ellipseIn: Rect(x: 7, y: 7, width: 12, height: 9)))
    var star = Path()
    for i in 0..<10 {
      let r = i % 2 == 0 ? 13.0 : 5.0
      let a = Double(i) * .pi / 5
      let p = Point(x: 15 + r * sin(a), y: 14 - r * cos(a))
      if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
    }
    star.closeSubpath()
    return [
      (
        "rounded rect", Path(roundedRect: Rect(x: 0.3, y: 0.6, width: 27.1, height: 19.4), cornerRadius: 6),
        .nonZero
      ),
      ("even-odd ring", ring, .evenOdd),
      ("star", star, .nonZero),
    ]
  }()

  @Test(arguments: [(0, 0), (5, 3), (-9, 11), (17, -6)])
  func replayMatchesFillingInPlace(dx: Int, dy: Int) throws {
    for (name, path, rule) in shapes {
      let t = Transform(translationX: 2.25, y: 1.5)
      // Drawn through a soft clip that cuts the shape, and a clip rectangle that cuts it too.
      func canvas() throws -> (Surface, Canvas) {
        let s = try Surface(width: 40, height: 36)
        let c = Canvas(surface: s)
        c.clip(to: Rect(x: 3, y: 0, width: 40, height: 29))
        c.clip(to: Path(ellipseIn: Rect(x: -10, y: -6, width: 52, height: 44)))
        return (s, c)
      }
      let (direct, d) = try canvas()
      d.transform = t.concatenating(Transform(translationX: Double(dx), y: Double(dy)))
      d.fill(path, paint: .solid(Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8)), rule: rule)
      let (replayed, r) = try canvas()
      let recording = try #require(r.recordCoverage(path, transform: t, rule: rule))
      r.fill(
        recording, offsetX: dx, offsetY: dy, paint: .solid(Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8))
      )
      // Float rounding of positions relative to a different clip origin: a level at most.
      #expect(
        ReferenceImage.largestChannelDifference(direct, replayed) <= 1, "\(name) moved by (\(dx), \(dy))")
      #expect(replayed.pixels.contains { $0 != 0 }, "\(name) drew nothing")
    }
  }

  @Test func clipToRecordingMatchesClipToPath() throws {
    for (name, path, rule) in shapes where rule == .nonZero {
      let t = Transform(translationX: 0.5, y: 0.75)
      let direct = try Surface(width: 40, height: 36)
      let d = Canvas(surface: direct)
      d.transform = t.concatenating(Transform(translationX: 6, y: 4))
      d.clip(to: path)
      d.transform = .identity
      d.fill(Rect(x: 0, y: 0, width: 40, height: 36), paint: .solid(.white))
      let replayed = try Surface(width: 40, height: 36)
      let r = Canvas(surface: replayed)
      let recording = try #require(r.recordCoverage(path, transform: t))
      r.clip(to: recording, offsetX: 6, offsetY: 4)
      r.fill(Rect(x: 0, y: 0, width: 40, height: 36), paint: .solid(.white))
      #expect(ReferenceImage.largestChannelDifference(direct, replayed) <= 1, "\(name)")
    }
  }

  /// A mask held as runs (zeros left out, long runs of 255 kept as one) draws exactly as the
  /// mask itself, through a soft clip and around holes.
  @Test func maskAsRunsDrawsAsTheMask() throws {
    let m = try AlphaMask(width: 40, height: 30, originX: -3, originY: 2)
    m.fill(Path(roundedRect: Rect(x: 2, y: 5, width: 30, height: 22), cornerRadius: 6))
    m.blur(sigma: 2)
    // Some zeros and short runs of 255 inside too.
    for x in 10..<13 { m[x, 15] = 0 }
    for x in 20..<23 { m[x, 8] = 255 }
    let runs = Coverage(mask: m)
    // A card's shadow takes far fewer bytes as runs.
    let card = try AlphaMask(width: 300, height: 200)
    card.fill(Path(roundedRect: Rect(x: 30, y: 30, width: 240, height: 140), cornerRadius: 16))
    card.blur(sigma: 8)
    #expect(Coverage(mask: card).byteCount < card.width * card.height * 2 / 3)
    let holes = [IntRect(x: 12, y: 10, width: 8, height: 9), IntRect(x: 6, y: 14, width: 9, height: 3)]
    let color = Color(red: 0.1, green: 0.1, blue: 0.3, alpha: 0.4)
    func draw(_ body: (Canvas) -> Void) throws -> Surface {
      let s = try Surface(width: 40, height: 36)
      let c = Canvas(surface: s)
      c.fill(Rect(x: 0, y: 0, width: 40, height: 36), paint: .solid(Color(red: 0.9, green: 0.8, blue: 0.7)))
      c.clip(to: Path(ellipseIn: Rect(x: -4, y: 0, width: 44, height: 34)))
      body(c)
      return s
    }
    let expected = try draw { $0.draw(mask: m, color: color, offsetX: 2, offsetY: 1, skipping: holes) }
    let got = try draw { $0.fill(runs, offsetX: 2, offsetY: 1, paint: .solid(color), skipping: holes) }
    #expect(got.pixels == expected.pixels)
  }

  /// Recorded coverage in a solid colour with no clip mask (the path shadows, glyphs and kept
  /// shapes take, four pixels at a time in 16-bit lanes) blends every pixel exactly as source-over
  /// of the colour scaled by the coverage, worked out here per channel with rounded division:
  /// every coverage 0...255 over varied backgrounds, runs of every length and phase, full and
  /// empty quads, opaque and translucent colours, around holes that overlap and cut runs, and
  /// cut by a clip rectangle on the pixel grid.
  @Test(arguments: [
    Color(red: 0.13, green: 0.25, blue: 0.5), Color(red: 0.3, green: 0.1, blue: 0.5, alpha: 0.4),
    Color(red: 0, green: 0, blue: 0, alpha: 0.2), Color.white,
  ])
  func solidReplayBlendsEveryPixelBySourceOver(paint: Color) throws {
    let color = paint.premultiplied
    let w = 70
    let h = 24
    let m = try AlphaMask(width: w, height: h, originX: 0, originY: 0)
    var seed: UInt32 = 12345
    func next() -> UInt32 {
      seed = seed &* 1_103_515_245 &+ 12345
      return seed >> 8
    }
    for y in 0..<h {
      for x in 0..<w {
        switch (x / 4 + y) % 5 {
        case 0: m[x, y] = 0  // empty quads, and zeros inside runs
        case 1: m[x, y] = 255  // full quads
        default: m[x, y] = UInt8(truncatingIfNeeded: (x * 37 + y * 11 + Int(next())) % 256)
        }
      }
    }
    // Every coverage value appears somewhere.
    for c in 0..<256 { m[c % w, (c / w) * 5 + 2] = UInt8(c) }
    let runs = Coverage(mask: m, solidRun: 5, zeroGap: 3)
    let holes = [
      IntRect(x: 30, y: 3, width: 9, height: 6), IntRect(x: 33, y: 5, width: 11, height: 9),
      IntRect(x: 7, y: 12, width: 3, height: 7),
    ]
    let s = try Surface(width: w + 4, height: h + 4)
    var background: [UInt32] = []
    for _ in 0..<(s.width * s.height) {
      // Premultiplied: each channel at most the alpha.
      let a = next() % 256
      let ch = { a == 0 ? 0 : next() % (a + 1) }
      background.append(a << 24 | ch() << 16 | ch() << 8 | ch())
    }
    for y in 0..<s.height { for x in 0..<s.width { s[x, y] = background[y * s.width + x] } }
    let canvas = Canvas(surface: s)
    canvas.clip(to: Rect(x: 1, y: 0, width: Double(w + 1), height: Double(h + 1)))
    canvas.fill(runs, offsetX: 2, offsetY: 1, paint: .solid(paint), skipping: holes)
    func div255(_ x: UInt32) -> UInt32 { UInt32((Double(x) / 255).rounded()) }
    for y in 0..<s.height {
      for x in 0..<s.width {
        let d = background[y * s.width + x]
        var c: UInt32 = 0
        let mx = x - 2
        let my = y - 1
        let inHole = holes.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
        if mx >= 0, my >= 0, mx < w, my < h, x >= 1, x < w + 2, y < h + 1, !inHole {
          c = UInt32(m[mx, my])
        }
        var expected: UInt32 = 0
        let sa = div255((color >> 24) * c)
        for shift in stride(from: 0, through: 24, by: 8) {
          let src = div255(((color >> UInt32(shift)) & 0xFF) * c)
          let dst = div255(((d >> UInt32(shift)) & 0xFF) * (255 - sa))
          expected |= (src + dst) << UInt32(shift)
        }
        #expect(s[x, y] == expected, "pixel (\(x), \(y)) coverage \(c) over \(String(d, radix: 16))")
        if s[x, y] != expected { return }
      }
    }
  }

  /// Holes leave exactly their pixels alone, whatever they are: several on one row, overlapping,
  /// empty, wholly above, below, left or right of what is replayed, or reaching past the clip;
  /// drawn in a solid colour with no clip mask (the inlined blend) and through a soft clip (the
  /// paint sink). Expected: the same replay with no holes, with the background put back inside
  /// each hole.
  @Test(arguments: [false, true])
  func holesLeaveExactlyTheirPixels(softClip: Bool) throws {
    let m = try AlphaMask(width: 50, height: 30, originX: 3, originY: 2)
    m.fill(Path(roundedRect: Rect(x: 4, y: 3, width: 44, height: 26), cornerRadius: 9))
    m.blur(sigma: 1.5)
    let runs = Coverage(mask: m, solidRun: 4)
    let holes = [
      IntRect(x: 10, y: 6, width: 5, height: 12), IntRect(x: 12, y: 9, width: 9, height: 4),
      IntRect(x: 30, y: 6, width: 6, height: 20), IntRect(x: 44, y: 0, width: 30, height: 8),
      IntRect(x: 20, y: 20, width: 0, height: 5), IntRect(x: 25, y: 14, width: 3, height: 0),
      IntRect(x: 0, y: 40, width: 60, height: 4), IntRect(x: -9, y: 0, width: 4, height: 40),
      IntRect(x: 60, y: 5, width: 5, height: 5), IntRect(x: 0, y: -6, width: 60, height: 4),
    ]
    let background = Color(red: 0.7, green: 0.9, blue: 0.8)
    let paint = Color(red: 0.2, green: 0.1, blue: 0.6, alpha: 0.7)
    func draw(_ holes: [IntRect]) throws -> Surface {
      let s = try Surface(width: 58, height: 38)
      let c = Canvas(surface: s)
      c.fill(Rect(x: 0, y: 0, width: 58, height: 38), paint: .solid(background))
      c.clip(to: Rect(x: 2, y: 1, width: 50, height: 33))
      if softClip { c.clip(to: Path(ellipseIn: Rect(x: -6, y: -4, width: 66, height: 46))) }
      c.fill(runs, offsetX: 1, offsetY: 2, paint: .solid(paint), skipping: holes)
      return s
    }
    let whole = try draw([])
    let cut = try draw(holes)
    let bare = try draw([IntRect(x: 0, y: 0, width: 58, height: 38)])
    var leftAlone = 0
    for y in 0..<whole.height {
      for x in 0..<whole.width {
        let inHole = holes.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
        let expected = inHole ? bare[x, y] : whole[x, y]
        if inHole && whole[x, y] != bare[x, y] { leftAlone += 1 }
        #expect(cut[x, y] == expected, "pixel (\(x), \(y))")
        if cut[x, y] != expected { return }
      }
    }
    // The holes did cover drawn pixels.
    #expect(leftAlone > 100)
  }

  /// Short gaps of zeros kept inside runs (text) change no pixel, and take fewer runs.
  @Test func zeroGapsInsideRunsDrawTheSame() throws {
    let m = try AlphaMask(width: 40, height: 6, originX: 1, originY: 2)
    for y in 0..<6 {
      for x in 0..<40 where (x / 3 + y) % 3 != 0 { m[x, y] = UInt8(40 + 5 * x) }
    }
    let plain = Coverage(mask: m)
    let merged = Coverage(mask: m, zeroGap: 8)
    #expect(merged.runs.count < plain.runs.count)
    #expect(merged.runs.count == 6)
    for c in [plain, merged] {
      let s = try Surface(width: 44, height: 10)
      Canvas(surface: s).fill(c, offsetX: 1, offsetY: 1, paint: .solid(.white))
      let expected = try Surface(width: 44, height: 10)
      Canvas(surface: expected).draw(mask: m, color: .white, offsetX: 1, offsetY: 1)
      #expect(s.pixels == expected.pixels)
    }
  }

  /// A rectangle clip off the pixel grid stays pending while what is drawn stays inside it
  /// within the clip bounds, however far the recording reaches beyond them (a label cut by a
  /// band border).
  @Test func coverageBeyondTheClipBoundsLeavesAPendingRectangle() throws {
    let s = try Surface(width: 40, height: 40)
    let c = Canvas(surface: s)
    c.clip(to: Rect(x: 0, y: 10, width: 40, height: 10))  // a band: rows 10..<20
    c.clip(to: Rect(x: 4.5, y: 2.5, width: 30, height: 30))  // its fractional edges lie outside
    let tall = try AlphaMask(width: 20, height: 36, originX: 8, originY: 0)
    tall.clear(255)
    c.fill(Coverage(mask: tall), offsetX: 0, offsetY: 0, paint: .solid(.white))
    #expect(c.state.pendingRect != nil)
    #expect(Pixel.alpha(s[10, 15]) == 255 && Pixel.alpha(s[10, 9]) == 0 && Pixel.alpha(s[10, 20]) == 0)
    // Across the fractional left edge it is folded into the clip mask.
    let wide = try AlphaMask(width: 20, height: 36, originX: 0, originY: 0)
    wide.clear(255)
    c.fill(Coverage(mask: wide), offsetX: 0, offsetY: 0, paint: .solid(.white))
    #expect(c.state.pendingRect == nil)
    #expect(Pixel.alpha(s[4, 15]) == 128 && Pixel.alpha(s[3, 15]) == 0)
  }

  @Test func recordingRefusesWhatIsTooLargeOrEmpty() throws {
    let c = Canvas(surface: try Surface(width: 4, height: 4))
    #expect(
      c.recordCoverage(Path(rect: Rect(x: 0, y: 0, width: 5000, height: 5000)), transform: .identity) == nil)
    #expect(c.recordCoverage(Path(), transform: .identity) == nil)
    #expect(
      c.recordCoverage(Path(rect: Rect(x: 0, y: 0, width: 1e300, height: 2)), transform: .identity) == nil)
  }

  /// A recording keeps arrays of exactly its size (the scratch it grew in goes back to a pool):
  /// what `byteCount` says is what it holds, give or take the allocator's rounding; and
  /// recordings made one after another, of different sizes, each hold their own spans.
  @Test func recordingsHoldNoRoomBeyondTheirSpans() throws {
    let c = Canvas(surface: try Surface(width: 8, height: 8))
    var kept: [(Coverage, Path)] = []
    for i in 0..<12 {
      let r = Double(20 + i * 37)
      let path = Path(ellipseIn: Rect(x: 0.5, y: 0.25, width: r, height: r * 0.7))
      let made = try #require(c.recordCoverage(path, transform: .identity))
      // Slack is what the allocator adds: glibc rounds a chunk to 16 bytes and hands over a whole
      // free chunk when what would be left is under its 32-byte minimum, so up to 46 bytes more
      // than asked (a recording left in its doubling scratch would hold up to half again).
      func slack<T>(_ a: [T]) -> Int { (a.capacity - a.count) * MemoryLayout<T>.stride }
      #expect(slack(made.rowStarts) < 48 && slack(made.runs) < 48 && slack(made.alphas) < 48)
      #expect(made.rowStarts.count == made.bounds.height + 1)
      kept.append((made, path))
    }
    // Each still draws what filling its path draws.
    for (made, path) in kept {
      let w = made.bounds.maxX + 2
      let h = made.bounds.maxY + 2
      let a = try Surface(width: w, height: h)
      let b = try Surface(width: w, height: h)
      Canvas(surface: a).fill(made, offsetX: 0, offsetY: 0, paint: .solid(.black))
      Canvas(surface: b).fill(path, paint: .solid(.black))
      #expect(a.pixels == b.pixels)
    }
  }
}
