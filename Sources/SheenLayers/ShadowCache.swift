import SheenRaster

/// Blurred shadow masks kept from frame to frame, as coverage runs (`Coverage(mask:)`): the
/// zeros around a shadow and the 255s inside it take almost no memory, and the inside draws as
/// solid spans.
///
/// A shadow depends on the shape, its size on screen, the blur and where within a pixel it falls,
/// not on where the layer is: entries are keyed by those and placed relative to the layer's
/// integer device origin, so a moving (scrolling) layer reuses its blur. Translations are
/// snapped to whole pixels (quarter pixels for blurs under 2 pixels), which keeps the result deterministic whatever the history.
///
/// Bands of one frame may be rendered on several threads: the table is locked, and a blur is
/// computed outside the lock (two threads missing the same entry compute the same pixels).
final class ShadowCache: Sendable {
  struct Key: Hashable {
    /// Nil: shadows are keyed by what they are made of, a `shadowPath` by the path, a layer's
    /// alpha by the key of what its subtree draws (`DrawKey`, in `version`), so any layer with
    /// the same drawing, size on screen and blur shares them (a list of equal cards blurs once).
    let layer: ObjectIdentifier?
    let path: Path?
    /// The rounded rectangles of an analytic shadow (`analyticShadow`).
    let shapes: [ShadowShape]?
    let version: Int
    let a: Double, b: Double, c: Double, d: Double
    let fx: Int, fy: Int
    let sigma: Double
    /// 1 for a local blur resampled to a placement (`placedLocalShadow`), else 0.
    var kind: UInt8 = 0
    /// For an analytic shadow recorded without the pixels its layer's own opaque parts cover
    /// (`Entry.cut`), a hash of those rectangles (relative to the placement); 0 when uncut.
    var cut = 0
  }

  /// A kept shadow: its coverage, and where it lies relative to the layer's integer device origin.
  struct Entry {
    let mask: Coverage
    let relX: Int
    let relY: Int
    /// The shadow offset (device pixels) whose skipped pixels the blur leaves out, if it does.
    var cutFor: (x: Int, y: Int)? = nil
    /// A local blur's mask (`localShadow`), which tinted copies are made from.
    var source: AlphaMask? = nil
    /// The rectangles (relative to the placement) an analytic shadow was recorded without.
    var cut: [IntRect] = []
  }

  /// How far (device pixels) a shadow's offset may move from the one its kept blur was cut for
  /// before the blur is made again: what the cut leaves out must stay under the layer.
  static let cutSlack = 4

  /// A shadow ready to draw: its coverage, to be offset by (dx, dy) device pixels.
  struct Placed {
    let mask: Coverage
    let dx: Int
    let dy: Int
    /// Whether the recording already leaves out the `cut` asked for (`analyticShadow`).
    var isCut = false
  }

  /// 16 MiB of blurred shadows (the demo's hold 0.3 MB); past it, those not drawn in the last
  /// two frames go.
  private let table = FrameCache<Key, Entry>(budget: 16 << 20, maxEntries: 4096)
  /// The bytes kept past which entries not drawn in the last two frames go.
  var budget: Int { table.budget }

  private func key(
    _ layer: ObjectIdentifier?, _ path: Path?, _ version: Int, _ ctm: Transform, _ sigma: Double
  ) -> (
    Key, Int, Int
  )? {
    // Under a blur of 2 pixels or more a sub-pixel shift changes no pixel by more than a level or
    // two: whole pixels then, quarter pixels for sharper shadows.
    let steps: Double = sigma >= 2 ? 1 : 4
    guard let (ix, fx) = snapTranslation(ctm.tx, steps: steps),
      let (iy, fy) = snapTranslation(ctm.ty, steps: steps)
    else { return nil }
    let k = Key(
      layer: layer, path: path, shapes: nil, version: version, a: ctm.a, b: ctm.b,
      c: ctm.c,
      d: ctm.d,
      fx: fx, fy: fy, sigma: sigma)
    return (k, ix, iy)
  }

  /// The kept entry for `k`, placed for a layer at device origin (`ix`, `iy`) whose shadow is
  /// offset by `offset`; nil if there is none, or if it was cut for an offset too far away.
  private func hit(_ k: Key, _ ix: Int, _ iy: Int, offset: (Int, Int) = (0, 0)) -> Placed? {
    guard let e = table.value(for: k) else { return nil }
    if let c = e.cutFor,
      abs(c.x - offset.0) > ShadowCache.cutSlack || abs(c.y - offset.1) > ShadowCache.cutSlack
    {
      return nil
    }
    return Placed(mask: e.mask, dx: ix + e.relX - e.mask.bounds.x, dy: iy + e.relY - e.mask.bounds.y)
  }

  private func store(
    _ k: Key, _ blurred: AlphaMask, _ ix: Int, _ iy: Int, cutFor: (x: Int, y: Int)? = nil
  ) -> Placed {
    let mask = Coverage(mask: blurred)
    table.store(
      Entry(mask: mask, relX: mask.bounds.x - ix, relY: mask.bounds.y - iy, cutFor: cutFor),
      bytes: mask.byteCount, for: k)
    return Placed(mask: mask, dx: 0, dy: 0)
  }

  /// The shadow of `path` (in layer coordinates) filled under `ctm` and blurred by `sigma` pixels,
  /// for drawing within `clip` (device pixels). Only what lies within the clip and the blur's
  /// reach of it is filled and blurred, so memory is bounded by the canvas, not by how far the
  /// path reaches; a shadow cut so is not kept.
  func pathShadow(
    path: Path, ctm: Transform, sigma: Double, clip: IntRect,
    stats: inout RenderContext.Statistics
  ) -> Placed? {
    let snapped = key(nil, path, 0, ctm, sigma)
    if let (k, ix, iy) = snapped, let p = hit(k, ix, iy) { return p }
    // Draw at the snapped position so that the entry is what any layer with this key would get.
    var t = ctm
    if let (k, ix, iy) = snapped {
      let steps: Double = sigma >= 2 ? 1 : 4
      t.tx = Double(ix) + Double(k.fx) / steps
      t.ty = Double(iy) + Double(k.fy) / steps
    }
    let margin = AlphaMask.blurMargin(sigma: sigma) + 1
    let b = IntRect(enclosing: t.apply(path.controlBounds))
    let whole = IntRect(
      x: b.x - margin, y: b.y - margin, width: b.width + 2 * margin, height: b.height + 2 * margin)
    // The clip moved by up to a pixel for the snap.
    let reach = IntRect(
      x: clip.x - margin - 1, y: clip.y - margin - 1, width: clip.width + 2 * margin + 2,
      height: clip.height + 2 * margin + 2)
    let region = whole.intersection(reach)
    guard region.width > 0, region.height > 0,
      let shape = try? AlphaMask(
        width: region.width, height: region.height, originX: region.x, originY: region.y)
    else { return nil }
    shape.fill(path, transform: t)
    shape.blur(sigma: sigma)
    stats.blurs += 1
    stats.blurredPixels += shape.width * shape.height
    guard let (k, ix, iy) = snapped, region == whole else {
      return Placed(mask: Coverage(mask: shape), dx: 0, dy: 0)
    }
    return store(k, shape, ix, iy)
  }

  /// The kept shadow of a layer's alpha, if its subtree has not changed since it was blurred, for
  /// drawing moved by `offset` device pixels.
  func cachedAlphaShadow(
    layer: ObjectIdentifier?, signature: Int, ctm: Transform, sigma: Double, offset: (Int, Int)
  ) -> Placed? {
    guard let (k, ix, iy) = key(layer, nil, signature, ctm, sigma) else { return nil }
    return hit(k, ix, iy, offset: offset)
  }

  /// The shadow of a rendered group's alpha, blurred by `sigma` pixels, for drawing moved by
  /// `offset` device pixels, skipping `holes` (device pixels the layer covers with opaque
  /// colour). `signature` identifies what the group holds.
  ///
  /// The kept blur leaves out what lies well inside the holes, where drawing skips it anyway (the
  /// inside of a row of cards is most of the bytes of its shadow): far enough in (`cutSlack` and
  /// two pixels) that it stays inside wherever the layer then lies within a pixel and while the
  /// offset moves by up to `cutSlack` pixels (an offset animated further blurs again).
  func alphaShadow(
    layer: ObjectIdentifier?, image: GroupImage, ctm: Transform, sigma: Double, signature: Int,
    offset: (Int, Int),
    holes: [IntRect], cacheable: Bool, stats: inout RenderContext.Statistics
  ) -> Placed? {
    let snapped = key(layer, nil, signature, ctm, sigma)
    if cacheable, let (k, ix, iy) = snapped, let p = hit(k, ix, iy, offset: offset) { return p }
    let margin = AlphaMask.blurMargin(sigma: sigma) + 1
    guard let m = try? image.alphaMask(margin: margin) else { return nil }
    m.blur(sigma: sigma)
    stats.blurs += 1
    stats.blurredPixels += m.width * m.height
    guard cacheable, let (k, ix, iy) = snapped else { return Placed(mask: Coverage(mask: m), dx: 0, dy: 0) }
    let inset = ShadowCache.cutSlack + 2
    for h in holes {
      m.clear(
        IntRect(
          x: h.x - offset.0 + inset, y: h.y - offset.1 + inset, width: h.width - 2 * inset,
          height: h.height - 2 * inset))
    }
    return store(k, m, ix, iy, cutFor: holes.isEmpty ? nil : (offset.0, offset.1))
  }

  /// Where within a pixel an analytic shadow is worked out: 64ths of a pixel, so a shadow lies
  /// within 1/128 pixel of its exact place (under half a level even at a blur of 1 pixel).
  static let analyticSteps = 64.0

  /// The shadow of rounded rectangles (`shapes` in layer coordinates, under `ctm`), offset by
  /// `offset` device pixels and blurred by `sigma`: worked out per pixel (no blur) for where the
  /// shadow falls within a pixel, and kept under exactly what it was made from (the shapes, the
  /// transform's linear part, the blur and that fraction), so what a frame shows never depends
  /// on history. Nil when the shapes cannot be worked out that way or reach too far to record.
  ///
  /// Coverage under `floor` is left out (the colour blends nothing there), and so are the
  /// pixels of `cut` (device rectangles: the layer's own opaque parts, which its body paints over
  /// next), kept relative to where the shadow lies: a card's shadow is then recorded as the ring
  /// around it, and drawn with no holes to step around per row. Placed with `isCut` false when
  /// a recording without that cut is given instead (the caller skips `cut` when filling).
  func analyticShadow(
    shapes: [ShadowShape], ctm: Transform, sigma: Double, offset: Point, floor: UInt8, cut: [IntRect] = [],
    canvas: Canvas, profiles: ShadowProfiles, stats: inout RenderContext.Statistics
  ) -> Placed? {
    let tx = ctm.tx + offset.x
    let ty = ctm.ty + offset.y
    guard let (ix, fx) = snapTranslation(tx, steps: ShadowCache.analyticSteps),
      let (iy, fy) = snapTranslation(ty, steps: ShadowCache.analyticSteps)
    else { return nil }
    var cutHash = 0
    if !cut.isEmpty {
      var h = Hasher()
      for r in cut {
        h.combine(r.x &- ix)
        h.combine(r.y &- iy)
        h.combine(r.width)
        h.combine(r.height)
      }
      cutHash = h.finalize() | 1
    }
    var made = 0
    func look(_ cutHash: Int) -> Entry? {
      let k = Key(
        layer: nil, path: nil, shapes: shapes, version: Int(floor), a: ctm.a, b: ctm.b, c: ctm.c, d: ctm.d,
        fx: fx, fy: fy, sigma: sigma, cut: cutHash)
      return table.value(for: k) { () -> (value: Entry, bytes: Int)? in
        var t = ctm
        t.tx = Double(fx) / ShadowCache.analyticSteps
        t.ty = Double(fy) / ShadowCache.analyticSteps
        // The cut relative to the recording's placement (its pixel grid is the device's, moved
        // by (ix, iy)).
        var relative: [IntRect] = []
        if cutHash != 0 {
          relative.reserveCapacity(cut.count)
          for r in cut {
            relative.append(IntRect(x: r.x &- ix, y: r.y &- iy, width: r.width, height: r.height))
          }
        }
        guard
          let mask = canvas.recordShadow(
            shapes, transform: t, sigma: sigma, floor: floor, skipping: relative, profiles: profiles)
        else { return nil }
        made += 1
        return (Entry(mask: mask, relX: 0, relY: 0, cut: relative), mask.byteCount)
      }
    }
    var kept = look(cutHash)
    var isCut = cutHash != 0
    // The hash names the cut; the rectangles themselves decide (another cut with the same hash
    // takes the uncut recording, filled around its holes).
    if isCut, let e = kept, !ShadowCache.sameCut(e.cut, cut, ix, iy) {
      kept = look(0)
      isCut = false
    }
    stats.analyticShadows += made
    guard let kept else { return nil }
    return Placed(mask: kept.mask, dx: ix, dy: iy, isCut: isCut)
  }

  /// Whether `relative` holds `cut` moved by (-ix, -iy), in order.
  private static func sameCut(_ relative: [IntRect], _ cut: [IntRect], _ ix: Int, _ iy: Int) -> Bool {
    if relative.count != cut.count { return false }
    for k in 0..<cut.count {
      let r = cut[k]
      if relative[k] != IntRect(x: r.x &- ix, y: r.y &- iy, width: r.width, height: r.height) { return false }
    }
    return true
  }

  /// The local blur, at `scale` pixels per point and `sigma` local pixels, of a `shadowPath`
  /// (keyed by the path: equal paths share it) or of a layer's alpha (keyed by what its subtree
  /// draws, `signature`), made from what `render` draws (the shape's alpha with the blur's
  /// margin) unless kept. Its coverage's grid is the local one.
  func localShadow(
    layer: ObjectIdentifier?, path: Path?, signature: Int, scale: Double, sigma: Double,
    stats: inout RenderContext.Statistics, render: () -> AlphaMask?
  ) -> Entry? {
    let k = Key(
      layer: layer, path: path, shapes: nil, version: signature, a: scale, b: 0,
      c: 0, d: scale, fx: ShadowCache.localMarker, fy: 0, sigma: sigma)
    var made = 0
    var pixels = 0
    let kept = table.value(for: k) { () -> (value: Entry, bytes: Int)? in
      guard let m = render() else { return nil }
      // A true Gaussian (made once, kept): within a level of the exact shadow of any shape.
      m.blur(sigma: sigma, exact: true)
      made += 1
      pixels += m.width * m.height
      let e = Entry(mask: Coverage(mask: m), relX: m.originX, relY: m.originY, source: m)
      return (e, e.mask.byteCount + m.width * m.height)
    }
    stats.blurs += made
    stats.blurredPixels += pixels
    return kept
  }

  /// Where within a pixel a resampled local blur is placed: 64ths of a pixel.
  static let placedSteps = 64.0

  /// The local blur `local` (kept under `localKey`'s shape, scale and blur) resampled (bilinear)
  /// to device pixels through `place` (local grid to device): kept under the placement's linear
  /// part and where it falls within a pixel, and drawn moved by the whole pixels (`dx`, `dy`). A
  /// layer that stays, or moves by whole pixels, resamples nothing; one that animates resamples,
  /// but blurs nothing. Nil when the placement reaches too far to record.
  func placedLocalShadow(
    _ local: Entry, layer: ObjectIdentifier?, path: Path?, signature: Int, scale: Double, sigma: Double,
    place: Transform
  ) -> Placed? {
    guard let source = local.source else { return nil }
    // Mask pixel (0, 0) is local grid position (relX, relY).
    var t = Transform(translationX: Double(local.relX), y: Double(local.relY)).concatenating(place)
    guard let (ix, fx) = snapTranslation(t.tx, steps: ShadowCache.placedSteps),
      let (iy, fy) = snapTranslation(t.ty, steps: ShadowCache.placedSteps)
    else { return nil }
    let k = Key(
      layer: layer, path: path, shapes: nil, version: signature, a: t.a, b: t.b,
      c: t.c, d: t.d, fx: fx, fy: fy, sigma: sigma * 1024 + scale, kind: 1)
    if let e = table.value(for: k) { return Placed(mask: e.mask, dx: ix, dy: iy) }
    t.tx = Double(fx) / ShadowCache.placedSteps
    t.ty = Double(fy) / ShadowCache.placedSteps
    guard let inverse = t.inverted else { return nil }
    let reach = t.apply(Rect(x: 0, y: 0, width: Double(source.width), height: Double(source.height)))
    let b = IntRect(enclosing: reach)
    let bounds = IntRect(x: b.x - 1, y: b.y - 1, width: b.width + 2, height: b.height + 2)
    guard bounds.width <= 4096, bounds.height <= 4096, bounds.width * bounds.height <= 4 << 20,
      let out = try? AlphaMask(
        width: bounds.width, height: bounds.height, originX: bounds.x, originY: bounds.y)
    else { return nil }
    let w = source.width
    let h = source.height
    // The source value at (i, j), zero outside.
    func value(_ i: Int, _ j: Int) -> Double {
      i < 0 || j < 0 || i >= w || j >= h ? 0 : Double(source.row(j)[i])
    }
    for y in 0..<bounds.height {
      let row = out.row(y)
      for x in 0..<bounds.width {
        // The device pixel's centre in source pixels, then the four around it.
        let p = inverse.apply(Point(x: Double(bounds.x + x) + 0.5, y: Double(bounds.y + y) + 0.5))
        let u = p.x - 0.5
        let v = p.y - 0.5
        guard u > -1, v > -1, u < Double(w), v < Double(h) else { continue }
        let i = Int(u.rounded(.down))
        let j = Int(v.rounded(.down))
        let a = u - Double(i)
        let c = v - Double(j)
        let top = value(i, j) * (1 - a) + value(i + 1, j) * a
        let bottom = value(i, j + 1) * (1 - a) + value(i + 1, j + 1) * a
        row[x] = UInt8(min(255, max(0, (top * (1 - c) + bottom * c).rounded())))
      }
    }
    let mask = Coverage(mask: out)
    table.store(Entry(mask: mask, relX: 0, relY: 0), bytes: mask.byteCount, for: k)
    return Placed(mask: mask, dx: ix, dy: iy)
  }

  /// `Key.fx` of local blurs (no device position is that far off).
  static let localMarker = Int.min

  /// Bytes of masks held.
  var bytes: Int { table.bytes }

  /// Ends a frame: drops entries not used recently when over budget.
  func endFrame() { table.endFrame() }
}
