extension Canvas {
  /// Composites a premultiplied image with its pixel (0, 0) at device pixel (`x`, `y`) (the
  /// transform does not apply; the clip and global alpha do), source-over, one pixel for one:
  /// colour glyphs cached at their pixel size. Allocates nothing.
  public func blit(_ image: Surface, x: Int, y: Int) {
    let placed = IntRect(x: x, y: y, width: image.width, height: image.height)
    let r = placed.intersection(state.clipBounds).intersection(target.bounds)
    if r.isEmpty || state.globalAlpha <= 0 { return }
    resolveClip(for: Rect(r))
    let sink = makeSink(Shader.image(image, Transform(translationX: Double(-x), y: Double(-y))))
    for row in r.y..<r.maxY {
      sink.solidSpan(y: row, x: r.x, count: r.width, alpha: 255)
    }
  }
}
