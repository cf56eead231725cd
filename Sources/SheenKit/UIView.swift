import Foundation
import SheenLayers
import SheenPlatform
import SheenRaster
import Synchronization

/// A rectangle on screen that draws through its layer and receives touches (UIKit's `UIView`).
///
/// Geometry follows UIKit: `center`, `bounds` (whose origin shifts the subviews) and `transform`
/// about the center; `frame` is derived from them. The view's layer is a `CALayer` face over a
/// real SheenLayers layer; animatable properties keep their model value here while the layer
/// shows the animation.
///
/// Unlike UIKit:
/// - `autoresizingMask` shares a size change equally among the flexible parts instead of in
///   proportion;
/// - `init?(coder:)` exists so that subclasses compile, but always returns nil;
/// - a point inside the bounds but in a corner cut away by a rounded clip (`clipsToBounds` with
///   a `cornerRadius`) misses the view;
/// - a non-zero `bounds.origin` shifts subviews' layers, but not other sublayers (except in a
///   `UIScrollView`, whose content layer moves as a whole).
open class UIView: UIResponder {
  /// The class of the layer `init(frame:)` creates: `CALayer` or a subclass.
  open class var layerClass: AnyClass { CALayer.self }

  /// The view's layer: a face over the real layer that draws the view.
  public let layer: CALayer

  var centerModel = CGPoint.zero
  var boundsModel = CGRect.zero
  var transformModel = CGAffineTransform.identity
  var alphaModel: CGFloat = 1
  var backgroundColorModel: UIColor?
  var animations: [AnimationKey: PropertyAnimation] = [:] {
    didSet { if !animations.isEmpty { setMayMove() } }
  }
  /// Whether an animation or other motion may run in this subtree: false means that advancing
  /// it to a new time would do nothing, so a frame skips it (a list of thousands of views walks
  /// only the paths to what moves). When true on a view, true on all its ancestors.
  var subtreeMayMove = false
  /// Bumped whenever motion starts anywhere: a walk that saw it bumped keeps its flags. Atomic:
  /// views on other threads (tests run in parallel) bump it too.
  static let motionStarts = Atomic<Int>(0)
  var needsLayout = true
  var subtreeNeedsLayout = true
  /// Auto Layout's variables and constraints for this view, made when first used.
  var layoutStateStorage: LayoutItemState?
  /// The controller whose view this is.
  weak var viewController: UIViewController?
  private var appliedSublayerOffset = CGPoint.zero

  public private(set) var subviews: [UIView] = []
  public private(set) weak var superview: UIView?

  public init(frame: CGRect) {
    let cls = (Self.layerClass as? CALayer.Type) ?? CALayer.self
    layer = cls.init()
    super.init()
    layer.view = self
    centerModel = CGPoint(x: frame.midX, y: frame.midY)
    boundsModel = CGRect(origin: .zero, size: frame.standardized.size)
    applyGeometry()
    // Drawn (`draw(_:)`) when it first shows.
    layer.displayState.needsDisplay = true
    layer.displayState.subtreeNeedsDisplay = true
  }

  public convenience override init() { self.init(frame: .zero) }

  /// Unlike UIKit, there are no archives (storyboards, nibs): this always returns nil.
  public required init?(coder: NSCoder) { return nil }

  deinit {
    // The real layers keep their faces alive (`Layer.owner`); a face keeps its layer. Break
    // those cycles in this view's part of the tree: every layer whose face has no live view.
    func release(_ l: Layer) {
      if let f = l.owner as? CALayer, f.view != nil { return }
      l.owner = nil
      for s in l.sublayers { release(s) }
      if let m = l.mask { release(m) }
    }
    release(layer.sheenLayer)
  }

  /// The view's controller, if it is one's view; otherwise the superview.
  open override var next: UIResponder? { viewController ?? superview }

  /// Called when a view comes out of an archive; never in Sheen, but subclasses may override it.
  open func awakeFromNib() {}

  // MARK: Geometry

  /// The view's rectangle in its superview's coordinates: the bounds' size around `center`,
  /// or, with a transform, the bounding box of the transformed bounds.
  open var frame: CGRect {
    get {
      let s = boundsModel.size
      let local = CGRect(x: -s.width / 2, y: -s.height / 2, width: s.width, height: s.height)
      let r = transformModel.isIdentity ? local : local.applying(transformModel)
      return r.offsetBy(dx: centerModel.x, dy: centerModel.y)
    }
    set {
      let r = newValue.standardized
      center = CGPoint(x: r.midX, y: r.midY)
      var b = bounds
      b.size = r.size
      bounds = b
    }
  }

  /// The view's own coordinates: its origin is what the top-left corner shows (a scroll view's
  /// content offset), its size the view's size.
  open var bounds: CGRect {
    get { boundsModel }
    set {
      let new = newValue.standardized
      guard new != boundsModel else { return }
      animatableWillChange(.bounds)
      let old = boundsModel
      boundsModel = new
      if old.size != new.size {
        setNeedsLayout()
        autoresizeSubviews(from: old.size)
        if layoutStateStorage != nil { LayoutEngine.frameDidChange(self) }
        if contentMode == .redraw || layer.needsDisplayOnBoundsChange { setNeedsDisplay() }
      }
      applyGeometry()
      if old.origin != new.origin { boundsOriginDidChange() }
    }
  }

  /// The center of the frame, in the superview's coordinates.
  open var center: CGPoint {
    get { centerModel }
    set {
      guard newValue != centerModel else { return }
      animatableWillChange(.center)
      centerModel = newValue
      applyGeometry()
      if layoutStateStorage != nil { LayoutEngine.frameDidChange(self) }
    }
  }

  /// Applied about the center. Unlike UIKit, a skew is approximated by scale and rotation.
  open var transform: CGAffineTransform {
    get { transformModel }
    set {
      guard newValue != transformModel else { return }
      animatableWillChange(.transform)
      transformModel = newValue
      applyPresentation(.transform, presentationVector(.transform))
    }
  }

  /// Opacity of the view and its subviews, as one group.
  open var alpha: CGFloat {
    get { alphaModel }
    set {
      guard newValue != alphaModel else { return }
      animatableWillChange(.alpha)
      alphaModel = newValue
      applyPresentation(.alpha, presentationVector(.alpha))
    }
  }

  open var backgroundColor: UIColor? {
    get { backgroundColorModel }
    set {
      animatableWillChange(.backgroundColor)
      backgroundColorModel = newValue
      if animations[.backgroundColor] == nil { layer.sheenLayer.backgroundColor = newValue?.color }
    }
  }

  open var isHidden: Bool {
    get { layer.sheenLayer.isHidden }
    set {
      guard newValue != layer.sheenLayer.isHidden else { return }
      layer.sheenLayer.isHidden = newValue
      (superview as? UIStackView)?.arrangedSubviewVisibilityDidChange(self)
    }
  }

  /// The layer's `masksToBounds`: subviews are clipped to the (rounded) bounds.
  open var clipsToBounds: Bool {
    get { layer.sheenLayer.masksToBounds }
    set { layer.sheenLayer.masksToBounds = newValue }
  }

  open var tag = 0
  open var isUserInteractionEnabled = true
  /// The cursor shown while the pointer is over this view (nil: the superview's; the arrow at
  /// the top). Unlike UIKit, which has `UIPointerInteraction` for this on iPad, a desktop
  /// window has a cursor everywhere: controls show a pointing hand by default.
  open var pointerCursor: CursorShape?
  open var isMultipleTouchEnabled = false
  open var isOpaque = true
  open var tintColor: UIColor! = .systemBlue
  /// How the layer's contents (an image view's image) are placed: the layer's `contentsGravity`.
  open var contentMode = UIViewContentMode.scaleToFill {
    didSet { layer.sheenLayer.contentsGravity = contentMode.gravity }
  }
  open var autoresizingMask: UIViewAutoresizing = []
  open var autoresizesSubviews = true
  /// True (the default): the view's frame is set by code (or its autoresizing mask) and Auto
  /// Layout treats it as fixed. False: constraints place the view, and its superview's
  /// `layoutSubviews` sets its frame from them.
  open var translatesAutoresizingMaskIntoConstraints = true {
    didSet {
      if translatesAutoresizingMaskIntoConstraints != oldValue { LayoutEngine.translatesDidChange(self) }
    }
  }
  /// Always zero: Sheen's windows have no unsafe areas.
  open var safeAreaInsets: UIEdgeInsets { .zero }
  /// The margins `layoutMarginsGuide` keeps inside the bounds (8 points on each side).
  open var layoutMargins = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8) {
    didSet { layoutStateStorage?.marginsGuide?.insetsDidChange() }
  }

  /// The offset a view's sublayers are drawn at: minus the bounds' origin.
  var sublayerOffset: CGPoint { presentedBounds.origin }

  /// The center shown now: the model's, or an animation's current value (no array is made when
  /// nothing animates: scrolling moves thousands of views a second).
  var presentedCenter: CGPoint {
    guard !animations.isEmpty, let c = animations[.center]?.current else { return centerModel }
    return CGPoint(x: c[0], y: c[1])
  }

  /// The bounds shown now (see `presentedCenter`).
  var presentedBounds: CGRect {
    guard !animations.isEmpty, let b = animations[.bounds]?.current else { return boundsModel }
    return CGRect(x: b[0], y: b[1], width: b[2], height: b[3])
  }

  /// Puts the real layer where the (presentation) center and bounds say.
  func applyGeometry() {
    let c = presentedCenter
    let b = presentedBounds
    let off = superview?.sublayerOffset ?? .zero
    layer.sheenLayer.frame = Rect(
      x: Double(c.x - b.width / 2 - off.x), y: Double(c.y - b.height / 2 - off.y), width: Double(b.width),
      height: Double(b.height))
    let o = sublayerOffset
    if o != appliedSublayerOffset {
      appliedSublayerOffset = o
      boundsOriginDidChange()
    }
  }

  /// The bounds' origin moved: shift what shows the content.
  func boundsOriginDidChange() {
    for s in subviews { s.applyGeometry() }
  }

  private func autoresizeSubviews(from old: CGSize) {
    guard autoresizesSubviews else { return }
    let dw = boundsModel.width - old.width
    let dh = boundsModel.height - old.height
    for s in subviews where !s.autoresizingMask.isEmpty {
      let m = s.autoresizingMask
      var f = s.frame
      func share(_ d: CGFloat, _ lead: Bool, _ size: Bool, _ trail: Bool) -> (CGFloat, CGFloat) {
        let n = CGFloat([lead, size, trail].filter { $0 }.count)
        guard n > 0 else { return (0, 0) }
        let part = d / n
        return ((lead ? part : 0), (size ? part : 0))
      }
      let (mx, sw) = share(
        dw, m.contains(.flexibleLeftMargin), m.contains(.flexibleWidth), m.contains(.flexibleRightMargin))
      let (my, sh) = share(
        dh, m.contains(.flexibleTopMargin), m.contains(.flexibleHeight), m.contains(.flexibleBottomMargin))
      f.origin.x += mx
      f.origin.y += my
      f.size.width += sw
      f.size.height += sh
      s.frame = f
    }
  }

  // MARK: Hierarchy

  /// The window at the root of this view's tree, if any.
  open var window: UIWindow? {
    var v: UIView? = self
    while let x = v {
      if let w = x as? UIWindow { return w }
      v = x.superview
    }
    return nil
  }

  open func addSubview(_ view: UIView) { insertSubview(view, at: subviews.count) }

  /// Inserts at an index of `subviews` (0 is the back); the layer goes below the next sibling's.
  open func insertSubview(_ view: UIView, at index: Int) {
    guard view !== self else { return }
    if view.superview === self, let i = subviews.firstIndex(where: { $0 === view }) {
      subviews.remove(at: i)
    } else {
      view.removeFromSuperview()
      view.willMove(toSuperview: self)
    }
    let i = max(0, min(index, subviews.count))
    subviews.insert(view, at: i)
    let isNew = view.superview !== self
    view.superview = self
    if view.subtreeMayMove { setMayMove() }
    let host = layer.sublayerHost
    if i + 1 < subviews.count {
      host.insertSublayer(view.layer.sheenLayer, below: subviews[i + 1].layer.sheenLayer)
    } else {
      host.addSublayer(view.layer.sheenLayer)
    }
    view.applyGeometry()
    if view.subtreeNeedsLayout { view.propagateLayoutFlag() }
    view.layer.didMoveIntoTree()
    setNeedsLayout()
    if isNew, view.layoutStateStorage?.hostedEngine != nil { LayoutEngine.viewDidJoin(view) }
    if isNew {
      didAddSubview(view)
      view.didMoveToSuperview()
      if let w = window {
        view.didMoveToWindow()
        view.notifyAppearance(true, window: w)
      }
    }
  }

  open func insertSubview(_ view: UIView, belowSubview sibling: UIView) {
    insertSubview(view, at: subviews.firstIndex { $0 === sibling } ?? 0)
  }

  open func insertSubview(_ view: UIView, aboveSubview sibling: UIView) {
    insertSubview(view, at: subviews.firstIndex { $0 === sibling }.map { $0 + 1 } ?? subviews.count)
  }

  open func bringSubviewToFront(_ view: UIView) {
    guard view.superview === self else { return }
    insertSubview(view, at: subviews.count)
  }

  open func sendSubviewToBack(_ view: UIView) {
    guard view.superview === self else { return }
    insertSubview(view, at: 0)
  }

  open func removeFromSuperview() {
    guard let s = superview else { return }
    let oldWindow = window
    if let oldWindow { notifyAppearance(false, window: oldWindow) }
    s.willRemoveSubview(self)
    willMove(toSuperview: nil)
    let engine = LayoutEngine.existingEngine(for: s)
    s.subviews.removeAll { $0 === self }
    layer.sheenLayer.removeFromSuperlayer()
    superview = nil
    if let engine { LayoutEngine.viewDidLeave(self, engine: engine) }
    s.setNeedsLayout()
    didMoveToSuperview()
    oldWindow?.finishAppearance()
  }

  open func didAddSubview(_ subview: UIView) {}
  open func willRemoveSubview(_ subview: UIView) {}
  open func willMove(toSuperview newSuperview: UIView?) {}
  open func didMoveToSuperview() {}
  open func didMoveToWindow() {}

  public func isDescendant(of view: UIView) -> Bool {
    var v: UIView? = self
    while let x = v {
      if x === view { return true }
      v = x.superview
    }
    return false
  }

  /// The first view in this subtree (self included, depth first) with `tag`.
  public func viewWithTag(_ tag: Int) -> UIView? {
    if self.tag == tag { return self }
    for s in subviews {
      if let v = s.viewWithTag(tag) { return v }
    }
    return nil
  }

  // MARK: Layout

  /// Asks for `layoutSubviews` before the next frame is drawn.
  open func setNeedsLayout() {
    needsLayout = true
    propagateLayoutFlag()
  }

  func propagateLayoutFlag() {
    subtreeNeedsLayout = true
    var v = superview
    while let x = v, !x.subtreeNeedsLayout {
      x.subtreeNeedsLayout = true
      v = x.superview
    }
  }

  /// Lays out this view and its subviews now if any of them asked for it (constraints are
  /// updated and solved first).
  open func layoutIfNeeded() {
    guard subtreeNeedsLayout else { return }
    if let engine = LayoutEngine.existingEngine(for: self) {
      updateConstraintsIfNeeded()
      engine.solve()
    }
    layoutSubtree()
  }

  private func layoutSubtree() {
    var passes = 0
    // A layout that invalidates an ancestor's layout runs again, a bounded number of times.
    while subtreeNeedsLayout && passes < 8 {
      subtreeNeedsLayout = false
      if needsLayout {
        needsLayout = false
        if layoutStateStorage?.needsUpdateConstraints == true { updateConstraintsIfNeeded() }
        let controller = viewController
        controller?.viewWillLayoutSubviews()
        layoutSubviews()
        controller?.viewDidLayoutSubviews()
      }
      for s in subviews where s.subtreeNeedsLayout { s.layoutSubtree() }
      passes += 1
    }
  }

  /// Override to set the subviews' frames; called before drawing after `setNeedsLayout`, after a
  /// change of size, and when the view first appears. UIView's own sets the frames of the
  /// subviews that constraints place (`translatesAutoresizingMaskIntoConstraints` false): call
  /// `super`.
  open func layoutSubviews() { applyEngineFrames() }

  /// Override to add or change constraints; called before layout after
  /// `setNeedsUpdateConstraints`. Call `super` last.
  open func updateConstraints() {
    layoutStateStorage?.needsUpdateConstraints = false
  }

  /// Tells the layout that `intrinsicContentSize` changed: the view's hugging and compression
  /// constraints follow (when the engine places it), and its superview lays out again.
  open func invalidateIntrinsicContentSize() {
    if !translatesAutoresizingMaskIntoConstraints, let state = layoutStateIfAny, state.hasVariables {
      LayoutEngine.engine(for: self).updateIntrinsic(self)
      state.intrinsicWidth = bounds.width
    }
    superview?.setNeedsLayout()
  }

  // MARK: Drawing

  /// Override to draw the view's content with `UIGraphicsGetCurrentContext()` (or UIKit's
  /// drawing helpers) in the view's coordinates, within `rect`: called when the view first
  /// shows, after `setNeedsDisplay()` and, with `contentMode = .redraw`, after a change of size.
  /// What it draws is kept (at the window's scale) until the view is marked again. Nothing by
  /// default (and a view that draws nothing is not counted as drawn: `UIWindow.displayCount`).
  open func draw(_ rect: CGRect) { layer.displayState.ranEmptyDraw = true }

  /// Asks for `draw(_:)` before the next frame.
  open func setNeedsDisplay() { layer.setNeedsDisplay() }

  /// Asks for `draw(_:)` of the part `rect` before the next frame (the rest is kept).
  open func setNeedsDisplay(_ rect: CGRect) { layer.setNeedsDisplay(rect) }

  /// The layer's delegate call: makes `ctx` current and calls `draw(_:)` with the part to draw.
  open func draw(_ layer: CALayer, in ctx: CGContext) {
    let b = bounds
    let rect = layer.displayState.dirty.map { $0.offsetBy(dx: b.minX, dy: b.minY) } ?? b
    // (The context is left untouched when the bounds start at zero: a view that draws nothing
    // then costs no bitmap.)
    let shifted = b.minX != 0 || b.minY != 0
    if shifted {
      ctx.saveGState()
      ctx.translateBy(x: -b.minX, y: -b.minY)
    }
    withCurrentContext(ctx) { draw(rect) }
    if shifted { ctx.restoreGState() }
  }

  /// The size the view would like within `size`; the current size by default.
  open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }

  /// Resizes the view to `sizeThatFits` its current size.
  open func sizeToFit() {
    var f = frame
    f.size = sizeThatFits(bounds.size)
    frame = f
  }

  public static let noIntrinsicMetric: CGFloat = -1
  open var intrinsicContentSize: CGSize {
    CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)
  }

  // MARK: Coordinates and hit testing

  /// Maps a point from this view's coordinates to its superview's.
  func convertToSuperview(_ p: CGPoint) -> CGPoint {
    let b = boundsModel
    let v = CGPoint(x: p.x - b.midX, y: p.y - b.midY)
    let t = transformModel
    return CGPoint(
      x: centerModel.x + t.a * v.x + t.c * v.y + t.tx, y: centerModel.y + t.b * v.x + t.d * v.y + t.ty)
  }

  /// Maps a point from the superview's coordinates to this view's.
  func convertFromSuperview(_ p: CGPoint) -> CGPoint {
    let b = boundsModel
    let t = transformModel.inverted()
    let v = CGPoint(x: p.x - centerModel.x - transformModel.tx, y: p.y - centerModel.y - transformModel.ty)
    return CGPoint(x: b.midX + t.a * v.x + t.c * v.y, y: b.midY + t.b * v.x + t.d * v.y)
  }

  /// Maps a point to the root view's coordinates.
  func convertToWindow(_ p: CGPoint) -> CGPoint {
    var p = p
    var v: UIView = self
    while let s = v.superview {
      p = v.convertToSuperview(p)
      v = s
    }
    return p
  }

  /// Maps a point from the root view's coordinates.
  func convertFromWindow(_ p: CGPoint) -> CGPoint {
    guard let s = superview else { return p }
    return convertFromSuperview(s.convertFromWindow(p))
  }

  /// Maps a point in this view's coordinates to `view`'s (to the root's when nil).
  public func convert(_ point: CGPoint, to view: UIView?) -> CGPoint {
    let w = convertToWindow(point)
    return view?.convertFromWindow(w) ?? w
  }

  /// Maps a point in `view`'s coordinates (the root's when nil) to this view's.
  public func convert(_ point: CGPoint, from view: UIView?) -> CGPoint {
    convertFromWindow(view?.convertToWindow(point) ?? point)
  }

  /// The bounding box of a rectangle mapped to `view`'s coordinates.
  public func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
    boundingBox(
      [
        CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
        CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY),
      ].map { convert($0, to: view) })
  }

  public func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
    boundingBox(
      [
        CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
        CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY),
      ].map { convert($0, from: view) })
  }

  private func boundingBox(_ pts: [CGPoint]) -> CGRect {
    let xs = pts.map(\.x)
    let ys = pts.map(\.y)
    return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
  }

  /// The frontmost descendant (or self) containing `point` (in this view's coordinates) that
  /// takes touches: hidden views, views with touches disabled or alpha below 0.01 are skipped,
  /// and a point outside a view misses its subviews too, as in UIKit.
  open func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
    guard isUserInteractionEnabled, !isHidden, alpha >= 0.01, self.point(inside: point, with: event) else {
      return nil
    }
    for s in subviews.reversed() {
      if let hit = s.hitTest(s.convertFromSuperview(point), with: event) { return hit }
    }
    return self
  }

  /// Whether `point` (in this view's coordinates) is inside the bounds (and, when the view
  /// clips to rounded corners, inside the rounded shape).
  open func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
    let b = boundsModel
    guard point.x >= b.minX, point.y >= b.minY, point.x < b.maxX, point.y < b.maxY else { return false }
    let l = layer.sheenLayer
    if l.masksToBounds && l.cornerRadius > 0 {
      return l.containsInRoundedBounds(Point(x: Double(point.x - b.minX), y: Double(point.y - b.minY)))
    }
    return true
  }

  // MARK: Frame updates

  /// Advances animations and other motion in this subtree to `now`; returns whether anything
  /// still moves.
  func advanceSubtree(to now: Double) -> Bool {
    guard subtreeMayMove else { return false }
    let starts = UIView.motionStarts.load(ordering: .relaxed)
    var moving = advanceAnimations(to: now)
    if advanceOwnMotion(to: now) { moving = true }
    for s in subviews where s.subtreeMayMove && s.advanceSubtree(to: now) { moving = true }
    // Nothing moves here any more, and nothing started moving meanwhile (a completion may start
    // an animation in a part of the subtree already walked): skip this subtree from now on.
    if !moving && UIView.motionStarts.load(ordering: .relaxed) == starts { subtreeMayMove = false }
    return moving
  }

  /// Records that motion may run in this view: marks it and its ancestors.
  func setMayMove() {
    UIView.motionStarts.add(1, ordering: .relaxed)
    var v: UIView? = self
    while let x = v, !x.subtreeMayMove {
      x.subtreeMayMove = true
      v = x.superview
    }
  }

  /// Motion other than block animations (a scroll view's deceleration); none by default.
  func advanceOwnMotion(to now: Double) -> Bool { false }

  /// Whether an animation or other motion runs anywhere in this subtree.
  func subtreeIsMoving() -> Bool {
    if !animations.isEmpty || hasOwnMotion { return true }
    return subviews.contains { $0.subtreeIsMoving() }
  }

  var hasOwnMotion: Bool { false }
}
