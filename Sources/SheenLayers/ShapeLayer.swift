import SheenRaster

/// A layer that draws a path (Core Animation's `CAShapeLayer`): filled, then stroked.
/// Unlike a layer's background, the path is not clipped to the corners unless `masksToBounds`.
public final class ShapeLayer: Layer {
  /// The shape, in the layer's own coordinates.
  public var path: Path? = nil { didSet { setNeedsDisplay() } }
  /// Nil for no fill.
  public var fillColor: Color? = .black { didSet { setNeedsDisplay() } }
  public var fillRule: FillRule = .nonZero { didSet { setNeedsDisplay() } }
  /// Nil for no stroke.
  public var strokeColor: Color? = nil { didSet { setNeedsDisplay() } }
  /// Centred on the path; 0 draws no stroke.
  public var lineWidth: Double = 1 { didSet { setNeedsDisplay() } }
  public var lineJoin: LineJoin = .miter { didSet { setNeedsDisplay() } }
  public var lineCap: LineCap = .butt { didSet { setNeedsDisplay() } }
  public var miterLimit: Double = 10 { didSet { setNeedsDisplay() } }

  public override init() { super.init() }

  public override var hasContent: Bool { path != nil }

  public override var contentExtent: Rect {
    guard let path else { return bounds }
    // Miter joins reach at most miterLimit * width / 2 from the path.
    let grow = strokeColor == nil ? 0 : lineWidth * max(1, miterLimit) / 2
    return bounds.union(path.controlBounds.insetBy(dx: -grow, dy: -grow))
  }

  public override func drawContent(in canvas: Canvas, context: RenderContext) {
    guard let path else { return }
    if let fill = fillColor, fill.alpha > 0 {
      canvas.fill(path, paint: .solid(fill), rule: fillRule)
    }
    if let stroke = strokeColor, stroke.alpha > 0, lineWidth > 0 {
      canvas.stroke(
        path, style: StrokeStyle(width: lineWidth, join: lineJoin, cap: lineCap, miterLimit: miterLimit),
        paint: .solid(stroke))
    }
  }
}
