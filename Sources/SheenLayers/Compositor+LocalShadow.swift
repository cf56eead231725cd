import SheenRaster

/// Shadows of shapes that are not rounded rectangles (a `shadowPath` star, the alpha of text or
/// of a photo's transparency) that animate without blurring again.
///
/// The blur is made in the layer's own coordinates, at a resolution that depends only on the
/// scale the layer is shown at (the power of two at or above that scale, twice that for blurs
/// under two pixels), and kept under what the shape is made of, that resolution and the blur. It
/// is placed on the canvas through the layer's transform and the shadow offset at their exact
/// sub-pixel position: as coverage moved by whole pixels when the placement is a whole-pixel
/// move, else resampled (bilinear) to the placement's linear part and 1/64-pixel phase, kept
/// too, and moved by whole pixels. So moving, rotating, fading or scaling a
/// shadowed layer (within an octave of scale) blurs nothing, and what a frame shows depends only
/// on the frame, never on which position or scale came first.
extension Compositor {
  /// The local resolution (pixels per point) and blur (local pixels) for a shadow of `radius`
  /// points drawn under `ctm`, or nil when `ctm` is not a similarity (rotation, uniform scale,
  /// flip, translation) or scales beyond 1/64...64.
  static func localShadowGrid(_ ctm: Transform, radius: Double) -> (scale: Double, sigma: Double)? {
    let s2 = ctm.a * ctm.a + ctm.b * ctm.b
    let t2 = ctm.c * ctm.c + ctm.d * ctm.d
    guard s2.isFinite, t2.isFinite, s2 >= 1.0 / 4096, s2 <= 4096, abs(s2 - t2) <= 1e-9 * s2,
      abs(ctm.a * ctm.c + ctm.b * ctm.d) <= 1e-9 * s2, radius.isFinite
    else { return nil }
    let s = s2.squareRoot()
    var r = 1.0
    while r < s * (1 - 1e-12) { r *= 2 }
    while r / 2 >= s * (1 - 1e-12) { r /= 2 }
    if radius * s < 2 { r *= 2 }
    return (r, radius * r)
  }

  /// Draws the shadow of `path` (a `shadowPath`), or else of the layer's alpha, through a local
  /// blur (see above); false, having drawn nothing, when that does not apply (a shear or uneven
  /// scale, a shape too large to keep) and the device-space path should draw it.
  func drawLocalShadow(
    _ i: Int, path: Path?, _ canvas: Canvas, _ ctm: Transform, color: Color, offset: Point,
    holes: [IntRect]
  ) -> Bool {
    guard let (r, sigma) = Compositor.localShadowGrid(ctm, radius: node(i).pointee.shadowRadius) else {
      return false
    }
    let shape = path?.controlBounds ?? node(i).pointee.localBodyExtent
    guard !shape.isEmpty, shape.width * r < 4096, shape.height * r < 4096,
      abs(shape.minX * r) < 1e6, abs(shape.minY * r) < 1e6
    else { return false }
    let tight = IntRect(
      enclosing: Rect(x: shape.minX * r, y: shape.minY * r, width: shape.width * r, height: shape.height * r))
    let grid = IntRect(x: tight.x - 2, y: tight.y - 2, width: tight.width + 4, height: tight.height + 4)
    let margin = AlphaMask.blurMargin(sigma: sigma, exact: true) + 1
    let w = grid.width + 2 * margin
    let h = grid.height + 2 * margin
    guard w <= 4096, h <= 4096, w * h <= 4 << 20,
      canvas.openGroupBytes + grid.width * grid.height * 4 <= offscreenBudget
    else { return false }
    // Local grid pixel (i, j) is the point (i / r, j / r) of the layer, placed on the canvas by
    // the layer's transform, then moved by the offset.
    let place = Transform(scaleX: 1 / r, y: 1 / r).concatenating(ctm)
      .concatenating(Transform(translationX: offset.x, y: offset.y))
    let wholePixels =
      place.a == 1 && place.d == 1 && place.b == 0 && place.c == 0 && abs(place.tx) < 1e9
      && abs(place.ty) < 1e9 && place.tx == place.tx.rounded() && place.ty == place.ty.rounded()
    var made = RenderContext.Statistics()
    let owner: ObjectIdentifier? = nil
    let signature = path == nil ? node(i).pointee.alphaSignature : 0
    let local = context.shadowCache.localShadow(
      layer: owner, path: path, signature: signature, scale: r, sigma: sigma, stats: &made
    ) {
      // The shape, drawn offscreen in the layer's coordinates at r pixels per point.
      canvas.beginGroup(bounds: grid, unclipped: true)
      let local = Transform(scaleX: r, y: r)
      if let path {
        canvas.transform = local
        canvas.fill(path, paint: .solid(.black))
      } else {
        drawWholeBody(i, canvas, local)
      }
      guard let g = canvas.endGroupDeferred() else { return nil }
      defer { canvas.recycle(g) }
      return try? g.alphaMask(margin: margin)
    }
    counts.blurs += made.blurs
    counts.blurredPixels += made.blurredPixels
    guard let local else { return true }
    if wholePixels {
      canvas.fill(
        local.mask, offsetX: Int(place.tx), offsetY: Int(place.ty), paint: .solid(color), skipping: holes)
    } else if let s = context.shadowCache.placedLocalShadow(
      local, layer: owner, path: path, signature: signature, scale: r, sigma: sigma, place: place)
    {
      canvas.fill(s.mask, offsetX: s.dx, offsetY: s.dy, paint: .solid(color), skipping: holes)
    }
    return true
  }
}
