/// Where a drawing operation writes: a block of pixel rows whose pixel (0, 0) sits at device
/// position `bounds.x, bounds.y`.
@usableFromInline struct RenderTarget {
  var base: UnsafeMutablePointer<UInt32>
  var rowPixels: Int
  var bounds: IntRect

  init(surface: Surface) {
    base = surface.base
    rowPixels = surface.rowPixels
    bounds = surface.bounds
  }

  init(base: UnsafeMutablePointer<UInt32>, rowPixels: Int, bounds: IntRect) {
    self.base = base
    self.rowPixels = rowPixels
    self.bounds = bounds
  }

  /// The pixel at device (x, y), which lies within `bounds` (so the arithmetic cannot overflow:
  /// it wraps, with no checks, as it is worked out for every span).
  @inline(__always) func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt32> {
    base + ((y &- bounds.y) &* rowPixels &+ (x &- bounds.x))
  }
}

/// Turns coverage spans into blended pixels: applies the clip mask and global alpha, asks the
/// shader for colours, and blends source-over (or with `mode`) into the target. It holds the
/// scratch rows as pointers: the canvas keeps them alive while the sink draws.
struct PaintSink: SpanSink {
  let target: RenderTarget
  let shader: Shader
  let solid: UInt32?
  let opaque: Bool
  /// The clip mask, as values: each span reads it, and a class reference would be retained and
  /// released per span. The canvas keeps the mask alive while the sink draws.
  let clipMask: MaskView?
  /// Global alpha, 0...255.
  let alpha: UInt32
  /// How colours combine with the target; anything but `.normal` takes `blendedSpan`.
  let mode: BlendMode
  /// Scratch rows of `capacity` entries.
  let colors: UnsafeMutablePointer<UInt32>
  let alphas: UnsafeMutablePointer<UInt8>
  let capacity: Int

  init(
    target: RenderTarget, shader: Shader, clipMask: AlphaMask?, alpha: UInt32, scratch: Scratch,
    mode: BlendMode = .normal
  ) {
    self.mode = mode
    self.target = target
    self.shader = shader
    solid = shader.solidColor
    opaque = shader.isOpaque
    self.clipMask = clipMask?.view
    self.alpha = alpha
    colors = scratch.colors
    alphas = scratch.alphas
    capacity = scratch.capacity
  }

  func solidSpan(y: Int, x: Int, count: Int, alpha a: UInt8) {
    if mode != .normal {
      blendedSpan(y: y, x: x, count: count, coverage: nil, uniform: a)
      return
    }
    if let m = clipMask {
      // Inside the clip's solid run the clip changes nothing: paint that part unclipped.
      let run = m.solidRun(y - m.originY)
      let s0 = max(x, run.lowerBound + m.originX)
      let s1 = min(x + count, run.upperBound + m.originX)
      if s1 > s0 {
        if s0 > x { solidSpanThroughClip(y: y, x: x, count: s0 - x, alpha: a) }
        unclippedSolidSpan(y: y, x: s0, count: s1 - s0, alpha: a)
        if x + count > s1 { solidSpanThroughClip(y: y, x: s1, count: x + count - s1, alpha: a) }
      } else {
        solidSpanThroughClip(y: y, x: x, count: count, alpha: a)
      }
      return
    }
    unclippedSolidSpan(y: y, x: x, count: count, alpha: a)
  }

  private func solidSpanThroughClip(y: Int, x: Int, count: Int, alpha a: UInt8) {
    var x = x
    var left = count
    while left > 0 {
      let n = min(left, capacity)
      alphas.update(repeating: a, count: n)
      maskSpan(y: y, x: x, alphas: alphas, count: n)
      x += n
      left -= n
    }
  }

  private func unclippedSolidSpan(y: Int, x: Int, count: Int, alpha a: UInt8) {
    let cov = alpha == 255 ? UInt32(a) : Pixel.div255(UInt32(a) * alpha)
    if cov == 0 { return }
    let dst = target.pixel(x, y)
    if let c = solid {
      blendSolid(dst, count, cov == 255 ? c : Pixel.scale(c, by: cov))
      return
    }
    if cov == 255 && opaque {
      // Opaque colours at full coverage replace the destination.
      shader.shade(x: x, y: y, count: count, into: dst)
      return
    }
    var x = x
    var done = 0
    while done < count {
      let n = min(count - done, capacity)
      shader.shade(x: x, y: y, count: n, into: colors)
      blendRow(dst + done, colors, n, alpha: cov)
      x += n
      done += n
    }
  }

  func maskSpan(y: Int, x: Int, alphas src: UnsafePointer<UInt8>, count: Int) {
    if mode != .normal {
      blendedSpan(y: y, x: x, count: count, coverage: src, uniform: 0)
      return
    }
    if let c = solid, clipMask == nil, alpha == 255 {
      // A solid colour, unclipped, at full global alpha (glyphs, shadows, anti-aliased edges):
      // straight from the coverage, with no chunks and no tables.
      blendSolidLanes(target.pixel(x, y), count, c, coverage: src)
      return
    }
    var done = 0
    while done < count {
      let n = min(count - done, capacity)
      let px = x + done
      // Coverage of this chunk, times the clip mask and global alpha.
      var cov = src + done
      if let m = clipMask {
        let my = y - m.originY
        let run = m.solidRun(my)
        let lo = px - m.originX
        // Entirely inside the clip's solid run, the clip changes nothing.
        if !(lo >= run.lowerBound && lo + n <= run.upperBound) {
          let mrow = m.row(my) + lo
          for i in 0..<n { alphas[i] = UInt8(Pixel.div255(UInt32(cov[i]) * UInt32(mrow[i]))) }
          cov = UnsafePointer(alphas)
        }
      }
      if alpha != 255 {
        for i in 0..<n { alphas[i] = UInt8(Pixel.div255(UInt32(cov[i]) * alpha)) }
        cov = UnsafePointer(alphas)
      }
      let dst = target.pixel(px, y)
      if let c = solid {
        blendSolidLanes(dst, n, c, coverage: cov)
      } else {
        shader.shade(x: px, y: y, count: n, into: colors)
        blendRow(dst, colors, n, coverage: cov)
      }
      done += n
    }
  }
}

extension PaintSink {
  /// A span drawn with a blend mode other than source-over: the global alpha scales the source,
  /// and coverage (the span's times the clip mask's) goes from the destination to the blended
  /// result. `coverage` nil means `uniform` everywhere.
  func blendedSpan(y: Int, x: Int, count: Int, coverage: UnsafePointer<UInt8>?, uniform: UInt8) {
    var done = 0
    while done < count {
      let n = min(count - done, capacity)
      let px = x + done
      if let c = coverage {
        alphas.update(from: c + done, count: n)
      } else {
        alphas.update(repeating: uniform, count: n)
      }
      if let m = clipMask {
        let mrow = m.row(y - m.originY) + (px - m.originX)
        for i in 0..<n { alphas[i] = UInt8(Pixel.div255(UInt32(alphas[i]) * UInt32(mrow[i]))) }
      }
      shader.shade(x: px, y: y, count: n, into: colors)
      if alpha != 255 {
        for i in 0..<n { colors[i] = Pixel.scale(colors[i], by: alpha) }
      }
      blendRow(mode, target.pixel(px, y), colors, n, coverage: alphas)
      done += n
    }
  }
}

/// Accumulates coverage into an alpha mask: `m = m + c - m * c / 255` (coverage union).
struct MaskSink: SpanSink {
  let mask: AlphaMask
  /// Whether to record each row's widest run of 255 as the mask's solid runs (for a mask that
  /// starts empty and receives one path).
  var recordsRuns = false

  init(mask: AlphaMask, recordsRuns: Bool = false) {
    self.mask = mask
    self.recordsRuns = recordsRuns
    if recordsRuns { mask.clearSolidRuns() }
  }

  func solidSpan(y: Int, x: Int, count: Int, alpha a: UInt8) {
    let row = mask.row(y - mask.originY) + (x - mask.originX)
    if a == 255 {
      row.update(repeating: 255, count: count)
      if recordsRuns { mask.noteSolidRun(y - mask.originY, x - mask.originX, x - mask.originX + count) }
      return
    }
    let c = UInt32(a)
    for i in 0..<count {
      let m = UInt32(row[i])
      row[i] = UInt8(m + c - Pixel.div255(m * c))
    }
  }

  func maskSpan(y: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int) {
    let row = mask.row(y - mask.originY) + (x - mask.originX)
    for i in 0..<count {
      let m = UInt32(row[i])
      let c = UInt32(alphas[i])
      row[i] = UInt8(m + c - Pixel.div255(m * c))
    }
  }
}

/// Scratch rows shared by the drawing operations of one canvas, and the coverage tables of the
/// last solid colour drawn through a mask (glyphs and shadows reuse them call after call).
final class Scratch {
  let capacity = 1024
  let colors: UnsafeMutablePointer<UInt32>
  let alphas: UnsafeMutablePointer<UInt8>
  /// The colour at each coverage, premultiplied.
  let scaled: UnsafeMutablePointer<UInt32>
  /// 255 minus the alpha of `scaled[c]`, in two 16-bit lanes.
  let inverse: UnsafeMutablePointer<UInt32>
  /// The colour the tables describe. Read once per masked span: unchecked, since a dynamic
  /// exclusivity check (a thread-local access set) costs more than the comparison it guards, and
  /// a canvas (with its scratch) is used by one thread at a time.
  @exclusivity(unchecked) private var tableColor: UInt32? = nil

  init() {
    colors = .allocate(capacity: capacity)
    colors.initialize(repeating: 0, count: capacity)
    alphas = .allocate(capacity: capacity)
    alphas.initialize(repeating: 0, count: capacity)
    scaled = .allocate(capacity: 256)
    scaled.initialize(repeating: 0, count: 256)
    inverse = .allocate(capacity: 256)
    inverse.initialize(repeating: 0, count: 256)
  }

  deinit {
    colors.deallocate()
    alphas.deallocate()
    scaled.deallocate()
    inverse.deallocate()
  }

  /// Makes the coverage tables describe `color`.
  @inline(__always) func prepareTables(for color: UInt32) {
    if tableColor == color { return }
    for c in 0..<256 {
      let s = Pixel.scale(color, by: UInt32(c))
      scaled[c] = s
      inverse[c] = (255 - (s >> 24)) &* 0x0001_0001
    }
    tableColor = color
  }
}
