// Sampling an image for device pixels, as Skia's drawImageRect with a strict source rectangle.
//
// Device pixel centres (x + 0.5, y + 0.5) map through the inverse of the image's placement to
// image coordinates, where pixel centres sit at half-integers. What is read never leaves the
// source rectangle: coordinates are clamped into it first (for bilinear filtering, half a pixel
// inside, so that neither of the two taps of an axis lies beyond it). Filtering works on
// premultiplied pixels, so transparent pixels bring no dark fringes.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How an image is filtered (Core Animation's `minificationFilter` / `magnificationFilter`).
public enum ImageFilter: String, Hashable, Sendable, CaseIterable {
  /// The image pixel under each device pixel's centre.
  case nearest
  /// Bilinear: the four image pixels nearest the centre, weighted by distance.
  case linear
  /// Bilinear in the two mipmap levels nearest the scale, blended (minification only).
  case trilinear
}

/// One mipmap level, with the source rectangle's clamp limits in its coordinates.
struct SampledLevel {
  let surface: Surface
  /// Level pixels per image (level 0) pixel, along x and y.
  let sx: Double, sy: Double
  /// Limits of the sample coordinate (level pixels): nearest reads floor(u) for u in
  /// [x0, x1]; bilinear reads the two pixels around u - 0.5 for u in [x0, x1].
  let x0: Double, x1: Double, y0: Double, y1: Double
  /// The pixels nearest may read (the pixels the source rectangle touches), inclusive.
  let ix0: Int, ix1: Int, iy0: Int, iy1: Int

  init(_ surface: Surface, image: RasterImage, source: Rect, bilinear: Bool) {
    self.surface = surface
    sx = Double(surface.width) / Double(image.width)
    sy = Double(surface.height) / Double(image.height)
    let l = source.minX * sx
    let r = source.maxX * sx
    let t = source.minY * sy
    let b = source.maxY * sy
    func limits(_ lo: Double, _ hi: Double) -> (Double, Double) {
      if bilinear {
        // Half a pixel inside, so both taps stay within; a part narrower than a pixel reads
        // its middle.
        return hi - lo >= 1 ? (lo + 0.5, hi - 0.5) : ((lo + hi) / 2, (lo + hi) / 2)
      }
      // floor(u) stays within the pixels the part touches.
      let last = max(lo, hi.nextDown)
      return (lo, last)
    }
    (x0, x1) = limits(l, r)
    (y0, y1) = limits(t, b)
    func pixels(_ lo: Double, _ hi: Double, _ n: Int) -> (Int, Int) {
      let first = max(0, min(n - 1, Int(max(-1, lo).rounded(.down))))
      let last = max(first, min(n - 1, Int(min(Double(n), hi).rounded(.up)) - 1))
      return (first, last)
    }
    (ix0, ix1) = pixels(l, r, surface.width)
    (iy0, iy1) = pixels(t, b, surface.height)
  }
}

/// Everything needed to shade rows of device pixels from an image.
@usableFromInline struct ImageSampler {
  enum Mode {
    /// The placement is a translation by whole pixels: image pixel (x + dx, y + dy) for device
    /// pixel (x, y), clamped to the source rectangle's pixels.
    case copy(dx: Int, dy: Int)
    case nearest
    case bilinear
    /// Bilinear in `levels.0` and `levels.1`, the second weighted `weight` / 256.
    case trilinear(weight: UInt32)
  }

  let mode: Mode
  /// Device pixels to image (level 0) pixels.
  let inverse: Transform
  /// Whether the source rectangle repeats along x and y (a tiled part: `placement` places the
  /// first tile, and each device pixel reads the tile its centre falls in, clamped to that tile
  /// as if each were drawn alone with a strict source rectangle).
  let repeatsX: Bool, repeatsY: Bool
  /// The source rectangle in image (level 0) pixels: what repeats.
  let sourceX: Double, sourceY: Double, sourceWidth: Double, sourceHeight: Double
  let level: SampledLevel
  let upper: SampledLevel?
  /// Clamp limits of `copy` (image pixel indices, inclusive).
  let cx0: Int, cx1: Int, cy0: Int, cy1: Int
  let opaque: Bool

  /// The sampler for `source` (image pixels) of `image` shown by `placement` (image pixels to
  /// device pixels), with the filter Skia would use; nil when nothing can show (singular).
  init?(
    _ image: RasterImage, source: Rect, placement t: Transform, minification: ImageFilter,
    magnification: ImageFilter, repeats: (x: Bool, y: Bool) = (false, false)
  ) {
    guard let inv = t.inverted, !source.isEmpty,
      inv.a.isFinite, inv.b.isFinite, inv.c.isFinite, inv.d.isFinite, inv.tx.isFinite, inv.ty.isFinite,
      abs(inv.tx) < 1e12, abs(inv.ty) < 1e12
    else { return nil }
    inverse = inv
    repeatsX = repeats.x
    repeatsY = repeats.y
    sourceX = source.minX
    sourceY = source.minY
    sourceWidth = source.width
    sourceHeight = source.height
    opaque = image.isOpaque
    // Clamp limits of a copy: the pixels the source rectangle touches.
    let px0 = max(0, Int(max(-1, source.minX).rounded(.down)))
    let py0 = max(0, Int(max(-1, source.minY).rounded(.down)))
    cx0 = px0
    cy0 = py0
    cx1 = max(px0, min(image.width - 1, Int(min(Double(image.width), source.maxX).rounded(.up)) - 1))
    cy1 = max(py0, min(image.height - 1, Int(min(Double(image.height), source.maxY).rounded(.up)) - 1))
    // Device pixels per image pixel along each axis of the image: minified when either is
    // below 1 (as the oracle decides).
    let kx = (t.a * t.a + t.b * t.b).squareRoot()
    let ky = (t.c * t.c + t.d * t.d).squareRoot()
    var filter = min(kx, ky) >= 1 ? magnification : minification
    if filter == .trilinear && min(kx, ky) >= 1 { filter = .linear }
    if t.b == 0, t.c == 0, t.a == 1, t.d == 1, isInteger(t.tx), isInteger(t.ty),
      abs(t.tx) < 1e9, abs(t.ty) < 1e9, !repeats.x, !repeats.y
    {
      // Pixel centres land on pixel centres: every filter reads exactly one pixel.
      mode = .copy(dx: -Int(t.tx), dy: -Int(t.ty))
      level = SampledLevel(image.surface, image: image, source: source, bilinear: false)
      upper = nil
      return
    }
    switch filter {
    case .nearest:
      mode = .nearest
      level = SampledLevel(image.surface, image: image, source: source, bilinear: false)
      upper = nil
    case .linear:
      mode = .bilinear
      level = SampledLevel(image.surface, image: image, source: source, bilinear: true)
      upper = nil
    case .trilinear:
      let lod = ImageSampler.levelOfDetail(inverse: inv)
      if lod <= 0 || image.mipLevelCount == 0 {
        mode = .bilinear
        level = SampledLevel(image.surface, image: image, source: source, bilinear: true)
        upper = nil
        return
      }
      let lower = min(Int(lod.rounded(.down)), image.mipLevelCount)
      let w = lower >= image.mipLevelCount ? 0 : UInt32(((lod - Double(lower)) * 256).rounded())
      level = SampledLevel(image.mipLevel(lower), image: image, source: source, bilinear: true)
      if w == 0 {
        mode = .bilinear
        upper = nil
      } else {
        mode = .trilinear(weight: min(256, w))
        upper = SampledLevel(image.mipLevel(lower + 1), image: image, source: source, bilinear: true)
      }
    }
  }

  /// The mipmap level (fractional) for a placement whose inverse is `inverse`: log2 of the
  /// larger number of image pixels per device pixel along the device axes (Skia: the smaller
  /// scale of the inverse's decomposition), less half a level, as Skia's raster backend picks
  /// levels (measured on skia-python 144.1: a 64-pixel image drawn at 24 pixels blends levels 0
  /// and 1 with weight 0.91, not levels 1 and 2 with 0.41). 0 or less: level 0 alone.
  static func levelOfDetail(inverse inv: Transform) -> Double {
    let sx = (inv.a * inv.a + inv.b * inv.b).squareRoot()
    let sy = (inv.c * inv.c + inv.d * inv.d).squareRoot()
    let s = max(sx, sy)
    guard s.isFinite, s > 0 else { return 0 }
    return log2(s) - 0.5
  }

  /// Writes the colours of `count` device pixels from (x, y).
  func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
    switch mode {
    case .copy(let dx, let dy):
      let s = level.surface
      let row = s.base + min(max(y + dy, cy0), cy1) * s.rowPixels
      var i = 0
      // Left of the source: its first column repeated; then a straight copy; then its last.
      let first = x + dx
      while i < count && first + i < cx0 {
        out[i] = row[cx0]
        i += 1
      }
      let inside = min(count, cx1 + 1 - first) - i
      if inside > 0 {
        (out + i).update(from: row + first + i, count: inside)
        i += inside
      }
      while i < count {
        out[i] = row[cx1]
        i += 1
      }
    case .nearest:
      sampleNearest(level, x: x, y: y, count: count, into: out)
    case .bilinear:
      sampleBilinear(level, x: x, y: y, count: count, into: out)
    case .trilinear(let w):
      sampleBilinear(level, x: x, y: y, count: count, into: out)
      guard let upper else { return }
      // The second level a chunk at a time, blended in.
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 256) { tmp in
        var done = 0
        while done < count {
          let n = min(256, count - done)
          sampleBilinear(upper, x: x + done, y: y, count: n, into: tmp.baseAddress!)
          for i in 0..<n { out[done + i] = lerpPixel(out[done + i], tmp[i], w) }
          done += n
        }
      }
    }
  }

  /// `u` (level pixels along x, `scale` level pixels per image pixel) moved into the first tile
  /// when the source repeats along x.
  @inline(__always) private func wrapX(_ u: Double, _ scale: Double) -> Double {
    guard repeatsX else { return u }
    let p = sourceWidth * scale
    let o = sourceX * scale
    return u - p * ((u - o) / p).rounded(.down)
  }

  @inline(__always) private func wrapY(_ v: Double, _ scale: Double) -> Double {
    guard repeatsY else { return v }
    let p = sourceHeight * scale
    let o = sourceY * scale
    return v - p * ((v - o) / p).rounded(.down)
  }

  private func sampleNearest(
    _ l: SampledLevel, x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>
  ) {
    let m = inverse
    let py = Double(y) + 0.5
    var u = (m.a * (Double(x) + 0.5) + m.c * py + m.tx) * l.sx
    var v = (m.b * (Double(x) + 0.5) + m.d * py + m.ty) * l.sy
    let du = m.a * l.sx
    let dv = m.b * l.sy
    let s = l.surface
    for i in 0..<count {
      // A centre exactly on a pixel edge takes the pixel before it, as Skia's does.
      let cu = min(max(wrapX(u, l.sx), l.x0), l.x1)
      let cv = min(max(wrapY(v, l.sy), l.y0), l.y1)
      let ix = min(max(Int(cu.rounded(.up)) - 1, l.ix0), l.ix1)
      let iy = min(max(Int(cv.rounded(.up)) - 1, l.iy0), l.iy1)
      out[i] = s.base[iy * s.rowPixels + ix]
      u += du
      v += dv
    }
  }

  private func sampleBilinear(
    _ l: SampledLevel, x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>
  ) {
    let m = inverse
    let py = Double(y) + 0.5
    var u = (m.a * (Double(x) + 0.5) + m.c * py + m.tx) * l.sx
    var v = (m.b * (Double(x) + 0.5) + m.d * py + m.ty) * l.sy
    let du = m.a * l.sx
    let dv = m.b * l.sy
    let s = l.surface
    let wmax = s.width - 1
    let hmax = s.height - 1
    let stride = s.rowPixels
    if dv == 0 {
      // A row of the device stays on one row of the image (no rotation): the vertical taps and
      // weight are the row's.
      let fv = min(max(wrapY(v, l.sy), l.y0), l.y1) - 0.5
      let fy = fv.rounded(.down)
      let iy = Int(fy)
      let ay = UInt32(((fv - fy) * 256).rounded())
      let r0 = s.base + min(max(iy, 0), hmax) * stride
      let r1 = s.base + min(max(iy + 1, 0), hmax) * stride
      for i in 0..<count {
        let fu = min(max(wrapX(u, l.sx), l.x0), l.x1) - 0.5
        let fx = fu.rounded(.down)
        let ix = Int(fx)
        let ax = UInt32(((fu - fx) * 256).rounded())
        let x0 = min(max(ix, 0), wmax)
        let x1 = min(max(ix + 1, 0), wmax)
        out[i] = lerpPixel(lerpPixel(r0[x0], r0[x1], ax), lerpPixel(r1[x0], r1[x1], ax), ay)
        u += du
      }
      return
    }
    for i in 0..<count {
      let fu = min(max(wrapX(u, l.sx), l.x0), l.x1) - 0.5
      let fv = min(max(wrapY(v, l.sy), l.y0), l.y1) - 0.5
      let fx = fu.rounded(.down)
      let fy = fv.rounded(.down)
      let ix = Int(fx)
      let iy = Int(fy)
      let ax = UInt32(((fu - fx) * 256).rounded())
      let ay = UInt32(((fv - fy) * 256).rounded())
      let x0 = min(max(ix, 0), wmax)
      let x1 = min(max(ix + 1, 0), wmax)
      let r0 = s.base + min(max(iy, 0), hmax) * stride
      let r1 = s.base + min(max(iy + 1, 0), hmax) * stride
      out[i] = lerpPixel(lerpPixel(r0[x0], r0[x1], ax), lerpPixel(r1[x0], r1[x1], ax), ay)
      u += du
      v += dv
    }
  }
}
