extension Canvas {
  /// The flattening tolerance of stroke outlines, in device pixels: fine enough that round joins
  /// and caps keep their area to well under a level of coverage.
  public static let strokeTolerance = 0.01

  /// Strokes a path: the stroker's outline (in device space) filled with the non-zero rule. The
  /// width is in user space, so a non-uniform transform stretches it.
  public func stroke(_ path: Path, style: StrokeStyle, paint: Paint) {
    let clip = state.clipBounds.intersection(target.bounds)
    let shader = Shader(paint, ctm: state.transform)
    if clip.isEmpty || drawsNothing(shader.solidColor) { return }
    // Only what can reach the clip is flattened and stroked (Cull.swift).
    let outline = path.stroked(
      style, transform: state.transform, tolerance: Canvas.strokeTolerance, clip: Rect(clip))
    strokeOutlineElements += outline.elements.count
    resolveClip(for: outline.controlBounds)
    var sink = makeSink(shader)
    rasterizer.fill(outline, transform: .identity, rule: .nonZero, clip: clip, into: &sink)
  }
}
