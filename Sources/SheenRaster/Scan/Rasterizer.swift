import Synchronization

// The coverage rasterizer.
//
// Exact-area anti-aliasing by signed-area accumulation (the technique of font-rs and Blend2D):
// every line segment adds, to the cells it crosses, the signed area it covers; a running sum
// along a row turns those differences into coverage. Curves are flattened first.
//
// The work is done in bands of rows. A bit per cell records which cells hold anything, so a row
// is walked only where edges are: between marked cells coverage is constant and goes out as one
// solid span, which is why large shapes cost little more than their outline.

/// How overlapping contours combine into coverage.
public enum FillRule: Hashable, Sendable {
  /// A point is inside when the winding number is not zero.
  case nonZero
  /// A point is inside when the winding number is odd.
  case evenOdd
}

/// Receives the coverage of a row as runs, from left to right.
///
/// A sink is handed over as a value and its methods do not mutate it: what it writes lies
/// behind the references and pointers it holds. So a scan or a replay calls it in place, where a
/// `mutating` requirement made every call on a sink with references (a paint sink and its
/// shader) copy it, retaining what it holds, span after span.
@usableFromInline protocol SpanSink {
  /// `count` pixels from (x, y), all with coverage `alpha` (1...255).
  func solidSpan(y: Int, x: Int, count: Int, alpha: UInt8)
  /// `count` pixels from (x, y) with a coverage each (0...255).
  func maskSpan(y: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int)
  /// `solidSpan` on each of `rows` rows from `y`.
  func solidSpans(y: Int, rows: Int, x: Int, count: Int, alpha: UInt8)
  /// `maskSpan` on each of `rows` rows from `y`, with the same coverage.
  func maskSpans(y: Int, rows: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int)
}

extension SpanSink {
  @inline(__always) func solidSpans(y: Int, rows: Int, x: Int, count: Int, alpha: UInt8) {
    for r in 0..<rows { solidSpan(y: y &+ r, x: x, count: count, alpha: alpha) }
  }

  @inline(__always) func maskSpans(y: Int, rows: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int) {
    for r in 0..<rows { maskSpan(y: y &+ r, x: x, alphas: alphas, count: count) }
  }
}

/// One edge of the outline, in coordinates relative to the clip's origin; `y0 < y1`.
@usableFromInline struct Edge {
  var x0: Float, y0: Float, x1: Float, y1: Float
  /// +1 for an edge going down in the original path, -1 going up.
  var dir: Float
}

/// Turns flattened paths into coverage spans. Reuse one instance to reuse its buffers.
public final class Rasterizer: @unchecked Sendable {
  static let bandHeight = 16

  /// Edges as built, then bucketed by band into `sorted`. Raw, reused storage: the scan reads
  /// these in its innermost loops, where array bounds and exclusivity checks would cost more than
  /// the arithmetic.
  private var edges = RawBuffer<Edge>()
  private var sorted = RawBuffer<Edge>()
  private var bandStarts = RawBuffer<Int32>()
  private var active = RawBuffer<Int32>()
  /// Band accumulation: `bandHeight` rows of `stride` cells.
  var cells = RawBuffer<Float>()
  /// Band occupancy: one bit per cell, `words` per row.
  var bits = RawBuffer<UInt64>()
  var coverage = RawBuffer<UInt8>()
  private var flat = FlattenedPath()

  public init() {}

  deinit {
    edges.free()
    sorted.free()
    bandStarts.free()
    active.free()
    cells.free()
    bits.free()
    coverage.free()
  }

  /// Rasterizes `path` mapped by `transform`, clipped to `clip` (device pixels), into `sink`.
  @usableFromInline func fill<S: SpanSink>(
    _ path: Path, transform: Transform, rule: FillRule, clip: IntRect, into sink: S
  ) {
    flat.removeAll()
    // A path reaching well beyond the clip is flattened only where it can reach it (Cull.swift):
    // its memory and time do not grow with how far it goes.
    let extent = transform.apply(path.controlBounds)
    let near = Rect(clip).insetBy(dx: -1, dy: -1)
    if extent.minX >= near.minX - 256, extent.minY >= near.minY - 256, extent.maxX <= near.maxX + 256,
      extent.maxY <= near.maxY + 256
    {
      path.flatten(into: &flat, transform: transform, tolerance: Path.defaultTolerance)
    } else {
      path.flatten(into: &flat, transform: transform, tolerance: Path.defaultTolerance, within: near)
    }
    pointsFlattened += flat.points.count
    fill(flat, rule: rule, clip: clip, into: sink)
  }

  /// Points of every path flattened by `fill(_:transform:rule:clip:into:)` so far (what culling
  /// bounds; tests read it through `Canvas.flattenedPoints`).
  private(set) var pointsFlattened = 0

  /// Rasterizes an already flattened path (device coordinates); every contour is closed.
  @usableFromInline func fill<S: SpanSink>(
    _ path: FlattenedPath, rule: FillRule, clip: IntRect, into sink: S
  ) {
    guard !clip.isEmpty else { return }
    buildEdges(path, clip: clip)
    if edges.count == 0 { return }
    scan(rule: rule, clip: clip, into: sink)
  }

  // MARK: Edges

  private func buildEdges(_ path: FlattenedPath, clip: IntRect) {
    edges.count = 0
    let ox = Double(clip.x)
    let oy = Double(clip.y)
    let w = Double(clip.width)
    let h = Double(clip.height)
    // A path with a non-finite point has no defined inside: draw nothing.
    for p in path.points where !p.isFinite { return }
    path.points.withUnsafeBufferPointer { pts in
      for c in path.contours where c.count > 1 {
        var prev = pts[c.start + c.count - 1]
        for i in c.start..<(c.start + c.count) {
          let p = pts[i]
          addEdge(prev.x - ox, prev.y - oy, p.x - ox, p.y - oy, w: w, h: h)
          prev = p
        }
      }
    }
  }

  /// Adds one segment, clipped vertically to 0...h and with x clamped to 0...w.
  @inline(__always)
  private func addEdge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, w: Double, h: Double) {
    Rasterizer.clipEdge(ax, ay, bx, by, w: w, h: h) { edges.append($0) }
  }

  /// One segment clipped vertically to 0...h and with x clamped to 0...w, as the edges `emit`
  /// gets (up to three: split where it crosses x = 0 or x = w so that clamping is exact).
  /// Clamping x keeps the winding to the right of the segment unchanged, which is all the clip
  /// region can see.
  @inline(__always)
  static func clipEdge(
    _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, w: Double, h: Double, _ emit: (Edge) -> Void
  ) {
    if ay == by { return }
    var x0 = ax
    var y0 = ay
    var x1 = bx
    var y1 = by
    var dir: Float = 1
    if y0 > y1 {
      swap(&x0, &x1)
      swap(&y0, &y1)
      dir = -1
    }
    if y1 <= 0 || y0 >= h { return }
    let dxdy = (x1 - x0) / (y1 - y0)
    if y0 < 0 {
      x0 += (0 - y0) * dxdy
      y0 = 0
    }
    if y1 > h {
      x1 -= (y1 - h) * dxdy
      y1 = h
    }
    var t0 = 2.0
    var t1 = 2.0
    if x0 != x1 {
      let ta = (0 - x0) / (x1 - x0)
      let tb = (w - x0) / (x1 - x0)
      if ta > 0 && ta < 1 { t0 = ta }
      if tb > 0 && tb < 1 { t1 = tb }
      if t0 > t1 { swap(&t0, &t1) }
    }
    var px = x0
    var py = y0
    for k in 0..<3 {
      let t = k == 0 ? t0 : (k == 1 ? t1 : 1.0)
      if t > 1 { continue }
      let qx = t == 1 ? x1 : x0 + (x1 - x0) * t
      let qy = t == 1 ? y1 : y0 + (y1 - y0) * t
      // Kept only when it is still taller than nothing as Floats: an edge whose ends round to
      // one Float (from 96.99999999 to 97 at the clip's bottom) adds no area, and as the last
      // band's first edge with a top at the band's bottom it stopped the scan admitting the
      // band's other edges (rows of a large stroke's last band were lost or smeared).
      let fy0 = Float(py)
      let fy1 = Float(qy)
      if fy1 > fy0 {
        emit(Edge(x0: Float(min(w, max(0, px))), y0: fy0, x1: Float(min(w, max(0, qx))), y1: fy1, dir: dir))
      }
      px = qx
      py = qy
    }
  }

  // MARK: Scan

  /// Buckets the edges by the band their top falls in (a counting sort: linear, in place of a
  /// comparison sort), into `sorted`; returns the number of bands.
  private func bucketByBand(height: Int) -> Int {
    let n = edges.count
    let bandCount = (height >> 4) + 1
    bandStarts.reserve(bandCount + 1)
    sorted.reserve(n)
    let starts = bandStarts.pointer
    let src = edges.pointer
    let dst = sorted.pointer
    starts.update(repeating: 0, count: bandCount + 1)
    for i in 0..<n { starts[min(Int(src[i].y0) >> 4, bandCount - 1) + 1] += 1 }
    for b in 0..<bandCount { starts[b + 1] += starts[b] }
    for i in 0..<n {
      let b = min(Int(src[i].y0) >> 4, bandCount - 1)
      dst[Int(starts[b])] = src[i]
      starts[b] += 1
    }
    sorted.count = n
    return bandCount
  }

  private func scan<S: SpanSink>(rule: FillRule, clip: IntRect, into sink: S) {
    _ = bucketByBand(height: clip.height)
    let width = clip.width
    let stride = width + 2
    let words = (stride + 63) >> 6
    let bandH = Rasterizer.bandHeight
    // Cells and bits are all zero between scans (each row clears what it used): a new buffer is
    // zeroed in full, so that a later, wider scan finds zeros too.
    if cells.reserve(bandH * stride) { cells.pointer.initialize(repeating: 0, count: cells.capacity) }
    if bits.reserve(bandH * words) { bits.pointer.initialize(repeating: 0, count: bits.capacity) }
    coverage.reserve(stride)
    active.reserve(edges.count)
    let e = sorted.pointer
    let count = sorted.count
    let act = active.pointer
    let cellBase = cells.pointer
    let bitBase = bits.pointer
    let cov = coverage.pointer
    var activeCount = 0

    var yMax = 0
    for i in 0..<count { yMax = max(yMax, Int(e[i].y1.rounded(.up))) }
    yMax = min(yMax, clip.height)
    var yMin = Int(e[0].y0)
    yMin = max(0, yMin - yMin % bandH)

    var next = 0
    var bandTop = yMin
    while bandTop < yMax {
      let bandBottom = min(bandTop + bandH, yMax)
      let fTop = Float(bandTop)
      let fBottom = Float(bandBottom)
      // Retire edges that ended above this band, admit those that start in it.
      var k = 0
      for j in 0..<activeCount where e[Int(act[j])].y1 > fTop {
        act[k] = act[j]
        k += 1
      }
      activeCount = k
      while next < count && e[next].y0 < fBottom {
        if e[next].y1 > fTop {
          act[activeCount] = Int32(next)
          activeCount += 1
        }
        next += 1
      }
      if activeCount == 0 {
        if next < count {
          let skipTo = Int(e[next].y0)
          bandTop = max(bandBottom, skipTo - skipTo % bandH)
        } else {
          break
        }
        continue
      }
      for j in 0..<activeCount {
        accumulate(
          e[Int(act[j])], bandTop: bandTop, bandBottom: bandBottom, cells: cellBase, bits: bitBase,
          stride: stride, words: words)
      }
      for y in bandTop..<bandBottom {
        let r = y - bandTop
        emitRow(
          y: clip.y + y, x0: clip.x, width: width, cells: cellBase + r * stride, bits: bitBase + r * words,
          words: words, rule: rule, coverage: cov, into: sink)
      }
      bandTop = bandBottom
    }
  }

  /// Adds the area of one edge to the rows of the band it crosses.
  @inline(__always)
  func accumulate(
    _ e: Edge, bandTop: Int, bandBottom: Int, cells: UnsafeMutablePointer<Float>,
    bits: UnsafeMutablePointer<UInt64>, stride: Int, words: Int
  ) {
    let dxdy = (e.x1 - e.x0) / (e.y1 - e.y0)
    // An edge a denormal height tall (a Double segment whose ends round to nearly the same Float)
    // has an infinite slope, a NaN x and no area worth adding (Int(NaN) trapped; found by the
    // svg fuzzer, Tests/FuzzRegressions/svg).
    if !dxdy.isFinite { return }
    let yStart = max(e.y0, Float(bandTop))
    let yEnd = min(e.y1, Float(bandBottom))
    if yEnd <= yStart { return }
    var x = e.x0 + (yStart - e.y0) * dxdy
    var row = Int(yStart)
    var yTop = yStart
    let maxCell = stride - 1
    while yTop < yEnd {
      let yNext = min(Float(row + 1), yEnd)
      let dy = yNext - yTop
      let xNext = x + dxdy * dy
      let d = dy * e.dir
      let line = cells + (row - bandTop) * stride
      let bitRow = bits + (row - bandTop) * words
      let xl = min(x, xNext)
      let xr = max(x, xNext)
      let c0 = Int(xl)
      if xr <= Float(c0 + 1) {
        // Within one column: the part right of the segment's mean x stays in this cell.
        let f = (x + xNext) * 0.5 - Float(c0)
        line[c0] += d * (1 - f)
        line[c0 + 1] += d * f
        markCells(bitRow, c0, c0 + 1)
      } else {
        // Across columns: cell c gets d/(xr-xl) * (R(c+1-xl) - R(c+1-xr) - R(c-xl) + R(c-xr)),
        // where R is the integral of the unit ramp clamp(t, 0, 1).
        let s = d / (xr - xl)
        let c1 = min(Int(xr) + 1, maxCell)
        var prev = s * (ramp(Float(c0) - xl) - ramp(Float(c0) - xr))
        for c in c0...c1 {
          let cur = s * (ramp(Float(c + 1) - xl) - ramp(Float(c + 1) - xr))
          line[c] += cur - prev
          prev = cur
        }
        markCells(bitRow, c0, c1)
      }
      x = xNext
      yTop = yNext
      row += 1
    }
  }

  /// The integral of `clamp(t, 0, 1)` from -infinity to `u`.
  @inline(__always) func ramp(_ u: Float) -> Float {
    if u <= 0 { return 0 }
    if u <= 1 { return 0.5 * u * u }
    return u - 0.5
  }

  @inline(__always)
  func markCells(_ row: UnsafeMutablePointer<UInt64>, _ a: Int, _ b: Int) {
    var i = a
    while i <= b {
      let w = i >> 6
      let bit = i & 63
      let n = min(64 - bit, b - i + 1)
      let m: UInt64 = n == 64 ? ~0 : ((1 << UInt64(n)) - 1) << UInt64(bit)
      row[w] |= m
      i += n
    }
  }

  /// Walks the marked cells of one row, clearing them, and emits the row's coverage.
  @inline(__always)
  func emitRow<S: SpanSink>(
    y: Int, x0: Int, width: Int, cells: UnsafeMutablePointer<Float>, bits: UnsafeMutablePointer<UInt64>,
    words: Int, rule: FillRule, coverage: UnsafeMutablePointer<UInt8>, into sink: S
  ) {
    var sum: Float = 0
    var runStart = -1
    var runLength = 0
    var last = -1  // the last cell visited
    for w in 0..<words {
      var word = bits[w]
      if word == 0 { continue }
      bits[w] = 0
      while word != 0 {
        let c = (w << 6) + word.trailingZeroBitCount
        word &= word - 1
        if c > last + 1 {
          // The gap between marked cells has the coverage of the running sum.
          if runLength > 0 {
            sink.maskSpan(y: y, x: x0 + runStart, alphas: coverage, count: runLength)
            runLength = 0
          }
          let gapEnd = min(c, width)
          if last + 1 < gapEnd {
            let a = alpha(sum, rule)
            if a != 0 { sink.solidSpan(y: y, x: x0 + last + 1, count: gapEnd - last - 1, alpha: a) }
          }
        }
        sum += cells[c]
        cells[c] = 0
        last = c
        if c < width {
          if runLength == 0 { runStart = c }
          coverage[runLength] = alpha(sum, rule)
          runLength += 1
        }
      }
    }
    if runLength > 0 { sink.maskSpan(y: y, x: x0 + runStart, alphas: coverage, count: runLength) }
    if last + 1 < width {
      // Normally zero; kept for a path that stays open to the right after clamping.
      let a = alpha(sum, rule)
      if a != 0 { sink.solidSpan(y: y, x: x0 + last + 1, count: width - last - 1, alpha: a) }
    }
  }

  @inline(__always) func alpha(_ winding: Float, _ rule: FillRule) -> UInt8 {
    var a = abs(winding)
    switch rule {
    case .nonZero:
      a = min(1, a)
    case .evenOdd:
      a = a - 2 * (a * 0.5).rounded(.down)
      if a > 1 { a = 2 - a }
    }
    return UInt8(a * 255 + 0.5)
  }
}

/// Growable raw storage owned by a rasterizer (freed by its owner's deinit).
struct RawBuffer<T> {
  // Capacity 0 until the first `reserve` or `append`: so the first reserve always allocates
  // (and its caller initializes what needs initializing).
  private(set) var pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
  private(set) var capacity = 0
  var count = 0

  /// Makes room for at least `n` elements (the contents are not kept); true when it reallocated.
  @discardableResult mutating func reserve(_ n: Int) -> Bool {
    if n <= capacity { return false }
    pointer.deallocate()
    capacity = max(n, capacity * 2)
    pointer = .allocate(capacity: capacity)
    return true
  }

  /// Appends one element, growing (and keeping the contents) when full.
  @inline(__always) mutating func append(_ v: T) {
    if count == capacity {
      let grown = max(16, capacity * 2)
      let bigger = UnsafeMutablePointer<T>.allocate(capacity: grown)
      bigger.moveInitialize(from: pointer, count: count)
      pointer.deallocate()
      pointer = bigger
      capacity = grown
    }
    (pointer + count).initialize(to: v)
    count += 1
  }

  func free() { pointer.deallocate() }

  /// Frees the storage and starts again empty (after a rare, large use).
  mutating func release() {
    pointer.deallocate()
    pointer = .allocate(capacity: 1)
    capacity = 0
    count = 0
  }
}

extension Rasterizer {
  /// A rasterizer for callers without one of their own (mask fills), used under a lock.
  static let shared = Mutex(Rasterizer())
}
