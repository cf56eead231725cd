extension Canvas {
  /// Draws a bitmap stretched over `rect` (user space), sampled bilinearly: a layer's backing
  /// store. When the transform maps `rect` onto the bitmap's pixels one to one, every pixel is
  /// copied exactly. Nothing is allocated (the rectangle's path storage is reused).
  public func drawBitmap(_ bitmap: Surface, in rect: Rect) {
    let clip = state.clipBounds.intersection(target.bounds)
    if clip.isEmpty || drawsNothing(nil) || rect.isEmpty { return }
    let place = Transform(
      a: rect.width / Double(bitmap.width), b: 0, c: 0, d: rect.height / Double(bitmap.height), tx: rect.minX,
      ty: rect.minY
    ).concatenating(state.transform)
    guard let inv = place.inverted else { return }
    let device = state.transform.apply(rect)
    resolveClip(for: device)
    rectPath.removeAllKeepingCapacity()
    rectPath.addRect(rect)
    var sink = makeSink(.image(bitmap, inv))
    rasterizer.fill(rectPath, transform: state.transform, rule: .nonZero, clip: clip, into: &sink)
  }
}
