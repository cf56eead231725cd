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

/// A shape that can be drawn inset (SwiftUI's `InsettableShape`): `strokeBorder` strokes the
/// outline inset by half the line width, so that the whole line lies inside the frame.
public protocol InsettableShape: Shape {
  associatedtype InsetShape: InsettableShape
  func inset(by amount: CGFloat) -> InsetShape
}

extension InsettableShape {
  public func strokeBorder<S: ShapeStyle>(_ style: S, lineWidth: CGFloat = 1) -> _ShapeView<InsetShape, S> {
    inset(by: lineWidth / 2).stroke(style, lineWidth: lineWidth)
  }
  public func strokeBorder(lineWidth: CGFloat = 1) -> _ShapeView<InsetShape, ForegroundStyle> {
    inset(by: lineWidth / 2).stroke(lineWidth: lineWidth)
  }
}

/// A shape drawn in its frame inset by `amount` on every side.
public struct _Inset<Base: InsettableShape>: InsettableShape {
  var base: Base
  var amount: CGFloat
  public func path(in rect: CGRect) -> Path { base.path(in: rect.insetBy(dx: amount, dy: amount)) }
  public func inset(by amount: CGFloat) -> _Inset<Base> { _Inset(base: base, amount: self.amount + amount) }
}

extension Rectangle: InsettableShape {
  public func inset(by amount: CGFloat) -> _Inset<Rectangle> { _Inset(base: self, amount: amount) }
}
extension RoundedRectangle: InsettableShape {
  /// Inset, with the corner radius reduced by as much (as SwiftUI's).
  public func inset(by amount: CGFloat) -> _Inset<RoundedRectangle> {
    _Inset(
      base: RoundedRectangle(
        cornerSize: CGSize(
          width: max(0, cornerSize.width - amount), height: max(0, cornerSize.height - amount)),
        style: style), amount: amount)
  }
}
extension Capsule: InsettableShape {
  public func inset(by amount: CGFloat) -> _Inset<Capsule> { _Inset(base: self, amount: amount) }
}
extension Circle: InsettableShape {
  public func inset(by amount: CGFloat) -> _Inset<Circle> { _Inset(base: self, amount: amount) }
}
extension Ellipse: InsettableShape {
  public func inset(by amount: CGFloat) -> _Inset<Ellipse> { _Inset(base: self, amount: amount) }
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

/// The corner radius that makes a layer's rounded bounds of `size` the shape, when one does: a
/// `LayerShape`'s, or half the side of a circle or an ellipse in a square (a round avatar clipped
/// by `.clipShape(Circle())` is then clipped as a layer with rounded corners, as UIKit code clips
/// it, instead of by a mask drawn offscreen).
func layerCornerRadius(of shape: any Shape, in size: CGSize) -> CGFloat? {
  if let ls = shape as? LayerShape { return ls.layerCornerRadius(in: size) }
  if size.width == size.height && (shape is Circle || shape is Ellipse) { return size.width / 2 }
  return nil
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
  /// Made by the first update, of the kind the shape and style need (a plain view, a gradient
  /// layer's or a shape layer's): a node made makes one view, not a plain one first.
  private var madeView: UIView?
  var view: UIView { madeView! }
  var shape: (any Shape)?
  /// The shape as a plain view's rounded corners, when it can be drawn as one (found when the
  /// shape changes, not at each update and placement).
  var layerShape: (any LayerShape)?
  var fill: Color?
  var gradient: LinearGradient?
  var stroke: StrokeStyle?
  var pathSize: CGSize?

  override var ownView: UIView? { madeView }

  /// Whether the node draws a solid colour over its whole frame with a plain view (no corner,
  /// no outline, no transform, fully shown): what a clipping parent can draw as its background.
  var isPlainFill: Bool {
    guard let v = madeView, type(of: v) == UIView.self, stroke == nil, fill != nil, v.layer.cornerRadius == 0
    else { return false }
    return v.alpha == 1 && v.transform == .identity && v.layer.mask == nil && v.layer.shadowOpacity == 0
  }

  func update(
    shape newShape: any Shape, style: any ShapeStyle, stroke newStroke: StrokeStyle?, _ ctx: UpdateContext
  ) {
    let color = style.solidColor(ctx.environment)
    let gradient = style as? LinearGradient
    // A shape of another type or other bytes: its path is made again, and its size asked again.
    var resized = false
    if !(shape.map { sameShape($0, newShape) } ?? false) {
      layerShape = newShape as? LayerShape
      pathSize = nil
      resized = true
    }
    let fast = newStroke == nil && color != nil && layerShape != nil
    let kind = fast ? 0 : (gradient != nil ? 1 : 2)
    let current = madeView.map { $0 is GradientHostView ? 1 : ($0 is ShapeHostView ? 2 : 0) } ?? -1
    let madeNew = kind != current
    if madeNew {
      let v = kind == 0 ? UIView() : (kind == 1 ? GradientHostView() : ShapeHostView())
      v.isUserInteractionEnabled = false
      madeView = v
      if parent != nil { structureChanged(ctx) }
      pathSize = nil
      resized = true
    }
    // A new stroke draws a new outline (made when placed).
    if newStroke != stroke { pathSize = nil }
    let newGradient = gradient != self.gradient
    let restyled = color != fill || newGradient || newStroke != stroke
    shape = newShape
    fill = color
    self.gradient = gradient
    stroke = newStroke
    if resized {
      invalidateLayout()
    } else if restyled {
      // A solid fill's colour and a new outline are applied when placed.
      setNeedsPlacement()
    }
    // A solid fill's colour is applied when placed (so that a change animates with the layout).
    // (A shape layer's colours and line are set when they change or the view is new.)
    if !fast, restyled || madeNew, let sv = view as? ShapeHostView {
      let l = sv.shapeLayer
      if let st = newStroke {
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
    } else if let gv = view as? GradientHostView, let g = gradient, newGradient || resized {
      g.apply(to: gv.gradientLayer)
      // A stroke's gradient points are moved out with its layer when placed (see `placeNode`).
      if stroke != nil { pathSize = nil }
    }
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    shape?.sizeThatFits(p) ?? p.replacingUnspecifiedDimensions()
  }

  override func placeNode(in rect: CGRect) {
    // A gradient stroke's layer reaches half the line beyond the frame, where the line goes.
    let out = gradient != nil ? (stroke?.lineWidth ?? 0) / 2 : 0
    super.placeNode(in: rect.insetBy(dx: -out, dy: -out))
    placedRect = rect
    if type(of: view) == UIView.self, let c = fill {
      let ui = c.uiColor
      if view.backgroundColor != ui { view.backgroundColor = ui }
    }
    guard pathSize != rect.size, let shape else { return }
    pathSize = rect.size
    let bounds = CGRect(origin: .zero, size: rect.size)
    if let ls = layerShape, stroke == nil {
      view.layer.cornerRadius = ls.layerCornerRadius(in: rect.size)
      if let gv = view as? GradientHostView { gv.layer.mask = nil }
      return
    }
    let path = shape.path(in: bounds).cgPath
    if let sv = view as? ShapeHostView {
      sv.shapeLayer.path = path
    } else if let gv = view as? GradientHostView {
      let m = (gv.layer.mask as? CAShapeLayer) ?? CAShapeLayer()
      m.frame = CGRect(x: out, y: out, width: rect.width, height: rect.height)
      m.path = path
      if let st = stroke {
        m.fillColor = nil
        m.strokeColor = UIColor.black.cgColor
        m.lineWidth = st.lineWidth
        m.lineCap = st.lineCap
        m.lineJoin = st.lineJoin
        m.miterLimit = st.miterLimit
      }
      gv.layer.mask = m
      if out > 0, let g = gradient {
        // The gradient's points stay where they are on the shape's frame.
        func f(_ u: CGFloat, _ l: CGFloat) -> CGFloat { (u * l + out) / (l + 2 * out) }
        gv.gradientLayer.startPoint = CGPoint(
          x: f(g.startPoint.x, rect.width), y: f(g.startPoint.y, rect.height))
        gv.gradientLayer.endPoint = CGPoint(x: f(g.endPoint.x, rect.width), y: f(g.endPoint.y, rect.height))
      }
    }
  }
}

extension _ShapeView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ShapeNode) ?? ShapeNode()
    n.update(shape: shape, style: style, stroke: stroke, ctx)
    return n
  }
}

extension Color: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ShapeNode) ?? ShapeNode()
    n.update(shape: Rectangle(), style: self, stroke: nil, ctx)
    return n
  }
}

/// The bytes of a shape value (its identity for the path: equal bytes, equal path).
/// Whether two shapes are of one type and have the same bytes (so draw the same).
func sameShape(_ a: any Shape, _ b: any Shape) -> Bool {
  func open<S: Shape>(_ x: S) -> Bool {
    guard let y = b as? S else { return false }
    return bytesEqual(x, y)
  }
  return open(a)
}

func shapeBytes(_ shape: any Shape) -> [UInt8] {
  func open<S: Shape>(_ s: S) -> [UInt8] { valueBytes(s) }
  return open(shape)
}
