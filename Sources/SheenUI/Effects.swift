import SheenKit

// MARK: - Background and overlay

public struct _BackgroundLayout<Content: View, Decoration: View>: View {
  let content: Content
  let decoration: Decoration
  let alignment: Alignment
  let isOverlay: Bool
  public typealias Body = Never
  public var body: Never { fatalError("_BackgroundLayout has no body") }
}

/// A view with another behind or in front of it: the content decides the size; the decoration
/// is offered that size and aligned on it.
final class DecorationNode: Node {
  var alignment = Alignment.center
  override var asksForBaselines: Bool { alignment.vertical.key.isBaseline }
  var contentIndex = 0
  var content: Node { children[contentIndex] }
  var decoration: Node { children[1 - contentIndex] }

  override func computeSize(_ p: ProposedViewSize) -> CGSize { content.sizeThatFits(p) }

  override func placeChildren(in rect: CGRect) {
    content.place(in: rect)
    let s = decoration.sizeThatFits(ProposedViewSize(rect.size))
    // The decoration's guides on the content's (explicit ones included on both sides).
    let x =
      rect.minX + content.alignmentValue(alignment.horizontal.key, rect.size)
      - decoration.alignmentValue(alignment.horizontal.key, s)
    let y =
      rect.minY + content.alignmentValue(alignment.vertical.key, rect.size)
      - decoration.alignmentValue(alignment.vertical.key, s)
    decoration.place(in: CGRect(x: x, y: y, width: s.width, height: s.height))
  }

  /// The content's guides are the view's.
  override func computeExplicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    children.count == 2 ? content.explicitAlignment(key, size) : nil
  }
}

extension _BackgroundLayout: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? DecorationNode) ?? DecorationNode()
    // Drawing order: a background before the content, an overlay after it.
    let ci = isOverlay ? 0 : 1
    // Children that come or go lay it out again (`setChild`); so does a new alignment.
    if n.alignment != alignment || n.contentIndex != ci {
      n.alignment = alignment
      n.contentIndex = ci
      n.invalidateLayout()
    }
    let oldContent = n.children.count == 2 ? n.children[ci] : nil
    let oldDecoration = n.children.count == 2 ? n.children[1 - ci] : nil
    let c = SheenUI.reconcile(oldContent, content, ctx)
    let d = SheenUI.reconcile(oldDecoration, decoration, ctx)
    n.setChild(0, isOverlay ? c : d, ctx)
    n.setChild(1, isOverlay ? d : c, ctx)
    return n
  }
}

extension View {
  /// `view` behind this one, offered this view's size.
  public func background<Background: View>(_ view: Background, alignment: Alignment = .center)
    -> _BackgroundLayout<Self, Background>
  {
    _BackgroundLayout(content: self, decoration: view, alignment: alignment, isOverlay: false)
  }
  public func background<Background: View>(
    alignment: Alignment = .center, @ViewBuilder content: () -> Background
  )
    -> _BackgroundLayout<Self, Background>
  {
    background(content(), alignment: alignment)
  }
  /// A shape filled with `style` behind this view (`background(_:in:)`).
  public func background<S: ShapeStyle, Sh: Shape>(_ style: S, in shape: Sh) -> _BackgroundLayout<
    Self, _ShapeView<Sh, S>
  > {
    background(shape.fill(style))
  }
  /// `view` in front of this one, offered this view's size.
  public func overlay<Overlay: View>(_ view: Overlay, alignment: Alignment = .center)
    -> _BackgroundLayout<Self, Overlay>
  {
    _BackgroundLayout(content: self, decoration: view, alignment: alignment, isOverlay: true)
  }
  public func overlay<Overlay: View>(alignment: Alignment = .center, @ViewBuilder content: () -> Overlay)
    -> _BackgroundLayout<Self, Overlay>
  {
    overlay(content(), alignment: alignment)
  }
}

// MARK: - Effects drawn by a view of their own

/// What an effect node's view does to what it contains.
enum Effect {
  case clip(any Shape)
  case opacity(Double)
  case shadow(Color, CGFloat, CGFloat, CGFloat)
  case scale(CGFloat, CGFloat, UnitPoint)
}

public struct _EffectView<Content: View>: View {
  let content: Content
  let effect: Effect
  public typealias Body = Never
  public var body: Never { fatalError("_EffectView has no body") }
}

/// Whether two effects do the same (a clip: the same shape, type and bytes).
func sameEffect(_ a: Effect, _ b: Effect) -> Bool {
  switch (a, b) {
  case (.clip(let x), .clip(let y)): return sameShape(x, y)
  case (.opacity(let x), .opacity(let y)): return x == y
  case (.shadow(let c, let r, let x, let y), .shadow(let c2, let r2, let x2, let y2)):
    return c == c2 && r == r2 && x == x2 && y == y2
  case (.scale(let x, let y, let a), .scale(let x2, let y2, let a2)): return x == x2 && y == y2 && a == a2
  default: return false
  }
}

/// A node whose view groups its content to clip it, fade it, shadow it or scale it.
final class EffectNode: Node {
  let view = UIView()
  var effect: Effect = .opacity(1)
  var clipSize: CGSize?
  /// The clip shape last applied (a new one of another type or other bytes is laid out again).
  var clipShape: (any Shape)?

  override init() {
    super.init()
    view.backgroundColor = nil
    view.isOpaque = false
  }

  override var ownView: UIView? { view }

  func apply(_ e: Effect) {
    if case .clip(let shape) = e {
      if clipShape.map({ !sameShape($0, shape) }) ?? true { clipSize = nil }
      clipShape = shape
    }
    // Applied when placed: a new effect places this node again.
    if !sameEffect(effect, e) { setNeedsPlacement() }
    effect = e
  }

  private var shadowPathKey: [UInt8]?

  /// A shadow of one opaque solid shape filling the frame is that shape's: it is given as the
  /// layer's `shadowPath` (blurred once per shape and size, as UIKit code does by hand) rather
  /// than taken from the pixels drawn. The picture is the same.
  private func updateShadowPath(_ size: CGSize) {
    var n: Node? = children.count == 1 ? children[0] : nil
    while let x = n, !(x is ShapeNode), x.ownView == nil, x.children.count == 1 { n = x.children[0] }
    guard let shapeNode = n as? ShapeNode, let shape = shapeNode.shape, shapeNode.stroke == nil,
      let fill = shapeNode.fill, fill.alpha >= 1, shapeNode.placedRect == CGRect(origin: .zero, size: size)
    else {
      if shadowPathKey != nil {
        shadowPathKey = nil
        view.layer.shadowPath = nil
      }
      return
    }
    let key = shapeBytes(shape) + valueBytes(size)
    guard key != shadowPathKey else { return }
    shadowPathKey = key
    view.layer.shadowPath = shape.path(in: CGRect(origin: .zero, size: size)).cgPath
  }

  /// The view of the fill that is this clip's background (see `foldBackground`), hidden while
  /// it is (the view, not its node: a node taken out of the tree may be gone).
  private var folded: UIView?

  /// A clip whose content begins with a solid colour filling all of it (a card's
  /// `ZStack { Color.white ... }.cornerRadius(16)`) draws that colour as its own view's
  /// background, as a UIKit view with a background colour and a corner radius does: one layer
  /// clipped and filled, instead of a clipping group and a layer of the colour inside it. The
  /// picture is the same (the colour's view is hidden while its colour is the background).
  private func foldBackground(_ size: CGSize) {
    var candidate: ShapeNode?
    if case .clip = effect {
      var n: Node? = children.first
      while let x = n, x.ownView == nil { n = x.children.first }
      if let s = n as? ShapeNode, s.isPlainFill, s.placedRect == CGRect(origin: .zero, size: size) {
        candidate = s
      }
    }
    if let f = folded, f !== candidate?.view {
      f.isHidden = false
      folded = nil
    }
    guard let c = candidate, let fill = c.fill else {
      if view.backgroundColor != nil { view.backgroundColor = nil }
      return
    }
    let ui = fill.uiColor
    if view.backgroundColor != ui { view.backgroundColor = ui }
    if !c.view.isHidden { c.view.isHidden = true }
    folded = c.view
  }

  /// Applies the effect when the node is placed, so that a change animates with the layout.
  override func placeNode(in rect: CGRect) {
    super.placeNode(in: rect)
    foldBackground(rect.size)
    switch effect {
    case .clip(let shape):
      guard clipSize != rect.size else { return }
      clipSize = rect.size
      view.clipsToBounds = true
      if let r = layerCornerRadius(of: shape, in: rect.size) {
        view.layer.cornerRadius = r
        view.layer.mask = nil
      } else {
        view.layer.cornerRadius = 0
        let m = (view.layer.mask as? CAShapeLayer) ?? CAShapeLayer()
        m.path = shape.path(in: CGRect(origin: .zero, size: rect.size)).cgPath
        view.layer.mask = m
      }
    case .opacity(let a):
      if view.alpha != CGFloat(a) { view.alpha = CGFloat(a) }
    case .shadow(let c, let r, let x, let y):
      let l = view.layer
      updateShadowPath(rect.size)
      let color = c.cgColor
      if l.shadowColor != color { l.shadowColor = color }
      if l.shadowOpacity != 1 { l.shadowOpacity = 1 }
      if l.shadowRadius != r { l.shadowRadius = r }
      let o = CGSize(width: x, height: y)
      if l.shadowOffset != o { l.shadowOffset = o }
    case .scale(let sx, let sy, let anchor):
      // About the anchor: the view's transform is about its centre.
      let dx = (anchor.x - 0.5) * rect.width
      let dy = (anchor.y - 0.5) * rect.height
      let t = CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: dx - sx * dx, ty: dy - sy * dy)
      if view.transform != t { view.transform = t }
    }
  }
}

extension _EffectView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? EffectNode) ?? EffectNode()
    n.apply(effect)
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// Clips the view (and what it contains) to `shape` in its frame.
  public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> _EffectView<Self> {
    _EffectView(content: self, effect: .clip(shape))
  }
  /// Clips the view to its frame.
  public func clipped(antialiased: Bool = false) -> _EffectView<Self> { clipShape(Rectangle()) }
  /// Clips the view to a rounded rectangle of radius `radius`.
  public func cornerRadius(_ radius: CGFloat, antialiased: Bool = true) -> _EffectView<Self> {
    clipShape(RoundedRectangle(cornerRadius: radius))
  }
  /// A shadow of everything the view draws (its alpha), blurred by `radius` as a layer's
  /// `shadowRadius` and moved by (`x`, `y`). SwiftUI's default colour: black at 33%.
  public func shadow(
    color: Color = Color(white: 0, opacity: 0.33), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0
  )
    -> _EffectView<Self>
  {
    _EffectView(content: self, effect: .shadow(color, radius, x, y))
  }
  /// The view and its contents drawn at `opacity`, as one group.
  public func opacity(_ opacity: Double) -> _EffectView<Self> {
    _EffectView(content: self, effect: .opacity(max(0, min(1, opacity))))
  }
  /// Scales how the view is drawn (not its layout) about `anchor`.
  public func scaleEffect(_ scale: CGFloat, anchor: UnitPoint = .center) -> _EffectView<Self> {
    _EffectView(content: self, effect: .scale(scale, scale, anchor))
  }
  public func scaleEffect(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> _EffectView<Self> {
    _EffectView(content: self, effect: .scale(x, y, anchor))
  }
  public func scaleEffect(_ s: CGSize, anchor: UnitPoint = .center) -> _EffectView<Self> {
    _EffectView(content: self, effect: .scale(s.width, s.height, anchor))
  }
}

/// How a path is filled (SwiftUI's `FillStyle`); SheenUI clips with non-zero winding.
public struct FillStyle: Hashable, Sendable {
  public var isEOFilled: Bool
  public var isAntialiased: Bool
  public init(eoFill: Bool = false, antialiased: Bool = true) {
    isEOFilled = eoFill
    isAntialiased = antialiased
  }
}

// MARK: - Offset

public struct _OffsetEffect<Content: View>: View {
  let content: Content
  let offset: CGSize
  public typealias Body = Never
  public var body: Never { fatalError("_OffsetEffect has no body") }
}

/// Moves where the content is drawn without changing the layout.
final class OffsetNode: Node {
  var offset = CGSize.zero
  override func placeChildren(in rect: CGRect) {
    children.first?.place(in: rect.offsetBy(dx: offset.width, dy: offset.height))
  }
}

extension _OffsetEffect: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? OffsetNode) ?? OffsetNode()
    if n.offset != offset {
      n.offset = offset
      n.invalidateLayout()
    }
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// Draws the view moved by `offset`; its layout does not change.
  public func offset(_ offset: CGSize) -> _OffsetEffect<Self> { _OffsetEffect(content: self, offset: offset) }
  public func offset(x: CGFloat = 0, y: CGFloat = 0) -> _OffsetEffect<Self> {
    offset(CGSize(width: x, height: y))
  }
}
