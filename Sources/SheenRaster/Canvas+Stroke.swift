extension Canvas {
  /// The flattening tolerance of stroke outlines, in device pixels: fine enough that round joins
  /// and caps keep their area to well under a level of coverage.
  public static let strokeTolerance = 0.01

  /// A stroke whose centre line flattens to more points than this is not made into an outline
  /// path: its pieces go straight into the rasterizer's cells (`Rasterizer.fillPolygons`), so
  /// its memory is its flattened centre line (16 bytes a point) and a strip of cells (at most
  /// 16 MiB), not a few hundred bytes per segment.
  public static let streamedStrokePoints = 16_384

  /// The most points a stroke's centre line is flattened into (64 MiB): a path that would
  /// flatten into more within the tolerance is flattened again with a coarser one until it fits
  /// (a 16 MiB scene of large curves would otherwise make billions of points).
  public static let maxStrokePoints = 4 << 20

  /// The most points (or outline elements) of storage a canvas keeps from one stroke for the
  /// next (1 MiB of points): more is let go once the stroke is drawn.
  static let keptStrokePoints = 1 << 16

  /// Strokes a path: the stroker's outline (in device space) filled with the non-zero rule. The
  /// width is in user space, so a non-uniform transform stretches it.
  public func stroke(_ path: Path, style: StrokeStyle, paint: Paint) {
    let clip = state.clipBounds.intersection(target.bounds)
    let shader = Shader(paint, ctm: state.transform)
    if clip.isEmpty || drawsNothing(shader.solidColor) { return }
    // Only what can reach the clip is flattened and stroked (Cull.swift).
    var tolerance = Canvas.strokeTolerance
    // The centre line, outline and pieces are built in storage the canvas keeps from one stroke
    // to the next (let go when a stroke made it large).
    var center = (path: FlattenedPath(), tolerance: 0.0)
    swap(&center.path, &strokeCenter)
    defer {
      swap(&center.path, &strokeCenter)
      if strokeCenter.points.capacity > Canvas.keptStrokePoints { strokeCenter = FlattenedPath() }
    }
    guard
      let first = path.strokeCenterline(
        style, transform: state.transform, tolerance: tolerance, clip: Rect(clip), into: &center.path)
    else { return }
    center.tolerance = first
    while center.path.points.count > strokePointLimit, tolerance < 1e6 {
      // Segments per curve go as 1/√tolerance.
      let ratio = Double(center.path.points.count) / Double(strokePointLimit)
      tolerance *= max(2, ratio * ratio * 1.25)
      center.path = FlattenedPath()
      guard
        let coarser = path.strokeCenterline(
          style, transform: state.transform, tolerance: tolerance, clip: Rect(clip), into: &center.path)
      else { return }
      center.tolerance = coarser
    }
    let centerBytes = center.path.points.capacity * MemoryLayout<Point>.stride
    if center.path.points.count <= Canvas.streamedStrokePoints {
      var stroker = Stroker(
        style: style, tolerance: center.tolerance, transform: state.transform, sink: PathPolygons())
      swap(&stroker.sink.path, &strokeOutline)
      stroker.sink.path.removeAllKeepingCapacity()
      swap(&stroker.piece, &strokePiece)
      stroker.stroke(center.path)
      swap(&stroker.piece, &strokePiece)
      swap(&stroker.sink.path, &strokeOutline)
      defer { if strokeOutline.elements.capacity > Canvas.keptStrokePoints { strokeOutline = Path() } }
      strokeOutlineElements += strokeOutline.elements.count
      peakStrokeBytes = max(
        peakStrokeBytes, centerBytes + strokeOutline.elements.count * MemoryLayout<PathElement>.stride)
      resolveClip(for: strokeOutline.controlBounds)
      rasterizer.fill(strokeOutline, transform: .identity, rule: .nonZero, clip: clip, into: makeSink(shader))
      return
    }
    // The device extent: the centre line's box grown by the pen's reach.
    var (x0, y0, x1, y1) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
    for p in center.path.points where p.isFinite {
      x0 = min(x0, p.x)
      y0 = min(y0, p.y)
      x1 = max(x1, p.x)
      y1 = max(y1, p.y)
    }
    if x1 < x0 || y1 < y0 { return }
    let box = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    let extent = state.transform.apply(box.insetBy(dx: -style.reach - 1, dy: -style.reach - 1))
    let strip = min(strokeStripCells, (clip.width + 2) * clip.height)
    peakStrokeBytes = max(peakStrokeBytes, centerBytes + strip * MemoryLayout<Float>.stride)
    resolveClip(for: extent)
    let sink = makeSink(shader)
    let (style, tol, transform, centerPath) = (style, center.tolerance, state.transform, center.path)
    var elements: Int?
    rasterizer.fillPolygons(extent: extent, clip: clip, stripCells: strokeStripCells, into: sink) { strip in
      var pieces = Stroker(
        style: style, tolerance: tol, transform: transform, sink: CountingPolygons(inner: strip))
      pieces.stroke(centerPath)
      if elements == nil { elements = pieces.sink.elements }
    }
    // What the outline would have held (the pieces were made, not kept).
    strokeOutlineElements += elements ?? 0
  }
}

/// Passes polygons on, counting the path elements they would make (a move, the lines, a close).
struct CountingPolygons<Inner: StrokePolygonSink>: StrokePolygonSink {
  var inner: Inner
  var elements = 0
  mutating func polygon(_ points: [Point]) {
    elements += points.count + 1
    inner.polygon(points)
  }
}
