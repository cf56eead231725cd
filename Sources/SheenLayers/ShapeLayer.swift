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

  public override func displayContent() -> LayerContent? {
    guard let path else { return nil }
    return .shape(
      path, fill: fillColor, rule: fillRule, stroke: strokeColor,
      style: StrokeStyle(width: lineWidth, join: lineJoin, cap: lineCap, miterLimit: miterLimit))
  }
}
