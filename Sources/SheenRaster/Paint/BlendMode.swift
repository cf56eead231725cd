// Blend modes other than source-over, on premultiplied pixels.
//
// The formulas are those of the W3C Compositing and Blending spec (the PDF specification's
// blend modes) written for premultiplied colour, in the form Skia's raster pipeline uses, so
// that no channel is ever divided by alpha: for a separable mode B,
//   result = S (1 - Da) + D (1 - Sa) + Sa Da B(S / Sa, D / Da),   alpha = Sa + Da - Sa Da.
// Coverage (anti-aliasing, clip) interpolates between the destination and the blended result,
// as Skia and Core Graphics do; global alpha scales the source before blending.
//
// Source-over never comes here: the canvas keeps its fast paths for it (Blend.swift).

/// How a source colour combines with the destination (Core Graphics' `CGBlendMode`, same order
/// and raw values).
public enum BlendMode: Int, Hashable, Sendable, CaseIterable {
  /// Source-over.
  case normal
  case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
  case difference, exclusion
  case hue, saturation, color, luminosity
  /// Porter-Duff: R = 0.
  case clear
  /// Porter-Duff: R = S.
  case copy
  case sourceIn, sourceOut, sourceAtop
  case destinationOver, destinationIn, destinationOut, destinationAtop
  case xor
  /// R = max(0, 1 - ((1 - D) + (1 - S))), premultiplied: the result's alpha is min(1, Sa + Da)
  /// and each colour `max(0, Ra - ((Sa - S) + (Da - D)))`.
  case plusDarker
  /// R = min(1, S + D) on every channel (Skia's `plus`).
  case plusLighter

  /// Whether a transparent source leaves the destination as it is (then drawing nothing, or
  /// drawing with alpha 0, may be skipped).
  public var transparentSourceIsNoOp: Bool {
    switch self {
    case .clear, .copy, .sourceIn, .sourceOut, .destinationIn, .destinationAtop: return false
    default: return true
    }
  }
}

/// Four channels of a premultiplied pixel in the byte order of `UInt32` pixels: blue, green,
/// red, alpha, each 0...1.
typealias Channels = SIMD4<Float>

@inline(__always) func channels(_ p: UInt32) -> Channels {
  Channels(Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), Float(p >> 24)) * (1 / 255)
}

@inline(__always) func pixel(_ c: Channels) -> UInt32 {
  let a = min(max(c.w, 0), 1)
  // Premultiplied colour never exceeds its alpha.
  let v = (pointwiseMin(pointwiseMax(c, .zero), Channels(a, a, a, a)) * 255).rounded(.toNearestOrEven)
  return UInt32(v.x) | UInt32(v.y) << 8 | UInt32(v.z) << 16 | UInt32(v.w) << 24
}

@inline(__always) private func lum(_ c: Channels) -> Float { 0.11 * c.x + 0.59 * c.y + 0.30 * c.z }
@inline(__always) private func minRGB(_ c: Channels) -> Float { min(c.x, min(c.y, c.z)) }
@inline(__always) private func maxRGB(_ c: Channels) -> Float { max(c.x, max(c.y, c.z)) }
@inline(__always) private func sat(_ c: Channels) -> Float { maxRGB(c) - minRGB(c) }

/// The colour channels rescaled to saturation `s` (alpha lane left alone).
@inline(__always) private func setSat(_ c: Channels, _ s: Float) -> Channels {
  let lo = minRGB(c)
  let range = maxRGB(c) - lo
  if range == 0 { return Channels(0, 0, 0, c.w) }
  let k = s / range
  return Channels((c.x - lo) * k, (c.y - lo) * k, (c.z - lo) * k, c.w)
}

@inline(__always) private func setLum(_ c: Channels, _ l: Float) -> Channels {
  let d = l - lum(c)
  return Channels(c.x + d, c.y + d, c.z + d, c.w)
}

/// Brings colour channels back into 0...a keeping their luminosity.
@inline(__always) private func clipColor(_ c: Channels, _ a: Float) -> Channels {
  let lo = minRGB(c)
  let hi = maxRGB(c)
  let l = lum(c)
  var r = Channels(c.x, c.y, c.z, c.w)
  for i in 0..<3 {
    var v = r[i]
    if lo < 0 && l - lo != 0 { v = l + (v - l) * l / (l - lo) }
    if hi > a && hi - l != 0 { v = l + (v - l) * (a - l) / (hi - l) }
    r[i] = max(v, 0)
  }
  return r
}

/// `mode` applied to a premultiplied source and destination pixel.
@inline(__always) func blendPixel(_ mode: BlendMode, _ sp: UInt32, _ dp: UInt32) -> UInt32 {
  let s = channels(sp)
  let d = channels(dp)
  let sa = Channels(repeating: s.w)
  let da = Channels(repeating: d.w)
  let one = Channels(repeating: 1)
  let invSa = one - sa
  let invDa = one - da
  // The separable and non-separable modes share this alpha.
  let unionAlpha = s.w + d.w - s.w * d.w
  var r: Channels
  switch mode {
  // Porter-Duff modes: the same formula on the alpha lane.
  case .normal: return pixel(s + d * invSa)
  case .clear: return 0
  case .copy: return sp
  case .sourceIn: return pixel(s * da)
  case .sourceOut: return pixel(s * invDa)
  case .sourceAtop: return pixel(s * da + d * invSa)
  case .destinationOver: return pixel(d + s * invDa)
  case .destinationIn: return pixel(d * sa)
  case .destinationOut: return pixel(d * invSa)
  case .destinationAtop: return pixel(d * sa + s * invDa)
  case .xor: return pixel(s * invDa + d * invSa)
  case .plusLighter: return pixel(pointwiseMin(s + d, one))
  case .plusDarker:
    let ra = min(1, s.w + d.w)
    r = pointwiseMax(Channels(repeating: ra) - ((sa - s) + (da - d)), .zero)
    r.w = ra
    return pixel(r)
  case .multiply: r = s * invDa + d * invSa + s * d
  case .screen: r = s + d - s * d
  case .darken: r = s + d - pointwiseMax(s * da, d * sa)
  case .lighten: r = s + d - pointwiseMin(s * da, d * sa)
  case .difference: r = s + d - 2 * pointwiseMin(s * da, d * sa)
  case .exclusion: r = s + d - 2 * s * d
  case .overlay, .hardLight:
    r = s * invDa + d * invSa
    for i in 0..<3 {
      let low = mode == .overlay ? 2 * d[i] <= d.w : 2 * s[i] <= s.w
      r[i] += low ? 2 * s[i] * d[i] : s.w * d.w - 2 * (d.w - d[i]) * (s.w - s[i])
    }
  case .colorDodge:
    r = s * invDa + d * invSa
    for i in 0..<3 {
      if d[i] == 0 {
        r[i] = s[i] * (1 - d.w)
      } else if s[i] >= s.w {
        r[i] = s[i] + d[i] * (1 - s.w)
      } else {
        r[i] += s.w * min(d.w, d[i] * s.w / (s.w - s[i]))
      }
    }
  case .colorBurn:
    r = s * invDa + d * invSa
    for i in 0..<3 {
      if d[i] >= d.w {
        r[i] = d[i] + s[i] * (1 - d.w)
      } else if s[i] == 0 {
        r[i] = d[i] * (1 - s.w)
      } else {
        r[i] += s.w * (d.w - min(d.w, (d.w - d[i]) * s.w / s[i]))
      }
    }
  case .softLight:
    r = s * invDa + d * invSa
    for i in 0..<3 {
      let sc = s[i]
      let dc = d[i]
      let m = d.w > 0 ? dc / d.w : 0
      let s2 = 2 * sc
      let m4 = 4 * m
      if s2 <= s.w {
        r[i] += dc * (s.w + (s2 - s.w) * (1 - m))
      } else {
        let darkDst = (m4 * m4 + m4) * (m - 1) + 7 * m
        let liteDst = m.squareRoot() - m
        r[i] += dc * s.w + d.w * (s2 - s.w) * (4 * dc <= d.w ? darkDst : liteDst)
      }
    }
  case .hue, .saturation, .color, .luminosity:
    var c: Channels
    switch mode {
    case .hue:
      c = setLum(setSat(s * s.w, sat(d) * s.w), lum(d) * s.w)
    case .saturation:
      c = setLum(setSat(d * s.w, sat(s) * d.w), lum(d) * s.w)
    case .color:
      c = setLum(s * d.w, lum(d) * s.w)
    default:
      c = setLum(d * s.w, lum(s) * d.w)
    }
    c = clipColor(c, s.w * d.w)
    r = s * invDa + d * invSa + c
  }
  r.w = unionAlpha
  return pixel(r)
}

/// `mode` applied with coverage `k` (0...255): the destination, interpolated towards the
/// blended result, `d + (r - d) * k / 255`. Plus-lighter, linear in the source, scales the
/// source instead (as Skia).
@inline(__always) func blendPixel(_ mode: BlendMode, _ s: UInt32, _ d: UInt32, coverage k: UInt32) -> UInt32 {
  if k == 255 { return blendPixel(mode, s, d) }
  if mode == .plusLighter { return blendPixel(mode, Pixel.scale(s, by: k), d) }
  return Pixel.scale(d, by: 255 - k) &+ Pixel.scale(blendPixel(mode, s, d), by: k)
}

/// Blends `count` premultiplied source colours into `dst` with `mode`, each pixel with its own
/// coverage.
func blendRow(
  _ mode: BlendMode, _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int,
  coverage: UnsafePointer<UInt8>
) {
  for i in 0..<count {
    let k = UInt32(coverage[i])
    if k != 0 { dst[i] = blendPixel(mode, src[i], dst[i], coverage: k) }
  }
}

/// The same with one coverage for the whole row.
func blendRow(
  _ mode: BlendMode, _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int,
  coverage k: UInt32
) {
  if k == 0 { return }
  for i in 0..<count { dst[i] = blendPixel(mode, src[i], dst[i], coverage: k) }
}
