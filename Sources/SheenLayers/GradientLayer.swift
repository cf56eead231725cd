import SheenRaster

/// A layer filled with a gradient (Core Animation's `CAGradientLayer`), over its bounds rounded
/// by `cornerRadius`, with or without `masksToBounds`.
public final class GradientLayer: Layer {
  /// Axial along start to end, or radial as Core Animation: an ellipse centred on `startPoint`.
  public enum GradientType: Hashable, Sendable {
    case axial
    case radial
  }

  public var colors: [Color] = [] { didSet { if colors != oldValue { invalidate() } } }
  /// One per colour, 0...1, non-decreasing; nil spaces the colours evenly.
  public var locations: [Double]? = nil { didSet { if locations != oldValue { invalidate() } } }
  /// Unit coordinates of the bounds.
  public var startPoint = Point(x: 0.5, y: 0) { didSet { if startPoint != oldValue { setNeedsDisplay() } } }
  public var endPoint = Point(x: 0.5, y: 1) { didSet { if endPoint != oldValue { setNeedsDisplay() } } }
  public var type: GradientType = .axial { didSet { if type != oldValue { setNeedsDisplay() } } }

  private var cachedGradient: Gradient?

  public override init() { super.init() }

  private func invalidate() {
    cachedGradient = nil
    setNeedsDisplay()
  }

  /// The colour ramp, built once per change of colours or locations (kept by
  /// `prepareForDrawing`, so that drawing on several threads only reads the layer).
  public var gradient: Gradient {
    cachedGradient ?? Gradient(colors: colors, locations: locations)
  }

  public override var hasContent: Bool { !colors.isEmpty }

  public override func prepareForDrawing() {
    if cachedGradient == nil { cachedGradient = Gradient.shared(colors: colors, locations: locations) }
  }

  public override func displayContent() -> LayerContent? {
    guard colors.count > 0 else { return nil }
    let w = frame.width
    let h = frame.height
    let s = Point(x: startPoint.x * w, y: startPoint.y * h)
    guard type == .radial else {
      // A zero-length axis fills with the last colour (the shader's degenerate case).
      let e = Point(x: endPoint.x * w, y: endPoint.y * h)
      return .roundedFill(.linearGradient(gradient, start: s, end: e))
    }
    let rx = abs(endPoint.x - startPoint.x) * w
    let ry = abs(endPoint.y - startPoint.y) * h
    if rx <= 0 || ry <= 0 { return .roundedFill(.solid(colors.last!)) }
    return .roundedFill(.ellipticalGradient(gradient, center: s, radii: Size(width: rx, height: ry)))
  }
}
