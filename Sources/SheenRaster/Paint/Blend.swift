// Per-pixel work: source-over blending of premultiplied BGRA8 rows.
//
// Every function takes raw row pointers and a count, has no branches on the paint inside its
// loop, and handles two channels per 32-bit word (`Pixel.scale`).

/// Four pixels as eight 16-bit lanes, each lane two channels (SSE2's `pmullw` and shifts work on
/// them directly: no widening of bytes to words and back). A pixel takes lanes 2i (blue, green)
/// and 2i + 1 (red, alpha).
typealias Quad = SIMD8<UInt16>

/// Every channel of four pixels times `factor / 255` (rounded; the factor per lane pair, 0...255),
/// exactly as `Pixel.scale` per pixel.
@inline(__always) func scaleQuad(_ d: Quad, by factor: Quad) -> Quad {
  let low = div255(d & 0x00FF &* factor)
  let high = div255(d &>> 8 &* factor)
  return low | high &<< 8
}

/// Loads four pixels.
@inline(__always) func loadQuad(_ p: UnsafeRawPointer, _ offset: Int) -> Quad {
  p.loadUnaligned(fromByteOffset: offset, as: Quad.self)
}

/// Fills `count` pixels with an opaque colour or blends a translucent one over them.
@inline(__always) func blendSolid(_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, _ color: UInt32) {
  let a = color >> 24
  if a == 255 {
    // Four pixels a store, the last few with the stores ending the span (a store overlapping a
    // store is not waited on; a scalar loop took the last one to seven pixels one at a time).
    if count < 4 {
      for i in 0..<count { dst[i] = color }
      return
    }
    let q = SIMD4<UInt32>(repeating: color)
    let out = UnsafeMutableRawPointer(dst)
    if count < 8 {
      out.storeBytes(of: q, as: SIMD4<UInt32>.self)
      out.storeBytes(of: q, toByteOffset: (count &- 4) &<< 2, as: SIMD4<UInt32>.self)
      return
    }
    // Eight pixels a step, then the eight ending the span.
    var at = 0
    let last = (count &- 8) &<< 2
    while at < last {
      out.storeBytes(of: q, toByteOffset: at, as: SIMD4<UInt32>.self)
      out.storeBytes(of: q, toByteOffset: at &+ 16, as: SIMD4<UInt32>.self)
      at &+= 32
    }
    out.storeBytes(of: q, toByteOffset: last, as: SIMD4<UInt32>.self)
    out.storeBytes(of: q, toByteOffset: last &+ 16, as: SIMD4<UInt32>.self)
  } else if a != 0 {
    let inv = 255 - a
    let quads = count >> 2
    if quads > 0 {
      let s = unsafeBitCast(SIMD4<UInt32>(repeating: color), to: Quad.self)
      let invQuad = Quad(repeating: UInt16(inv))
      let out = UnsafeMutableRawPointer(dst)
      for q in 0..<quads {
        let r = s &+ scaleQuad(loadQuad(out, q &* 16), by: invQuad)
        out.storeBytes(of: r, toByteOffset: q &* 16, as: Quad.self)
      }
    }
    for i in (quads << 2)..<count { dst[i] = color &+ Pixel.scale(dst[i], by: inv) }
  }
}

/// Blends a colour over `count` pixels, each with its own coverage, through a table of the
/// colour at every coverage (`scaled`) and of 255 minus that colour's alpha in two 16-bit lanes
/// (`inverse`). Four pixels at a time, skipping quads with no coverage.
@inline(__always) func blendSolid(
  _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, coverage: UnsafePointer<UInt8>,
  scaled: UnsafePointer<UInt32>, inverse: UnsafePointer<UInt32>
) {
  let quads = count >> 2
  let raw = UnsafeRawPointer(coverage)
  let out = UnsafeMutableRawPointer(dst)
  for q in 0..<quads {
    let cov4 = raw.loadUnaligned(fromByteOffset: q * 4, as: UInt32.self)
    if cov4 == 0 { continue }
    let c0 = Int(cov4 & 0xFF)
    let c1 = Int((cov4 >> 8) & 0xFF)
    let c2 = Int((cov4 >> 16) & 0xFF)
    let c3 = Int(cov4 >> 24)
    let s = unsafeBitCast(SIMD4<UInt32>(scaled[c0], scaled[c1], scaled[c2], scaled[c3]), to: Quad.self)
    let inv = unsafeBitCast(
      SIMD4<UInt32>(inverse[c0], inverse[c1], inverse[c2], inverse[c3]), to: Quad.self)
    let r = s &+ scaleQuad(loadQuad(out, q &* 16), by: inv)
    out.storeBytes(of: r, toByteOffset: q &* 16, as: Quad.self)
  }
  for i in (quads << 2)..<count {
    let c = Int(coverage[i])
    if c == 0 { continue }
    dst[i] = scaled[c] &+ Pixel.scale(dst[i], by: inverse[c] & 0xFF)
  }
}

/// A colour in 16-bit lanes, to blend it over pixels each with its own coverage four pixels at
/// a time with no tables: the colour at each coverage and the inverse of its alpha are worked
/// out in the lanes (the same roundings as `Pixel.scale` and `Pixel.sourceOver`, so the same
/// pixels as one pixel at a time). Quads with no coverage are skipped; quads at full coverage
/// take the colour itself (stored, when opaque). The last one to three pixels of a span take one
/// more quad, gathered and scattered pixel by pixel; a colour with no colour channels (a black
/// shadow's) takes its scaled alpha from the inverse's product instead of two more.
struct SolidLanes {
  let color: UInt32
  let colorQuad: Quad
  let alphaQuad: Quad
  let fullInverse: Quad
  let opaque: Bool
  /// Blue, green and red all zero: the colour at coverage c is its alpha at c, nothing else.
  let alphaOnly: Bool

  /// The lanes holding alpha (high byte of each pixel's second lane), kept here: a static
  /// constant would be a lazy global checked on every quad.
  let alphaLanes: Quad

  @inline(__always) init(_ color: UInt32) {
    self.color = color
    let a = color >> 24
    colorQuad = unsafeBitCast(SIMD4<UInt32>(repeating: color), to: Quad.self)
    alphaQuad = Quad(repeating: UInt16(a))
    fullInverse = Quad(repeating: UInt16(255 - a))
    opaque = a == 255
    alphaOnly = color & 0x00FF_FFFF == 0
    alphaLanes = unsafeBitCast(SIMD4<UInt32>(repeating: 0xFF00_0000), to: Quad.self)
  }

  /// Four pixels `d` blended with coverages `cov4` (one byte each, not all 0 or all 255).
  @inline(__always) func blendQuad(_ d: Quad, _ cov4: UInt32, alphaOnly: Bool) -> Quad {
    // Each pixel's coverage in both of its lanes.
    let c32 = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(cov4, to: SIMD4<UInt8>.self))
    let f = unsafeBitCast(c32 | c32 &<< 16, to: Quad.self)
    let t = div255(alphaQuad &* f)
    // The colour at each coverage: its alpha lane is t.
    let s = alphaOnly ? (t &<< 8) & alphaLanes : scaleQuad(colorQuad, by: f)
    return s &+ scaleQuad(d, by: Quad(repeating: 255) &- t)
  }

  @inline(__always) func blend(
    _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, coverage: UnsafePointer<UInt8>
  ) {
    if alphaOnly {
      blend(dst, count, coverage: coverage, alphaOnly: true)
    } else {
      blend(dst, count, coverage: coverage, alphaOnly: false)
    }
  }

  @inline(__always) private func blend(
    _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, coverage: UnsafePointer<UInt8>, alphaOnly: Bool
  ) {
    let quads = count &>> 2
    let raw = UnsafeRawPointer(coverage)
    let out = UnsafeMutableRawPointer(dst)
    for q in 0..<quads {
      let cov4 = raw.loadUnaligned(fromByteOffset: q &* 4, as: UInt32.self)
      if cov4 == 0 { continue }
      if cov4 == 0xFFFF_FFFF {
        if opaque {
          out.storeBytes(of: colorQuad, toByteOffset: q &* 16, as: Quad.self)
        } else {
          let r = colorQuad &+ scaleQuad(loadQuad(out, q &* 16), by: fullInverse)
          out.storeBytes(of: r, toByteOffset: q &* 16, as: Quad.self)
        }
        continue
      }
      let r = blendQuad(loadQuad(out, q &* 16), cov4, alphaOnly: alphaOnly)
      out.storeBytes(of: r, toByteOffset: q &* 16, as: Quad.self)
    }
    let done = quads &<< 2
    let left = count &- done
    if left == 0 { return }
    if quads > 0 {
      // The last one to three pixels of a longer span: the quad ending at the span's end, its
      // first lanes (done already) at coverage 0, which leaves a pixel exactly as it is.
      let cov4 =
        raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self) & ~(UInt32.max &>> (left &<< 3))
      if cov4 == 0 { return }
      let at = (count &- 4) &<< 2
      out.storeBytes(
        of: blendQuad(loadQuad(out, at), cov4, alphaOnly: alphaOnly), toByteOffset: at, as: Quad.self)
      return
    }
    if left == 1 {
      let c = UInt32(coverage[done])
      if c == 0 { return }
      if c == 255 && opaque {
        dst[done] = color
        return
      }
      let s = c == 255 ? color : Pixel.scale(color, by: c)
      dst[done] = Pixel.sourceOver(s, dst[done])
      return
    }
    // Two or three pixels: one quad, the missing lanes at coverage 0 (left as they are).
    let p = dst + done
    let c = coverage + done
    let three = left == 3
    let pair = UInt32(UnsafeRawPointer(c).loadUnaligned(as: UInt16.self))
    let cov4 = three ? pair | UInt32(c[2]) &<< 16 : pair
    if cov4 == 0 { return }
    let d = SIMD2<UInt64>(UnsafeRawPointer(p).loadUnaligned(as: UInt64.self), three ? UInt64(p[2]) : 0)
    let r = unsafeBitCast(
      blendQuad(unsafeBitCast(d, to: Quad.self), cov4, alphaOnly: alphaOnly), to: SIMD2<UInt64>.self)
    UnsafeMutableRawPointer(p).storeBytes(of: r[0], as: UInt64.self)
    if three { p[2] = UInt32(truncatingIfNeeded: r[1]) }
  }
}

/// `SolidLanes(color).blend(dst, count, coverage:)`.
@inline(__always) func blendSolidLanes(
  _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, _ color: UInt32, coverage: UnsafePointer<UInt8>
) {
  SolidLanes(color).blend(dst, count, coverage: coverage)
}

/// Blends a colour over `count` pixels, each with its own coverage (no tables).
@inline(__always) func blendSolid(
  _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, _ color: UInt32, coverage: UnsafePointer<UInt8>
) {
  for i in 0..<count {
    let c = UInt32(coverage[i])
    if c == 0 { continue }
    let s = c == 255 ? color : Pixel.scale(color, by: c)
    dst[i] = Pixel.sourceOver(s, dst[i])
  }
}

/// `x / 255` rounded, per 16-bit lane, for `x` in 0...65025 (`Pixel.div255` in each lane). Not
/// as the high half of `(x + 128) * 257`: written with widening conversions, that takes calls to
/// generic conversions wherever the optimizer does not inline the blend (measured: the demo's
/// frames took 5% more instructions).
@inline(__always) func div255(_ x: Quad) -> Quad {
  let y = x &+ 128
  return (y &+ (y &>> 8)) &>> 8
}

/// Four premultiplied source pixels over four destination pixels: `s + d * (255 - sa) / 255`
/// per channel, exactly as `Pixel.sourceOver`.
@inline(__always) func sourceOverQuad(_ s: Quad, _ d: Quad) -> Quad {
  let a = unsafeBitCast(s, to: SIMD4<UInt32>.self) &>> 24
  let inv = SIMD4<UInt32>(repeating: 255) &- a
  return s &+ scaleQuad(d, by: unsafeBitCast(inv | inv &<< 16, to: Quad.self))
}

/// Blends a row of premultiplied colours over `count` pixels with one coverage for all, four
/// pixels at a time (the same roundings as `Pixel.scale` and `Pixel.sourceOver`).
@inline(__always) func blendRow(
  _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int, alpha: UInt32
) {
  let quads = count &>> 2
  let out = UnsafeMutableRawPointer(dst)
  let input = UnsafeRawPointer(src)
  let factor = Quad(repeating: UInt16(truncatingIfNeeded: alpha))
  for q in 0..<quads {
    var s = loadQuad(input, q &* 16)
    if alpha != 255 { s = scaleQuad(s, by: factor) }
    out.storeBytes(of: sourceOverQuad(s, loadQuad(out, q &* 16)), toByteOffset: q &* 16, as: Quad.self)
  }
  for i in (quads &<< 2)..<count {
    dst[i] = Pixel.sourceOver(alpha == 255 ? src[i] : Pixel.scale(src[i], by: alpha), dst[i])
  }
}

/// Blends a row of premultiplied colours over `count` pixels, each with its own coverage, four
/// pixels at a time (quads with no coverage skipped; the same roundings as one pixel at a time).
@inline(__always) func blendRow(
  _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int,
  coverage: UnsafePointer<UInt8>
) {
  let quads = count &>> 2
  let out = UnsafeMutableRawPointer(dst)
  let input = UnsafeRawPointer(src)
  let raw = UnsafeRawPointer(coverage)
  for q in 0..<quads {
    let cov4 = raw.loadUnaligned(fromByteOffset: q &* 4, as: UInt32.self)
    if cov4 == 0 { continue }
    var s = loadQuad(input, q &* 16)
    if cov4 != 0xFFFF_FFFF {
      let c32 = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(cov4, to: SIMD4<UInt8>.self))
      s = scaleQuad(s, by: unsafeBitCast(c32 | c32 &<< 16, to: Quad.self))
    }
    out.storeBytes(of: sourceOverQuad(s, loadQuad(out, q &* 16)), toByteOffset: q &* 16, as: Quad.self)
  }
  for i in (quads &<< 2)..<count {
    let c = UInt32(coverage[i])
    if c == 0 { continue }
    dst[i] = Pixel.sourceOver(c == 255 ? src[i] : Pixel.scale(src[i], by: c), dst[i])
  }
}
