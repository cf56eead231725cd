// Recorded coverage: the spans a path rasterizes to, kept to be drawn again elsewhere.
//
// A shape that only moves by whole pixels (a card scrolled on the pixel grid) covers the same
// pixels, shifted, as it did in the last frame. Recording the rasterizer's spans once and
// replaying them through the clip and the paint costs a fraction of rasterizing again: no
// flattening, no edges, no accumulation; the blending is the same work either way.

import Synchronization

/// The coverage of one path under one transform, as the rasterizer emitted it: rows of solid
/// runs and of runs with a coverage per pixel, in device pixels relative to the path's own
/// placement. Immutable once made, so any thread may draw it.
public final class Coverage: @unchecked Sendable {
  /// One run of a row, in 8 bytes: `count` pixels from column `bounds.x + x`, each with its own
  /// coverage (`alphas[start...]`) when `start >= 0`, else all with coverage `-1 - start`.
  struct Run {
    var x: UInt16
    var count: UInt16
    var start: Int32
  }

  /// The widest recording: run columns are 16-bit.
  public static let maxWidth = Int(UInt16.max)

  /// The rows covered, in device pixels of the recording.
  public let bounds: IntRect
  /// For row `bounds.y + i`, runs `rowStarts[i] ..< rowStarts[i + 1]`.
  let rowStarts: [Int32]
  let runs: [Run]
  let alphas: [UInt8]
  /// Rows `i ..< repeatEnd[i]` all hold the runs of row i (the straight middle of a rounded
  /// rectangle, of a shadow's sides): a replay hands each run to its sink once for all of them.
  let repeatEnd: [Int32]

  /// Memory held, for caches that keep many.
  public var byteCount: Int {
    rowStarts.count * 4 + runs.count * MemoryLayout<Run>.stride + alphas.count + repeatEnd.count * 4 + 64
  }

  init(bounds: IntRect, rowStarts: [Int32], runs: [Run], alphas: [UInt8]) {
    self.bounds = bounds
    self.rowStarts = rowStarts
    self.runs = runs
    self.alphas = alphas
    repeatEnd = Coverage.repeats(rowStarts: rowStarts, runs: runs, alphas: alphas)
  }

  /// `repeatEnd` of a recording: from the last row up, each row's end of the rows equal to it.
  static func repeats(rowStarts: [Int32], runs: [Run], alphas: [UInt8]) -> [Int32] {
    let rows = rowStarts.count - 1
    if rows <= 0 { return [] }
    return [Int32](unsafeUninitializedCapacity: rows) { out, made in
      alphas.withUnsafeBufferPointer { bytes in
        out[rows - 1] = Int32(rows)
        var i = rows - 2
        while i >= 0 {
          out[i] = sameRuns(i, i + 1, rowStarts, runs, bytes) ? out[i + 1] : Int32(i + 1)
          i -= 1
        }
      }
      made = rows
    }
  }

  /// Whether rows `a` and `b` hold the same runs: places, lengths and coverage.
  private static func sameRuns(
    _ a: Int, _ b: Int, _ rowStarts: [Int32], _ runs: [Run], _ bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let a0 = Int(rowStarts[a])
    let b0 = Int(rowStarts[b])
    let n = Int(rowStarts[a + 1]) - a0
    if Int(rowStarts[b + 1]) - b0 != n { return false }
    for k in 0..<n {
      let p = runs[a0 + k]
      let q = runs[b0 + k]
      if p.x != q.x || p.count != q.count { return false }
      if p.start < 0 || q.start < 0 {
        if p.start != q.start { return false }
        continue
      }
      let s = bytes.baseAddress!
      let pa = s + Int(p.start)
      let qa = s + Int(q.start)
      for j in 0..<Int(p.count) where pa[j] != qa[j] { return false }
    }
    return true
  }

  /// The coverage an alpha mask holds, placed where the mask is: zeros are left out, and runs of
  /// at least `solidRun` pixels at 255 are kept as one run. A blurred shadow is mostly zeros
  /// around and 255 inside: this holds it in a fraction of the bytes, and draws its inside as
  /// solid spans. Gaps of fewer than `zeroGap` zeros between covered pixels stay inside their
  /// run: text, whose glyphs are a few pixels apart, then takes fewer runs (and replays in
  /// fewer, longer spans).
  public convenience init(mask m: AlphaMask, solidRun: Int = 8, zeroGap: Int = 0) {
    let recorder = CoverageRecorder(bounds: m.deviceBounds)
    for y in 0..<m.height {
      let row = m.row(y)
      let w = m.width
      // The end of the run of 255 starting at x.
      func fullEnd(_ x: Int) -> Int {
        var e = x
        while e < w && row[e] == 255 { e += 1 }
        return e
      }
      var x = 0
      while x < w {
        if row[x] == 0 {
          x += 1
          continue
        }
        if row[x] == 255 {
          let e = fullEnd(x)
          if e - x >= solidRun {
            recorder.solidSpan(y: m.originY + y, x: m.originX + x, count: e - x, alpha: 255)
            x = e
            continue
          }
        }
        // Values with their own coverage, up to a zero or a long run of 255.
        let start = x
        while x < w {
          if row[x] == 0 {
            var e = x
            while e < w && row[e] == 0 { e += 1 }
            if e - x >= zeroGap || e == w { break }
            x = e
            continue
          }
          if row[x] == 255 {
            let e = fullEnd(x)
            if e - x >= solidRun { break }
            x = e
          } else {
            x += 1
          }
        }
        recorder.maskSpan(y: m.originY + y, x: m.originX + start, alphas: row + start, count: x - start)
      }
    }
    let made = recorder.finish()
    self.init(bounds: made.bounds, rowStarts: made.rowStarts, runs: made.runs, alphas: made.alphas)
  }

  /// Replays the runs, moved by `(dx, dy)` and cut to `clip`, into `sink`: the same calls the
  /// rasterizer makes when it fills the path at the moved position. Pixels inside `holes`
  /// (sorted by x) are left out.
  ///
  /// The holes that reach the rows and columns replayed are listed once (on the stack); each
  /// row then picks those that cross it, so a run pays for the holes of its own row only. A row
  /// with none (most rows) walks its runs in a loop of its own.
  func replay<S: SpanSink>(
    dx: Int, dy: Int, clip: IntRect, skipping holes: [IntRect] = [], into sink: S
  ) {
    let y0 = max(bounds.y + dy, clip.y)
    let y1 = min(bounds.maxY + dy, clip.maxY)
    if y1 <= y0 { return }
    let cx0 = clip.x
    let cx1 = clip.maxX
    let left = bounds.x &+ dx
    let firstRow = dy &+ bounds.y
    withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, 6 * holes.count)) { holeStorage in
      rowStarts.withUnsafeBufferPointer { startBuffer in
        runs.withUnsafeBufferPointer { runBuffer in
          alphas.withUnsafeBufferPointer { alphaBuffer in
            repeatEnd.withUnsafeBufferPointer { repeatBuffer in
              let starts = startBuffer.baseAddress!
              let runs = runBuffer.baseAddress!
              let coverage = alphaBuffer.baseAddress!
              let repeats = repeatBuffer.baseAddress!
              // Holes that can meet a run, as (y, maxY, x, maxX), in x order; then room for one
              // row's x ranges.
              let reaching = holeStorage.baseAddress!
              var reachingCount = 0
              // (Only holes that meet the recording's columns too: a neighbour's cover beside a
              // shadow's faint edge, outside the recording, would send every row the slower way.)
              let hx0 = max(cx0, left)
              let hx1 = min(cx1, left &+ bounds.width)
              for h in holes where h.y < y1 && h.maxY > y0 && h.x < hx1 && h.maxX > hx0 && !h.isEmpty {
                reaching[reachingCount] = h.y
                reaching[reachingCount &+ 1] = h.maxY
                reaching[reachingCount &+ 2] = h.x
                reaching[reachingCount &+ 3] = h.maxX
                reachingCount &+= 4
              }
              let rowHoles = reaching + reachingCount
              var y = y0
              while y < y1 {
                let row = y &- firstRow
                var i = Int(starts[row])
                let end = Int(starts[row &+ 1])
                if i == end {
                  y &+= 1
                  continue
                }
                // The holes of this row, as x ranges, in x order.
                var n = 0
                var h = 0
                while h < reachingCount {
                  if y >= reaching[h] && y < reaching[h &+ 1] {
                    rowHoles[n] = reaching[h &+ 2]
                    rowHoles[n &+ 1] = reaching[h &+ 3]
                    n &+= 2
                  }
                  h &+= 4
                }
                if n == 0 {
                  // The rows from here that repeat this one and meet no hole: each run once for all.
                  var y2 = min(y1, firstRow &+ Int(repeats[row]))
                  if y2 &- y > 1 {
                    var h = 0
                    while h < reachingCount {
                      // (A hole reaching these rows starts below this one, which it misses.)
                      if reaching[h] < y2 && reaching[h &+ 1] > y { y2 = reaching[h] }
                      h &+= 4
                    }
                  }
                  let rows = y2 &- y
                  if rows > 1 {
                    while i < end {
                      let r = runs[i]
                      i &+= 1
                      let x = left &+ Int(r.x)
                      let a = max(x, cx0)
                      let b = min(x &+ Int(r.count), cx1)
                      if b <= a { continue }
                      if r.start < 0 {
                        sink.solidSpans(
                          y: y, rows: rows, x: a, count: b &- a,
                          alpha: UInt8(truncatingIfNeeded: -1 &- r.start))
                      } else {
                        sink.maskSpans(
                          y: y, rows: rows, x: a, alphas: coverage + (Int(r.start) &+ a &- x), count: b &- a)
                      }
                    }
                    y = y2
                    continue
                  }
                  while i < end {
                    let r = runs[i]
                    i &+= 1
                    let x = left &+ Int(r.x)
                    let a = max(x, cx0)
                    let b = min(x &+ Int(r.count), cx1)
                    if b <= a { continue }
                    Coverage.emit(r, y: y, from: a, to: b, runX: x, coverage: coverage, into: sink)
                  }
                  y &+= 1
                  continue
                }
                while i < end {
                  let r = runs[i]
                  i &+= 1
                  let x = left &+ Int(r.x)
                  var a = max(x, cx0)
                  let b = min(x &+ Int(r.count), cx1)
                  if b <= a { continue }
                  var k = 0
                  while true {
                    // The part of [a, b) before the next hole that reaches past a (or all of it).
                    var e = b
                    var next = b
                    while k < n {
                      if rowHoles[k &+ 1] > a && rowHoles[k] < b {
                        e = max(a, rowHoles[k])
                        next = rowHoles[k &+ 1]
                        k &+= 2
                        break
                      }
                      k &+= 2
                    }
                    if e > a {
                      Coverage.emit(r, y: y, from: a, to: e, runX: x, coverage: coverage, into: sink)
                    }
                    if next >= b { break }
                    a = max(a, next)
                  }
                }
                y &+= 1
              }
            }
          }
        }
      }
    }
  }

  /// Columns `a..<b` of run `r` (placed at column `x`) on row `y`, into `sink`.
  @inline(__always) private static func emit<S: SpanSink>(
    _ r: Run, y: Int, from a: Int, to b: Int, runX x: Int, coverage: UnsafePointer<UInt8>, into sink: S
  ) {
    if r.start < 0 {
      sink.solidSpan(y: y, x: a, count: b &- a, alpha: UInt8(truncatingIfNeeded: -1 &- r.start))
    } else {
      sink.maskSpan(y: y, x: a, alphas: coverage + (Int(r.start) &+ a &- x), count: b &- a)
    }
  }
}

/// Collects the rasterizer's spans into a `Coverage` (a class: spans are handed to sinks as
/// values).
///
/// The spans go into scratch arrays taken from a small shared pool and given back by `finish()`,
/// which copies them into arrays of exactly their size: a kept `Coverage` holds no room its
/// arrays grew into (growing by doubling left up to half of each unused, about a third of the
/// demo's recorded text), its `byteCount` is what it holds, and a recording allocates its three
/// arrays once instead of once per doubling.
final class CoverageRecorder: SpanSink {
  let bounds: IntRect
  var rowStarts: [Int32]
  var runs: [Coverage.Run]
  var alphas: [UInt8]
  /// The row the runs being added belong to (relative to `bounds.y`).
  var row = 0

  private struct Scratch {
    var rowStarts: [Int32] = []
    var runs: [Coverage.Run] = []
    var alphas: [UInt8] = []
  }

  /// Scratch arrays not in use: at most `maxSpares`, each given back only while its capacity is
  /// under `maxSpareBytes` (a huge recording's arrays are let go).
  private static let spares = Mutex<[Scratch]>([])
  static let maxSpares = 8
  static let maxSpareBytes = 1 << 20

  init(bounds: IntRect) {
    self.bounds = bounds
    let s = CoverageRecorder.spares.withLock { $0.popLast() } ?? Scratch()
    rowStarts = s.rowStarts
    runs = s.runs
    alphas = s.alphas
    rowStarts.append(0)
  }

  /// Closes rows up to (not including) row `r`.
  func advance(to r: Int) {
    while row < r {
      rowStarts.append(Int32(runs.count))
      row += 1
    }
  }

  func solidSpan(y: Int, x: Int, count: Int, alpha: UInt8) {
    advance(to: y - bounds.y)
    runs.append(Coverage.Run(x: UInt16(x - bounds.x), count: UInt16(count), start: -1 - Int32(alpha)))
  }

  func maskSpan(y: Int, x: Int, alphas src: UnsafePointer<UInt8>, count: Int) {
    advance(to: y - bounds.y)
    runs.append(Coverage.Run(x: UInt16(x - bounds.x), count: UInt16(count), start: Int32(alphas.count)))
    alphas.append(contentsOf: UnsafeBufferPointer(start: src, count: count))
  }

  func finish() -> Coverage {
    advance(to: bounds.height)
    let made = Coverage(
      bounds: bounds, rowStarts: CoverageRecorder.exactCopy(rowStarts),
      runs: CoverageRecorder.exactCopy(runs), alphas: CoverageRecorder.exactCopy(alphas))
    var s = Scratch(rowStarts: rowStarts, runs: runs, alphas: alphas)
    rowStarts = []
    runs = []
    alphas = []
    s.rowStarts.removeAll(keepingCapacity: true)
    s.runs.removeAll(keepingCapacity: true)
    s.alphas.removeAll(keepingCapacity: true)
    let held =
      s.rowStarts.capacity * 4 + s.runs.capacity * MemoryLayout<Coverage.Run>.stride + s.alphas.capacity
    if held <= CoverageRecorder.maxSpareBytes {
      CoverageRecorder.spares.withLock { list in
        if list.count < CoverageRecorder.maxSpares { list.append(s) }
      }
    }
    return made
  }

  /// `a`'s elements in an array allocated for exactly that many.
  static func exactCopy<T: BitwiseCopyable>(_ a: [T]) -> [T] {
    if a.isEmpty { return [] }
    return [T](unsafeUninitializedCapacity: a.count) { buffer, count in
      a.withUnsafeBufferPointer { source in
        buffer.baseAddress!.initialize(from: source.baseAddress!, count: source.count)
      }
      count = a.count
    }
  }
}

extension Canvas {
  /// The fewest pixels of partial coverage a recording holds for its fills to blend by table
  /// where they land on the cleared colour (making a table costs about as much as blending 150
  /// quads).
  static let tableBlendMinimum = 1024

  /// The largest area, in pixels, that `recordCoverage` records.
  public static let maxRecordedArea = 4096 * 4096

  /// Rasterizes `path` under `transform` (device pixels; the canvas' transform does not apply)
  /// into a recording that `fill(_:offsetX:offsetY:paint:)` and `clip(to:offsetX:offsetY:)` draw
  /// anywhere. Nil when the path covers nothing or more than `maxRecordedArea` pixels.
  /// Whether coverage of a shape whose device-space box is `extent` can be recorded (a box that
  /// is finite, within 1e9 pixels of the origin, at most `Coverage.maxWidth` wide and of at most
  /// `maxRecordedArea` pixels).
  public static func canRecordCoverage(of extent: Rect) -> Bool {
    guard extent.minX.isFinite, extent.maxX.isFinite, extent.minY.isFinite, extent.maxY.isFinite,
      abs(extent.minX) < 1e9, abs(extent.maxX) < 1e9, abs(extent.minY) < 1e9, abs(extent.maxY) < 1e9
    else { return false }
    let b = IntRect(enclosing: extent)
    return b.width <= Coverage.maxWidth && b.width * b.height <= Canvas.maxRecordedArea
  }

  public func recordCoverage(_ path: Path, transform: Transform, rule: FillRule = .nonZero) -> Coverage? {
    let extent = transform.apply(path.controlBounds)
    guard Canvas.canRecordCoverage(of: extent) else { return nil }
    let b = IntRect(enclosing: extent)
    guard !b.isEmpty else { return nil }
    let recorder = CoverageRecorder(bounds: b)
    rasterizer.fill(path, transform: transform, rule: rule, clip: b, into: recorder)
    return recorder.finish()
  }

  /// Fills recorded coverage, moved by whole device pixels, with a paint (mapped by the current
  /// transform, like any fill), through the clip and global alpha. Pixels inside `skipping` are
  /// left alone: the caller knows they will be covered by opaque colour next (a shadow under its
  /// card).
  public func fill(
    _ coverage: Coverage, offsetX: Int, offsetY: Int, paint: Paint, skipping holes: [IntRect] = []
  ) {
    let clip = state.clipBounds.intersection(target.bounds)
    if clip.isEmpty { return }
    // A solid colour needs no shader (a shader is a large value: making one per fill of a kept
    // shape cost more than a small tile's blending).
    var solid: UInt32? = nil
    if case .solid(let c) = paint { solid = c.premultiplied }
    if drawsNothing(solid ?? Shader(paint, ctm: state.transform).solidColor) { return }
    let b = coverage.bounds
    // Only what the clip bounds let through can meet a pending rectangle's fractional edges.
    let reach = IntRect(x: b.x + offsetX, y: b.y + offsetY, width: b.width, height: b.height).intersection(
      clip)
    if reach.isEmpty { return }
    resolveClip(for: Rect(reach))
    let cuts = holes.isEmpty ? holes : cuts(holes, within: clip)
    if let c = solid, state.clipMask == nil, state.blendMode == .normal, state.globalAlpha >= 1 {
      // A solid colour with no clip mask and full global alpha (shadows, glyphs, kept shapes):
      // each run is blended right here, with no per-span call through the paint sink. Where a
      // recording has many pixels of partial coverage (a shadow's ring), those that land on the
      // colour the canvas was cleared to are taken from a table (Paint/UniformBlend.swift).
      if let base = clearedPixel, coverage.alphas.count >= Canvas.tableBlendMinimum {
        let table = blendTables.table(c, over: base)
        coverage.replay(
          dx: offsetX, dy: offsetY, clip: clip, skipping: cuts,
          into: TableSolidSink(target: target, color: c, base: base, table: table))
        return
      }
      coverage.replay(
        dx: offsetX, dy: offsetY, clip: clip, skipping: cuts, into: SolidSink(target: target, color: c))
      return
    }
    let sink = makeSink(Shader(paint, ctm: state.transform))
    coverage.replay(dx: offsetX, dy: offsetY, clip: clip, skipping: cuts, into: sink)
  }

  /// Intersects the clip with recorded coverage moved by whole device pixels.
  public func clip(to coverage: Coverage, offsetX: Int, offsetY: Int) {
    let b = coverage.bounds
    let placed = IntRect(x: b.x + offsetX, y: b.y + offsetY, width: b.width, height: b.height)
    let area = state.clipBounds.intersection(placed)
    if !area.isEmpty { resolveClip(for: Rect(area)) }
    guard !area.isEmpty, let mask = takeMask(area, within: placed) else {
      state.clipBounds = IntRect(x: state.clipBounds.x, y: state.clipBounds.y, width: 0, height: 0)
      state.clipMask = nil
      state.pendingRect = nil
      return
    }
    coverage.replay(dx: offsetX, dy: offsetY, clip: area, into: MaskSink(mask: mask, recordsRuns: true))
    intersectClip(with: mask, area: area)
  }
}

/// Blends one solid colour source-over, with no clip mask and no global alpha: what
/// `PaintSink` does in that case, inlined into a replay (the colour's lanes made once).
struct SolidSink: SpanSink {
  let target: RenderTarget
  let color: UInt32
  let lanes: SolidLanes

  init(target: RenderTarget, color: UInt32) {
    self.target = target
    self.color = color
    lanes = SolidLanes(color)
  }

  @inline(__always) func solidSpan(y: Int, x: Int, count: Int, alpha a: UInt8) {
    blendSolid(target.pixel(x, y), count, a == 255 ? color : Pixel.scale(color, by: UInt32(a)))
  }

  @inline(__always) func maskSpan(y: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int) {
    lanes.blend(target.pixel(x, y), count, coverage: alphas)
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
      lanes.blend(p, count, coverage: alphas)
      p += step
    }
  }
}
