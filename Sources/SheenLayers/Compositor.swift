import SheenRaster

/// Draws a display list (`DisplayList`: a layer tree resolved once per frame) onto a canvas, reading
/// no layer, in SCENE.md's order: for each layer, shadow, background,
/// content, sublayers, border; the mask and `masksToBounds` clip all of that (the shadow too);
/// then `opacity` applies to the whole group.
///
/// Offscreen groups are made only where they change the result: group opacity below 1, a mask,
/// or a shadow taken from the layer's own alpha. Shadows are blurred once and cached by shape,
/// so moving a layer draws its shadow without blurring again.
public final class Compositor {
  public let context: RenderContext
  /// What this compositor counted during the current `render` or `replay` call.
  var counts = RenderContext.Statistics()
  /// Storage for the device rectangles a shadow skips (reused: no allocation per shadow).
  private var holes: [IntRect] = []
  /// The list `render` makes of the layers it is given (kept: its storage is reused).
  private var list = DisplayList()
  /// The nodes and image parts of the list being replayed (only during `replay`).
  var nodes = UnsafeBufferPointer<DisplayNode>(start: nil, count: 0)
  var parts = UnsafeBufferPointer<ContentsPart>(start: nil, count: 0)
  var opaque = UnsafeBufferPointer<Rect>(start: nil, count: 0)
  /// The band's bin being replayed (`DisplayBins`), if any: each node's next sibling and first
  /// child in the bin (`nodes.count` when none).
  var binned = false
  var binNext = UnsafeBufferPointer<Int>(start: nil, count: 0)
  var binChild = UnsafeBufferPointer<Int>(start: nil, count: 0)
  /// The covers of the list being drawn, in drawing order: the node that paints each, and its
  /// device rectangle (Compositor+Occlusion.swift). Kept storage; unchecked as `occluders` is.
  @exclusivity(unchecked) var coverIndex: [Int] = []
  @exclusivity(unchecked) var coverRect: [IntRect] = []
  /// `coverWidest[k]`: the widest of the covers from position k on (a cover narrower than a
  /// reach hides none of its rows: `visibleRows` returns at once).
  @exclusivity(unchecked) var coverWidest: [Int] = []
  /// The covers of the whole band (or canvas) being drawn, listed once for all its strips; each
  /// strip takes those that reach its rows (Compositor+Occlusion.swift).
  @exclusivity(unchecked) var bandCoverIndex: [Int] = []
  @exclusivity(unchecked) var bandCoverRect: [IntRect] = []
  /// The covers by column of the clip (`CoverColumns`): which ones a node's reach can meet.
  @exclusivity(unchecked) var coverColumns = CoverColumns()
  @exclusivity(unchecked) var areaScratch: [Int] = []
  @exclusivity(unchecked) var areaRects: [IntRect] = []
  /// Above 0 while a body is drawn offscreen for its shadow, or a mask: nothing is left out.
  var offscreenDepth = 0
  /// The layer's own opaque parts, which a kept alpha shadow is cut by (`holes` adds covers).
  private var ownHoles: [IntRect] = []
  /// The covers drawn after a layer that meet its shadow (`holes` less `ownHoles`).
  private var laterHoles: [IntRect] = []
  /// The covers a background or border skips (kept storage).
  private var bodyHoles: [IntRect] = []

  /// Node `i` of the list being replayed (read in place: nodes are large).
  @inline(__always) func node(_ i: Int) -> UnsafePointer<DisplayNode> { nodes.baseAddress! + i }

  public init(context: RenderContext = RenderContext()) {
    self.context = context
  }

  /// Renders `layers` (back to front) with `transform` mapping their parent's coordinates (points)
  /// to device pixels; the canvas' clip limits the work. The layers are prepared and made into a
  /// display list (`DisplayList.build`), which is then replayed. With `endsFrame` false (one band
  /// of a frame among several) the caches are not aged.
  public func render(
    _ layers: [Layer], in canvas: Canvas, transform: Transform = .identity, endsFrame: Bool = true
  ) {
    list.build(layers, transform: transform, cull: canvas.clipBounds)
    context.rasterCache.prepare(&list, compositor: self, automatic: false)
    replay(list, in: canvas, endsFrame: endsFrame)
    // Nothing is held until the next call (the storage is kept).
    list.removeAll()
  }

  /// Draws a display list onto a canvas; the canvas' clip limits the work. Reads only the list
  /// (never a layer): the bands of a frame replay one list on several threads.
  public func replay(_ list: DisplayList, in canvas: Canvas, endsFrame: Bool = true) {
    replay(list, in: canvas, endsFrame: endsFrame, clearingTo: nil)
  }

  /// Draws a display list, first clearing the canvas' clip to `background` (when given) where no
  /// later opaque layer covers it.
  func replay(_ list: DisplayList, in canvas: Canvas, endsFrame: Bool, clearingTo background: Color?) {
    counts = RenderContext.Statistics()
    list.nodes.withUnsafeBufferPointer { n in
      list.parts.withUnsafeBufferPointer { p in
        list.opaqueParts.withUnsafeBufferPointer { o in
          nodes = n
          parts = p
          opaque = o
          listBandCovers(first: 0, canvas)
          inStrips(canvas) {
            startDrawing(canvas, clearingTo: background)
            drawSiblings(first: 0, stop: n.count, canvas, list.transform)
          }
          // No cover outlives its list (a raster cache draws subtrees with this compositor).
          coverIndex.removeAll(keepingCapacity: true)
          coverRect.removeAll(keepingCapacity: true)
          coverWidest.removeAll(keepingCapacity: true)
          bandCoverIndex.removeAll(keepingCapacity: true)
          bandCoverRect.removeAll(keepingCapacity: true)
          nodes = UnsafeBufferPointer(start: nil, count: 0)
          parts = UnsafeBufferPointer(start: nil, count: 0)
          opaque = UnsafeBufferPointer(start: nil, count: 0)
        }
      }
    }
    context.add(counts)
    if endsFrame { context.endFrame() }
  }

  /// Draws band `band`'s bin of a display list (`DisplayBins`, made for this list): only the
  /// nodes that can reach the band's rows are visited. The canvas' clip is the band's rows.
  func replay(
    _ list: DisplayList, bins: DisplayBins, band: Int, in canvas: Canvas, clearingTo background: Color? = nil
  ) {
    precondition(bins.nodeCount == list.nodes.count && band < bins.bandCount)
    counts = RenderContext.Statistics()
    let count = list.nodes.count
    list.nodes.withUnsafeBufferPointer { n in
      list.parts.withUnsafeBufferPointer { p in
        list.opaqueParts.withUnsafeBufferPointer { o in
          bins.next.withUnsafeBufferPointer { next in
            bins.child.withUnsafeBufferPointer { child in
              nodes = n
              parts = p
              opaque = o
              binned = true
              binNext = UnsafeBufferPointer(rebasing: next[band * count..<(band + 1) * count])
              binChild = UnsafeBufferPointer(rebasing: child[band * count..<(band + 1) * count])
              listBandCovers(first: bins.roots[band], canvas)
              inStrips(canvas) {
                startDrawing(canvas, clearingTo: background)
                drawSiblings(first: bins.roots[band], stop: count, canvas, list.transform)
              }
              coverIndex.removeAll(keepingCapacity: true)
              coverRect.removeAll(keepingCapacity: true)
              coverWidest.removeAll(keepingCapacity: true)
              bandCoverIndex.removeAll(keepingCapacity: true)
              bandCoverRect.removeAll(keepingCapacity: true)
              binned = false
              binNext = UnsafeBufferPointer(start: nil, count: 0)
              binChild = UnsafeBufferPointer(start: nil, count: 0)
              nodes = UnsafeBufferPointer(start: nil, count: 0)
              parts = UnsafeBufferPointer(start: nil, count: 0)
              opaque = UnsafeBufferPointer(start: nil, count: 0)
            }
          }
        }
      }
    }
    context.add(counts)
  }

  /// Takes the band's covers that reach the canvas' clip (a strip's rows; when occluding) and
  /// clears the clip to `background` where no cover hides it.
  private func startDrawing(_ canvas: Canvas, clearingTo background: Color?) {
    coverIndex.removeAll(keepingCapacity: true)
    coverRect.removeAll(keepingCapacity: true)
    coverWidest.removeAll(keepingCapacity: true)
    offscreenDepth = 0
    let clip = canvas.clipBounds.intersection(canvas.surface.bounds)
    if skipsOccludedLayers {
      takeCovers(within: clip)
      measureCovers()
      coverColumns.index(coverRect, within: clip)
    }
    guard let background, !clip.isEmpty else { return }
    if !occludes {
      canvas.clear(background)
      return
    }
    // Every cover is painted after the clear: the clear skips them all (whole rows and spans).
    let skipped = canvas.clear(background, skipping: coverRect)
    counts.pixelsNotDrawn += skipped
    if skipped == clip.width * clip.height { counts.opsOccluded += 1 }
  }

  // MARK: Per layer

  func draw(_ i: Int, _ canvas: Canvas, _ parent: Transform) {
    switch node(i).pointee.kind {
    case .hidden: return
    case .culled:
      counts.layersCulled += 1
      return
    case .drawn: break
    }
    let ctm = node(i).pointee.relative.concatenating(parent)
    guard ctm.determinant != 0, ctm.determinant.isFinite else { return }
    let extent = IntRect(enclosing: fullExtent(i, ctm))
    if extent.intersection(canvas.clipBounds).isEmpty {
      counts.layersCulled += 1
      return
    }
    // Rows that opaque layers drawn after the whole subtree cover are not drawn.
    var narrowed = false
    if occludes {
      let reach = extent.intersection(canvas.clipBounds)
      let rows = visibleRows(reach, from: firstCover(atOrAfter: node(i).pointee.end))
      if rows.isEmpty {
        counts.layersOccluded += 1
        counts.opsOccluded += 1
        counts.pixelsNotDrawn += reach.width * reach.height
        return
      }
      if rows != reach {
        counts.pixelsNotDrawn += (reach.height - rows.height) * reach.width
        narrowed = true
        canvas.save()
        canvas.transform = .identity
        canvas.clip(to: Rect(rows))
      }
    }
    defer { if narrowed { canvas.restore() } }
    counts.layersDrawn += 1
    // A kept bitmap of the whole subtree (RasterCache.swift).
    if let r = node(i).pointee.raster {
      drawRaster(r, canvas)
      return
    }

    // A layer that needs offscreen pixels (group opacity, a mask, a shadow of its alpha) is drawn
    // band by band when another whole-extent buffer would pass the budget (deep nesting, a huge
    // canvas): each band clips everything beneath it, so nested groups, masks and shadow bodies
    // are band-sized too. Memory is then bounded by the canvas, not by the depth.
    let offscreen =
      node(i).pointee.opacity < 1 || node(i).pointee.hasMask
      || (node(i).pointee.shadowVisible && node(i).pointee.shadowPath == nil)
    if let bands = Compositor.bands(
      offscreen: offscreen, extent: extent, canvas: canvas, budget: offscreenBudget)
    {
      for band in bands {
        canvas.save()
        canvas.transform = .identity
        canvas.clip(
          to: Rect(
            x: Double(band.x), y: Double(band.y), width: Double(band.width), height: Double(band.height)))
        drawUnbanded(i, canvas, ctm, extent: extent.intersection(band))
        canvas.restore()
      }
      return
    }
    drawUnbanded(i, canvas, ctm, extent: extent)
  }

  /// Bytes of offscreen buffers open at once beyond which a layer is drawn in bands (and a
  /// shadow's body is cut to the clip's reach): 128 MiB unless changed (tests use less).
  public var offscreenBudget = 128 << 20

  /// The bands to draw a layer in (one that needs an `offscreen` group), or nil to draw it whole.
  static func bands(offscreen: Bool, extent: IntRect, canvas: Canvas, budget offscreenBudget: Int)
    -> [IntRect]?
  {
    let area = extent.intersection(canvas.clipBounds)
    guard offscreen, area.height > 16 else { return nil }
    let rowBytes = area.width * 4
    let open = canvas.openGroupBytes
    guard open + rowBytes * area.height > offscreenBudget else { return nil }
    // The rows left under the budget, at least 16 (a whole-canvas band per level past it would be
    // what banding avoids).
    let rows = max(16, (offscreenBudget - open) / max(1, rowBytes) / 2)
    guard rows < area.height else { return nil }
    var bands: [IntRect] = []
    var y = area.y
    while y < area.maxY {
      let h = min(rows, area.maxY - y)
      bands.append(IntRect(x: area.x, y: y, width: area.width, height: h))
      y += h
    }
    return bands
  }

  private func drawUnbanded(_ i: Int, _ canvas: Canvas, _ ctm: Transform, extent: IntRect) {
    var maskImage: AlphaMask? = nil
    if node(i).pointee.hasMask {
      maskImage = renderMask(i + 1, canvas, ctm, limit: extent)
      if maskImage == nil { return }
    }
    let opacity = node(i).pointee.opacity
    let grouped = opacity < 1 || maskImage != nil
    canvas.save()
    if grouped { canvas.beginGroup(bounds: extent) }
    if node(i).pointee.masksToBounds {
      canvas.transform = ctm
      context.coverageCache.clip(canvas, to: node(i).pointee.rounded, of: node(i).pointee.shape, .rounded)
    }
    drawShadowAndBody(i, canvas, ctm)
    if grouped { canvas.endGroup(opacity: opacity, mask: maskImage) }
    canvas.restore()
    if let m = maskImage { canvas.recycle(m) }
  }

  private func drawShadowAndBody(_ i: Int, _ canvas: Canvas, _ ctm: Transform) {
    // Whether a shadow shows at all (colour, opacity, radius, offset, and enough alpha left after
    // the blur) was settled once for the frame, in Layer.prepareForDrawingTree.
    guard node(i).pointee.shadowVisible, let c = node(i).pointee.shadowColor else {
      drawBody(i, canvas, ctm)
      return
    }
    let color = c.withAlphaMultiplied(by: min(1, node(i).pointee.shadowOpacity))
    let sigma = node(i).pointee.shadowRadius * ctm.determinant.magnitude.squareRoot()
    let shadowOffset = node(i).pointee.shadowOffset
    let offset = ctm.applyToVector(Point(x: shadowOffset.width, y: shadowOffset.height))
    // Set through the API, a radius or offset can be anything: a shadow too far or too wide to
    // measure in Ints is not drawn (converting it used to trap).
    guard sigma.isFinite, offset.x.magnitude < 1e9, offset.y.magnitude < 1e9 else {
      drawBody(i, canvas, ctm)
      return
    }
    let dx = Int(offset.x.rounded())
    let dy = Int(offset.y.rounded())
    // Shadow pixels that the body will cover with opaque colour need not be blended.
    ownHoles.removeAll(keepingCapacity: true)
    for k in node(i).pointee.opaqueStart..<node(i).pointee.opaqueEnd {
      if let d = Compositor.deviceInterior(opaque[k], ctm) { ownHoles.append(d) }
    }
    // A kept alpha shadow is cut by the layer's own opaque parts only (they move with it); the
    // shadow drawn here also skips what opaque layers drawn after this one cover.
    laterHoles.removeAll(keepingCapacity: true)
    if occludes {
      let reach = IntRect(enclosing: fullExtent(i, ctm)).intersection(canvas.clipBounds)
      addHoles(&laterHoles, meeting: reach, from: firstCover(atOrAfter: i + 1))
    }
    holes.removeAll(keepingCapacity: true)
    holes.append(contentsOf: ownHoles)
    holes.append(contentsOf: laterHoles)
    let own = ownHoles
    let later = laterHoles
    let hole = holes
    // A shadow of rounded rectangles is worked out per pixel, at its exact position (kept for
    // that position within a pixel; drawn straight away when too large to keep).
    if let shapes = node(i).pointee.shadowShapes, Canvas.canShadeShadow(shapes, transform: ctm, sigma: sigma)
    {
      // Coverage whose product with the colour's alpha rounds to nothing blends nothing: left out
      // of the recording (the faint tail of a light shadow is most of its pixels).
      let a255 = color.alpha * 255
      let floor = UInt8(max(1, min(255, (120 / max(a255, 1e-9)).rounded(.up))))
      // Recorded without what the layer's own opaque parts cover (a card's shadow is the ring
      // around it), it skips only what later covers hide.
      if let s = context.shadowCache.analyticShadow(
        shapes: shapes, ctm: ctm, sigma: sigma, offset: offset, floor: floor, cut: own, canvas: canvas,
        profiles: context.shadowProfiles, stats: &counts)
      {
        canvas.fill(
          s.mask, offsetX: s.dx, offsetY: s.dy, paint: .solid(color), skipping: s.isCut ? later : hole)
      } else if canvas.fillShadow(
        shapes, transform: ctm, sigma: sigma, dx: offset.x, dy: offset.y, color: color, skipping: hole,
        profiles: context.shadowProfiles)
      {
        counts.analyticShadows += 1
      }
      drawBody(i, canvas, ctm)
      return
    }
    // Any other shape is blurred once in the layer's own coordinates and placed exactly
    // (Compositor+LocalShadow.swift); under a shear or uneven scale, in device pixels.
    let shadowPath = node(i).pointee.shadowPath
    if drawLocalShadow(i, path: shadowPath, canvas, ctm, color: color, offset: offset, holes: hole) {
      drawBody(i, canvas, ctm)
      return
    }
    // A blur whose whole mask would be huge is worked out where the canvas shows it
    // (Compositor+WideShadow.swift).
    if drawWideShadow(
      i, path: shadowPath, canvas, ctm, sigma: sigma, color: color, dx: dx, dy: dy, holes: hole)
    {
      drawBody(i, canvas, ctm)
      return
    }
    if let shape = shadowPath {
      if let s = context.shadowCache.pathShadow(
        path: shape, ctm: ctm, sigma: sigma,
        clip: IntRect(
          x: canvas.clipBounds.x - dx, y: canvas.clipBounds.y - dy, width: canvas.clipBounds.width,
          height: canvas.clipBounds.height),
        stats: &counts)
      {
        canvas.fill(s.mask, offsetX: s.dx + dx, offsetY: s.dy + dy, paint: .solid(color), skipping: hole)
      }
      drawBody(i, canvas, ctm)
      return
    }
    // The shadow takes the alpha of everything the layer draws. A cached one is drawn, then the
    // body straight onto the canvas.
    // Kept under the key of what the body draws (`DrawKey`), not under which layer it is: an
    // equal card elsewhere shares the blur, and any change below the layer makes another.
    let signature = node(i).pointee.alphaSignature
    let owner: ObjectIdentifier? = nil
    if let s = context.shadowCache.cachedAlphaShadow(
      layer: owner, signature: signature, ctm: ctm, sigma: sigma, offset: (dx, dy))
    {
      canvas.fill(s.mask, offsetX: s.dx + dx, offsetY: s.dy + dy, paint: .solid(color), skipping: hole)
      drawBody(i, canvas, ctm)
      return
    }
    // Otherwise the body is drawn offscreen first: all of it when affordable (so the blur can be
    // kept), else what lies within reach of the clip.
    let full = IntRect(enclosing: bodyExtent(i, ctm))
    var body = full
    if full.width > 4096 || full.height > 4096 || full.width * full.height > 4 << 20
      || canvas.openGroupBytes + full.width * full.height * 4 > offscreenBudget
    {
      // Capped, so that the group stays within Surface's limits (a shadowRadius of 10,000 used to
      // ask for a 120,046-pixel-wide group and trap): body farther than that from the clip adds
      // nothing to the shadow, which only matters for blurs wider than ~340 pixels.
      let reach = Int(min(3 * sigma + offset.x.magnitude + offset.y.magnitude, 1024).rounded(.up)) + 2
      let visible = canvas.clipBounds
      body = full.intersection(
        IntRect(
          x: visible.x - reach, y: visible.y - reach, width: visible.width + 2 * reach,
          height: visible.height + 2 * reach))
    }
    guard let g = drawBodyOffscreen(i, canvas, ctm, bounds: body) else { return }
    // A group cut by the clip only holds part of the shape: its shadow is not kept.
    if let s = context.shadowCache.alphaShadow(
      layer: owner, image: g, ctm: ctm, sigma: sigma, signature: signature, offset: (dx, dy), holes: own,
      cacheable: body == full, stats: &counts)
    {
      canvas.fill(s.mask, offsetX: s.dx + dx, offsetY: s.dy + dy, paint: .solid(color), skipping: hole)
    }
    canvas.recycle(g)
    // The body is drawn again, straight onto the canvas, as it is when the shadow was cached:
    // compositing the group instead would round differently, and then the pixels of a frame
    // would depend on which band (thread) happened to blur first.
    drawBody(i, canvas, ctm)
  }

  /// Draws node `i`'s body into an offscreen group over `bounds` (device pixels, not cut by the
  /// canvas' clip) for a shadow taken from its alpha; nil when nothing was drawn. The caller
  /// recycles the group.
  func drawBodyOffscreen(_ i: Int, _ canvas: Canvas, _ transform: Transform, bounds: IntRect) -> GroupImage? {
    canvas.beginGroup(bounds: bounds, unclipped: true)
    drawWholeBody(i, canvas, transform)
    return canvas.endGroupDeferred()
  }

  /// Node `i`'s body under `transform`, clipped to its rounded bounds when it masks to them, with
  /// nothing left out for covers (a blur of it sees all of it).
  func drawWholeBody(_ i: Int, _ canvas: Canvas, _ transform: Transform) {
    if node(i).pointee.masksToBounds {
      canvas.transform = transform
      context.coverageCache.clip(canvas, to: node(i).pointee.rounded, of: node(i).pointee.shape, .rounded)
    }
    offscreenDepth += 1
    drawBody(i, canvas, transform)
    offscreenDepth -= 1
  }

  /// The whole device pixels inside a layer-space rectangle, under an axis-aligned transform.
  static func deviceInterior(_ r: Rect, _ ctm: Transform) -> IntRect? {
    guard ctm.isAxisAligned else { return nil }
    let d = ctm.apply(r)
    let x0 = d.minX.rounded(.up)
    let y0 = d.minY.rounded(.up)
    let x1 = d.maxX.rounded(.down)
    let y1 = d.maxY.rounded(.down)
    guard x1 > x0, y1 > y0, abs(x0) < 1e9, abs(y0) < 1e9, abs(x1) < 1e9, abs(y1) < 1e9 else { return nil }
    return IntRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
  }

  /// Background, content, sublayers, border: everything a layer draws but its shadow.
  func drawBody(_ i: Int, _ canvas: Canvas, _ ctm: Transform) {
    canvas.transform = ctm
    if let bg = node(i).pointee.background, bg.alpha > 0, !backgroundIsCovered(i, canvas, ctm) {
      // Pixels that opaque layers drawn after it (its own sublayers too) cover are skipped.
      bodyHoles.removeAll(keepingCapacity: true)
      if occludes {
        let reach = IntRect(enclosing: ctm.apply(node(i).pointee.bounds)).intersection(canvas.clipBounds)
        let from = firstCover(atOrAfter: i + 1)
        if visibleRows(reach, from: from).isEmpty {
          counts.opsOccluded += 1
          counts.pixelsNotDrawn += reach.width * reach.height
        } else {
          addHoles(&bodyHoles, meeting: reach, from: from)
          context.coverageCache.fill(
            node(i).pointee.rounded, of: node(i).pointee.shape, .rounded, paint: .solid(bg), in: canvas,
            skipping: bodyHoles)
        }
      } else {
        context.coverageCache.fill(
          node(i).pointee.rounded, of: node(i).pointee.shape, .rounded, paint: .solid(bg), in: canvas)
      }
    }
    if let image = node(i).pointee.image {
      let minification = node(i).pointee.minification
      let magnification = node(i).pointee.magnification
      for p in node(i).pointee.partStart..<node(i).pointee.partEnd {
        context.imageCache.draw(
          image, parts[p], minification: minification, magnification: magnification, in: canvas)
      }
    }
    if let content = node(i).pointee.content {
      canvas.save()
      draw(content, i, canvas)
      canvas.restore()
    }
    if binned {
      drawSiblings(first: binChild[i], stop: nodes.count, canvas, ctm)
    } else if node(i).pointee.childCount > 0 {
      drawSiblings(first: node(i).pointee.childStart, stop: node(i).pointee.end, canvas, ctm)
    }
    if let border = node(i).pointee.border, let bc = node(i).pointee.borderColor {
      canvas.transform = ctm
      bodyHoles.removeAll(keepingCapacity: true)
      if occludes {
        let reach = IntRect(enclosing: ctm.apply(node(i).pointee.bounds)).intersection(canvas.clipBounds)
        addHoles(&bodyHoles, meeting: reach, from: firstCover(atOrAfter: node(i).pointee.end))
      }
      context.coverageCache.fill(
        border, of: node(i).pointee.shape, .border, rule: .evenOdd, paint: .solid(bc), in: canvas,
        skipping: bodyHoles)
    }
  }

  /// Draws a layer's content (text, a path, a gradient) in its own coordinates: the canvas'
  /// transform maps them to device pixels.
  private func draw(_ content: LayerContent, _ i: Int, _ canvas: Canvas) {
    let id = node(i).pointee.shape
    switch content {
    case .text(let layout, let color, let clip):
      if occludes {
        let reach = IntRect(enclosing: canvas.transform.apply(clip)).intersection(canvas.clipBounds)
        if visibleRows(reach, from: firstCover(atOrAfter: i + 1)).isEmpty {
          counts.opsOccluded += 1
          counts.pixelsNotDrawn += reach.width * reach.height
          return
        }
      }
      canvas.clip(to: clip)
      // Drawn again, the text is one fill of its recorded coverage rather than a glyph look-up
      // and blit per glyph (and the bands of a frame do not contend for the glyph cache's lock).
      let renderer = context.textRenderer
      // Under a rotation, skew or large scale the outlines are recorded instead of the glyph masks.
      let filled = context.coverageCache.fill(of: id, .text, paint: .solid(color), in: canvas) {
        renderer.coverage(of: layout, at: .zero, transform: $0)
          ?? renderer.outlineCoverage(of: layout, at: .zero, transform: $0, in: canvas)
      }
      if filled {
        // Colour glyphs (emoji) are not in the recorded coverage: they keep their own colours.
        renderer.drawColorGlyphs(layout, at: .zero, in: canvas)
      } else {
        canvas.drawText(layout, at: .zero, color: color, renderer: renderer)
      }
    case .shape(let path, let fillColor, let rule, let strokeColor, let style):
      if let fill = fillColor, fill.alpha > 0 {
        context.coverageCache.fill(path, of: id, .path, rule: rule, paint: .solid(fill), in: canvas)
      }
      guard let stroke = strokeColor, stroke.alpha > 0, style.width > 0 else { return }
      // The outline is made only when the coverage cache lacks it, flattened finely enough for
      // the canvas' scale; it is not kept (an outline of a small rounded tag holds hundreds of
      // points, and the cache keeps its coverage).
      // A stroke too large to keep is drawn straight, culled to the clip (its size then follows
      // what reaches the canvas, not how far the path goes).
      let extent = canvas.transform.apply(path.controlBounds.insetBy(dx: -style.reach, dy: -style.reach))
      // So is one of many segments (its outline path would take hundreds of bytes a segment;
      // straight, its pieces stream into the rasterizer).
      let many = Canvas.streamedStrokePoints
      guard Canvas.canRecordCoverage(of: extent),
        path.flattenedPointCount(transform: canvas.transform, tolerance: Canvas.strokeTolerance, limit: many)
          <= many
      else {
        canvas.stroke(path, style: style, paint: .solid(stroke))
        return
      }
      let tolerance = Canvas.strokeTolerance / max(canvas.transform.maxScale, 1e-6)
      context.coverageCache.fill(of: id, .stroke, paint: .solid(stroke), in: canvas) {
        path.stroked(style, transform: .identity, tolerance: tolerance)
      }
    case .roundedFill(let paint):
      // The rounded bounds, whose path the node holds.
      context.coverageCache.fill(node(i).pointee.rounded, of: id, .rounded, paint: paint, in: canvas)
    }
  }

  // MARK: Occlusion

  /// Whether what later opaque layers cover is left out (the pixels are the same either way;
  /// tests compare the two). See Compositor+Occlusion.swift.
  public var skipsOccludedLayers = true
  /// The most pixels a strip of a band holds when the band is drawn a strip at a time
  /// (Compositor+Strips.swift); 0 draws bands whole. The pixels are the same either way.
  public var stripPixels = Compositor.defaultStripPixels
  /// 256K pixels (1 MB): a 1920-pixel-wide strip of 136 rows.
  public static let defaultStripPixels = 1 << 18

  /// The sibling drawn after node `j`: the next in the band's bin when replaying one, else the
  /// next in the list (the caller stops at its parent's end).
  @inline(__always) func after(_ j: Int) -> Int {
    binned ? binNext[j] : node(j).pointee.end
  }

  /// Draws the sibling nodes from `first` (while below `stop`, stepping with `after`) back to
  /// front.
  private func drawSiblings(first: Int, stop: Int, _ canvas: Canvas, _ ctm: Transform) {
    guard first < stop else { return }
    var j = first
    while j < stop {
      let end = node(j).pointee.spanEnd
      if end > 0, let r = node(j).pointee.raster {
        // A kept bitmap of a run of siblings (RasterCache.swift): the others are in it.
        counts.layersDrawn += 1
        drawRaster(r, canvas)
        repeat { j = after(j) } while j < end
        continue
      }
      draw(j, canvas, ctm)
      j = after(j)
    }
  }

  /// Whether a sublayer paints opaque colour over every pixel the layer's background could reach
  /// here (a list's background under a full-screen scroll view): then the background is not
  /// drawn. Only under a hard clip, where every pixel drawn is fully covered.
  private func backgroundIsCovered(_ i: Int, _ canvas: Canvas, _ ctm: Transform) -> Bool {
    let count = node(i).pointee.childCount
    if canvas.hasSoftClip || count == 0 { return false }
    let size = node(i).pointee.shape.size
    let reach = IntRect(enclosing: ctm.apply(Rect(x: 0, y: 0, width: size.width, height: size.height)))
      .intersection(canvas.clipBounds)
    if reach.isEmpty { return true }
    var j = node(i).pointee.childStart
    for _ in 0..<count {
      defer { j = node(j).pointee.end }
      guard node(j).pointee.drawsPlainly, let r = node(j).pointee.opaqueInterior,
        let d = Compositor.deviceInterior(
          r.offsetBy(dx: node(j).pointee.origin.x, dy: node(j).pointee.origin.y), ctm)
      else { continue }
      if d.intersection(reach) == reach { return true }
    }
    return false
  }

  /// The mask layer's alpha (node `m`), rendered in the layer's coordinates.
  private func renderMask(_ m: Int, _ canvas: Canvas, _ ctm: Transform, limit: IntRect) -> AlphaMask? {
    canvas.save()
    canvas.beginGroup(bounds: limit)
    offscreenDepth += 1
    draw(m, canvas, ctm)
    offscreenDepth -= 1
    let g = canvas.endGroupDeferred()
    canvas.restore()
    guard let g else { return nil }
    defer { canvas.recycle(g) }
    return canvas.alphaMask(of: g)
  }

  // MARK: Extents

  /// A conservative device-space bound of everything node `i` draws, shadow included: the
  /// prepared local extent mapped by `ctm`, with two pixels for anti-aliasing and rounding.
  func fullExtent(_ i: Int, _ ctm: Transform) -> Rect {
    ctm.apply(node(i).pointee.localFullExtent).insetBy(dx: -2, dy: -2)
  }

  /// A conservative device-space bound of background, content, sublayers and border.
  func bodyExtent(_ i: Int, _ ctm: Transform) -> Rect {
    ctm.apply(node(i).pointee.localBodyExtent).insetBy(dx: -2, dy: -2)
  }
}
