// A premultiplied picture kept as runs per row (issue 17's raster cache): a run of one opaque
// colour is stored as that colour, a run of opaque pixels as pixels copied row for row, a run of
// translucent ones as pixels blended, and fully transparent pixels not at all. A card's white
// body costs a few bytes a row instead of four a pixel, and compositing it is a fill, a copy
// and a blend where its edges and shadow are. A run of translucent black (a shadow's pixels, most
// of a card's translucent ones) keeps only each pixel's alpha: a byte a pixel instead of four,
// blended exactly as the pixels it stands for.

/// A premultiplied BGRA8 picture stored as runs per row (see the top of this file). Immutable
/// once made: bands of a frame composite it at once. Its runs and pixels are one block of memory:
/// its own (`init(_:area:)`), or a block of a `RunStore` (a raster cache's, so that making one
/// allocates nothing).
public struct RunImage: @unchecked Sendable {
  public let width: Int
  public let height: Int
  /// One run: its kind (0 one opaque colour in `value`, 1 opaque pixels and 2 translucent
  /// pixels from `pixels[value...]`, 3 translucent black pixels whose alphas are
  /// `alphas[value...]`) in the top two bits of `place`, its first column in the others, and
  /// `count` pixels long. Eight bytes.
  struct Run {
    var place: UInt16
    var count: UInt16
    var value: UInt32
    init(kind: UInt8, x: Int, count: Int, value: UInt32) {
      place = UInt16(x) | UInt16(kind) << 14
      self.count = UInt16(count)
      self.value = value
    }
    @inline(__always) var kind: UInt8 { UInt8(place >> 14) }
    @inline(__always) var x: Int { Int(place & 0x3FFF) }
  }
  /// The widest run image (columns fit in 14 bits).
  public static let maxWidth = 1 << 14 - 1
  /// Row `y`'s runs are `runs[rowStart[y]..<rowStart[y + 1]]`, left to right.
  let rowStart: UnsafePointer<Int32>
  let runs: UnsafePointer<Run>
  let pixels: UnsafePointer<UInt32>
  /// The alphas of translucent black runs (kind 3), a byte a pixel.
  let alphas: UnsafePointer<UInt8>
  /// Bytes of its block (row starts, runs and pixels).
  public let byteCount: Int
  /// What keeps the block alive (its own buffer, or the store).
  let owner: AnyObject

  /// Equal opaque pixels in a row from which a run of one colour is kept instead of the pixels.
  static let solidRun = 8
  /// Translucent black pixels in a row from which they are kept as alphas in a run of their own
  /// within translucent ones (a run takes 8 bytes; each pixel kept so saves 3).
  static let blackRun = 6

  /// How many runs and pixels the runs of a surface's area take, and so the bytes of its block.
  public struct Measure: Sendable {
    public let area: IntRect
    let runCount: Int
    let pixelCount: Int
    let alphaCount: Int
    /// Bytes of the block: row starts (8-byte aligned), runs, pixels, alphas (to 8 bytes).
    public var bytes: Int {
      RunImage.runsOffset(area.height) + runCount * 8 + pixelCount * 4 + (alphaCount + 7) & ~7
    }

    /// Measures the runs of `surface`'s pixels in `area` (its bounds by default).
    public init(_ surface: Surface, area: IntRect? = nil) {
      var a = (area ?? surface.bounds).intersection(surface.bounds)
      a.width = max(0, min(a.width, RunImage.maxWidth))
      a.height = max(0, a.height)
      self.area = a
      var runs = 0
      var pixels = 0
      var alphas = 0
      for y in 0..<a.height {
        RunImage.scan(surface.row(a.y + y) + a.x, a.width) { kind, _, count in
          runs += 1
          if kind == 3 {
            alphas += count
          } else if kind != 0 {
            pixels += count
          }
        }
      }
      runCount = runs
      pixelCount = pixels
      alphaCount = alphas
    }
  }

  /// Where the runs start in a block: after the row starts, 8-byte aligned.
  static func runsOffset(_ height: Int) -> Int { ((height + 1) * 4 + 7) & ~7 }

  /// The runs of `surface`'s pixels in `area` (its bounds by default), in a block of their own.
  public init(_ surface: Surface, area: IntRect? = nil) {
    let m = Measure(surface, area: area)
    let buffer = RunBuffer(bytes: m.bytes)
    self.init(surface, m, into: buffer.base, owner: buffer)
  }

  /// The runs of `surface` measured by `m`, written into `block` (`m.bytes` bytes, 8-byte
  /// aligned), which `owner` keeps alive.
  public init(_ surface: Surface, _ m: Measure, into block: UnsafeMutableRawPointer, owner: AnyObject) {
    let a = m.area
    width = a.width
    height = a.height
    byteCount = m.bytes
    self.owner = owner
    let starts = block.bindMemory(to: Int32.self, capacity: a.height + 1)
    let runBase = (block + RunImage.runsOffset(a.height)).bindMemory(to: Run.self, capacity: m.runCount)
    let pixelBase = (block + RunImage.runsOffset(a.height) + m.runCount * 8)
      .bindMemory(to: UInt32.self, capacity: m.pixelCount)
    let alphaBase = (block + RunImage.runsOffset(a.height) + m.runCount * 8 + m.pixelCount * 4)
      .bindMemory(to: UInt8.self, capacity: m.alphaCount)
    var run = 0
    var stored = 0
    var storedAlphas = 0
    for y in 0..<a.height {
      starts[y] = Int32(run)
      let row = surface.row(a.y + y) + a.x
      RunImage.scan(row, a.width) { kind, x, count in
        if kind == 0 {
          runBase[run] = Run(kind: 0, x: x, count: count, value: row[x])
        } else if kind == 3 {
          runBase[run] = Run(kind: 3, x: x, count: count, value: UInt32(storedAlphas))
          for i in 0..<count { alphaBase[storedAlphas + i] = UInt8(truncatingIfNeeded: row[x + i] >> 24) }
          storedAlphas += count
        } else {
          runBase[run] = Run(kind: kind, x: x, count: count, value: UInt32(stored))
          (pixelBase + stored).update(from: row + x, count: count)
          stored += count
        }
        run += 1
      }
    }
    starts[a.height] = Int32(run)
    rowStart = UnsafePointer(starts)
    runs = UnsafePointer(runBase)
    pixels = UnsafePointer(pixelBase)
    alphas = UnsafePointer(alphaBase)
  }

  /// Splits a row into runs, left to right: `emit(kind, x, count)` with kind 0 for a run of one
  /// opaque colour, 1 for opaque pixels, 2 for translucent ones, 3 for translucent black ones
  /// (at least `blackRun` of them, or all of a stretch of translucent pixels; transparent pixels
  /// are skipped).
  @inline(__always) static func scan(
    _ row: UnsafeMutablePointer<UInt32>, _ width: Int, _ emit: (UInt8, Int, Int) -> Void
  ) {
    var x = 0
    while x < width {
      let alpha = row[x] >> 24
      if alpha == 0 {
        x += 1
        continue
      }
      var e = x + 1
      if alpha < 255 {
        while e < width, row[e] >> 24 != 0, row[e] >> 24 != 255 { e += 1 }
        // Black stretches apart (a shadow's pixels: premultiplied black is its alpha alone).
        var pending = x
        var i = x
        while i < e {
          guard row[i] & 0xFF_FFFF == 0 else {
            i += 1
            continue
          }
          var j = i + 1
          while j < e, row[j] & 0xFF_FFFF == 0 { j += 1 }
          if j - i >= RunImage.blackRun || (i == pending && j == e) {
            if pending < i { emit(2, pending, i - pending) }
            emit(3, i, j - i)
            pending = j
          }
          i = j
        }
        if pending < e { emit(2, pending, e - pending) }
        x = e
        continue
      }
      // Opaque: runs of one colour where long enough, copied pixels between them.
      while e < width, row[e] >> 24 == 255 { e += 1 }
      var copyStart = x
      var i = x
      while i < e {
        var j = i + 1
        while j < e, row[j] == row[i] { j += 1 }
        if j - i >= RunImage.solidRun {
          if copyStart < i { emit(1, copyStart, i - copyStart) }
          emit(0, i, j - i)
          copyStart = j
        }
        i = j
      }
      if copyStart < e { emit(1, copyStart, e - copyStart) }
      x = e
    }
  }

  /// Writes row `y`'s pixels into `out` (`width` pixels; transparent where no run is).
  func expand(row y: Int, into out: UnsafeMutablePointer<UInt32>) {
    out.initialize(repeating: 0, count: width)
    forEachRun(y) { r in
      let d = out + r.x
      if r.kind == 0 {
        d.update(repeating: r.value, count: Int(r.count))
      } else if r.kind == 3 {
        let a = alphas + Int(r.value)
        for i in 0..<Int(r.count) { d[i] = UInt32(a[i]) << 24 }
      } else {
        d.update(from: pixels + Int(r.value), count: Int(r.count))
      }
    }
  }

  @inline(__always) private func forEachRun(_ y: Int, _ body: (Run) -> Void) {
    for k in Int(rowStart[y])..<Int(rowStart[y + 1]) { body(runs[k]) }
  }

  /// Calls `body` with each run of row `y` that reaches into columns `x0..<x1`, the columns
  /// `s..<e` of it that do, and its data's offset for column `s` (`value + s - x`; unused for a
  /// run of one colour), left to right.
  @inline(__always) private func forEachRun(
    _ y: Int, from x0: Int, to x1: Int, _ body: (_ r: Run, _ s: Int, _ e: Int, _ at: Int) -> Void
  ) {
    var k = Int(rowStart[y])
    let end = Int(rowStart[y &+ 1])
    while k < end {
      let r = runs[k]
      k &+= 1
      let x = r.x
      // Runs are left to right: none after this one reaches the columns.
      if x >= x1 { return }
      let s = max(x, x0)
      let e = min(x &+ Int(r.count), x1)
      if s >= e { continue }
      body(r, s, e, Int(r.value) &+ (s &- x))
    }
  }

  /// Composites row `y`'s columns `x0..<x1` at `dst` (the destination pixel of column `x0`),
  /// source-over with full coverage: colours filled, opaque pixels copied, translucent blended.
  func composite(row y: Int, from x0: Int, to x1: Int, into dst: UnsafeMutablePointer<UInt32>) {
    forEachRun(y, from: x0, to: x1) { r, s, e, at in
      let d = dst + (s &- x0)
      switch r.kind {
      case 0: d.update(repeating: r.value, count: e &- s)
      case 1: d.update(from: pixels + at, count: e &- s)
      case 2: blendRow(d, pixels + at, e &- s, alpha: 255)
      default: blendBlackRow(d, alphas + at, e &- s)
      }
    }
  }
}

extension RunImage {
  /// Composites row `y`'s columns `x0..<x1` at `dst` through per-pixel coverage (`coverage[0]`
  /// for column `x0`): each pixel scaled by its coverage, then source-over (as a paint sink
  /// draws an image through a clip mask).
  func composite(
    row y: Int, from x0: Int, to x1: Int, into dst: UnsafeMutablePointer<UInt32>,
    coverage: UnsafePointer<UInt8>
  ) {
    forEachRun(y, from: x0, to: x1) { r, s, e, at in
      let d = dst + (s &- x0)
      let c = coverage + (s &- x0)
      if r.kind == 0 {
        // Four pixels at a time, quads with no coverage skipped, whole ones stored.
        blendSolidLanes(d, e &- s, r.value, coverage: c)
      } else if r.kind == 3 {
        blendBlackRow(d, alphas + at, e &- s, coverage: c)
      } else {
        blendRow(d, pixels + at, e &- s, coverage: c)
      }
    }
  }
}

extension Canvas {
  /// Composites a run image with its pixel (0, 0) at device pixel (`x`, `y`) (the transform does
  /// not apply; the clip, global alpha and blend mode do), source-over, one pixel for one: the
  /// same pixels as compositing the surface it was made from as a group.
  public func draw(_ image: RunImage, x: Int, y: Int) {
    let placed = IntRect(x: x, y: y, width: image.width, height: image.height)
    let r = placed.intersection(state.clipBounds).intersection(target.bounds)
    if r.isEmpty || state.globalAlpha <= 0 { return }
    resolveClip(for: Rect(r))
    if state.clipMask == nil && state.globalAlpha >= 1 && state.blendMode == .normal {
      for row in r.y..<r.maxY {
        image.composite(row: row - y, from: r.x - x, to: r.maxX - x, into: target.pixel(r.x, row))
      }
      return
    }
    if let clip = state.clipMask, state.globalAlpha >= 1, state.blendMode == .normal {
      // Through the clip's coverage (allocates nothing).
      for row in r.y..<r.maxY {
        image.composite(
          row: row - y, from: r.x - x, to: r.maxX - x, into: target.pixel(r.x, row),
          coverage: clip.row(row - clip.originY) + (r.x - clip.originX))
      }
      return
    }
    // Under a global alpha or another blend mode: each row expanded and drawn through a paint
    // sink (allocates one row).
    guard let line = try? Surface(width: image.width, height: 1) else { return }
    for row in r.y..<r.maxY {
      image.expand(row: row - y, into: line.row(0))
      let sink = makeSink(Shader.image(line, Transform(translationX: Double(-x), y: Double(-row))))
      sink.solidSpan(y: row, x: r.x, count: r.width, alpha: 255)
    }
  }
}

/// Blends translucent black pixels, given by their alphas, over `count` pixels: source-over of
/// the pixels `alpha << 24` (premultiplied black), which is each destination channel times
/// `255 - alpha` (rounded as `Pixel.scale`) plus the alpha in the alpha channel; four pixels at a
/// time from four alpha bytes (no pixels rebuilt), so exactly as the pixels they stand for.
@inline(__always) func blendBlackRow(
  _ dst: UnsafeMutablePointer<UInt32>, _ alphas: UnsafePointer<UInt8>, _ count: Int
) {
  let quads = count &>> 2
  let out = UnsafeMutableRawPointer(dst)
  let input = UnsafeRawPointer(alphas)
  for q in 0..<quads {
    let a4 = input.loadUnaligned(fromByteOffset: q &* 4, as: UInt32.self)
    let a = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(a4, to: SIMD4<UInt8>.self))
    let inv = SIMD4<UInt32>(repeating: 255) &- a
    let s = unsafeBitCast(a &<< 24, to: Quad.self)
    let r = s &+ scaleQuad(loadQuad(out, q &* 16), by: unsafeBitCast(inv | inv &<< 16, to: Quad.self))
    out.storeBytes(of: r, toByteOffset: q &* 16, as: Quad.self)
  }
  for i in (quads &<< 2)..<count {
    let a = UInt32(alphas[i])
    dst[i] = a &<< 24 &+ Pixel.scale(dst[i], by: 255 &- a)
  }
}

/// Blends translucent black pixels, given by their alphas, over `count` pixels, each through its
/// coverage: the alpha scaled by the coverage (rounded as `Pixel.scale`), then as
/// `blendBlackRow(_:_:_:)`; four pixels at a time, quads with no coverage skipped, so exactly as
/// `blendRow(_:_:_:coverage:)` over the pixels the alphas stand for.
@inline(__always) func blendBlackRow(
  _ dst: UnsafeMutablePointer<UInt32>, _ alphas: UnsafePointer<UInt8>, _ count: Int,
  coverage: UnsafePointer<UInt8>
) {
  let quads = count &>> 2
  let out = UnsafeMutableRawPointer(dst)
  let input = UnsafeRawPointer(alphas)
  let raw = UnsafeRawPointer(coverage)
  for q in 0..<quads {
    let cov4 = raw.loadUnaligned(fromByteOffset: q &* 4, as: UInt32.self)
    if cov4 == 0 { continue }
    let a4 = input.loadUnaligned(fromByteOffset: q &* 4, as: UInt32.self)
    var a = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(a4, to: SIMD4<UInt8>.self))
    if cov4 != 0xFFFF_FFFF {
      let c = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(cov4, to: SIMD4<UInt8>.self))
      // a * c / 255 rounded, in the low lane of each pixel (at most 65025: no carry).
      a = unsafeBitCast(div255(unsafeBitCast(a &* c, to: Quad.self)), to: SIMD4<UInt32>.self) & 0xFF
    }
    let inv = SIMD4<UInt32>(repeating: 255) &- a
    let s = unsafeBitCast(a &<< 24, to: Quad.self)
    let r = s &+ scaleQuad(loadQuad(out, q &* 16), by: unsafeBitCast(inv | inv &<< 16, to: Quad.self))
    out.storeBytes(of: r, toByteOffset: q &* 16, as: Quad.self)
  }
  for i in (quads &<< 2)..<count {
    let c = UInt32(coverage[i])
    if c == 0 { continue }
    let a = c == 255 ? UInt32(alphas[i]) : Pixel.scale(UInt32(alphas[i]), by: c)
    dst[i] = a &<< 24 &+ Pixel.scale(dst[i], by: 255 &- a)
  }
}

/// A run image's own block of memory (freed with the last image that holds it).
final class RunBuffer: @unchecked Sendable {
  let base: UnsafeMutableRawPointer
  init(bytes: Int) { base = .allocate(byteCount: max(8, bytes), alignment: 8) }
  deinit { base.deallocate() }
}
