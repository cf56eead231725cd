import SheenRaster

/// A layer that draws a path (Core Animation's `CAShapeLayer`): filled, then stroked.
/// Unlike a layer's background, the path is not clipped to the corners unless `masksToBounds`.
public final class ShapeLayer: Layer {
  /// The shape, in the layer's own coordinates.
  public var path: Path? = nil { didSet { if path != oldValue { setNeedsDisplay() } } }
  /// Nil for no fill.
  public var fillColor: Color? = .black { didSet { if fillColor != oldValue { setNeedsDisplay() } } }
  public var fillRule: FillRule = .nonZero { didSet { if fillRule != oldValue { setNeedsDisplay() } } }
  /// Nil for no stroke.
  public var strokeColor: Color? = nil { didSet { if strokeColor != oldValue { setNeedsDisplay() } } }
  /// Centred on the path; 0 draws no stroke.
  public var lineWidth: Double = 1 { didSet { if lineWidth != oldValue { setNeedsDisplay() } } }
  public var lineJoin: LineJoin = .miter { didSet { if lineJoin != oldValue { setNeedsDisplay() } } }
  public var lineCap: LineCap = .butt { didSet { if lineCap != oldValue { setNeedsDisplay() } } }
  public var miterLimit: Double = 10 { didSet { if miterLimit != oldValue { setNeedsDisplay() } } }

  public override init() { super.init() }

  public override var hasContent: Bool { path != nil }

  public override var contentExtent: Rect {
    guard let path else { return bounds }
    // Miter joins reach at most miterLimit * width / 2 from the path.
    let grow = strokeColor == nil ? 0 : lineWidth * max(1, miterLimit) / 2
    return bounds.union(path.controlBounds.insetBy(dx: -grow, dy: -grow))
  }

  /// The path, the fill rule and the stroke's style: what the fill's and stroke's coverage are
  /// made of.
  public override func hashShapeInputs(into hasher: inout Hasher) -> Bool {
    hasher.combine(path)
    hasher.combine(fillRule)
    hasher.combine(lineWidth)
    hasher.combine(lineJoin)
    hasher.combine(lineCap)
    hasher.combine(miterLimit)
    return true
  }

  public override func drawContent(in canvas: Canvas, context: RenderContext) {
    guard let path else { return }
    if let fill = fillColor, fill.alpha > 0 {
      context.coverageCache.fill(path, of: self, .path, rule: fillRule, paint: .solid(fill), in: canvas)
    }
    if let stroke = strokeColor, stroke.alpha > 0, lineWidth > 0 {
      // The outline is made only when the coverage cache lacks it, flattened finely enough for
      // the canvas' scale; it is not kept (an outline of a small rounded tag holds hundreds of
      // points, and the cache keeps its coverage).
      let style = StrokeStyle(width: lineWidth, join: lineJoin, cap: lineCap, miterLimit: miterLimit)
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
      context.coverageCache.fill(of: self, .stroke, paint: .solid(stroke), in: canvas) {
        path.stroked(style, transform: .identity, tolerance: tolerance)
      }
    }
  }
}
