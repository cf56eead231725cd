import SheenRaster

/// Draws text layouts on a canvas, through a shared glyph cache.
///
/// Under a transform that only translates and scales uniformly (no rotation, skew or flip),
/// each glyph is one cached mask blitted at an integer device position: the baseline is rounded
/// to a whole pixel and the pen's x to a quarter pixel (the cache's subpixel bin). Under any
/// other transform, or above `maxCachedPixelSize`, the outlines are filled as one path.
///
/// Colour glyphs (emoji bitmaps) keep their colours: each is an image scaled once to its pixel
/// size and cached (`GlyphCache.colorGlyph`), drawn after the outlines' coverage; under any other
/// transform the font's bitmap is drawn through that transform.
public final class TextRenderer: Sendable {
  /// The renderer `Canvas.drawText` uses unless told otherwise.
  public static let shared = TextRenderer()

  public let cache: GlyphCache

  /// Em sizes in device pixels above this are filled as paths instead of cached.
  public let maxCachedPixelSize: Double

  public init(cache: GlyphCache = GlyphCache(), maxCachedPixelSize: Double = 256) {
    self.cache = cache
    self.maxCachedPixelSize = maxCachedPixelSize
  }

  /// Draws `layout` with its top-left at `origin` (user space) in `color`.
  public func draw(_ layout: TextLayout, at origin: Point, color: Color, in canvas: Canvas) {
    if layout.lines.isEmpty || color.alpha <= 0 { return }
    let t = canvas.transform
    guard let pixelSize = cachedPixelSize(layout, t) else {
      drawOutlines(layout, at: origin, color: color, in: canvas)
      drawColorGlyphs(layout, at: origin, in: canvas)
      return
    }
    forEachGlyph(layout, at: origin, transform: t, pixelSize: pixelSize, within: canvas.clipBounds) {
      canvas.draw(mask: $0, color: color, offsetX: $1, offsetY: $2)
    }
    drawColorGlyphs(layout, at: origin, in: canvas)
  }

  /// Draws the colour glyphs (emoji) of `layout`, which `coverage(of:at:transform:)` leaves out:
  /// under a translation and uniform scale, cached images at whole pixels; else the bitmaps
  /// through the canvas transform.
  public func drawColorGlyphs(_ layout: TextLayout, at origin: Point, in canvas: Canvas) {
    guard layout.hasColorGlyphs else { return }
    let t = canvas.transform
    let clip = canvas.clipBounds
    let cachedSize = cachedPixelSize(layout, t)
    for line in layout.lines {
      for g in line.glyphs where layout.fonts[Int(g.font)].hasColorBitmaps {
        let font = layout.fonts[Int(g.font)]
        let pen = Point(x: origin.x + line.origin.x + g.x, y: origin.y + line.origin.y + g.y)
        if let pixelSize = cachedSize {
          let dx = (t.a * pen.x + t.tx).rounded()
          let dy = (t.d * pen.y + t.ty).rounded()
          guard abs(dx) < 1e9, abs(dy) < 1e9,
            let c = cache.colorGlyph(font: font, glyph: g.id, pixelSize: pixelSize)
          else { continue }
          let r = IntRect(
            x: Int(dx) + c.originX, y: Int(dy) + c.originY, width: c.image.width, height: c.image.height)
          if r.intersection(clip).isEmpty { continue }
          canvas.blit(c.image, x: r.x, y: r.y)
        } else if let c = cache.colorBitmap(font: font, glyph: g.id) {
          // The bitmap's pixels mapped onto the glyph's box in points, then by the canvas.
          let s = layout.style.size / Double(font.unitsPerEm)
          let place = Transform(
            a: c.box.width * s / Double(c.image.width), b: 0, c: 0,
            d: c.box.height * s / Double(c.image.height),
            tx: pen.x + c.box.minX * s, ty: pen.y + c.box.minY * s)
          canvas.draw(c.image, transform: place)
        }
      }
    }
  }

  /// The em size in device pixels when `t` allows cached glyph masks (it only translates and
  /// scales uniformly, to at most `maxCachedPixelSize`), else nil.
  private func cachedPixelSize(_ layout: TextLayout, _ t: Transform) -> Double? {
    let pixelSize = layout.style.size * t.a
    let cached =
      t.b == 0 && t.c == 0 && t.a == t.d && t.a > 0 && pixelSize.isFinite && pixelSize <= maxCachedPixelSize
    return cached ? pixelSize : nil
  }

  /// Calls `body` with each glyph's cached mask and its integer device position: baselines
  /// rounded to whole pixels, pens to quarter pixels. Lines and glyphs clearly outside `clip`
  /// are skipped.
  private func forEachGlyph(
    _ layout: TextLayout, at origin: Point, transform t: Transform, pixelSize: Double, within clip: IntRect,
    _ body: (AlphaMask, Int, Int) -> Void
  ) {
    let bins = Double(GlyphCache.subpixelBins)
    let metrics = layout.style.lineMetrics
    let reachUp = (metrics.ascent * 2 + 2) * t.a
    let reachDown = (metrics.descent * 2 + 2) * t.a
    let emPixels = Int(pixelSize.rounded(.up)) * 2 + 2
    for line in layout.lines {
      let baseline = t.d * (origin.y + line.origin.y) + t.ty
      if baseline + reachDown < Double(clip.y) || baseline - reachUp > Double(clip.maxY) { continue }
      let iy = Int(baseline.rounded())
      let lineX = t.a * (origin.x + line.origin.x) + t.tx
      for g in line.glyphs {
        let font = layout.fonts[Int(g.font)]
        if font.hasColorBitmaps { continue }
        let quarters = ((lineX + t.a * g.x) * bins).rounded(.toNearestOrEven)
        guard abs(quarters) < 1e12 else { continue }
        let q = Int(quarters)
        let ix = q >> 2
        let bin = q & 3
        // Pens only move right; a glyph's ink reaches at most about an em left of its pen.
        if ix > clip.maxX + emPixels { break }
        guard let m = cache.mask(font: font, glyph: g.id, pixelSize: pixelSize, bin: bin) else { continue }
        body(m.mask, ix, g.y == 0 ? iy : Int((baseline + t.d * g.y).rounded()))
      }
    }
  }

  /// The largest area, in pixels, that `coverage(of:at:transform:)` records.
  public static let maxRecordedArea = 1 << 20

  /// The coverage of `layout` with its top-left at `origin` under `t`, every glyph placed as
  /// `draw` places it, as one recording that a canvas fills in any colour and moves by whole
  /// pixels: a label drawn again is one fill instead of a look-up and a blit per glyph. Colour
  /// glyphs are not in it: draw them with `drawColorGlyphs` after filling it. Nil
  /// when `t` rotates, skews or scales beyond the cached sizes, or the text covers nothing or
  /// more than `maxRecordedArea` pixels (draw it then).
  public func coverage(of layout: TextLayout, at origin: Point, transform t: Transform) -> Coverage? {
    guard !layout.lines.isEmpty, let pixelSize = cachedPixelSize(layout, t) else { return nil }
    // Long text (a document in a scroll view) is drawn glyph by glyph, only where it shows:
    // tell it from its laid-out size (plus an em around for ink past the advances) before
    // looking up every glyph.
    let em = layout.style.size
    let reach = (layout.size.width + 2 * em) * (layout.size.height + 2 * em) * t.a * t.a
    guard reach <= Double(TextRenderer.maxRecordedArea) else { return nil }
    let everywhere = IntRect(x: -(1 << 40), y: -(1 << 40), width: 1 << 41, height: 1 << 41)
    // Each glyph looked up once: placed, then drawn into a mask of their bounds.
    var placed: [(mask: AlphaMask, x: Int, y: Int)] = []
    placed.reserveCapacity(layout.glyphCount)
    var bounds: IntRect? = nil
    forEachGlyph(layout, at: origin, transform: t, pixelSize: pixelSize, within: everywhere) { m, x, y in
      placed.append((m, x, y))
      let r = IntRect(x: m.originX + x, y: m.originY + y, width: m.width, height: m.height)
      bounds = bounds.map { $0.union(r) } ?? r
    }
    guard let b = bounds, b.width <= Coverage.maxWidth, b.width * b.height <= TextRenderer.maxRecordedArea,
      let into = try? AlphaMask(width: b.width, height: b.height, originX: b.x, originY: b.y)
    else { return nil }
    for g in placed { into.add(g.mask, dx: g.x, dy: g.y) }
    // Glyphs are a few pixels apart: gaps that narrow stay inside runs.
    return Coverage(mask: into, zeroGap: 8)
  }

  /// The coverage of `layout`'s glyph outlines with its top-left at `origin` under `t`, recorded
  /// by `canvas` as one path, for transforms the glyph cache does not serve (a rotation, a skew, a
  /// flip, a non-uniform scale or an em past `maxCachedPixelSize`): a rotated or scaled label
  /// drawn again, moved by whole pixels, is then one fill instead of an outline fill. Colour
  /// glyphs are not in it. Nil when the cache serves `t` (use `coverage(of:at:transform:)`) or
  /// the text could cover more than `maxRecordedArea` pixels.
  public func outlineCoverage(
    of layout: TextLayout, at origin: Point, transform t: Transform, in canvas: Canvas
  ) -> Coverage? {
    guard !layout.lines.isEmpty, cachedPixelSize(layout, t) == nil else { return nil }
    let em = layout.style.size
    let reach = (layout.size.width + 2 * em) * (layout.size.height + 2 * em) * t.determinant.magnitude
    guard reach.isFinite, reach <= Double(TextRenderer.maxRecordedArea) else { return nil }
    let (path, count) = outlinePath(layout, at: origin)
    guard count > 0, let c = canvas.recordCoverage(path, transform: t) else { return nil }
    cache.noteOutlineFills(count)
    return c
  }

  /// Every glyph outline of `layout` but the colour ones, as one path, and how many glyphs it holds.
  private func outlinePath(_ layout: TextLayout, at origin: Point) -> (Path, Int) {
    var path = Path()
    var count = 0
    for line in layout.lines {
      for g in line.glyphs {
        let font = layout.fonts[Int(g.font)]
        if font.hasColorBitmaps { continue }
        let s = layout.style.size / Double(font.unitsPerEm)
        let pen = Point(x: origin.x + line.origin.x + g.x, y: origin.y + line.origin.y + g.y)
        path.addPath(
          font.outline(of: g.id, transform: Transform(a: s, b: 0, c: 0, d: -s, tx: pen.x, ty: pen.y)))
        count += 1
      }
    }
    return (path, count)
  }

  /// Fills every glyph outline of `layout` as one path under the canvas transform.
  func drawOutlines(_ layout: TextLayout, at origin: Point, color: Color, in canvas: Canvas) {
    let (path, count) = outlinePath(layout, at: origin)
    cache.noteOutlineFills(count)
    canvas.fill(path, paint: .solid(color))
  }
}

extension Canvas {
  /// Draws a text layout with its top-left at `origin` (user space) in `color`.
  public func drawText(
    _ layout: TextLayout, at origin: Point, color: Color, renderer: TextRenderer = .shared
  ) {
    renderer.draw(layout, at: origin, color: color, in: self)
  }
}
