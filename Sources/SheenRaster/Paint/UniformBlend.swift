// Blending a colour over pixels that still hold one known colour, by table.
//
// Most of what a frame blends with a coverage per pixel lands on the colour the frame was
// cleared to: the faint rings of shadows around cards and tiles, the anti-aliased edges of
// shapes on the window's background. There the result depends only on the coverage: a table of
// the colour blended over that background at each of the 256 coverages (made once by the same
// arithmetic, `SolidLanes.blendQuad`, so the pixels are the same bytes) replaces the multiplies
// of four pixels by four look-ups. Each quad of pixels is checked: one that holds anything else
// (another shadow's ring overlapping) is blended as before.

/// Tables of a colour blended over a background at every coverage, per canvas (one thread), for
/// the last few (colour, background) pairs used: made once, reused frame after frame.
final class BlendTables {
  static let slots = 8
  /// The colour and background of each slot (nil: empty).
  private var keys: [(color: UInt32, base: UInt32)?] = Array(repeating: nil, count: BlendTables.slots)
  /// 256 results per slot.
  private let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: 256 * BlendTables.slots)
  /// The slot replaced next when none matches.
  private var next = 0
  /// Tables made (tests read it: a steady frame makes none).
  private(set) var made = 0

  deinit { storage.deallocate() }

  /// The table of `color` over `base`: entry c is `color` at coverage c blended over `base`.
  func table(_ color: UInt32, over base: UInt32) -> UnsafePointer<UInt32> {
    for k in 0..<BlendTables.slots {
      if let key = keys[k], key.color == color, key.base == base { return UnsafePointer(storage + 256 * k) }
    }
    let k = next
    next = (next + 1) % BlendTables.slots
    keys[k] = (color, base)
    BlendTables.fill(storage + 256 * k, color, over: base)
    made += 1
    return UnsafePointer(storage + 256 * k)
  }

  /// Writes the 256 entries with the blend the quads take (`SolidLanes.blendQuad`).
  static func fill(_ table: UnsafeMutablePointer<UInt32>, _ color: UInt32, over base: UInt32) {
    let lanes = SolidLanes(color)
    let d = unsafeBitCast(SIMD4<UInt32>(repeating: base), to: Quad.self)
    for c in stride(from: 0, to: 256, by: 4) {
      let cov4 = UInt32(c) | UInt32(c + 1) << 8 | UInt32(c + 2) << 16 | UInt32(c + 3) << 24
      let r = unsafeBitCast(lanes.blendQuad(d, cov4, alphaOnly: lanes.alphaOnly), to: SIMD4<UInt32>.self)
      table[c] = r[0]
      table[c + 1] = r[1]
      table[c + 2] = r[2]
      table[c + 3] = r[3]
    }
  }
}

extension SolidLanes {
  /// `blend(dst, count, coverage:)`, with quads whose four pixels all hold `base` taken from
  /// `table` (`BlendTables`): the same pixels.
  @inline(__always) func blend(
    _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, coverage: UnsafePointer<UInt8>, over base: UInt32,
    table: UnsafePointer<UInt32>
  ) {
    if alphaOnly {
      blend(dst, count, coverage: coverage, over: base, table: table, alphaOnly: true)
    } else {
      blend(dst, count, coverage: coverage, over: base, table: table, alphaOnly: false)
    }
  }

  @inline(__always) private func blend(
    _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, coverage: UnsafePointer<UInt8>, over base: UInt32,
    table: UnsafePointer<UInt32>, alphaOnly: Bool
  ) {
    let quads = count &>> 2
    let raw = UnsafeRawPointer(coverage)
    let out = UnsafeMutableRawPointer(dst)
    let baseQuad = SIMD4<UInt32>(repeating: base)
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
      let d = loadQuad(out, q &* 16)
      if all(unsafeBitCast(d, to: SIMD4<UInt32>.self) .== baseQuad) {
        let r = SIMD4<UInt32>(
          table[Int(cov4 & 0xFF)], table[Int((cov4 &>> 8) & 0xFF)], table[Int((cov4 &>> 16) & 0xFF)],
          table[Int(cov4 &>> 24)])
        out.storeBytes(of: r, toByteOffset: q &* 16, as: SIMD4<UInt32>.self)
        continue
      }
      let r = blendQuad(d, cov4, alphaOnly: alphaOnly)
      out.storeBytes(of: r, toByteOffset: q &* 16, as: Quad.self)
    }
    let done = quads &<< 2
    let left = count &- done
    if left == 0 { return }
    if quads == 0 {
      blend(dst, count, coverage: coverage)
      return
    }
    // The quad ending at the span's end, its lanes done already at coverage 0 (left as they are).
    let cov4 = raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self) & ~(UInt32.max &>> (left &<< 3))
    if cov4 == 0 { return }
    let at = (count &- 4) &<< 2
    let d = loadQuad(out, at)
    if all(unsafeBitCast(d, to: SIMD4<UInt32>.self) .== baseQuad) {
      let r = SIMD4<UInt32>(
        table[Int(cov4 & 0xFF)], table[Int((cov4 &>> 8) & 0xFF)], table[Int((cov4 &>> 16) & 0xFF)],
        table[Int(cov4 &>> 24)])
      out.storeBytes(of: r, toByteOffset: at, as: SIMD4<UInt32>.self)
      return
    }
    out.storeBytes(of: blendQuad(d, cov4, alphaOnly: alphaOnly), toByteOffset: at, as: Quad.self)
  }
}

/// `SolidSink` with a table of its colour over a background (`BlendTables`) for quads that hold
/// only that background.
struct TableSolidSink: SpanSink {
  let target: RenderTarget
  let color: UInt32
  let lanes: SolidLanes
  let base: UInt32
  let table: UnsafePointer<UInt32>

  init(target: RenderTarget, color: UInt32, base: UInt32, table: UnsafePointer<UInt32>) {
    self.target = target
    self.color = color
    lanes = SolidLanes(color)
    self.base = base
    self.table = table
  }

  @inline(__always) func solidSpan(y: Int, x: Int, count: Int, alpha a: UInt8) {
    blendSolid(target.pixel(x, y), count, a == 255 ? color : Pixel.scale(color, by: UInt32(a)))
  }

  @inline(__always) func maskSpan(y: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int) {
    lanes.blend(target.pixel(x, y), count, coverage: alphas, over: base, table: table)
  }

  @inline(__always) func solidSpans(y: Int, rows: Int, x: Int, count: Int, alpha a: UInt8) {
    let c = a == 255 ? color : Pixel.scale(color, by: UInt32(a))
    var p = target.pixel(x, y)
    let step = target.rowPixels
    for _ in 0..<rows {
      blendSolid(p, count, c)
      p += step
    }
  }

  @inline(__always) func maskSpans(y: Int, rows: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int) {
    var p = target.pixel(x, y)
    let step = target.rowPixels
    for _ in 0..<rows {
      lanes.blend(p, count, coverage: alphas, over: base, table: table)
      p += step
    }
  }
}
