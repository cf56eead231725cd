extension Canvas {
  /// Draws `source` (image pixels; nil for the whole image) of `image` stretched over
  /// `destination` (user space), through the current transform, clip and global alpha, as Skia's
  /// `drawImageRect` with a strict source rectangle: filtered with `magnification` where the
  /// image is enlarged on both axes, else with `minification`; nothing outside `source` is read;
  /// the destination's edges are anti-aliased like any fill. A placement that maps image pixels
  /// onto device pixels one to one copies (or blends) rows.
  ///
  /// With `tile`, the source is drawn at that size (user space) from the destination's top-left
  /// corner and repeated over the destination (UIKit's `.tile` resizing), the last tiles cut.
  public func drawImage(
    _ image: RasterImage, source: Rect? = nil, in destination: Rect, minification: ImageFilter = .linear,
    magnification: ImageFilter = .linear, tile: Size? = nil
  ) {
    let whole = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
    let src = (source ?? whole).intersection(whole)
    if src.isEmpty || destination.isEmpty { return }
    let first = RasterImage.firstTile(of: destination, tile: tile)
    let placement = RasterImage.placement(source: src, destination: first, transform: state.transform)
    guard
      let sampler = ImageSampler(
        image, source: src, placement: placement, minification: minification, magnification: magnification,
        repeats: RasterImage.repeats(destination, tile: tile))
    else { return }
    fillImageRect(destination, .sampled(sampler))
  }

  /// Draws pixels already sampled for the device (`RasterImage.resampled`), whose pixel (0, 0)
  /// is device pixel (`deviceX`, `deviceY`), over `destination` (user space): its coverage is the
  /// destination's, under the current transform, clip and global alpha.
  public func drawImagePixels(_ pixels: RasterImage, deviceX: Int, deviceY: Int, in destination: Rect) {
    if destination.isEmpty { return }
    let whole = Rect(x: 0, y: 0, width: Double(pixels.width), height: Double(pixels.height))
    guard
      let sampler = ImageSampler(
        pixels, source: whole,
        placement: Transform(translationX: Double(deviceX), y: Double(deviceY)),
        minification: .nearest, magnification: .nearest)
    else { return }
    fillImageRect(destination, .sampled(sampler))
  }

  private func fillImageRect(_ r: Rect, _ shader: Shader) {
    let clip = state.clipBounds.intersection(target.bounds)
    if clip.isEmpty || state.globalAlpha <= 0 { return }
    let t = state.transform
    if state.pendingRect != nil { resolveClip(for: t.apply(r)) }
    let sink = makeSink(shader)
    if t.isAxisAligned {
      let d = t.apply(r)
      if d.minX.isFinite, d.maxX.isFinite, d.minY.isFinite, d.maxY.isFinite {
        fillAlignedRect(d, clip: clip, into: sink)
        return
      }
    }
    imagePath.removeAllKeepingCapacity()
    imagePath.addRect(r)
    rasterizer.fill(imagePath, transform: t, rule: .nonZero, clip: clip, into: sink)
  }

  /// The coverage of an axis-aligned device rectangle, worked out per row instead of rasterized
  /// (the same exact area: a pixel's coverage is the part of it inside): edge pixels partly,
  /// the inside as solid spans.
  private func fillAlignedRect(_ d: Rect, clip: IntRect, into sink: PaintSink) {
    let area = IntRect(enclosing: d).intersection(clip)
    if area.isEmpty || d.isEmpty { return }
    func overlap(_ i: Int, _ lo: Double, _ hi: Double) -> Double {
      max(0, min(Double(i + 1), hi) - max(Double(i), lo))
    }
    // Columns wholly inside: [inner0, inner1).
    let inner0 = max(area.x, Int(max(Double(area.x), min(Double(area.maxX), d.minX.rounded(.up)))))
    let inner1 = max(
      inner0, min(area.maxX, Int(max(Double(area.x), min(Double(area.maxX), d.maxX.rounded(.down))))))
    for y in area.y..<area.maxY {
      let fy = overlap(y, d.minY, d.maxY)
      if fy <= 0 { continue }
      func edge(_ x: Int) {
        let a = (overlap(x, d.minX, d.maxX) * fy * 255).rounded()
        if a >= 1 { sink.solidSpan(y: y, x: x, count: 1, alpha: UInt8(min(255, a))) }
      }
      for x in area.x..<inner0 { edge(x) }
      if inner1 > inner0 {
        let a = (fy * 255).rounded()
        if a >= 1 { sink.solidSpan(y: y, x: inner0, count: inner1 - inner0, alpha: UInt8(min(255, a))) }
      }
      for x in max(inner1, inner0)..<area.maxX { edge(x) }
    }
  }
}

extension RasterImage {
  /// The rectangle the source is placed over: the destination, or its first tile.
  public static func firstTile(of destination: Rect, tile: Size?) -> Rect {
    guard let tile, tile.width > 0, tile.height > 0, tile.width.isFinite, tile.height.isFinite else {
      return destination
    }
    return Rect(x: destination.minX, y: destination.minY, width: tile.width, height: tile.height)
  }

  /// Along which axes tiles of size `tile` repeat over `destination` (more than one fits).
  public static func repeats(_ destination: Rect, tile: Size?) -> (x: Bool, y: Bool) {
    guard let tile, tile.width > 0, tile.height > 0, tile.width.isFinite, tile.height.isFinite else {
      return (false, false)
    }
    return (destination.width > tile.width, destination.height > tile.height)
  }

  /// Image pixels to device pixels for `source` (image pixels) shown over `destination` (user
  /// space) under `transform` (user space to device).
  public static func placement(source: Rect, destination: Rect, transform: Transform) -> Transform {
    let sx = destination.width / source.width
    let sy = destination.height / source.height
    let p = Transform(
      a: sx, b: 0, c: 0, d: sy, tx: destination.minX - source.minX * sx,
      ty: destination.minY - source.minY * sy)
    return p.concatenating(transform)
  }

  /// Whether `drawImage` would copy pixels for this placement (one image pixel per device
  /// pixel, on the grid): then resampling ahead of time gains nothing.
  public static func placementIsCopy(_ t: Transform) -> Bool {
    t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1 && isInteger(t.tx) && isInteger(t.ty)
  }

  /// The colours `Canvas.drawImage` gives the device pixels of `area` (before coverage and
  /// blending) for `source` of this image under `placement` (image pixels to device pixels), as
  /// an image whose pixel (0, 0) is device pixel (`area.x`, `area.y`): a picture resampled
  /// once to the size it is shown at, to be drawn with `Canvas.drawImagePixels` frame after
  /// frame. Nil when nothing shows or the area cannot be a surface.
  public func resampled(
    source: Rect, placement: Transform, minification: ImageFilter, magnification: ImageFilter, area: IntRect,
    repeats: (x: Bool, y: Bool) = (false, false)
  ) -> RasterImage? {
    let whole = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    let src = source.intersection(whole)
    guard !src.isEmpty, !area.isEmpty,
      let sampler = ImageSampler(
        self, source: src, placement: placement, minification: minification, magnification: magnification,
        repeats: repeats),
      let out = try? Surface(width: area.width, height: area.height)
    else { return nil }
    for y in 0..<area.height {
      sampler.shade(x: area.x, y: area.y + y, count: area.width, into: out.row(y))
    }
    return RasterImage(surface: out)
  }
}
