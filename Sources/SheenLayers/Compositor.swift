import SheenRaster

/// Renders a layer tree onto a canvas in SCENE.md's order: for each layer, shadow, background,
/// content, sublayers, border; the mask and `masksToBounds` clip all of that (the shadow too);
/// then `opacity` applies to the whole group.
///
/// Offscreen groups are made only where they change the result: group opacity below 1, a mask,
/// or a shadow taken from the layer's own alpha. Shadows are blurred once and cached by shape,
/// so moving a layer draws its shadow without blurring again.
public final class Compositor {
  public let context: RenderContext
  /// What this compositor counted during the current `render` call.
  var counts = RenderContext.Statistics()
  /// Storage for the device rectangles a shadow skips (reused: no allocation per shadow).
  private var holes: [IntRect] = []

  public init(context: RenderContext = RenderContext()) {
    self.context = context
  }

  /// Renders `layers` (back to front) with `transform` mapping their parent's coordinates (points)
  /// to device pixels; the canvas' clip limits the work. With `endsFrame` false (one band of a
  /// frame among several) the caches are not aged; with `prepares` false the caller has already
  /// prepared the tree (`Layer.prepareForDrawingTree`) and other threads may be drawing it.
  public func render(
    _ layers: [Layer], in canvas: Canvas, transform: Transform = .identity, endsFrame: Bool = true,
    prepares: Bool = true
  ) {
    if prepares { Layer.prepareForDrawingTree(layers) }
    counts = RenderContext.Statistics()
    drawSiblings(layers, canvas, transform)
    context.add(counts)
    if endsFrame { context.endFrame() }
  }

  // MARK: Per layer

  private func draw(_ layer: Layer, _ canvas: Canvas, _ parent: Transform) {
    if layer.isHidden || !(layer.opacity > 0) { return }
    if let m = layer.mask, m.isHidden { return }  // a hidden mask masks everything out
    let ctm = layer.transformToSuperlayer.concatenating(parent)
    guard ctm.determinant != 0, ctm.determinant.isFinite else { return }
    let extent = IntRect(enclosing: fullExtent(layer, ctm))
    if extent.intersection(canvas.clipBounds).isEmpty {
      counts.layersCulled += 1
      return
    }
    counts.layersDrawn += 1

    // A layer that needs offscreen pixels (group opacity, a mask, a shadow of its alpha) is drawn
    // band by band when another whole-extent buffer would pass the budget (deep nesting, a huge
    // canvas): each band clips everything beneath it, so nested groups, masks and shadow bodies
    // are band-sized too. Memory is then bounded by the canvas, not by the depth.
    if let bands = Compositor.bands(for: layer, extent: extent, canvas: canvas, budget: offscreenBudget) {
      for band in bands {
        canvas.save()
        canvas.transform = .identity
        canvas.clip(
          to: Rect(
            x: Double(band.x), y: Double(band.y), width: Double(band.width), height: Double(band.height)))
        drawUnbanded(layer, canvas, ctm, extent: extent.intersection(band))
        canvas.restore()
      }
      return
    }
    drawUnbanded(layer, canvas, ctm, extent: extent)
  }

  /// Bytes of offscreen buffers open at once beyond which a layer is drawn in bands (and a
  /// shadow's body is cut to the clip's reach): 128 MiB unless changed (tests use less).
  public var offscreenBudget = 128 << 20

  /// The bands to draw `layer` in, or nil to draw it whole.
  static func bands(for layer: Layer, extent: IntRect, canvas: Canvas, budget offscreenBudget: Int)
    -> [IntRect]?
  {
    let offscreen = layer.opacity < 1 || layer.mask != nil || (layer.shadowVisible && layer.shadowPath == nil)
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

  private func drawUnbanded(_ layer: Layer, _ canvas: Canvas, _ ctm: Transform, extent: IntRect) {
    var maskImage: AlphaMask? = nil
    if let m = layer.mask {
      maskImage = renderMask(m, canvas, ctm, limit: extent)
      if maskImage == nil { return }
    }
    let grouped = layer.opacity < 1 || maskImage != nil
    canvas.save()
    if grouped { canvas.beginGroup(bounds: extent) }
    if layer.masksToBounds {
      canvas.transform = ctm
      context.coverageCache.clip(canvas, to: layer.roundedBoundsPath, of: layer, .rounded)
    }
    drawShadowAndBody(layer, canvas, ctm)
    if grouped { canvas.endGroup(opacity: layer.opacity, mask: maskImage) }
    canvas.restore()
    if let m = maskImage { canvas.recycle(m) }
  }

  private func drawShadowAndBody(_ layer: Layer, _ canvas: Canvas, _ ctm: Transform) {
    // Whether a shadow shows at all (colour, opacity, radius, offset, and enough alpha left after
    // the blur) was settled once for the frame, in Layer.prepareForDrawingTree.
    guard layer.shadowVisible, let c = layer.shadowColor else {
      drawBody(layer, canvas, ctm)
      return
    }
    let color = c.withAlphaMultiplied(by: min(1, layer.shadowOpacity))
    let sigma = layer.shadowRadius * ctm.determinant.magnitude.squareRoot()
    let offset = ctm.applyToVector(Point(x: layer.shadowOffset.width, y: layer.shadowOffset.height))
    // Set through the API, a radius or offset can be anything: a shadow too far or too wide to
    // measure in Ints is not drawn (converting it used to trap).
    guard sigma.isFinite, offset.x.magnitude < 1e9, offset.y.magnitude < 1e9 else {
      drawBody(layer, canvas, ctm)
      return
    }
    let dx = Int(offset.x.rounded())
    let dy = Int(offset.y.rounded())
    // Shadow pixels that the body will cover with opaque colour need not be blended.
    holes.removeAll(keepingCapacity: true)
    for r in layer.opaqueParts {
      if let d = Compositor.deviceInterior(r, ctm) { holes.append(d) }
    }
    let hole = holes
    // A shadow of rounded rectangles is worked out per pixel, at its exact position (kept for
    // that position within a pixel; drawn straight away when too large to keep).
    if let shapes = layer.shadowPath != nil ? layer.shadowPathShapes : layer.alphaShapes,
      Canvas.canShadeShadow(shapes, transform: ctm, sigma: sigma)
    {
      // Coverage whose product with the colour's alpha rounds to nothing blends nothing: left out
      // of the recording (the faint tail of a light shadow is most of its pixels).
      let a255 = color.alpha * 255
      let floor = UInt8(max(1, min(255, (120 / max(a255, 1e-9)).rounded(.up))))
      if let s = context.shadowCache.analyticShadow(
        shapes: shapes, ctm: ctm, sigma: sigma, offset: offset, floor: floor, canvas: canvas,
        profiles: context.shadowProfiles, stats: &counts)
      {
        canvas.fill(s.mask, offsetX: s.dx, offsetY: s.dy, paint: .solid(color), skipping: hole)
      } else if canvas.fillShadow(
        shapes, transform: ctm, sigma: sigma, dx: offset.x, dy: offset.y, color: color, skipping: hole,
        profiles: context.shadowProfiles)
      {
        counts.analyticShadows += 1
      }
      drawBody(layer, canvas, ctm)
      return
    }
    // Any other shape is blurred once in the layer's own coordinates and placed exactly
    // (Compositor+LocalShadow.swift); under a shear or uneven scale, in device pixels.
    if drawLocalShadow(layer, path: layer.shadowPath, canvas, ctm, color: color, offset: offset, holes: hole)
    {
      drawBody(layer, canvas, ctm)
      return
    }
    if let shape = layer.shadowPath {
      if let s = context.shadowCache.pathShadow(
        layer: layer, path: shape, ctm: ctm, sigma: sigma,
        clip: IntRect(
          x: canvas.clipBounds.x - dx, y: canvas.clipBounds.y - dy, width: canvas.clipBounds.width,
          height: canvas.clipBounds.height),
        stats: &counts)
      {
        canvas.fill(s.mask, offsetX: s.dx + dx, offsetY: s.dy + dy, paint: .solid(color), skipping: hole)
      }
      drawBody(layer, canvas, ctm)
      return
    }
    // The shadow takes the alpha of everything the layer draws. A cached one is drawn, then the
    // body straight onto the canvas.
    let signature = layer.subtreeSignature
    if let s = context.shadowCache.cachedAlphaShadow(
      layer: layer, signature: signature, ctm: ctm, sigma: sigma, offset: (dx, dy))
    {
      canvas.fill(s.mask, offsetX: s.dx + dx, offsetY: s.dy + dy, paint: .solid(color), skipping: hole)
      drawBody(layer, canvas, ctm)
      return
    }
    // Otherwise the body is drawn offscreen first: all of it when affordable (so the blur can be
    // kept), else what lies within reach of the clip.
    let full = IntRect(enclosing: bodyExtent(layer, ctm))
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
    canvas.beginGroup(bounds: body, unclipped: true)
    if layer.masksToBounds {
      canvas.transform = ctm
      context.coverageCache.clip(canvas, to: layer.roundedBoundsPath, of: layer, .rounded)
    }
    drawBody(layer, canvas, ctm)
    guard let g = canvas.endGroupDeferred() else { return }
    // A group cut by the clip only holds part of the shape: its shadow is not kept.
    if let s = context.shadowCache.alphaShadow(
      layer: layer, image: g, ctm: ctm, sigma: sigma, signature: signature, offset: (dx, dy), holes: hole,
      cacheable: body == full, stats: &counts)
    {
      canvas.fill(s.mask, offsetX: s.dx + dx, offsetY: s.dy + dy, paint: .solid(color), skipping: hole)
    }
    canvas.recycle(g)
    // The body is drawn again, straight onto the canvas, as it is when the shadow was cached:
    // compositing the group instead would round differently, and then the pixels of a frame
    // would depend on which band (thread) happened to blur first.
    drawBody(layer, canvas, ctm)
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
  func drawBody(_ layer: Layer, _ canvas: Canvas, _ ctm: Transform) {
    canvas.transform = ctm
    if let bg = layer.backgroundColor, bg.alpha > 0, !backgroundIsCovered(layer, canvas, ctm) {
      context.coverageCache.fill(layer.roundedBoundsPath, of: layer, .rounded, paint: .solid(bg), in: canvas)
    }
    if let image = layer.contents {
      let minification = layer.minificationFilter
      let magnification = layer.magnificationFilter
      layer.forEachContentsPart { part in
        context.imageCache.draw(
          image, part, minification: minification, magnification: magnification, in: canvas)
      }
    }
    if layer.hasContent {
      canvas.save()
      layer.drawContent(in: canvas, context: context)
      canvas.restore()
    }
    drawSiblings(layer.sublayers, canvas, ctm)
    if layer.borderWidth > 0, let bc = layer.borderColor, bc.alpha > 0 {
      canvas.transform = ctm
      context.coverageCache.fill(
        layer.borderPath, of: layer, .border, rule: .evenOdd, paint: .solid(bc), in: canvas)
    }
  }

  // MARK: Occlusion

  /// How many later siblings a layer is checked against for `isOccluded` (a long list of
  /// siblings costs a bounded amount per layer, not the square of its length).
  static let occluderLookahead = 16

  /// Whether layers wholly covered by a later sibling's opaque colour are left out (the pixels
  /// are the same either way; tests compare the two).
  public var skipsOccludedLayers = true

  /// The device pixels each sibling being drawn certainly paints with opaque colour, within the
  /// clip (empty when none): one entry per sibling of every list being drawn, nested lists
  /// after their parents' (a stack, kept from frame to frame: no allocation per frame).
  /// Unchecked: a compositor draws on one thread at a time, and a dynamic exclusivity check per
  /// read costs more than the comparison it guards.
  @exclusivity(unchecked) private var occluders: [IntRect] = []

  /// Draws sibling layers back to front, leaving out each one whose every pixel within the clip
  /// a later sibling paints over with opaque colour (stacked cards, a screen pushed over another):
  /// its pixels would all be replaced, so the frame is the same.
  private func drawSiblings(_ list: [Layer], _ canvas: Canvas, _ ctm: Transform) {
    // Under a soft clip a covering layer blends at the clip's edge, and what is below shows.
    if list.count < 2 || canvas.hasSoftClip || !skipsOccludedLayers {
      for l in list { draw(l, canvas, ctm) }
      return
    }
    let clip = canvas.clipBounds
    let base = occluders.count
    var any = false
    for (i, s) in list.enumerated() {
      var d = IntRect(x: 0, y: 0, width: 0, height: 0)
      // The first sibling covers none that is drawn before it.
      if i > 0, s.drawsPlainly, let r = s.opaqueInterior,
        let interior = Compositor.deviceInterior(r, s.transformToSuperlayer.concatenating(ctm))
      {
        d = interior.intersection(clip)
        any = any || !d.isEmpty
      }
      occluders.append(d)
    }
    defer { occluders.removeLast(occluders.count - base) }
    for i in list.indices {
      let l = list[i]
      let later = base + i + 1..<base + min(list.count, i + 1 + Compositor.occluderLookahead)
      if any, isOccluded(l, by: later, ctm, clip) {
        counts.layersOccluded += 1
        continue
      }
      draw(l, canvas, ctm)
    }
  }

  /// Whether one of the `occluders` at `later` covers all of `layer`'s extent (shadow included)
  /// within `clip`.
  private func isOccluded(_ layer: Layer, by later: Range<Int>, _ ctm: Transform, _ clip: IntRect) -> Bool {
    guard later.contains(where: { !occluders[$0].isEmpty }) else { return false }
    if layer.isHidden || !(layer.opacity > 0) { return false }
    let own = layer.transformToSuperlayer.concatenating(ctm)
    guard own.determinant != 0, own.determinant.isFinite else { return false }
    let reach = IntRect(enclosing: fullExtent(layer, own)).intersection(clip)
    if reach.isEmpty { return false }  // culled when drawn, and counted so
    for j in later {
      let o = occluders[j]
      if o.x <= reach.x && o.y <= reach.y && o.maxX >= reach.maxX && o.maxY >= reach.maxY { return true }
    }
    return false
  }

  /// Whether a sublayer paints opaque colour over every pixel the layer's background could reach
  /// here (a list's background under a full-screen scroll view): then the background is not
  /// drawn. Only under a hard clip, where every pixel drawn is fully covered.
  private func backgroundIsCovered(_ layer: Layer, _ canvas: Canvas, _ ctm: Transform) -> Bool {
    if canvas.hasSoftClip || layer.sublayers.isEmpty { return false }
    let reach = IntRect(enclosing: ctm.apply(layer.bounds)).intersection(canvas.clipBounds)
    if reach.isEmpty { return true }
    for sub in layer.sublayers where sub.drawsPlainly {
      guard let r = sub.opaqueInterior,
        let d = Compositor.deviceInterior(r.offsetBy(dx: sub.frame.minX, dy: sub.frame.minY), ctm)
      else { continue }
      if d.intersection(reach) == reach { return true }
    }
    return false
  }

  /// The mask layer's alpha, rendered in the layer's coordinates.
  private func renderMask(_ mask: Layer, _ canvas: Canvas, _ ctm: Transform, limit: IntRect) -> AlphaMask? {
    canvas.save()
    canvas.beginGroup(bounds: limit)
    draw(mask, canvas, ctm)
    let g = canvas.endGroupDeferred()
    canvas.restore()
    guard let g else { return nil }
    defer { canvas.recycle(g) }
    return canvas.alphaMask(of: g)
  }

  // MARK: Extents

  /// A conservative device-space bound of everything the layer draws, shadow included: the
  /// prepared local extent mapped by `ctm`, with two pixels for anti-aliasing and rounding.
  func fullExtent(_ layer: Layer, _ ctm: Transform) -> Rect {
    ctm.apply(layer.localFullExtent).insetBy(dx: -2, dy: -2)
  }

  /// A conservative device-space bound of background, content, sublayers and border.
  func bodyExtent(_ layer: Layer, _ ctm: Transform) -> Rect {
    ctm.apply(layer.localBodyExtent).insetBy(dx: -2, dy: -2)
  }
}

extension Layer {
  /// The area the layer's own background, content and border can cover, in its coordinates.
  var contentBounds: Rect { contentExtent }
}
