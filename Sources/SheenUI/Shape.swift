import SheenKit

/// A 2D shape drawn in the rectangle it is given (SwiftUI's `Shape`). As a view it fills the
/// space offered with the foreground colour.
public protocol Shape: View, Sendable {
  func path(in rect: CGRect) -> Path
  /// The shape's size for a proposal: the proposal (10 points where it has none) by default.
  func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize
}

extension Shape {
  public func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize {
    proposal.replacingUnspecifiedDimensions()
  }
  public var body: _ShapeView<Self, ForegroundStyle> {
    _ShapeView(shape: self, style: ForegroundStyle(), stroke: nil)
  }

  /// The shape filled with `style`.
  public func fill<S: ShapeStyle>(_ style: S = ForegroundStyle()) -> _ShapeView<Self, S> {
    _ShapeView(shape: self, style: style, stroke: nil)
  }
  /// The shape's outline stroked with `style`, centred on the outline (half of it outside).
  public func stroke<S: ShapeStyle>(_ style: S, lineWidth: CGFloat = 1) -> _ShapeView<Self, S> {
    _ShapeView(shape: self, style: style, stroke: StrokeStyle(lineWidth: lineWidth))
  }
  public func stroke<S: ShapeStyle>(_ style: S, style stroke: StrokeStyle) -> _ShapeView<Self, S> {
    _ShapeView(shape: self, style: style, stroke: stroke)
  }
  public func stroke(lineWidth: CGFloat = 1) -> _ShapeView<Self, ForegroundStyle> {
    _ShapeView(shape: self, style: ForegroundStyle(), stroke: StrokeStyle(lineWidth: lineWidth))
  }
  public func stroke(style: StrokeStyle) -> _ShapeView<Self, ForegroundStyle> {
    _ShapeView(shape: self, style: ForegroundStyle(), stroke: style)
  }
}

/// How an outline is stroked (SwiftUI's `StrokeStyle`).
public struct StrokeStyle: Hashable, Sendable {
  public var lineWidth: CGFloat
  public var lineCap: CAShapeLayerLineCap
  public var lineJoin: CAShapeLayerLineJoin
  public var miterLimit: CGFloat
  public init(
    lineWidth: CGFloat = 1, lineCap: CAShapeLayerLineCap = .butt, lineJoin: CAShapeLayerLineJoin = .miter,
    miterLimit: CGFloat = 10
  ) {
    self.lineWidth = lineWidth
    self.lineCap = lineCap
    self.lineJoin = lineJoin
    self.miterLimit = miterLimit
  }
}

/// What a shape is filled or stroked with: a colour, a gradient, or the foreground colour.
public protocol ShapeStyle: Sendable {}

/// The environment's foreground colour (primary by default).
public struct ForegroundStyle: ShapeStyle, Hashable {
  public init() {}
}

extension ShapeStyle {
  /// The solid colour this style paints with in `env`, or nil for a gradient.
  func solidColor(_ env: EnvironmentValues) -> Color? {
    if let c = self as? Color { return c }
    if self is ForegroundStyle { return env.foregroundColor ?? .primary }
    return nil
  }
}

/// Shapes whose filled form is a layer's rounded bounds: drawn as a background colour with a
/// corner radius (the compositor's fastest path) rather than as a path.
protocol LayerShape {
  /// The corner radius of the shape in a rectangle of `size`.
  func layerCornerRadius(in size: CGSize) -> CGFloat
}

/// A rectangle filling its frame.
public struct Rectangle: Shape, LayerShape {
  public init() {}
  public func path(in rect: CGRect) -> Path { Path(rect) }
  func layerCornerRadius(in size: CGSize) -> CGFloat { 0 }
}

/// A rectangle with rounded corners filling its frame.
public struct RoundedRectangle: Shape, LayerShape {
  public var cornerSize: CGSize
  public var style: RoundedCornerStyle
  public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .circular) {
    cornerSize = CGSize(width: cornerRadius, height: cornerRadius)
    self.style = style
  }
  public init(cornerSize: CGSize, style: RoundedCornerStyle = .circular) {
    self.cornerSize = cornerSize
    self.style = style
  }
  public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerRadius: cornerSize.width) }
  func layerCornerRadius(in size: CGSize) -> CGFloat {
    min(cornerSize.width, min(size.width, size.height) / 2)
  }
}

/// A rectangle whose short sides are half circles.
public struct Capsule: Shape, LayerShape {
  public var style: RoundedCornerStyle
  public init(style: RoundedCornerStyle = .circular) { self.style = style }
  public func path(in rect: CGRect) -> Path {
    Path(roundedRect: rect, cornerRadius: min(rect.width, rect.height) / 2)
  }
  func layerCornerRadius(in size: CGSize) -> CGFloat { min(size.width, size.height) / 2 }
}

/// The largest circle centred in its frame.
public struct Circle: Shape {
  public init() {}
  public func path(in rect: CGRect) -> Path {
    let d = min(rect.width, rect.height)
    return Path(ellipseIn: CGRect(x: rect.midX - d / 2, y: rect.midY - d / 2, width: d, height: d))
  }
}

/// The ellipse filling its frame.
public struct Ellipse: Shape {
  public init() {}
  public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
}

extension Path: Shape {
  public func path(in rect: CGRect) -> Path { self }
}

/// A shape filled or stroked with a style: the view a shape becomes.
public struct _ShapeView<Content: Shape, Style: ShapeStyle>: View {
  public var shape: Content
  public var style: Style
  var stroke: StrokeStyle?
  public typealias Body = Never
  public var body: Never { fatalError("_ShapeView has no body") }
}

/// A view whose layer is a `CAShapeLayer`.
final class ShapeHostView: UIView {
  override class var layerClass: AnyClass { CAShapeLayer.self }
  var shapeLayer: CAShapeLayer { layer as! CAShapeLayer }

  override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
  }
  required init?(coder: NSCoder) { return nil }
}

/// A view whose layer is a `CAGradientLayer`.
final class GradientHostView: UIView {
  override class var layerClass: AnyClass { CAGradientLayer.self }
  var gradientLayer: CAGradientLayer { layer as! CAGradientLayer }

  override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
  }
  required init?(coder: NSCoder) { return nil }
}

/// The node of a filled or stroked shape. A solid fill of a rectangle, rounded rectangle or
/// capsule is a plain view's background with a corner radius; anything else a shape layer
/// (or a gradient layer masked by the shape).
final class ShapeNode: Node {
  var view: UIView = UIView()
  var initialized = false
  var shape: (any Shape)?
  var shapeIdentity: [UInt8] = []
  var fill: Color?
  var gradient: LinearGradient?
  var stroke: StrokeStyle?
  var pathSize: CGSize?
  var fits: (ProposedViewSize) -> CGSize = { $0.replacingUnspecifiedDimensions() }

  override var ownView: UIView? { view }

  func update<S: Shape, St: ShapeStyle>(_ v: _ShapeView<S, St>, _ ctx: UpdateContext) {
    let color = v.style.solidColor(ctx.environment)
    let gradient = v.style as? LinearGradient
    let fast = v.stroke == nil && color != nil && v.shape is LayerShape
    let kind = fast ? 0 : (gradient != nil && v.stroke == nil ? 1 : 2)
    let current = view is GradientHostView ? 1 : (view is ShapeHostView ? 2 : 0)
    if kind != current || !initialized {
      initialized = true
      view = kind == 0 ? UIView() : (kind == 1 ? GradientHostView() : ShapeHostView())
      view.isUserInteractionEnabled = false
      if parent != nil { structureChanged(ctx) }
      pathSize = nil
    }
    let identity = withUnsafeBytes(of: v.shape) { Array($0) }
    if identity != shapeIdentity || !(shape is S) {
      shapeIdentity = identity
      pathSize = nil
    }
    shape = v.shape
    fill = color
    self.gradient = gradient
    stroke = v.stroke
    let s = v.shape
    fits = { s.sizeThatFits($0) }
    invalidateLayout()
    // A solid fill's colour is applied when placed (so that a change animates with the layout).
    if !fast, let sv = view as? ShapeHostView {
      let l = sv.shapeLayer
      if let st = v.stroke {
        l.fillColor = nil
        l.strokeColor = color?.cgColor
        l.lineWidth = st.lineWidth
        l.lineCap = st.lineCap
        l.lineJoin = st.lineJoin
        l.miterLimit = st.miterLimit
      } else {
        l.fillColor = color?.cgColor
        l.strokeColor = nil
      }
    } else if let gv = view as? GradientHostView, let g = gradient {
      g.apply(to: gv.gradientLayer)
    }
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize { fits(p) }

  override func placeNode(in rect: CGRect) {
    super.placeNode(in: rect)
    if type(of: view) == UIView.self, let c = fill {
      let ui = c.uiColor
      if view.backgroundColor != ui { view.backgroundColor = ui }
    }
    guard pathSize != rect.size, let shape else { return }
    pathSize = rect.size
    let bounds = CGRect(origin: .zero, size: rect.size)
    if let ls = shape as? LayerShape, stroke == nil {
      view.layer.cornerRadius = ls.layerCornerRadius(in: rect.size)
      if let gv = view as? GradientHostView { gv.layer.mask = nil }
      return
    }
    let path = shape.path(in: bounds).cgPath
    if let sv = view as? ShapeHostView {
      sv.shapeLayer.path = path
    } else if let gv = view as? GradientHostView {
      let m = (gv.layer.mask as? CAShapeLayer) ?? CAShapeLayer()
      m.path = path
      gv.layer.mask = m
    }
  }
}

extension _ShapeView: PrimitiveView {
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ShapeNode) ?? ShapeNode()
    n.update(self, ctx)
    return n
  }
}

extension Color: PrimitiveView {
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ShapeNode) ?? ShapeNode()
    n.update(_ShapeView(shape: Rectangle(), style: self, stroke: nil), ctx)
    return n
  }
}
