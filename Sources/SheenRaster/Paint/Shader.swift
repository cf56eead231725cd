/// A paint resolved against the device transform: produces the premultiplied colour of each
/// device pixel of a row, sampled at pixel centres.
///
/// A kind and the fields it uses, rather than an enum with payloads: shading a row reads the
/// fields in place. (Switching over an enum whose cases carry references and an image sampler's
/// 300 bytes copied the whole value, references retained, on every row shaded.)
@usableFromInline struct Shader {
  enum Kind: UInt8 {
    case solid
    /// `t = dx * x + dy * y + t0` at the pixel centre (x + 0.5, y + 0.5).
    case linear
    /// `t = |M * (x + 0.5, y + 0.5)|` where M (`transform`) maps device space to the unit circle.
    case radial
    /// Bilinear samples of `surface` through `transform`, the inverse of its placement.
    case image
    /// A part of an image, filtered as Skia's drawImageRect (`sampler`).
    case sampled
    /// A linear gradient with transparency beyond the ends it does not extend past.
    case boundedLinear
    /// A two-circle gradient (`conical`); `transform` maps device space to user space.
    case conical
  }

  let kind: Kind
  /// The premultiplied colour of `.solid`.
  private(set) var color: UInt32 = 0
  private(set) var gradient: Gradient? = nil
  private(set) var dx = 0.0, dy = 0.0, t0 = 0.0
  private(set) var extendsStart = false, extendsEnd = false
  private(set) var transform = Transform.identity
  private(set) var surface: Surface? = nil
  private(set) var sampler: ImageSampler? = nil
  private(set) var conicalGeometry: ConicalGradient? = nil

  private init(kind: Kind) { self.kind = kind }

  static func solid(_ c: UInt32) -> Shader {
    var s = Shader(kind: .solid)
    s.color = c
    return s
  }

  static func linear(_ g: Gradient, dx: Double, dy: Double, t0: Double) -> Shader {
    var s = Shader(kind: .linear)
    (s.gradient, s.dx, s.dy, s.t0) = (g, dx, dy, t0)
    return s
  }

  static func radial(_ g: Gradient, _ m: Transform) -> Shader {
    var s = Shader(kind: .radial)
    (s.gradient, s.transform) = (g, m)
    return s
  }

  static func image(_ src: Surface, _ m: Transform) -> Shader {
    var s = Shader(kind: .image)
    (s.surface, s.transform) = (src, m)
    return s
  }

  static func sampled(_ sampler: ImageSampler) -> Shader {
    var s = Shader(kind: .sampled)
    s.sampler = sampler
    return s
  }

  static func boundedLinear(
    _ g: Gradient, dx: Double, dy: Double, t0: Double, extendsStart: Bool, extendsEnd: Bool
  ) -> Shader {
    var s = Shader(kind: .boundedLinear)
    (s.gradient, s.dx, s.dy, s.t0, s.extendsStart, s.extendsEnd) = (g, dx, dy, t0, extendsStart, extendsEnd)
    return s
  }

  static func conical(_ g: Gradient, _ geo: ConicalGradient, _ m: Transform) -> Shader {
    var s = Shader(kind: .conical)
    (s.gradient, s.conicalGeometry, s.transform) = (g, geo, m)
    return s
  }

  /// Resolves a paint under `ctm` (user to device).
  init(_ paint: Paint, ctm: Transform) {
    switch paint {
    case .solid(let c):
      self = .solid(c.premultiplied)
    case .linearGradient(let g, let start, let end):
      // t(p) = (inverse(p) - start) . u / |u|^2 with u = end - start: linear in device (x, y),
      // exact under any invertible affine transform.
      let u = end - start
      let u2 = u.dot(u)
      guard u2 > 0, u2.isFinite, let inv = ctm.inverted else {
        self = .solid(g.lastColor)
        return
      }
      let dx = (inv.a * u.x + inv.b * u.y) / u2
      let dy = (inv.c * u.x + inv.d * u.y) / u2
      let t0 = ((inv.tx - start.x) * u.x + (inv.ty - start.y) * u.y) / u2
      self = .linear(g, dx: dx, dy: dy, t0: t0)
    case .radialGradient(let g, let center, let radius):
      guard radius > 0, radius.isFinite,
        let inv = Transform(translationX: center.x, y: center.y).scaledBy(x: radius, y: radius)
          .concatenating(ctm).inverted
      else {
        self = .solid(g.lastColor)
        return
      }
      self = .radial(g, inv)
    case .ellipticalGradient(let g, let center, let radii):
      guard radii.width > 0, radii.height > 0, radii.width.isFinite, radii.height.isFinite,
        let inv = Transform(translationX: center.x, y: center.y).scaledBy(x: radii.width, y: radii.height)
          .concatenating(ctm).inverted
      else {
        self = .solid(g.lastColor)
        return
      }
      self = .radial(g, inv)
    case .boundedLinearGradient(let g, let start, let end, let before, let after):
      let l = Shader(.linearGradient(g, start: start, end: end), ctm: ctm)
      if l.kind == .linear {
        self = .boundedLinear(g, dx: l.dx, dy: l.dy, t0: l.t0, extendsStart: before, extendsEnd: after)
      } else {
        self = .solid(0)
      }
    case .conicalGradient(let g, let geo):
      guard let inv = ctm.inverted else {
        self = .solid(0)
        return
      }
      self = .conical(g, geo, inv)
    }
  }

  /// Whether every colour the shader produces is opaque.
  var isOpaque: Bool {
    switch kind {
    case .solid: return color >> 24 == 255
    case .linear, .radial: return gradient.unsafelyUnwrapped.isOpaque
    case .image, .conical, .boundedLinear: return false
    case .sampled: return sampler.unsafelyUnwrapped.opaque
    }
  }

  /// The paint's colour when it is one colour everywhere.
  var solidColor: UInt32? { kind == .solid ? color : nil }

  /// Writes the colours of `count` pixels from device (x, y) to `out`.
  func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
    switch kind {
    case .solid:
      out.update(repeating: color, count: count)
    case .linear:
      let (dx, dy, t0) = (dx, dy, t0)
      gradient.unsafelyUnwrapped.table.withUnsafeBufferPointer { lut in
        // The table index in 16.16 fixed point, stepped along the row.
        let t = dx * (Double(x) + 0.5) + dy * (Double(y) + 0.5) + t0
        let scale = 255.0 * 65536
        let start = t * scale + 32768
        let step = dx * scale
        if dx == 0 {
          // A gradient across rows only: one colour per row.
          let idx = Int(min(max(start / 65536, 0), 255))
          out.update(repeating: lut[idx], count: count)
        } else if abs(start) < 1e15 && abs(step * Double(count)) < 1e15 {
          var v = Int64(start)
          let dv = Int64(step)
          for i in 0..<count {
            let idx = Int(min(max(v >> 16, 0), 255))
            out[i] = lut[idx]
            v &+= dv
          }
        } else {
          var tt = t
          for i in 0..<count {
            out[i] = lut[tt < 0 ? 0 : (tt > 1 ? 255 : Int(tt * 255 + 0.5))]
            tt += dx
          }
        }
      }
    case .radial:
      let m = transform
      gradient.unsafelyUnwrapped.table.withUnsafeBufferPointer { lut in
        let py = Double(y) + 0.5
        var ux = m.a * (Double(x) + 0.5) + m.c * py + m.tx
        var uy = m.b * (Double(x) + 0.5) + m.d * py + m.ty
        for i in 0..<count {
          let t = (ux * ux + uy * uy).squareRoot()
          out[i] = lut[t > 1 ? 255 : Int(t * 255 + 0.5)]
          ux += m.a
          uy += m.b
        }
      }
    case .image:
      let m = transform
      let src = surface.unsafelyUnwrapped
      // One pixel for one (a whole-pixel translation): texel centres fall on pixel centres, so
      // bilinear weights are 0 and the row is the image's row, copied (`Canvas.blit`, images
      // drawn at 1:1).
      if m.a == 1 && m.b == 0 && m.c == 0 && m.d == 1, let tx = Int(exactly: m.tx),
        let ty = Int(exactly: m.ty)
      {
        copyImageRow(src, x: x &+ tx, y: y &+ ty, count: count, into: out)
      } else {
        sampleBilinear(src, m, x: x, y: y, count: count, into: out)
      }
    case .sampled:
      sampler.unsafelyUnwrapped.shade(x: x, y: y, count: count, into: out)
    case .boundedLinear:
      let (dx, dy, t0, before, after) = (dx, dy, t0, extendsStart, extendsEnd)
      gradient.unsafelyUnwrapped.table.withUnsafeBufferPointer { lut in
        var t = dx * (Double(x) + 0.5) + dy * (Double(y) + 0.5) + t0
        for i in 0..<count {
          if (t < 0 && !before) || (t > 1 && !after) || t.isNaN {
            out[i] = 0
          } else {
            out[i] = lut[t <= 0 ? 0 : (t >= 1 ? 255 : Int(t * 255 + 0.5))]
          }
          t += dx
        }
      }
    case .conical:
      Shader.shadeConical(
        gradient.unsafelyUnwrapped, conicalGeometry.unsafelyUnwrapped, transform, x: x, y: y, count: count,
        into: out)
    }
  }
}

/// `count` texels of `src`'s row `y` from column `x`, transparent outside the surface.
private func copyImageRow(_ src: Surface, x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>)
{
  guard y >= 0, y < src.height, x < src.width, x > Int.min / 2, x &+ count > 0 else {
    out.update(repeating: 0, count: count)
    return
  }
  let first = max(0, -x)
  let last = min(count, src.width - x)
  if first > 0 { out.update(repeating: 0, count: first) }
  out.advanced(by: first).update(
    from: src.base.advanced(by: y * src.rowPixels + x + first), count: last - first)
  if last < count { out.advanced(by: last).update(repeating: 0, count: count - last) }
}

/// Bilinear sampling of `src` at `m * (pixel centre)`, with transparent outside the surface.
private func sampleBilinear(
  _ src: Surface, _ m: Transform, x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>
) {
  let py = Double(y) + 0.5
  // Source coordinates of the centre, shifted so that texel centres sit on integers.
  var sx = m.a * (Double(x) + 0.5) + m.c * py + m.tx - 0.5
  var sy = m.b * (Double(x) + 0.5) + m.d * py + m.ty - 0.5
  let w = src.width
  let h = src.height
  @inline(__always) func texel(_ tx: Int, _ ty: Int) -> UInt32 {
    tx < 0 || ty < 0 || tx >= w || ty >= h ? 0 : src.base[ty * src.rowPixels + tx]
  }
  for i in 0..<count {
    if sx > -1 && sy > -1 && sx < Double(w) && sy < Double(h) {
      let fx = sx.rounded(.down)
      let fy = sy.rounded(.down)
      let ix = Int(fx)
      let iy = Int(fy)
      let ax = UInt32((sx - fx) * 256)
      let ay = UInt32((sy - fy) * 256)
      let p00 = texel(ix, iy)
      let p10 = texel(ix + 1, iy)
      let p01 = texel(ix, iy + 1)
      let p11 = texel(ix + 1, iy + 1)
      out[i] = lerpPixel(lerpPixel(p00, p10, ax), lerpPixel(p01, p11, ax), ay)
    } else {
      out[i] = 0
    }
    sx += m.a
    sy += m.b
  }
}

/// `a + (b - a) * f / 256` per channel, `f` in 0...256.
@inline(__always) func lerpPixel(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
  let g = 256 - f
  let rb = (((a & 0x00FF_00FF) &* g &+ (b & 0x00FF_00FF) &* f) >> 8) & 0x00FF_00FF
  let ag = ((((a >> 8) & 0x00FF_00FF) &* g &+ ((b >> 8) & 0x00FF_00FF) &* f)) & 0xFF00_FF00
  return rb | ag
}
