import Testing

@testable import SheenRaster

/// The 16-bit-lane blending (`Blend.swift`) against source-over worked out here per channel with
/// rounded division in floating point: every division the lanes make, and solid colours blended
/// with per-pixel coverage over spans of every short length and alignment (the quads, the last
/// one to three pixels, colours with and without colour channels).
@Suite struct BlendLaneTests {
  /// `x / 255` rounded to nearest, independently of the code under test.
  private func div255(_ x: Int) -> Int { Int((Double(x) / 255).rounded()) }

  /// The colour `c` (premultiplied) at coverage `k` over `d`, channel by channel.
  private func expected(_ c: UInt32, coverage k: Int, over d: UInt32) -> UInt32 {
    if k == 0 { return d }
    let sa = div255(Int(c >> 24) * k)
    var out: UInt32 = 0
    for shift in stride(from: 0, through: 24, by: 8) {
      let s = div255(Int((c >> UInt32(shift)) & 0xFF) * k)
      let t = div255(Int((d >> UInt32(shift)) & 0xFF) * (255 - sa))
      out |= UInt32(s + t) << UInt32(shift)
    }
    return out
  }

  /// The lanes' division by 255 equals rounded division for every product of two bytes, in
  /// every lane.
  @Test func laneDivisionIsRoundedForEveryProduct() {
    var x = 0
    while x <= 65025 {
      var lanes = Quad(repeating: 0)
      for i in 0..<8 { lanes[i] = UInt16(min(65025, x + i)) }
      let got = SheenRaster.div255(lanes)
      for i in 0..<8 {
        let v = min(65025, x + i)
        #expect(Int(got[i]) == div255(v), "div255(\(v))")
      }
      x += 8
    }
  }

  /// Spans of 0 to 13 pixels at 4 alignments, with coverage quads that are empty, full and mixed
  /// and every coverage value somewhere, over premultiplied backgrounds: each pixel is the
  /// colour at its coverage over it, and the pixels either side are untouched.
  @Test(arguments: [
    0x3300_0000 as UInt32,  // a black shadow at 20%: alpha only
    0xFF00_0000,  // opaque black
    0xFF1C_1C1E,  // opaque text colour
    0xFFFF_FFFF,  // opaque white
    0x6633_1A00,  // translucent, premultiplied
    0x0000_0000,  // clear
  ])
  func solidColourOverCoverageIsSourceOver(color: UInt32) {
    var seed: UInt32 = 2024
    func next() -> UInt32 {
      seed = seed &* 1_103_515_245 &+ 12345
      return seed >> 8
    }
    let width = 24
    let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
    let coverage = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
    defer {
      pixels.deallocate()
      coverage.deallocate()
    }
    var covered = Set<Int>()
    for round in 0..<40 {
      for start in 0..<4 {
        for count in 0...13 {
          var before: [UInt32] = []
          for i in 0..<width {
            let a = next() % 256
            let ch = { a == 0 ? 0 : next() % (a + 1) }
            pixels[i] = a << 24 | ch() << 16 | ch() << 8 | ch()
            before.append(pixels[i])
            let kind = (i / 4 + round) % 4
            let mixed = (round + i) % 7 == 0 ? UInt32((round * 13 + i) % 256) : next() % 256
            let k: UInt32 = kind == 0 ? 0 : kind == 1 ? 255 : mixed
            coverage[i] = UInt8(k)
          }
          for i in start..<(start + count) { covered.insert(Int(coverage[i])) }
          blendSolidLanes(pixels + start, count, color, coverage: coverage + start)
          for i in 0..<width {
            let inside = i >= start && i < start + count
            let want = inside ? expected(color, coverage: Int(coverage[i]), over: before[i]) : before[i]
            #expect(
              pixels[i] == want,
              "colour \(String(color, radix: 16)) span \(start)+\(count) pixel \(i) coverage \(coverage[i])")
          }
        }
      }
    }
    // Every coverage value was tried somewhere.
    #expect(covered.count == 256)
  }

  /// The same with a table of the colour over a background (Paint/UniformBlend.swift): spans
  /// where most quads hold only the background (taken from the table) and some hold other
  /// pixels in one lane or all (blended), at every short length and alignment. Each pixel is the
  /// colour at its coverage over it, as worked out here; the pixels either side are untouched.
  @Test(arguments: [
    (0x3300_0000 as UInt32, 0xFFF7_F2F2 as UInt32),  // a light shadow over a grouped background
    (0xFF1C_1C1E, 0xFFFF_FFFF),  // text on white
    (0x6633_1A00, 0x8040_2010),  // translucent over translucent
    (0x3300_0000, 0x0000_0000),  // over clear
  ])
  func solidColourOverCoverageByTableIsSourceOver(color: UInt32, base: UInt32) {
    var seed: UInt32 = 77
    func next() -> UInt32 {
      seed = seed &* 1_103_515_245 &+ 12345
      return seed >> 8
    }
    let tables = BlendTables()
    let table = tables.table(color, over: base)
    #expect(tables.table(color, over: base) == table && tables.made == 1)
    let width = 40
    let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
    let coverage = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
    defer {
      pixels.deallocate()
      coverage.deallocate()
    }
    var covered = Set<Int>()
    for round in 0..<30 {
      for start in 0..<4 {
        for count in 0...29 {
          var before: [UInt32] = []
          for i in 0..<width {
            // Mostly the background; now and then another pixel.
            pixels[i] = next() % 9 == 0 ? pixel(next) : base
            before.append(pixels[i])
            let kind = (i / 4 + round) % 5
            let k: UInt32 = kind == 0 ? 0 : kind == 1 ? 255 : next() % 256
            coverage[i] = UInt8(k)
          }
          for i in start..<(start + count) { covered.insert(Int(coverage[i])) }
          SolidLanes(color).blend(pixels + start, count, coverage: coverage + start, over: base, table: table)
          for i in 0..<width {
            let inside = i >= start && i < start + count
            let want = inside ? expected(color, coverage: Int(coverage[i]), over: before[i]) : before[i]
            #expect(
              pixels[i] == want,
              "colour \(String(color, radix: 16)) over \(String(base, radix: 16)) span \(start)+\(count) pixel \(i)"
            )
          }
        }
      }
    }
    #expect(covered.count == 256)
    // Eight pairs fit; a ninth replaces the oldest, which is then made again.
    for k in 1...7 { _ = tables.table(color ^ UInt32(k), over: base) }
    #expect(tables.made == 8)
    _ = tables.table(color, over: base)
    #expect(tables.made == 8)
    _ = tables.table(color ^ 8, over: base)
    _ = tables.table(color ^ 1, over: base)
    #expect(tables.made == 9)
    _ = tables.table(color, over: base)
    #expect(tables.made == 10)
  }

  /// A random premultiplied pixel (each channel at most its alpha; some opaque, some clear).
  private func pixel(_ next: () -> UInt32) -> UInt32 {
    let pick = next() % 8
    let a = pick == 0 ? 255 : pick == 1 ? 0 : next() % 256
    if a == 0 { return 0 }
    let r = next() % (a + 1)
    let g = next() % (a + 1)
    let b = next() % (a + 1)
    return a << 24 | r << 16 | g << 8 | b
  }

  /// `s` scaled by `k / 255` over `d`, channel by channel.
  private func over(_ s: UInt32, scaledBy k: Int, _ d: UInt32) -> UInt32 {
    var src: UInt32 = 0
    for shift in stride(from: 0, through: 24, by: 8) {
      src |= UInt32(div255(Int((s >> UInt32(shift)) & 0xFF) * k)) << UInt32(shift)
    }
    let sa = Int(src >> 24)
    var out: UInt32 = 0
    for shift in stride(from: 0, through: 24, by: 8) {
      let t = div255(Int((d >> UInt32(shift)) & 0xFF) * (255 - sa))
      out |= (((src >> UInt32(shift)) & 0xFF) + UInt32(t)) << UInt32(shift)
    }
    return out
  }

  /// Rows of shaded colours (gradients, images) blended with per-pixel coverage and with one
  /// coverage for all, over spans of 0 to 13 pixels: each result as worked out per channel, and
  /// nothing either side touched.
  @Test func shadedRowsMatchPerChannelArithmetic() {
    var seed: UInt32 = 77
    func next() -> UInt32 {
      seed = seed &* 1_103_515_245 &+ 12345
      return seed >> 8
    }
    let width = 20
    let dst = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
    let src = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
    let a = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
    defer {
      dst.deallocate()
      src.deallocate()
      a.deallocate()
    }
    for round in 0..<300 {
      let start = round % 4
      let count = (round / 4) % 14
      var before: [UInt32] = []
      for i in 0..<width {
        dst[i] = pixel(next)
        before.append(dst[i])
        src[i] = pixel(next)
        let kind = (i / 4 + round) % 4
        a[i] = kind == 0 ? 0 : kind == 1 ? 255 : UInt8(next() % 256)
      }
      // Per-pixel coverage.
      blendRow(dst + start, src + start, count, coverage: a + start)
      for i in 0..<width {
        let inside = i >= start && i < start + count
        let want = inside ? over(src[i], scaledBy: Int(a[i]), before[i]) : before[i]
        #expect(dst[i] == want, "coverage \(round) \(i)")
      }
      // One coverage for all (255 included).
      let k = round % 5 == 0 ? 255 : Int(next() % 256)
      for i in 0..<width { dst[i] = before[i] }
      blendRow(dst + start, src + start, count, alpha: UInt32(k))
      for i in 0..<width {
        let inside = i >= start && i < start + count
        #expect(dst[i] == (inside ? over(src[i], scaledBy: k, before[i]) : before[i]), "alpha \(round) \(i)")
      }
    }
  }

  /// An opaque colour over spans of 0 to 40 pixels at every alignment fills exactly the span
  /// (the stores of four and eight pixels, and those ending the span), and nothing either side.
  @Test func opaqueColourFillsExactlyItsSpan() {
    let width = 56
    let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
    defer { pixels.deallocate() }
    for start in 0..<4 {
      for count in 0...40 {
        for i in 0..<width { pixels[i] = 0x1020_3040 &+ UInt32(i) }
        blendSolid(pixels + start, count, 0xFF80_90A0)
        for i in 0..<width {
          let inside = i >= start && i < start + count
          #expect(
            pixels[i] == (inside ? 0xFF80_90A0 : 0x1020_3040 &+ UInt32(i)),
            "start \(start) count \(count) pixel \(i)")
        }
      }
    }
  }
}
