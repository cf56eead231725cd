extension Canvas {
  /// Draws `source` (image pixels; nil for the whole image) of `image` stretched over
  /// `destination` (user space), through the current transform, clip and global alpha, as Skia's
  /// `drawImageRect` with a strict source rectangle: filtered with `magnification` where the
  /// image is enlarged on both axes, else with `minification`; nothing outside `source` is read;
  /// the destination's edges are anti-aliased like any fill. A placement that maps image pixels
  /// onto device pixels one to one copies (or blends) rows.
  public func drawImage(
    _ image: RasterImage, source: Rect? = nil, in destination: Rect, minification: ImageFilter = .linear,
    magnification: ImageFilter = .linear
  ) {
    let whole = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
    let src = (source ?? whole).intersection(whole)
    if src.isEmpty || destination.isEmpty { return }
    let placement = RasterImage.placement(source: src, destination: destination, transform: state.transform)
    guard
      let sampler = ImageSampler(
        image, source: src, placement: placement, minification: minification, magnification: magnification)
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
    imagePath.removeAllKeepingCapacity()
    imagePath.addRect(r)
    var sink = makeSink(shader)
    rasterizer.fill(imagePath, transform: t, rule: .nonZero, clip: clip, into: &sink)
  }
}

extension RasterImage {
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
    source: Rect, placement: Transform, minification: ImageFilter, magnification: ImageFilter, area: IntRect
  ) -> RasterImage? {
    let whole = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    let src = source.intersection(whole)
    guard !src.isEmpty, !area.isEmpty,
      let sampler = ImageSampler(
        self, source: src, placement: placement, minification: minification, magnification: magnification),
      let out = try? Surface(width: area.width, height: area.height)
    else { return nil }
    for y in 0..<area.height {
      sampler.shade(x: area.x, y: area.y + y, count: area.width, into: out.row(y))
    }
    return RasterImage(surface: out)
  }
}
