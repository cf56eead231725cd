// The public drawing API: Core Graphics' model over a `Surface`.
//
// A canvas keeps a stack of graphics states (transform, clip, global alpha) and a stack of
// offscreen groups. Every fill goes the same way: flatten -> rasterize into coverage spans ->
// apply the clip and global alpha -> shade -> blend source-over. Clips are a device rectangle,
// plus an 8-bit mask only when the clip is not a pixel-aligned rectangle. A clip to a rectangle
// that is axis-aligned but not pixel-aligned (a label or a cell at a fractional scroll offset)
// makes no mask until something is drawn across its edge: drawing that it contains entirely is
// not changed by it.

/// Draws paths, masks and surfaces onto a surface.
public final class Canvas {
  struct State {
    var transform: Transform = .identity
    /// Pixels outside this rectangle are never touched.
    var clipBounds: IntRect
    /// Coverage of the clip within `clipBounds`, when it is not a plain rectangle. It may cover
    /// more than `clipBounds` (narrowing the bounds does not crop it).
    var clipMask: AlphaMask?
    /// A device-space rectangle that also clips, not yet folded into `clipMask` (see
    /// `resolveClip`); `clipBounds` already lies within its enclosing pixels.
    var pendingRect: Rect?
    var globalAlpha: Double = 1
    var blendMode: BlendMode = .normal
  }

  /// An open offscreen group: where drawing went before it, and its pixels.
  struct Group {
    let previous: RenderTarget
    let surface: Surface
    let stateDepth: Int
  }

  /// The surface this canvas draws on.
  public private(set) var surface: Surface
  var target: RenderTarget
  var state: State
  var stack: [State] = []
  var groups: [Group] = []
  let rasterizer = Rasterizer()
  let scratch = Scratch()
  /// Spare surfaces for groups, reused from frame to frame.
  var groupPool: [(surface: Surface, returned: Int)] = []
  /// Spare clip masks, reused from frame to frame.
  var maskPool: [(mask: AlphaMask, returned: Int)] = []
  /// Counts `trimPools()` calls: pooled storage remembers when it was given back.
  var generation = 0
  /// Storage for the rectangle of `clip(to: Rect)`.
  var rectPath = Path()
  /// Storage for the destination rectangle of `drawImage`.
  var imagePath = Path()
  /// Storage for `cuts(_:within:)`.
  var holeBuffer: [IntRect] = []
  /// Storage for strokes (Canvas+Stroke.swift): the centre line, the outline and the piece
  /// being made, kept from one stroke to the next.
  var strokeCenter = FlattenedPath()
  var strokeOutline = Path()
  var strokePiece: [Point] = []
  /// Storage for analytic shadows (`fillShadow`), made by the first one.
  var analyticShadowScratch: ShadowScratch?
  /// The colour (premultiplied) the canvas was last cleared to, and tables of colours blended
  /// over it (Paint/UniformBlend.swift): a hint only, every quad is checked.
  var clearedPixel: UInt32?
  lazy var blendTables = BlendTables()
  /// The most bytes of offscreen groups open at once since the canvas was made (what banding
  /// bounds; tests read it).
  public internal(set) var peakOpenGroupBytes = 0
  /// Path elements of every stroke outline this canvas has made (what culling bounds; tests read
  /// it).
  public internal(set) var strokeOutlineElements = 0
  /// The most bytes one stroke has held at once since the canvas was made: its flattened centre
  /// line and its outline path, or the centre line and the strip of cells it was streamed into
  /// (what `Canvas.streamedStrokePoints` bounds; tests read it).
  public internal(set) var peakStrokeBytes = 0
  /// `Canvas.maxStrokePoints` and `Rasterizer.stripCellBudget`, smaller in tests.
  var strokePointLimit = Canvas.maxStrokePoints
  var strokeStripCells = Rasterizer.stripCellBudget
  /// Points of every path this canvas has flattened to fill (stroke outlines included).
  public var flattenedPoints: Int { rasterizer.pointsFlattened }

  /// A canvas drawing onto `surface`, with the identity transform and no clip.
  public init(surface: Surface) {
    self.surface = surface
    target = RenderTarget(surface: surface)
    state = State(clipBounds: surface.bounds)
  }

  /// Points the canvas at `surface` with a fresh graphics state (identity transform, no clip,
  /// full alpha, normal blending) and no open group, keeping its working storage: the
  /// rasterizer's buffers, the paint scratch and the pools of group surfaces and clip masks. A
  /// context that draws one bitmap after another (views' `draw(_:)`) starts each without
  /// allocating.
  public func reset(surface: Surface) {
    // Clip masks still held by a state (a clip set outside a save) go back to the pool.
    func giveBack(_ m: AlphaMask?) {
      guard let m, !maskPool.contains(where: { $0.mask === m }) else { return }
      maskPool.append((m, generation))
    }
    giveBack(state.clipMask)
    for s in stack { giveBack(s.clipMask) }
    self.surface = surface
    target = RenderTarget(surface: surface)
    state = State(clipBounds: surface.bounds)
    stack.removeAll(keepingCapacity: true)
    groups.removeAll(keepingCapacity: true)
  }

  // MARK: State

  /// The current transform from user space to device pixels.
  public var transform: Transform {
    get { state.transform }
    set { state.transform = newValue }
  }

  /// An opacity (0...1) applied to everything drawn.
  public var globalAlpha: Double {
    get { state.globalAlpha }
    set { state.globalAlpha = clamp01(newValue) }
  }

  /// How what is drawn combines with what is there (source-over by default). Fills, strokes,
  /// masks, images and composited groups follow it; `clear` does not.
  public var blendMode: BlendMode {
    get { state.blendMode }
    set { state.blendMode = newValue }
  }

  /// Whether drawing with the current alpha and a paint of this colour changes nothing.
  @inline(__always) func drawsNothing(_ solidColor: UInt32?) -> Bool {
    (state.globalAlpha <= 0 || solidColor == 0) && state.blendMode.transparentSourceIsNoOp
  }

  /// The device pixels the current clip can reach (empty when everything is clipped out).
  public var clipBounds: IntRect { state.clipBounds }

  /// Whether the clip has soft edges (a mask, or a rectangle off the pixel grid): then drawing
  /// at its edges is only partly covered, and what lies under it partly shows.
  public var hasSoftClip: Bool { state.clipMask != nil || state.pendingRect != nil }

  /// Pushes a copy of the graphics state (transform, clip, global alpha).
  public func save() {
    stack.append(state)
  }

  /// Pops the graphics state pushed by the matching `save()`. An unmatched restore does nothing.
  public func restore() {
    guard let s = stack.popLast() else { return }
    // A clip mask made at this level goes back to the pool once no saved state holds it.
    if let m = state.clipMask, m !== s.clipMask, !stack.contains(where: { $0.clipMask === m }) {
      maskPool.append((m, generation))
    }
    state = s
  }

  /// A cleared mask of the given placement, from the pool when one is big enough.
  ///
  /// `r` is often `extent` (what is drawn, on the surface) cut by the clip; a band's clip
  /// border moves every frame, and each new largest cut would allocate again. So a new mask
  /// holds the whole extent, rounded up to a power of two (at most the surface's size), and
  /// twice the rows.
  func takeMask(_ r: IntRect, within extent: IntRect? = nil) -> AlphaMask? {
    let needed = r.width * r.height
    var best: Int? = nil
    for (i, m) in maskPool.enumerated() where m.mask.capacity >= needed {
      if best == nil || m.mask.capacity < maskPool[best!].mask.capacity { best = i }
    }
    if let i = best {
      let m = maskPool.remove(at: i).mask
      m.reshape(width: r.width, height: r.height, originX: r.x, originY: r.y)
      return m
    }
    let whole = extent.map { $0.intersection(target.bounds) } ?? r
    let wanted = max(needed, whole.width * whole.height, 1)
    let reserve = max(
      needed,
      min(1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount), target.bounds.width * target.bounds.height))
    return try? AlphaMask(
      width: r.width, height: r.height, originX: r.x, originY: r.y, reserving: reserve,
      reservingRows: 2 * max(r.height, whole.height))
  }

  /// Applies `t` before the current transform (as `CGContextConcatCTM`).
  public func concatenate(_ t: Transform) {
    state.transform = t.concatenating(state.transform)
  }

  public func translateBy(x: Double, y: Double) { concatenate(Transform(translationX: x, y: y)) }
  public func scaleBy(x: Double, y: Double) { concatenate(Transform(scaleX: x, y: y)) }
  public func rotate(by angle: Double) { concatenate(Transform(rotationAngle: angle)) }

  // MARK: Clipping

  /// Intersects the clip with a rectangle in user space.
  public func clip(to rect: Rect) {
    if clipToAlignedRect(rect) { return }
    // One path reused for every such clip: no allocation once it has held a rectangle.
    rectPath.removeAllKeepingCapacity()
    rectPath.addRect(rect)
    clip(to: rectPath)
  }

  /// Clips to a rectangle that the transform maps onto whole device pixels, without a mask;
  /// false (nothing done) for any other rectangle.
  private func clipToAlignedRect(_ r: Rect) -> Bool {
    let t = state.transform
    guard t.isAxisAligned else { return false }
    let d = t.apply(r)
    guard isInteger(d.minX) && isInteger(d.minY) && isInteger(d.maxX) && isInteger(d.maxY) else {
      return false
    }
    narrowClipBounds(to: IntRect(enclosing: d))
    return true
  }

  /// Intersects the clip bounds with `r`; an empty result clips everything out.
  private func narrowClipBounds(to r: IntRect) {
    let bounds = state.clipBounds.intersection(r)
    state.clipBounds = bounds
    if bounds.isEmpty {
      state.clipMask = nil
      state.pendingRect = nil
    }
  }

  /// Makes the clip exact for drawing that covers at most `extent` (device space): a pending
  /// rectangle that contains it changes nothing and stays pending; otherwise it is folded into
  /// the clip mask now.
  @inline(__always) func resolveClip(for extent: Rect) {
    guard let p = state.pendingRect else { return }
    if extent.minX >= p.minX && extent.maxX <= p.maxX && extent.minY >= p.minY && extent.maxY <= p.maxY {
      return
    }
    materializePendingRect(p)
  }

  /// Folds the pending rectangle into the clip mask: each pixel's coverage is the area of the
  /// pixel inside the rectangle, times the previous mask.
  private func materializePendingRect(_ p: Rect) {
    state.pendingRect = nil
    let b = state.clipBounds
    if b.isEmpty { return }
    guard let mask = takeMask(b, within: IntRect(enclosing: p)) else {
      narrowClipBounds(to: IntRect(x: b.x, y: b.y, width: 0, height: 0))
      return
    }
    let old = state.clipMask
    // The fraction of column x (row y) inside the rectangle.
    func overlap(_ i: Int, _ lo: Double, _ hi: Double) -> Double {
      max(0, min(Double(i + 1), hi) - max(Double(i), lo))
    }
    // Columns wholly inside the rectangle (overlap 1) are [inner0, inner1): one value per row
    // there; only the columns at its two fractional edges are worked out pixel by pixel.
    func column(_ v: Double) -> Int { b.x + Int(min(Double(b.width), max(0, v - Double(b.x)))) }
    let inner0 = column(p.minX.rounded(.up))
    let inner1 = max(inner0, column(p.maxX.rounded(.down)))
    mask.clearSolidRuns()
    for y in 0..<b.height {
      let fy = overlap(b.y + y, p.minY, p.maxY)
      let dst = mask.row(y)
      if fy == 0 { continue }  // the mask starts cleared
      var solidStart = -1
      var solidEnd = -1
      func edge(_ x: Int) {
        let c = UInt8((overlap(x, p.minX, p.maxX) * fy * 255 + 0.5).rounded(.down))
        dst[x - b.x] = c
        if c == 255 {
          if solidStart < 0 { solidStart = x - b.x }
          solidEnd = x - b.x + 1
        }
      }
      for x in b.x..<inner0 { edge(x) }
      if inner1 > inner0 {
        let c = UInt8((fy * 255 + 0.5).rounded(.down))
        (dst + (inner0 - b.x)).update(repeating: c, count: inner1 - inner0)
        if c == 255 {
          if solidStart < 0 { solidStart = inner0 - b.x }
          solidEnd = inner1 - b.x
        }
      }
      for x in inner1..<b.maxX { edge(x) }
      if let old {
        let src = old.row(b.y + y - old.originY) + (b.x - old.originX)
        for x in 0..<b.width { dst[x] = UInt8(Pixel.div255(UInt32(dst[x]) * UInt32(src[x]))) }
      } else if solidStart >= 0 {
        mask.noteSolidRun(y, solidStart, solidEnd)
      }
    }
    if old != nil { mask.findSolidRuns() }
    state.clipMask = mask
  }

  /// Intersects the clip with the inside of a path (anti-aliased).
  public func clip(to path: Path, rule: FillRule = .nonZero) {
    let t = state.transform
    if t.isAxisAligned, let r = path.axisAlignedRect {
      // A pixel-aligned rectangle needs no mask; any other waits until drawing crosses it.
      if clipToAlignedRect(r) { return }
      let d = t.apply(r)
      narrowClipBounds(to: IntRect(enclosing: d))
      if !state.clipBounds.isEmpty { state.pendingRect = state.pendingRect.map { $0.intersection(d) } ?? d }
      return
    }
    let extent = t.apply(path.controlBounds)
    resolveClip(for: extent)
    let area = state.clipBounds.intersection(IntRect(enclosing: extent))
    guard !area.isEmpty, let mask = takeMask(area, within: IntRect(enclosing: extent)) else {
      narrowClipBounds(to: IntRect(x: state.clipBounds.x, y: state.clipBounds.y, width: 0, height: 0))
      return
    }
    rasterizer.fill(path, transform: t, rule: rule, clip: area, into: MaskSink(mask: mask, recordsRuns: true))
    intersectClip(with: mask, area: area)
  }

  /// Makes `mask`, a shape's coverage over `area` (within the clip bounds), the clip: times the
  /// previous clip mask, if any.
  func intersectClip(with mask: AlphaMask, area: IntRect) {
    if let old = state.clipMask {
      for y in 0..<area.height {
        let dst = mask.row(y)
        let src = old.row(area.y + y - old.originY) + (area.x - old.originX)
        for x in 0..<area.width { dst[x] = UInt8(Pixel.div255(UInt32(dst[x]) * UInt32(src[x]))) }
      }
      mask.findSolidRuns()
    }
    state.clipBounds = area
    state.clipMask = mask
  }

  // MARK: Drawing

  /// Fills the whole clip with a colour, replacing what was there (no blending).
  public func clear(_ color: Color = .clear) {
    let c = color.premultiplied
    clearedPixel = c
    let b = state.clipBounds.intersection(target.bounds)
    if b.isEmpty { return }
    resolveClip(for: Rect(b))
    if state.clipMask == nil {
      for y in b.y..<b.maxY { target.pixel(b.x, y).update(repeating: c, count: b.width) }
    } else {
      // Under a soft clip, clear then paint with coverage: dst = dst * (1 - m) + c * m.
      let m = state.clipMask!
      for y in b.y..<b.maxY {
        let row = target.pixel(b.x, y)
        let mrow = m.row(y - m.originY) + (b.x - m.originX)
        for x in 0..<b.width {
          let k = UInt32(mrow[x])
          row[x] = Pixel.scale(row[x], by: 255 - k) &+ Pixel.scale(c, by: k)
        }
      }
    }
  }

  /// Clears the clip to `color` except inside `holes` (device rectangles that opaque colour
  /// will cover), row by row between the holes' edges; returns how many pixels of the clip were
  /// left alone. Under a soft clip it clears everything (and leaves none alone).
  @discardableResult public func clear(_ color: Color, skipping holes: [IntRect]) -> Int {
    let b = state.clipBounds.intersection(target.bounds)
    if b.isEmpty { return 0 }
    resolveClip(for: Rect(b))
    if state.clipMask != nil || holes.isEmpty {
      clear(color)
      return 0
    }
    let c = color.premultiplied
    clearedPixel = c
    var skipped = 0
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * holes.count) { spans in
      var y = b.y
      while y < b.maxY {
        // The holes across rows y..<next, as x ranges in x order (insertion: a few dozen).
        var next = b.maxY
        var n = 0
        for h in holes where h.x < b.maxX && h.maxX > b.x && h.maxY > y && h.y < b.maxY && !h.isEmpty {
          if h.y > y {
            next = Swift.min(next, h.y)
            continue
          }
          next = Swift.min(next, h.maxY)
          let x0 = Swift.max(h.x, b.x)
          let x1 = Swift.min(h.maxX, b.maxX)
          var k = n
          while k > 0 && spans[2 * (k - 1)] > x0 {
            spans[2 * k] = spans[2 * (k - 1)]
            spans[2 * k + 1] = spans[2 * (k - 1) + 1]
            k -= 1
          }
          spans[2 * k] = x0
          spans[2 * k + 1] = x1
          n += 1
        }
        var cleared = 0
        for row in y..<next {
          let p = target.pixel(b.x, row) - b.x
          var x = b.x
          for k in 0..<n {
            let s = spans[2 * k]
            if s > x { (p + x).update(repeating: c, count: s - x) }
            x = Swift.max(x, spans[2 * k + 1])
          }
          if x < b.maxX { (p + x).update(repeating: c, count: b.maxX - x) }
        }
        // Pixels cleared in one row of the slab.
        var x = b.x
        for k in 0..<n {
          let s = spans[2 * k]
          if s > x { cleared += s - x }
          x = Swift.max(x, spans[2 * k + 1])
        }
        if x < b.maxX { cleared += b.maxX - x }
        skipped += (b.width - cleared) * (next - y)
        y = next
      }
    }
    return skipped
  }

  /// Fills a path with a paint.
  public func fill(_ path: Path, paint: Paint, rule: FillRule = .nonZero) {
    let clip = state.clipBounds.intersection(target.bounds)
    if clip.isEmpty { return }
    let shader = Shader(paint, ctm: state.transform)
    if drawsNothing(shader.solidColor) { return }
    if state.pendingRect != nil { resolveClip(for: state.transform.apply(path.controlBounds)) }
    rasterizer.fill(path, transform: state.transform, rule: rule, clip: clip, into: makeSink(shader))
  }

  /// Fills a rectangle with a paint.
  public func fill(_ rect: Rect, paint: Paint) {
    fill(Path(rect: rect), paint: paint)
  }

  /// Composites `color` through an alpha mask placed at its origin plus an offset, in device
  /// pixels (the transform does not apply); the clip and global alpha do.
  public func draw(
    mask: AlphaMask, color: Color, offsetX: Int = 0, offsetY: Int = 0, skipping holes: [IntRect] = []
  ) {
    draw(mask: mask, paint: .solid(color), offsetX: offsetX, offsetY: offsetY, skipping: holes)
  }

  /// Composites a paint through an alpha mask placed at its origin plus an offset (device pixels).
  /// Pixels inside `skipping` are left alone: the caller knows they will be covered by opaque
  /// colour next (a shadow under its card).
  public func draw(
    mask: AlphaMask, paint: Paint, offsetX: Int = 0, offsetY: Int = 0, skipping holes: [IntRect] = []
  ) {
    let placed = IntRect(
      x: mask.originX + offsetX, y: mask.originY + offsetY, width: mask.width, height: mask.height)
    let r = placed.intersection(state.clipBounds).intersection(target.bounds)
    let shader = Shader(paint, ctm: state.transform)
    if r.isEmpty || drawsNothing(shader.solidColor) { return }
    resolveClip(for: Rect(r))
    let sink = makeSink(shader)
    let cuts = cuts(holes, within: r)
    for y in r.y..<r.maxY {
      let row = mask.row(y - placed.y)
      var x = r.x
      for h in cuts where y >= h.y && y < h.maxY {
        if h.x > x { sink.maskSpan(y: y, x: x, alphas: row + (x - placed.x), count: h.x - x) }
        x = max(x, h.maxX)
      }
      if x < r.maxX { sink.maskSpan(y: y, x: x, alphas: row + (x - placed.x), count: r.maxX - x) }
    }
  }

  /// The parts of `holes` inside `area`, left to right, in a reused buffer (no allocation per
  /// call): what `draw(mask:)` and `fill(_:offsetX:offsetY:paint:skipping:)` leave alone.
  func cuts(_ holes: [IntRect], within area: IntRect) -> [IntRect] {
    holeBuffer.removeAll(keepingCapacity: true)
    for h in holes {
      let c = h.intersection(area)
      if !c.isEmpty { holeBuffer.append(c) }
    }
    if holeBuffer.count > 1 { holeBuffer.sort { $0.x < $1.x } }
    return holeBuffer
  }

  /// Draws a surface placed by `transform` (its pixel (0, 0) at the user-space origin, one pixel
  /// per unit), then mapped by the current transform, with bilinear sampling.
  public func draw(_ image: Surface, transform placement: Transform = .identity) {
    let t = placement.concatenating(state.transform)
    guard let inv = t.inverted else { return }
    let shader = Shader.image(image, inv)
    let clip = state.clipBounds.intersection(target.bounds)
    if clip.isEmpty || drawsNothing(nil) { return }
    let rect = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
    resolveClip(for: t.apply(rect))
    rasterizer.fill(Path(rect: rect), transform: t, rule: .nonZero, clip: clip, into: makeSink(shader))
  }

  func makeSink(_ shader: Shader) -> PaintSink {
    PaintSink(
      target: target, shader: shader, clipMask: state.clipMask,
      alpha: UInt32((state.globalAlpha * 255).rounded()), scratch: scratch, mode: state.blendMode)
  }

  // MARK: Groups

  /// Starts an offscreen group: what is drawn until `endGroup` goes to a transparent layer,
  /// composited back as one image. The group covers the current clip, or only `bounds` of it
  /// (device pixels) when given; nothing outside it can be drawn while the group is open.
  ///
  /// A soft clip (a mask, or a rectangle off the pixel grid) applies once, when the group is
  /// composited: inside the group only its bounds clip, so that an edge pixel the clip half
  /// covers ends half covered, not a quarter.
  ///
  /// With `unclipped`, the group covers exactly `bounds`, even beyond the clip and the surface:
  /// for content whose effect reaches into the clip from outside it (a shadow cast by something
  /// just off screen).
  public func beginGroup(bounds: IntRect? = nil, unclipped: Bool = false) {
    var b = state.clipBounds.intersection(target.bounds)
    if unclipped, let limit = bounds {
      b = limit
    } else if let limit = bounds {
      b = b.intersection(limit)
    }
    let w = max(1, b.width)
    let h = max(1, b.height)
    let surface = takeGroupSurface(width: w, height: h)
    let previous = target
    target = RenderTarget(
      base: surface.base, rowPixels: surface.rowPixels, bounds: IntRect(x: b.x, y: b.y, width: w, height: h))
    for y in 0..<h { surface.row(y).update(repeating: 0, count: w) }
    groups.append(Group(previous: previous, surface: surface, stateDepth: stack.count))
    peakOpenGroupBytes = max(peakOpenGroupBytes, openGroupBytes)
    save()
    state.clipBounds = b.isEmpty ? IntRect(x: b.x, y: b.y, width: 0, height: 0) : b
    state.clipMask = nil
    state.pendingRect = nil
  }

  /// Ends the innermost group and composites it with `opacity`, through `mask` if given (a
  /// device-space alpha mask; outside it everything is masked out). The graphics state returns
  /// to what it was at `beginGroup`.
  public func endGroup(opacity: Double = 1, mask: AlphaMask? = nil) {
    guard let g = endGroupDeferred() else { return }
    composite(g, opacity: opacity, mask: mask)
    recycle(g)
  }

  /// Ends the innermost group without compositing it, so that something can be drawn beneath it
  /// first (a shadow made from its alpha). Pass the result to `composite` and then `recycle`.
  public func endGroupDeferred() -> GroupImage? {
    guard let g = groups.popLast() else { return nil }
    while stack.count > g.stateDepth { restore() }
    let image = GroupImage(surface: g.surface, bounds: target.bounds)
    target = g.previous
    return image
  }

  /// Composites a finished group with an opacity and an optional device-space mask, through the
  /// current clip.
  public func composite(_ g: GroupImage, opacity: Double = 1, mask: AlphaMask? = nil) {
    let o = UInt32((clamp01(opacity) * 255).rounded())
    if o == 0 && state.blendMode.transparentSourceIsNoOp { return }
    var r = g.bounds.intersection(target.bounds).intersection(state.clipBounds)
    if let m = mask { r = r.intersection(m.deviceBounds) }
    if r.isEmpty { return }
    resolveClip(for: Rect(r))
    if let clip = state.clipMask {
      // Fold the clip into a mask of the composited area.
      guard let both = takeMask(r, within: g.bounds) else { return }
      defer { maskPool.append((both, generation)) }
      for y in r.y..<r.maxY {
        let dst = both.row(y - r.y)
        let c = clip.row(y - clip.originY) + (r.x - clip.originX)
        if let m = mask {
          let mm = m.row(y - m.originY) + (r.x - m.originX)
          for x in 0..<r.width { dst[x] = UInt8(Pixel.div255(UInt32(c[x]) * UInt32(mm[x]))) }
        } else {
          dst.update(from: c, count: r.width)
        }
      }
      compositeRows(g, r, o, both)
    } else {
      compositeRows(g, r, o, mask)
    }
  }

  private func compositeRows(_ g: GroupImage, _ r: IntRect, _ o: UInt32, _ mask: AlphaMask?) {
    if state.blendMode != .normal {
      // The opacity scales the group's pixels; the mask is coverage.
      let colors = scratch.colors
      for y in r.y..<r.maxY {
        let s = g.surface.row(y - g.bounds.y) + (r.x - g.bounds.x)
        let d = target.pixel(r.x, y)
        var done = 0
        while done < r.width {
          let n = min(r.width - done, scratch.capacity)
          for i in 0..<n { colors[i] = o == 255 ? s[done + i] : Pixel.scale(s[done + i], by: o) }
          if let m = mask {
            blendRow(
              state.blendMode, d + done, colors, n, coverage: m.row(y - m.originY) + (r.x + done - m.originX))
          } else {
            blendRow(state.blendMode, d + done, colors, n, coverage: 255)
          }
          done += n
        }
      }
      return
    }
    for y in r.y..<r.maxY {
      let s = g.surface.row(y - g.bounds.y) + (r.x - g.bounds.x)
      let d = target.pixel(r.x, y)
      if let m = mask {
        let mrow = m.row(y - m.originY) + (r.x - m.originX)
        for x in 0..<r.width {
          let k = o == 255 ? UInt32(mrow[x]) : Pixel.div255(UInt32(mrow[x]) * o)
          if k != 0 { d[x] = Pixel.sourceOver(Pixel.scale(s[x], by: k), d[x]) }
        }
      } else {
        blendRow(d, s, r.width, alpha: o)
      }
    }
  }

  /// Returns a group's storage for reuse.
  public func recycle(_ g: GroupImage) {
    groupPool.append((g.surface, generation))
  }

  /// The alpha of a finished group as a mask over its bounds, in storage from the canvas' pool:
  /// give it back with `recycle(_:)` once drawn with.
  public func alphaMask(of g: GroupImage) -> AlphaMask? {
    guard let m = takeMask(g.bounds) else { return nil }
    for y in 0..<g.bounds.height {
      let src = g.surface.row(y)
      let dst = m.row(y)
      for x in 0..<g.bounds.width { dst[x] = UInt8(truncatingIfNeeded: src[x] >> 24) }
    }
    return m
  }

  /// Returns a mask made by `alphaMask(of:)` for reuse.
  public func recycle(_ m: AlphaMask) {
    maskPool.append((m, generation))
  }

  /// Frees pooled group surfaces and masks that were not given back in the last `age` calls (10 s
  /// at 60 Hz): a renderer calls it once a frame, so that storage a rare event needed (a shadow
  /// blurred once, a group as large as the screen) is not held for good, while what frames use
  /// stays. Masks go only while the pool holds more than `maskBudget` bytes: a clip that a band
  /// of the screen meets once a minute (a card's corner crossing its border) would otherwise
  /// allocate each time, and a handful of clip masks is small.
  public func trimPools(age: Int = 600, maskBudget: Int = 1 << 20) {
    generation += 1
    let keep = generation - age
    groupPool.removeAll { $0.returned < keep }
    if maskPool.reduce(0, { $0 + $1.mask.capacity }) > maskBudget {
      maskPool.removeAll { $0.returned < keep }
    }
  }

  /// Bytes of the offscreen groups open now (nested groups each hold one): what a compositor
  /// checks before opening another, to draw in bands rather than run out of memory.
  public var openGroupBytes: Int { groups.reduce(0) { $0 + $1.surface.rowPixels * $1.surface.height * 4 } }

  private func takeGroupSurface(width: Int, height: Int) -> Surface {
    // The most recently returned that fits: the same few surfaces serve every frame, and the rest
    // age out (`trimPools`).
    if let i = groupPool.lastIndex(where: { $0.surface.width >= width && $0.surface.height >= height }) {
      return groupPool.remove(at: i).surface
    }
    return try! Surface(width: width, height: height)
  }
}

@inline(__always) func isInteger(_ v: Double) -> Bool { v == v.rounded() }

/// The pixels of a finished offscreen group: `bounds` (device pixels) of `surface`, whose
/// pixel (0, 0) is the device pixel `bounds.x, bounds.y`.
public struct GroupImage {
  public let surface: Surface
  public let bounds: IntRect

  /// The group's alpha as a mask over `bounds` grown by `margin` pixels on every side.
  public func alphaMask(margin: Int = 0) throws -> AlphaMask {
    let m = try AlphaMask(
      width: bounds.width + 2 * margin, height: bounds.height + 2 * margin,
      originX: bounds.x - margin, originY: bounds.y - margin)
    for y in 0..<bounds.height {
      let src = surface.row(y)
      let dst = m.row(y + margin) + margin
      for x in 0..<bounds.width { dst[x] = UInt8(truncatingIfNeeded: src[x] >> 24) }
    }
    return m
  }
}

extension Path {
  /// The rectangle this path is, when it is exactly one closed axis-aligned rectangle.
  public var axisAlignedRect: Rect? {
    let n = elements.count
    guard n == 5 || n == 6 else { return nil }
    guard case .move(let p0) = elements[0], case .line(let p1) = elements[1],
      case .line(let p2) = elements[2], case .line(let p3) = elements[3]
    else { return nil }
    // Either a close follows the fourth corner, or a line back to the start and then a close.
    if n == 5 {
      guard case .close = elements[4] else { return nil }
    } else {
      guard case .line(let back) = elements[4], back == p0, case .close = elements[5] else { return nil }
    }
    let horizontalFirst = p0.y == p1.y && p1.x == p2.x && p2.y == p3.y && p3.x == p0.x
    let verticalFirst = p0.x == p1.x && p1.y == p2.y && p2.x == p3.x && p3.y == p0.y
    guard horizontalFirst || verticalFirst else { return nil }
    return Rect(corner: p0, p2)
  }
}

extension AlphaMask {
  /// Accumulates the coverage of a path (device coordinates after `transform`) into the mask.
  public func fill(_ path: Path, transform: Transform = .identity, rule: FillRule = .nonZero) {
    let sink = MaskSink(mask: self)
    Rasterizer.shared.withLock { r in
      r.fill(path, transform: transform, rule: rule, clip: deviceBounds, into: sink)
    }
  }
}
