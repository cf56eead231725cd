// The layer model: Core Animation's `CALayer` and its subclasses, with the same names and
// defaults (see shared SCENE.md), drawn by `Compositor`.
//
// Layers are reference types forming a tree. Every property change bumps `contentVersion` (for
// what the layer draws) or leaves it alone (for where it is), so caches such as blurred shadows
// survive scrolling and are rebuilt only when the shape changes.

import SheenRaster
import Synchronization

/// Which corners `cornerRadius` rounds (Core Animation's `maskedCorners`).
public struct CornerMask: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let topLeft = CornerMask(rawValue: 1)
  public static let topRight = CornerMask(rawValue: 2)
  public static let bottomLeft = CornerMask(rawValue: 4)
  public static let bottomRight = CornerMask(rawValue: 8)
  public static let all: CornerMask = [.topLeft, .topRight, .bottomLeft, .bottomRight]

  /// Core Animation's names for the same corners (y down, so "min Y" is the top).
  public static let layerMinXMinYCorner = CornerMask.topLeft
  public static let layerMaxXMinYCorner = CornerMask.topRight
  public static let layerMinXMaxYCorner = CornerMask.bottomLeft
  public static let layerMaxXMaxYCorner = CornerMask.bottomRight
}

/// A layer's transform, as a scene file states it: scale, then rotation, then translation,
/// about the anchor point.
public struct LayerTransform: Hashable, Sendable {
  public var scaleX: Double = 1
  public var scaleY: Double = 1
  /// Radians; positive turns clockwise on screen.
  public var rotation: Double = 0
  public var translationX: Double = 0
  public var translationY: Double = 0

  public init(
    scaleX: Double = 1, scaleY: Double = 1, rotation: Double = 0, translationX: Double = 0,
    translationY: Double = 0
  ) {
    self.scaleX = scaleX
    self.scaleY = scaleY
    self.rotation = rotation
    self.translationX = translationX
    self.translationY = translationY
  }

  public static let identity = LayerTransform()

  /// A uniform scale.
  public init(scale: Double) { self.init(scaleX: scale, scaleY: scale) }

  /// The affine form: scale, then rotate, then translate.
  public var affine: Transform {
    Transform(scaleX: scaleX, y: scaleY)
      .concatenating(Transform(rotationAngle: rotation))
      .concatenating(Transform(translationX: translationX, y: translationY))
  }

  public var isIdentity: Bool { self == .identity }
}

/// A rectangle of content in a tree, drawn with Core Animation's model (`CALayer`).
open class Layer {
  /// Bumped whenever something that changes the layer's own pixels changes.
  public private(set) var contentVersion: UInt64 = 0
  /// The source of content versions: unique across all layers, on any thread.
  static let versionCounter = Atomic<UInt64>(0)

  /// Records a change to what the layer draws. A subclass calls it when anything its
  /// `contentExtent`, `prepareForDrawing` or `displayContent` reads changes.
  public func setNeedsDisplay() {
    contentVersion = Layer.versionCounter.wrappingAdd(1, ordering: .relaxed).newValue
    setNeedsPrepare()
  }

  /// Whether this layer, or a layer below it or in its mask, changed since the tree was last
  /// prepared for drawing (`prepareForDrawingTree`). When a layer needs preparing, so do all
  /// its ancestors: a frame prepares only the paths from the root to what changed, so that a
  /// scroll, which moves one layer, does not walk the thousands that did not change.
  var needsPrepare = true

  /// Marks the layer and its ancestors (and the layer it masks) as needing preparing.
  func setNeedsPrepare() {
    var l: Layer? = self
    while let x = l, !x.needsPrepare {
      x.needsPrepare = true
      l = x.parent ?? x.maskedLayer
    }
  }

  public init() {}

  /// An object that presents this layer through another API (SheenKit's `CALayer` face), kept
  /// alive by the layer so that walking the tree returns the very object that was inserted.
  /// SheenLayers never reads it.
  public var owner: AnyObject?

  // MARK: Geometry

  /// Position and size in the superlayer's coordinates (the untransformed frame).
  public var frame = Rect.zero {
    didSet {
      if frame.size != oldValue.size {
        setNeedsDisplay()
      } else if frame != oldValue {
        setNeedsPrepare()
      }
    }
  }
  /// The layer's own coordinate space: origin (0, 0), the frame's size.
  public var bounds: Rect {
    get { Rect(x: 0, y: 0, width: frame.width, height: frame.height) }
    set { frame.size = newValue.size }
  }
  /// The point in unit coordinates of the bounds that transforms are applied about.
  public var anchorPoint = Point(x: 0.5, y: 0.5) {
    didSet { if anchorPoint != oldValue { setNeedsPrepare() } }
  }
  /// Applied about `anchorPoint`.
  public var transform = LayerTransform.identity { didSet { if transform != oldValue { setNeedsPrepare() } } }
  public var isHidden = false { didSet { if isHidden != oldValue { setNeedsPrepare() } } }

  // MARK: Appearance

  public var backgroundColor: Color? = nil { didSet { if backgroundColor != oldValue { setNeedsDisplay() } } }
  public var cornerRadius: Double = 0 { didSet { if cornerRadius != oldValue { setNeedsDisplay() } } }
  public var maskedCorners: CornerMask = .all {
    didSet { if maskedCorners != oldValue { setNeedsDisplay() } }
  }
  public var masksToBounds = false { didSet { if masksToBounds != oldValue { setNeedsDisplay() } } }
  public var borderWidth: Double = 0 { didSet { if borderWidth != oldValue { setNeedsDisplay() } } }
  public var borderColor: Color? = .black { didSet { if borderColor != oldValue { setNeedsDisplay() } } }
  /// Group opacity: applies to the layer and its subtree as one image.
  public var opacity: Double = 1 { didSet { if opacity != oldValue { setNeedsPrepare() } } }
  /// Whether the layer and its sublayers are drawn once into a bitmap, kept while nothing in the
  /// subtree changes and composited as one image (Core Animation's `shouldRasterize`; see
  /// RasterCache.swift). The layer's shadow is part of the bitmap.
  public var shouldRasterize = false { didSet { if shouldRasterize != oldValue { setNeedsPrepare() } } }
  /// Bitmap pixels per point of a rasterized layer (`shouldRasterize`). Below the scale the
  /// layer is shown at, the bitmap is magnified and looks blurry, as on iOS.
  public var rasterizationScale: Double = 1 {
    didSet { if rasterizationScale != oldValue { setNeedsPrepare() } }
  }

  // MARK: Contents (an image: see Layer+Contents.swift)

  /// The image the layer shows, drawn after the background (Core Animation's `contents`).
  public var contents: RasterImage? = nil { didSet { if contents !== oldValue { setNeedsDisplay() } } }
  /// How the shown part of the image is placed in the bounds.
  public var contentsGravity = ContentsGravity.resize {
    didSet { if contentsGravity != oldValue { setNeedsDisplay() } }
  }
  /// Image pixels per point: the natural size is the image's pixels divided by it.
  public var contentsScale: Double = 1 { didSet { if contentsScale != oldValue { setNeedsDisplay() } } }
  /// The part of the image shown, in unit coordinates of the image (a sprite sheet's cell).
  public var contentsRect = Rect(x: 0, y: 0, width: 1, height: 1) {
    didSet { if contentsRect != oldValue { setNeedsDisplay() } }
  }
  /// Nine-part stretching with `.resize`, in unit coordinates of the shown part.
  public var contentsCenter = Rect(x: 0, y: 0, width: 1, height: 1) {
    didSet { if contentsCenter != oldValue { setNeedsDisplay() } }
  }
  /// Whether the nine parts' centre and edges repeat their part of the image at its natural size
  /// instead of stretching (UIKit's `.tile` resizing mode of a resizable image; Core Animation
  /// has no such property, and scene files do not state it).
  public var contentsCenterTiles = false {
    didSet { if contentsCenterTiles != oldValue { setNeedsDisplay() } }
  }
  public var minificationFilter = ImageFilter.linear {
    didSet { if minificationFilter != oldValue { setNeedsDisplay() } }
  }
  /// `.nearest` or `.linear` (`.trilinear` magnifies as `.linear`).
  public var magnificationFilter = ImageFilter.linear {
    didSet { if magnificationFilter != oldValue { setNeedsDisplay() } }
  }

  // MARK: Shadow

  public var shadowColor: Color? = .black { didSet { if shadowColor != oldValue { setNeedsDisplay() } } }
  public var shadowOpacity: Double = 0 { didSet { if shadowOpacity != oldValue { setNeedsDisplay() } } }
  /// Core Animation's default offset is upwards: (0, -3).
  public var shadowOffset = Size(width: 0, height: -3) {
    didSet { if shadowOffset != oldValue { setNeedsPrepare() } }
  }
  /// The standard deviation of the shadow's Gaussian blur, in points.
  public var shadowRadius: Double = 3 { didSet { if shadowRadius != oldValue { setNeedsDisplay() } } }
  /// The shadow's shape; nil means the alpha of everything the layer draws.
  public var shadowPath: Path? = nil { didSet { if shadowPath != oldValue { setNeedsDisplay() } } }

  // MARK: Tree

  /// A layer, in this layer's coordinates, whose alpha masks everything this layer draws.
  public var mask: Layer? = nil {
    didSet {
      if mask === oldValue { return }
      if let old = oldValue, old.maskedLayer === self { old.maskedLayer = nil }
      mask?.maskedLayer = self
      mask?.setNeedsPrepare()
      setNeedsDisplay()
    }
  }
  /// The layer whose `mask` this layer is (changes here must reach its preparation).
  private unowned var maskedLayer: Layer?
  public private(set) var sublayers: [Layer] = []
  /// The layer this one is a sublayer of. Not `weak`: a weak reference would give every layer a
  /// side table and make each retain and release in drawing take the slow path. The superlayer
  /// owns its sublayers, and clears this pointer in theirs when it goes away, so it never dangles.
  public var superlayer: Layer? { parent }
  private unowned var parent: Layer?

  deinit {
    for l in sublayers { l.parent = nil }
    // (Core Animation lets a layer mask one layer at a time; comparing with `self` here would
    // read an unowned reference to an object being destroyed.)
    mask?.maskedLayer = nil
  }

  /// Appends a sublayer (on top), removing it from its previous superlayer first.
  public func addSublayer(_ layer: Layer) {
    insertSublayer(layer, at: sublayers.count)
  }

  /// Inserts a sublayer at an index of `sublayers` (0 is the back).
  public func insertSublayer(_ layer: Layer, at index: Int) {
    layer.removeFromSuperlayer()
    sublayers.insert(layer, at: max(0, min(index, sublayers.count)))
    layer.parent = self
    setNeedsPrepare()
  }

  /// Inserts a sublayer just below a sibling (at the back if `sibling` is not a sublayer).
  public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
    let i = sibling.flatMap { s in sublayers.firstIndex { $0 === s } } ?? 0
    insertSublayer(layer, at: i)
  }

  /// Inserts a sublayer just above a sibling (on top if `sibling` is not a sublayer).
  public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
    let i = sibling.flatMap { s in sublayers.firstIndex { $0 === s } }.map { $0 + 1 } ?? sublayers.count
    insertSublayer(layer, at: i)
  }

  /// Detaches the layer from its superlayer.
  public func removeFromSuperlayer() {
    guard let s = parent else { return }
    s.sublayers.removeAll { $0 === self }
    parent = nil
    s.setNeedsPrepare()
  }

  /// Replaces all sublayers.
  public func setSublayers(_ layers: [Layer]) {
    for l in sublayers { l.parent = nil }
    sublayers = []
    setNeedsPrepare()
    for l in layers { addSublayer(l) }
  }

  // MARK: Derived geometry

  /// The corner radii actually used: `cornerRadius` on the masked corners, clamped to half the
  /// shorter side.
  public var effectiveCornerRadii: CornerRadii {
    let r = max(0, min(cornerRadius, min(frame.width, frame.height) / 2))
    return CornerRadii(
      topLeft: maskedCorners.contains(.topLeft) ? r : 0,
      topRight: maskedCorners.contains(.topRight) ? r : 0,
      bottomRight: maskedCorners.contains(.bottomRight) ? r : 0,
      bottomLeft: maskedCorners.contains(.bottomLeft) ? r : 0)
  }

  /// The rounded bounds: the shape of the background, the border's outer edge and the clip.
  /// Kept until the size or the corners change (drawing a frame builds no paths).
  ///
  /// Only `prepareForDrawingTree` stores the cache: while bands of a frame are drawn on several
  /// threads, layers are only read (a stale cache is bypassed, not rewritten).
  public var roundedBoundsPath: Path {
    let radii = effectiveCornerRadii
    if let c = shapeCache.rounded, c.size == frame.size, c.radii == radii { return c.path }
    return Path(roundedRect: bounds, radii: radii)
  }

  /// The ring between the rounded bounds and the same inset by the border width, whose corners
  /// have radius `max(0, r - borderWidth)`; filled with the even-odd rule.
  public var borderPath: Path {
    let radii = effectiveCornerRadii
    if let c = shapeCache.border, c.size == frame.size, c.radii == radii, c.width == borderWidth {
      return c.path
    }
    return makeBorderPath(radii)
  }

  /// The border's ring, built in `p`'s storage (a reused cell's layers change size without
  /// allocating a path).
  private func makeBorderPath(_ radii: CornerRadii, in storage: Path? = nil) -> Path {
    let b = bounds
    let w = min(borderWidth, min(b.width, b.height) / 2)
    var p = storage ?? Path()
    p.removeAllKeepingCapacity()
    p.addRoundedRect(b, radii: radii)
    let inner = b.insetBy(dx: w, dy: w)
    if !inner.isEmpty {
      p.addRoundedRect(
        inner,
        radii: CornerRadii(
          topLeft: max(0, radii.topLeft - w), topRight: max(0, radii.topRight - w),
          bottomRight: max(0, radii.bottomRight - w), bottomLeft: max(0, radii.bottomLeft - w)))
    }
    return p
  }

  /// Paths derived from the geometry, with what they were made from.
  struct ShapeCache {
    var rounded: (size: Size, radii: CornerRadii, path: Path)?
    var border: (size: Size, radii: CornerRadii, width: Double, path: Path)?
  }
  var shapeCache = ShapeCache()

  /// Maps this layer's coordinates into its superlayer's: `frame`, `anchorPoint` and `transform`.
  public var transformToSuperlayer: Transform {
    let ax = anchorPoint.x * frame.width
    let ay = anchorPoint.y * frame.height
    if transform.isIdentity { return Transform(translationX: frame.minX, y: frame.minY) }
    return Transform(translationX: -ax, y: -ay)
      .concatenating(transform.affine)
      .concatenating(Transform(translationX: frame.minX + ax, y: frame.minY + ay))
  }

  /// The area the layer's background, content and border can cover, in its own coordinates.
  open var contentExtent: Rect { bounds }

  /// Builds whatever the layer computes lazily (a text layout, a gradient table) so that drawing
  /// only reads: bands of a frame are drawn on several threads.
  open func prepareForDrawing() {}

  /// Hashes everything the layer's own shapes (a shape layer's path and stroke, a text layer's
  /// glyphs) are made from, colours aside, and answers true; false (the default) when the layer
  /// cannot say. Layers whose inputs are equal have equal coverage: the coverage cache keys their
  /// shapes by this hash (`shapeSignature`) instead of by the layer and its content version, so
  /// that a reused list cell showing content it or another cell showed before, or two labels of
  /// the same text, rasterize nothing.
  open func hashShapeInputs(into hasher: inout Hasher) -> Bool { false }

  /// `hashShapeInputs` finalized, or nil; kept per content version by `prepareCaches`, so that
  /// drawing (on several threads, every frame) only reads it.
  var shapeSignature: Int? {
    if let s = preparedShapeSignature, s.version == contentVersion { return s.value }
    return makeShapeSignature()
  }
  private var preparedShapeSignature: (version: UInt64, value: Int?)?

  private func makeShapeSignature() -> Int? {
    var h = Hasher()
    guard hashShapeInputs(into: &h) else { return nil }
    return h.finalize()
  }

  /// Builds the layer's cached paths and then whatever its class computes lazily.
  func prepareCaches() {
    let radii = effectiveCornerRadii
    // Paths made again in the storage of the ones they replace (taken out of the cache first,
    // so that nothing else holds it): a reused cell's resized layers allocate nothing.
    if !(shapeCache.rounded.map { $0.size == frame.size && $0.radii == radii } ?? false) {
      var p = shapeCache.rounded?.path ?? Path()
      shapeCache.rounded = nil
      p.removeAllKeepingCapacity()
      // Room for a rounded rectangle's 10 elements: a layer rounded after being square (or
      // the other way) builds in the same storage.
      p.reserveCapacity(10)
      p.addRoundedRect(bounds, radii: radii)
      shapeCache.rounded = (frame.size, radii, p)
    }
    if borderWidth > 0,
      !(shapeCache.border.map { $0.size == frame.size && $0.radii == radii && $0.width == borderWidth }
        ?? false)
    {
      let old = shapeCache.border?.path
      shapeCache.border = nil
      shapeCache.border = (frame.size, radii, borderWidth, makeBorderPath(radii, in: old))
    }
    if preparedShapeSignature?.version != contentVersion {
      preparedShapeSignature = (contentVersion, makeShapeSignature())
    }
    prepareForDrawing()
  }

  /// Prepares a whole tree (sublayers and masks) for drawing: call on one thread before any
  /// thread draws it.
  /// Subtrees in which nothing changed since they were last prepared are skipped.
  public static func prepareForDrawingTree(_ layers: [Layer]) {
    for l in layers where l.needsPrepare { l.prepareTree() }
  }

  private func prepareTree() {
    preparedDrawKey = nil
    preparedStamp = Layer.versionCounter.wrappingAdd(1, ordering: .relaxed).newValue
    prepareCaches()
    if let m = mask, m.needsPrepare { m.prepareTree() }
    for s in sublayers where s.needsPrepare { s.prepareTree() }
    computeLocalExtents()
    alphaShapesResolved = false
    if shadowPath != shadowPathRead {
      shadowPathRead = shadowPath
      shadowPathShapes = shadowPath?.roundedRectGeometry.map { [ShadowShape(rect: $0.rect, radii: $0.radii)] }
    }
    if shadowVisible && shadowPath == nil { resolveAlphaShapes() }
    needsPrepare = false
  }

  /// The keys of what the subtree draws (`DrawKey`), as the display list last worked them out:
  /// kept while nothing in the subtree changes (a change prepares every layer on the path to it,
  /// which drops them).
  var preparedDrawKey: (body: Int, full: Int)?

  /// Made anew each time the layer is prepared, which a change anywhere in its subtree (or its
  /// mask) causes: while it stays the same, the subtree draws the same in the layer's own
  /// coordinates (the raster cache keeps using a bitmap of it when the frame culls part of it).
  var preparedStamp: UInt64 = 0

  /// How far inside the edges of an opaque background a sublayer must stay for its alpha not to
  /// count (points): the background's edge pixels are partly covered, and the alpha of a shadow
  /// is drawn at the power of two at or above the scale it is shown at, so 4 points is at least a
  /// pixel and a half wherever the layer is shown at a quarter of its size or more.
  static let opaqueBackgroundMargin = 4.0

  /// Whether everything `sub` (a sublayer) draws, its shadow included, lies where this layer's
  /// background (opaque: the caller checks) covers every pixel wholly: inside the cross between
  /// its rounded corners, `opaqueBackgroundMargin` in from its edges.
  func drawsInsideOpaqueBackground(_ sub: Layer) -> Bool {
    if sub.isHidden { return true }
    let extent = sub.transformToSuperlayer.apply(sub.localFullExtent)
    guard extent.minX.isFinite, extent.maxX.isFinite, extent.minY.isFinite, extent.maxY.isFinite else {
      return false
    }
    let m = Layer.opaqueBackgroundMargin
    let b = bounds.insetBy(dx: m, dy: m)
    let r = effectiveCornerRadii
    // Between the corners across, and between them down (the arcs lie outside both).
    let across = Rect(
      x: b.minX, y: b.minY + max(r.topLeft, r.topRight), width: b.width,
      height: b.height - max(r.topLeft, r.topRight) - max(r.bottomLeft, r.bottomRight))
    let down = Rect(
      x: b.minX + max(r.topLeft, r.bottomLeft), y: b.minY,
      width: b.width - max(r.topLeft, r.bottomLeft) - max(r.topRight, r.bottomRight), height: b.height)
    func holds(_ c: Rect) -> Bool {
      c.width > 0 && c.height > 0 && extent.minX >= c.minX && extent.maxX <= c.maxX && extent.minY >= c.minY
        && extent.maxY <= c.maxY
    }
    return holds(across) || holds(down)
  }

  /// What the layer's body (background, content, sublayers, border) can cover, in its own
  /// coordinates: kept by `prepareForDrawingTree`, bottom-up, for culling and group sizes.
  var localBodyExtent = Rect.zero
  /// The same with the layer's own shadow.
  var localFullExtent = Rect.zero
  /// Whether the layer's shadow is drawn: it casts one, and it reaches half a level of alpha.
  var shadowVisible = false
  /// A rectangle (own coordinates) that the body certainly covers with opaque colour: an opaque
  /// background inside its rounded corners, or the largest such rectangle of a plain sublayer;
  /// the shadow under it is not blended there. Kept by `prepareForDrawingTree`, bottom-up.
  var opaqueInterior: Rect?
  /// The largest such rectangles of the background and of each plain sublayer, up to
  /// `maxOpaqueParts`, largest first (`opaqueInterior` is the first): a shadow cast by a clear row
  /// of cards skips every card, not only one.
  var opaqueParts: [Rect] = []
  static let maxOpaqueParts = 8
  /// The layer's alpha as rounded rectangles that do not overlap (own coordinates), when it is
  /// exactly that: its shadow is then worked out per pixel, with no blur (Layer+AlphaShapes).
  /// Worked out when first asked for after a change (`resolveAlphaShapes`), for layers that
  /// cast such a shadow and what they hold: a scroll that prepares the root works out none.
  var alphaShapes: [ShadowShape]?
  /// A rounded rectangle (own coordinates) outside which the layer draws nothing.
  var alphaSupport = AlphaSupport(rect: .zero, radii: CornerRadii(all: 0))
  /// Whether `alphaShapes` and `alphaSupport` are up to date.
  var alphaShapesResolved = false
  /// Storage for working out `alphaShapes` (made the first time).
  var alphaScratch: AlphaScratch?
  /// `shadowPath` as one rounded rectangle, when it is one, and the path that was read.
  var shadowPathShapes: [ShadowShape]?
  var shadowPathRead: Path?

  /// Whether the layer casts a shadow at all (its colour, opacity, radius and offset allow one).
  var castsShadow: Bool {
    shadowOpacity > 0 && shadowColor.map { $0.alpha > 0 } == true && shadowRadius >= 0
      && shadowRadius.isFinite
      && shadowOffset.width.isFinite && shadowOffset.height.isFinite
  }

  /// The square inside rounded corners: for a circular corner of radius r, the rectangle inset
  /// by r (1 - 1/√2) ≈ 0.3 r is covered.
  private var insideCorners: Rect {
    let r = effectiveCornerRadii
    let inset = max(max(r.topLeft, r.topRight), max(r.bottomLeft, r.bottomRight)) * 0.3
    return bounds.insetBy(dx: inset, dy: inset)
  }

  /// Whether the layer draws straight into its parent, so that what it covers with opaque colour
  /// covers the parent there too: shown, fully opaque, unmasked, untransformed.
  var drawsPlainly: Bool { !isHidden && opacity >= 1 && mask == nil && transform.isIdentity }

  /// Sets `opaqueInterior` from the layer's background and its sublayers' (already computed).
  private func computeOpaqueInterior() {
    opaqueParts.removeAll(keepingCapacity: true)
    func consider(_ r: Rect) {
      if r.isEmpty { return }
      let area = r.width * r.height
      if opaqueParts.count == Layer.maxOpaqueParts {
        guard let last = opaqueParts.last, last.width * last.height < area else { return }
        opaqueParts.removeLast()
      }
      // After any of the same area: the first found stays first.
      let i = opaqueParts.firstIndex { $0.width * $0.height < area } ?? opaqueParts.count
      opaqueParts.insert(r, at: i)
    }
    if let bg = backgroundColor, bg.alpha >= 1 {
      consider(insideCorners)
      // With rounded corners, the two bands between the corners are covered to the edges too
      // (a cross): a shadow under the layer then blends only beside the corners' arcs.
      let r = effectiveCornerRadii
      let top = max(r.topLeft, r.topRight)
      let bottom = max(r.bottomLeft, r.bottomRight)
      let left = max(r.topLeft, r.bottomLeft)
      let right = max(r.topRight, r.bottomRight)
      if max(top, bottom, left, right) > 0 {
        let b = bounds
        consider(Rect(x: b.minX, y: b.minY + top, width: b.width, height: max(0, b.height - top - bottom)))
        consider(Rect(x: b.minX + left, y: b.minY, width: max(0, b.width - left - right), height: b.height))
      }
    }
    for sub in sublayers where sub.drawsPlainly {
      guard let r = sub.opaqueInterior else { continue }
      let inParent = r.offsetBy(dx: sub.frame.minX, dy: sub.frame.minY)
      consider(masksToBounds ? inParent.intersection(insideCorners) : inParent)
    }
    opaqueInterior = opaqueParts.first
  }

  /// Sets the local extents from the layer's own and its sublayers' (already computed).
  private func computeLocalExtents() {
    computeOpaqueInterior()
    var body = contentExtent
    if let d = contentsExtent { body = body.union(d) }
    for sub in sublayers where !sub.isHidden {
      body = body.union(sub.transformToSuperlayer.apply(sub.localFullExtent))
    }
    if masksToBounds { body = body.intersection(bounds) }
    var full = body
    let shape = shadowPath?.controlBounds ?? body
    // A shadow too wide to reach half a level of alpha is not drawn: a Gaussian spreads a shape of
    // area A to at most A / (2πσ²), a ratio the same in points as in pixels. (A shadowRadius of
    // 1,000 on a small layer is invisible, and skipping it spares a mask of 12,000² pixels.)
    // Unlike Core Animation, a negative or non-finite radius or offset draws no shadow either.
    let alpha = (shadowColor?.alpha ?? 0) * min(1, shadowOpacity)
    let visible =
      shadowRadius < 32
      || shape.width * shape.height * alpha / (2 * .pi * shadowRadius * shadowRadius) >= 0.5 / 255
    shadowVisible = castsShadow && visible
    if shadowVisible {
      let reach = 3 * shadowRadius + 1
      full = full.union(
        shape.offsetBy(dx: shadowOffset.width, dy: shadowOffset.height).insetBy(dx: -reach, dy: -reach))
    }
    if masksToBounds { full = full.intersection(bounds) }
    localBodyExtent = body
    localFullExtent = full
  }

  /// Whether this layer draws content of its own besides background and border (subclasses).
  open var hasContent: Bool { false }

  /// What the layer draws between its image and its sublayers (shape, gradient, text), as a
  /// value in its own coordinates (see `LayerContent`), or nil. Called on the thread that
  /// prepares a frame, after `prepareForDrawing`, when `hasContent` is true: the bands of the
  /// frame draw the value and never read the layer.
  open func displayContent() -> LayerContent? { nil }
}
