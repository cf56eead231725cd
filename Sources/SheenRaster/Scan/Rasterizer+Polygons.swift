// Filling a stream of polygons without keeping them: a stroke of millions of segments.
//
// `fill(_:transform:rule:clip:into:)` keeps every edge of a path (and the stroker used to make a
// path of every piece first: a few hundred bytes per flattened segment, gigabytes for a large
// path). Here the pieces are never stored: each polygon's edges are added to the cells as they
// come, in a strip of rows of the clip as tall as `stripCellBudget` allows (the whole clip of a
// 2048-pixel canvas), and the strip's rows are emitted once every polygon has been seen. An
// extent taller than a strip is drawn strip by strip, making the polygons again for each. Memory
// is the strip, not the number of pieces; the coverage is the same sum of the same edges'
// areas, added in another order (so within a level of the stored route).

extension Rasterizer {
  /// The cells (4 bytes each) one strip may hold: 4 Mi, 16 MiB.
  static let stripCellBudget = 1 << 22

  /// Fills, with the non-zero rule, the union of the polygons `emit` gives its accumulator (in
  /// device space, within `extent`), clipped to `clip`, into `sink`. `emit` is called once per
  /// strip of rows (of at most `stripCells` cells) and must give the same polygons each time.
  func fillPolygons<S: SpanSink>(
    extent: Rect, clip: IntRect, stripCells: Int = Rasterizer.stripCellBudget, into sink: S,
    emit: (StripAccumulator) -> Void
  ) {
    guard !clip.isEmpty, extent.minY.isFinite, extent.maxY.isFinite, extent.maxY > extent.minY else { return }
    let width = clip.width
    let stride = width + 2
    let words = (stride + 63) >> 6
    // Rows of the clip the extent can touch.
    let first = max(0, Int(max(extent.minY - Double(clip.y), -1).rounded(.down)))
    let end = min(clip.height, Int(min(extent.maxY - Double(clip.y), Double(clip.height) + 1).rounded(.up)))
    if end <= first { return }
    let rows = max(1, min(end - first, stripCells / stride))
    if cells.reserve(rows * stride) { cells.pointer.initialize(repeating: 0, count: cells.capacity) }
    if bits.reserve(rows * words) { bits.pointer.initialize(repeating: 0, count: bits.capacity) }
    coverage.reserve(stride)
    var top = first
    while top < end {
      let bottom = min(top + rows, end)
      emit(
        StripAccumulator(
          rasterizer: self, ox: Double(clip.x), oy: Double(clip.y), w: Double(width), h: Double(clip.height),
          top: top, bottom: bottom, cells: cells.pointer, bits: bits.pointer, stride: stride, words: words))
      for y in top..<bottom {
        let r = y - top
        emitRow(
          y: clip.y + y, x0: clip.x, width: width, cells: cells.pointer + r * stride,
          bits: bits.pointer + r * words, words: words, rule: .nonZero, coverage: coverage.pointer,
          into: sink)
      }
      top = bottom
    }
    // A large strip is not kept (the usual bands need 16 rows).
    if cells.capacity > 4 * Rasterizer.bandHeight * stride && cells.capacity > 1 << 18 {
      cells.release()
      bits.release()
    }
  }
}

/// Adds polygons' edges to the cells of one strip of rows (see `Rasterizer.fillPolygons`).
struct StripAccumulator: StrokePolygonSink {
  let rasterizer: Rasterizer
  /// The clip's origin and size (device pixels); `top..<bottom` the strip's rows in the clip.
  let ox: Double, oy: Double, w: Double, h: Double
  let top: Int, bottom: Int
  /// The strip's first row of cells and of occupancy bits.
  let cells: UnsafeMutablePointer<Float>
  let bits: UnsafeMutablePointer<UInt64>
  let stride: Int, words: Int

  func polygon(_ points: [Point]) {
    guard points.count > 2 else { return }
    var minY = Double.infinity
    var maxY = -Double.infinity
    for p in points {
      // Not finite (a transform overflowing): no defined inside, nothing added.
      guard p.isFinite else { return }
      minY = min(minY, p.y)
      maxY = max(maxY, p.y)
    }
    if maxY - oy <= Double(top) || minY - oy >= Double(bottom) { return }
    var prev = points[points.count - 1]
    for p in points {
      edge(prev.x - ox, prev.y - oy, p.x - ox, p.y - oy)
      prev = p
    }
  }

  /// One segment, clipped to the clip's rows and with x clamped to 0...w where it leaves the
  /// clip's columns (`Rasterizer.clipEdge`, as `addEdge`), added to the strip's cells.
  @inline(__always)
  private func edge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
    if max(ay, by) <= Double(top) || min(ay, by) >= Double(bottom) { return }
    Rasterizer.clipEdge(ax, ay, bx, by, w: w, h: h) { e in
      rasterizer.accumulate(
        e, bandTop: top, bandBottom: bottom, cells: cells, bits: bits, stride: stride, words: words)
    }
  }
}
