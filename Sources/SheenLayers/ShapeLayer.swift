import SheenRaster
import Synchronization

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

  public override func drawContent(in canvas: Canvas, context: RenderContext) {
    guard let path else { return }
    if let fill = fillColor, fill.alpha > 0 {
      context.coverageCache.fill(path, of: self, .path, rule: fillRule, paint: .solid(fill), in: canvas)
    }
    if let stroke = strokeColor, stroke.alpha > 0, lineWidth > 0 {
      context.coverageCache.fill(
        strokeOutline(path, scale: canvas.transform.maxScale), of: self, .stroke, paint: .solid(stroke),
        in: canvas)
    }
  }

  /// The stroke's outline in layer coordinates, flattened finely enough for `scale` pixels per
  /// unit; kept until the path, the style or the scale changes. Locked: bands of one frame may
  /// draw the layer on several threads.
  private func strokeOutline(_ path: Path, scale: Double) -> Path {
    let key = StrokeKey(
      version: contentVersion,
      style: StrokeStyle(width: lineWidth, join: lineJoin, cap: lineCap, miterLimit: miterLimit),
      scale: scale)
    if let hit = strokeCache.withLock({ $0?.key == key ? $0?.outline : nil }) { return hit }
    let tolerance = Canvas.strokeTolerance / max(scale, 1e-6)
    let outline = path.stroked(key.style, transform: .identity, tolerance: tolerance)
    strokeCache.withLock { $0 = (key, outline) }
    return outline
  }

  private struct StrokeKey: Equatable {
    var version: UInt64
    var style: StrokeStyle
    var scale: Double
  }

  private let strokeCache = Mutex<(key: StrokeKey, outline: Path)?>(nil)
}
