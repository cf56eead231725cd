import Foundation
import SheenLayers
import SheenRaster

/// Which corners `cornerRadius` rounds (Core Animation's `CACornerMask`).
public struct CACornerMask: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
  public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
  public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
  public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)

  var sheen: CornerMask { CornerMask(rawValue: UInt8(rawValue & 0xF)) }
  init(_ m: CornerMask) { self.init(rawValue: UInt(m.rawValue)) }
}

/// Marks layers that views create for their own drawing (a label's text, a scroll view's
/// content): they are drawn but not listed in `sublayers`, as UIKit's private layers.
final class InternalLayerMarker: Sendable {
  static let shared = InternalLayerMarker()
}

/// A layer (Core Animation's `CALayer`): a face over SheenLayers' real `Layer`, which holds every
/// property. The real layer keeps its face alive (`Layer.owner`), so `sublayers` returns the very
/// faces that were inserted, subclass and stored properties included.
///
/// Unlike Core Animation:
/// - layer properties set outside a `UIView.animate` block change at once (no implicit
///   animations); inside a block, the view's own layer animates `cornerRadius`, `borderWidth`
///   and the shadow's opacity, radius and offset;
/// - `bounds.origin` is always zero, and `zPosition` is stored but not used for ordering;
/// - `init()` is `required`, so that `UIView.layerClass` can create any subclass; a subclass
///   with initialisers of its own must also implement `required init()`.
open class CALayer {
  /// The real layer this face presents.
  public let sheenLayer: Layer
  /// The view whose layer this is (UIKit makes the view the layer's delegate).
  weak var view: UIView?
  /// Where sublayers go: the layer itself, or a scroll view's content layer.
  var sublayerHost: Layer
  /// Draws the content of a layer that is not a view's (a view draws its own layer).
  open weak var delegate: CALayerDelegate?
  /// Whether `display()` is due, here or below (see CALayer+Display.swift).
  var displayState = DisplayState()

  /// Presents `layer`, which must not have a face yet.
  init(presenting layer: Layer) {
    sheenLayer = layer
    sublayerHost = layer
    layer.owner = self
  }

  /// A face over a new real layer of the class's kind (`makeSheenLayer()`).
  public required init() {
    let l = Self.makeSheenLayer()
    sheenLayer = l
    sublayerHost = l
    l.owner = self
  }

  /// The real layer a new face presents: a plain `Layer` here, a `ShapeLayer` for
  /// `CAShapeLayer`, and so on.
  open class func makeSheenLayer() -> Layer { Layer() }

  /// The face of a real layer: the one it has, or a new one of the matching class.
  public static func face(of layer: Layer) -> CALayer {
    if let f = layer.owner as? CALayer { return f }
    switch layer {
    case let l as ShapeLayer: return CAShapeLayer(presenting: l)
    case let l as GradientLayer: return CAGradientLayer(presenting: l)
    case let l as TextLayer: return CATextLayer(presenting: l)
    default: return CALayer(presenting: layer)
    }
  }

  // MARK: Geometry

  /// The frame in the superlayer's coordinates (for a view's layer, the view's frame).
  open var frame: CGRect {
    get { view?.frame ?? CGRect(sheenLayer.frame) }
    set {
      if let view {
        view.frame = newValue
      } else {
        let old = sheenLayer.frame.size
        sheenLayer.frame = newValue.sheen
        if needsDisplayOnBoundsChange && old != sheenLayer.frame.size { setNeedsDisplay() }
      }
    }
  }

  /// The layer's own coordinates. Setting it keeps `position` where it is.
  open var bounds: CGRect {
    get { view?.bounds ?? CGRect(origin: .zero, size: CGSize(sheenLayer.frame.size)) }
    set {
      if let view { view.bounds = newValue; return }
      let p = position
      let a = sheenLayer.anchorPoint
      let s = newValue.size.sheen
      let old = sheenLayer.frame.size
      sheenLayer.frame = Rect(
        x: Double(p.x) - a.x * s.width, y: Double(p.y) - a.y * s.height, width: s.width, height: s.height)
      if needsDisplayOnBoundsChange && old != s { setNeedsDisplay() }
    }
  }

  /// Where the anchor point sits in the superlayer (for a view's layer, the view's center).
  open var position: CGPoint {
    get {
      if let view { return view.center }
      let f = sheenLayer.frame
      let a = sheenLayer.anchorPoint
      return CGPoint(x: f.minX + a.x * f.width, y: f.minY + a.y * f.height)
    }
    set {
      if let view { view.center = newValue; return }
      let f = sheenLayer.frame
      let a = sheenLayer.anchorPoint
      sheenLayer.frame.origin = Point(
        x: Double(newValue.x) - a.x * f.width, y: Double(newValue.y) - a.y * f.height)
    }
  }

  open var anchorPoint: CGPoint {
    get { CGPoint(sheenLayer.anchorPoint) }
    set { sheenLayer.anchorPoint = newValue.sheen }
  }

  /// Stored; unlike Core Animation, it does not reorder siblings.
  open var zPosition: CGFloat = 0

  /// The layer's transform as an affine transform (scale, rotation, translation).
  open func affineTransform() -> CGAffineTransform {
    view?.transform ?? CGAffineTransform(sheenLayer.transform)
  }

  open func setAffineTransform(_ t: CGAffineTransform) {
    if let view { view.transform = t } else { sheenLayer.transform = t.layerTransform }
  }

  open var isHidden: Bool {
    get { sheenLayer.isHidden }
    set { sheenLayer.isHidden = newValue }
  }

  // MARK: Appearance

  open var backgroundColor: CGColor? {
    get { sheenLayer.backgroundColor.map(CGColor.init) }
    set {
      if let view {
        view.backgroundColor = newValue.map(UIColor.init(cgColor:))
      } else {
        sheenLayer.backgroundColor = newValue?.color
      }
    }
  }

  open var cornerRadius: CGFloat {
    get { CGFloat(animatedModel(.cornerRadius)?[0] ?? sheenLayer.cornerRadius) }
    set {
      view?.animatableWillChange(.cornerRadius)
      sheenLayer.cornerRadius = Double(newValue)
    }
  }

  open var maskedCorners: CACornerMask {
    get { CACornerMask(sheenLayer.maskedCorners) }
    set { sheenLayer.maskedCorners = newValue.sheen }
  }

  open var masksToBounds: Bool {
    get { sheenLayer.masksToBounds }
    set { sheenLayer.masksToBounds = newValue }
  }

  open var borderWidth: CGFloat {
    get { CGFloat(animatedModel(.borderWidth)?[0] ?? sheenLayer.borderWidth) }
    set {
      view?.animatableWillChange(.borderWidth)
      sheenLayer.borderWidth = Double(newValue)
    }
  }

  open var borderColor: CGColor? {
    get { sheenLayer.borderColor.map(CGColor.init) }
    set { sheenLayer.borderColor = newValue?.color }
  }

  /// Group opacity (for a view's layer, the view's alpha).
  open var opacity: Float {
    get { view.map { Float($0.alpha) } ?? Float(sheenLayer.opacity) }
    set {
      if let view { view.alpha = CGFloat(newValue) } else { sheenLayer.opacity = Double(newValue) }
    }
  }

  // MARK: Shadow

  open var shadowColor: CGColor? {
    get { sheenLayer.shadowColor.map(CGColor.init) }
    set { sheenLayer.shadowColor = newValue?.color }
  }

  open var shadowOpacity: Float {
    get { Float(animatedModel(.shadowOpacity)?[0] ?? sheenLayer.shadowOpacity) }
    set {
      view?.animatableWillChange(.shadowOpacity)
      sheenLayer.shadowOpacity = Double(newValue)
    }
  }

  /// Core Animation's default is (0, -3).
  open var shadowOffset: CGSize {
    get {
      if let v = animatedModel(.shadowOffset) { return CGSize(width: v[0], height: v[1]) }
      return CGSize(sheenLayer.shadowOffset)
    }
    set {
      view?.animatableWillChange(.shadowOffset)
      sheenLayer.shadowOffset = newValue.sheen
    }
  }

  /// The blur radius, in points.
  open var shadowRadius: CGFloat {
    get { CGFloat(animatedModel(.shadowRadius)?[0] ?? sheenLayer.shadowRadius) }
    set {
      view?.animatableWillChange(.shadowRadius)
      sheenLayer.shadowRadius = Double(newValue)
    }
  }

  open var shadowPath: CGPath? {
    get { sheenLayer.shadowPath.map(CGPath.init) }
    set { sheenLayer.shadowPath = newValue?.path }
  }

  // MARK: Tree

  /// A layer whose alpha masks this layer's content, in this layer's coordinates.
  open var mask: CALayer? {
    get { sheenLayer.mask.map(CALayer.face(of:)) }
    set { sheenLayer.mask = newValue?.sheenLayer }
  }

  open var superlayer: CALayer? {
    guard let s = sheenLayer.superlayer else { return nil }
    // A scroll view's content layer stands for the scroll view's own layer.
    if s.owner is InternalLayerMarker, let outer = s.superlayer { return CALayer.face(of: outer) }
    return CALayer.face(of: s)
  }

  /// The sublayers, back to front, or nil when there are none (as Core Animation).
  open var sublayers: [CALayer]? {
    get {
      let list = sublayerHost.sublayers.filter { !($0.owner is InternalLayerMarker) }.map(CALayer.face(of:))
      return list.isEmpty ? nil : list
    }
    set {
      for l in sublayers ?? [] { l.removeFromSuperlayer() }
      for l in newValue ?? [] { addSublayer(l) }
    }
  }

  open func addSublayer(_ layer: CALayer) {
    sublayerHost.addSublayer(layer.sheenLayer)
    layer.didMoveIntoTree()
  }

  /// Inserts at an index of `sublayers` (0 is the back).
  open func insertSublayer(_ layer: CALayer, at index: UInt32) {
    let visible = sublayerHost.sublayers.enumerated().filter { !($0.element.owner is InternalLayerMarker) }
    let i = Int(index)
    if i < visible.count {
      sublayerHost.insertSublayer(layer.sheenLayer, at: visible[i].offset)
    } else {
      sublayerHost.addSublayer(layer.sheenLayer)
    }
    layer.didMoveIntoTree()
  }

  /// Inserts just below a sibling (at the back when `sibling` is nil or not a sublayer).
  open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
    sublayerHost.insertSublayer(layer.sheenLayer, below: sibling?.sheenLayer)
    layer.didMoveIntoTree()
  }

  /// Inserts just above a sibling (on top when `sibling` is nil or not a sublayer).
  open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
    sublayerHost.insertSublayer(layer.sheenLayer, above: sibling?.sheenLayer)
    layer.didMoveIntoTree()
  }

  open func replaceSublayer(_ old: CALayer, with new: CALayer) {
    guard let i = sublayerHost.sublayers.firstIndex(where: { $0 === old.sheenLayer }) else { return }
    old.removeFromSuperlayer()
    sublayerHost.insertSublayer(new.sheenLayer, at: i)
    new.didMoveIntoTree()
  }

  open func removeFromSuperlayer() { sheenLayer.removeFromSuperlayer() }

  // MARK: Contents

  /// The image the layer shows: a `CGImage` (UIKit's usage, `layer.contents = image.cgImage`), a
  /// `UIImage` or a `RasterImage`; anything else shows nothing. Reads back as a `CGImage`.
  open var contents: Any? {
    get { sheenLayer.contents.map { CGImage($0) } }
    set {
      switch newValue {
      case let c as CGImage: sheenLayer.contents = c.rasterImage
      case let u as UIImage: sheenLayer.contents = u.cgImage?.rasterImage
      case let r as RasterImage: sheenLayer.contents = r
      default: sheenLayer.contents = nil
      }
    }
  }

  /// How the contents are placed in the bounds.
  open var contentsGravity: CALayerContentsGravity {
    get { CALayerContentsGravity(sheenLayer.contentsGravity) }
    set { sheenLayer.contentsGravity = newValue.gravity }
  }

  /// The part of the image shown, in unit coordinates (a sprite sheet's cell).
  open var contentsRect: CGRect {
    get { CGRect(sheenLayer.contentsRect) }
    set { sheenLayer.contentsRect = newValue.sheen }
  }

  /// The stretchable middle of the image, in unit coordinates (nine parts with `.resize`).
  open var contentsCenter: CGRect {
    get { CGRect(sheenLayer.contentsCenter) }
    set { sheenLayer.contentsCenter = newValue.sheen }
  }

  open var minificationFilter: CALayerContentsFilter {
    get { CALayerContentsFilter(sheenLayer.minificationFilter) }
    set { sheenLayer.minificationFilter = newValue.filter }
  }

  open var magnificationFilter: CALayerContentsFilter {
    get { CALayerContentsFilter(sheenLayer.magnificationFilter) }
    set { sheenLayer.magnificationFilter = newValue.filter == .trilinear ? .linear : newValue.filter }
  }

  // MARK: Other Core Animation properties

  open var name: String?
  /// Image pixels per point of `contents` (1 by default, as a layer made in code; a view's
  /// layer takes its window's scale when it draws with `display()`).
  open var contentsScale: CGFloat {
    get { CGFloat(sheenLayer.contentsScale) }
    set { sheenLayer.contentsScale = newValue > 0 && newValue.isFinite ? Double(newValue) : 1 }
  }
  /// Whether the layer and its sublayers are drawn once into a bitmap (its shadow included),
  /// kept while nothing below changes and composited as one image (`Layer.shouldRasterize`).
  open var shouldRasterize: Bool {
    get { sheenLayer.shouldRasterize }
    set { sheenLayer.shouldRasterize = newValue }
  }
  /// The bitmap's pixels per point (1 by default, as in UIKit: set the screen's scale for a
  /// sharp bitmap on a 2x screen; below it, the layer looks blurry, as on iOS).
  open var rasterizationScale: CGFloat {
    get { CGFloat(sheenLayer.rasterizationScale) }
    set { sheenLayer.rasterizationScale = newValue > 0 && newValue.isFinite ? Double(newValue) : 1 }
  }
  open var isOpaque = false
  open var allowsEdgeAntialiasing = false
  /// Whether a change of size calls for `display()` (a view uses `contentMode = .redraw`).
  open var needsDisplayOnBoundsChange = false

  /// Draws the layer's content: a bitmap of the bounds at `contentsScale`, filled by
  /// `draw(in:)`, becomes the backing store; with only a part marked (`setNeedsDisplay(_:)`) and
  /// the size unchanged, the kept bitmap is cleared and drawn again in that part only. A
  /// `draw(in:)` that never touches its context leaves no backing store (nothing is allocated).
  open func display() { displayBackingStore() }

  /// Draws the layer's content into `ctx`, in layer coordinates: the delegate's
  /// `draw(_:in:)` by default (a view's `draw(_:)`); subclasses override it.
  open func draw(in ctx: CGContext) { drawThroughDelegate(in: ctx) }

  /// Asks for `display()` (`draw(in:)`) before the next frame.
  open func setNeedsDisplay() { markNeedsDisplay(nil) }

  /// Asks for the part `rect` (layer coordinates) to be drawn again before the next frame: when
  /// the backing store is kept, only that part is cleared and drawn.
  open func setNeedsDisplay(_ rect: CGRect) { markNeedsDisplay(rect.standardized) }
  open func setNeedsLayout() { view?.setNeedsLayout() }
  open func layoutIfNeeded() { view?.layoutIfNeeded() }
  /// Stops the animations of the layer's view.
  open func removeAllAnimations() { view?.removeAllAnimations() }

  /// The frontmost layer containing `point` (in the superlayer's coordinates).
  open func hitTest(_ point: CGPoint) -> CALayer? {
    sheenLayer.hitTest(point.sheen).map(CALayer.face(of:))
  }

  /// Whether `point` (in this layer's coordinates) lies inside the rounded bounds.
  open func contains(_ point: CGPoint) -> Bool { sheenLayer.containsInRoundedBounds(point.sheen) }

  /// The model value of an animating layer property of a view's layer.
  private func animatedModel(_ key: AnimationKey) -> [Double]? { view?.animations[key]?.to }
}

/// Core Animation's names for `contentsGravity` (as seen on screen: `.top` is the top edge, as
/// UIKit's content modes; Core Animation on iOS swaps top and bottom, Sheen does not).
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }

  init(_ g: ContentsGravity) { rawValue = g.rawValue }
  /// Unknown names stretch, as `.resize`.
  var gravity: ContentsGravity { ContentsGravity(rawValue: rawValue) ?? .resize }

  public static let resize = CALayerContentsGravity(rawValue: "resize")
  public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
  public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")
  public static let center = CALayerContentsGravity(rawValue: "center")
  public static let top = CALayerContentsGravity(rawValue: "top")
  public static let bottom = CALayerContentsGravity(rawValue: "bottom")
  public static let left = CALayerContentsGravity(rawValue: "left")
  public static let right = CALayerContentsGravity(rawValue: "right")
  public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
  public static let topRight = CALayerContentsGravity(rawValue: "topRight")
  public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
  public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
}

/// Core Animation's contents filters.
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }

  init(_ f: ImageFilter) { rawValue = f.rawValue }
  var filter: ImageFilter { ImageFilter(rawValue: rawValue) ?? .linear }

  public static let nearest = CALayerContentsFilter(rawValue: "nearest")
  public static let linear = CALayerContentsFilter(rawValue: "linear")
  public static let trilinear = CALayerContentsFilter(rawValue: "trilinear")
}
