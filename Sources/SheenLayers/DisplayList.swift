// The display list: a layer tree turned, once per frame and on the caller's thread, into an
// immutable, Sendable list of what to draw, which every band of the frame then replays
// (`Compositor`) without touching a `Layer` (issue 15's "How", third bullet).
//
// The list is flat: one `DisplayNode` per layer, in drawing order (a layer, then its mask's
// nodes, then its sublayers'), each holding everything its drawing reads, resolved: its
// transforms (to its parent and to the device), extents, clip, group opacity, shadow (shape,
// colour, blur, offset and cache key), background, image parts, content (`LayerContent`, a
// subclass's text, path or paint as a value) and border, and the index past its subtree, so a
// band skips a whole subtree that does not reach it. Storage is kept from frame to frame: a
// steady frame allocates nothing.

import SheenRaster
import SheenText

/// What a layer subclass draws between its image and its sublayers, as a value: made by
/// `Layer.displayContent()` on the thread that prepares the frame and only read by the threads
/// that draw it.
public enum LayerContent: Sendable {
  /// Laid-out text at the layer's origin in `color`, clipped to `clip` (the layer's bounds, as
  /// Core Animation draws a text layer into a bitmap of its size).
  case text(TextLayout, color: Color, clip: Rect)
  /// A path filled (when `fill` is given) then stroked (when `stroke` is given, with `style`).
  case shape(Path, fill: Color?, rule: FillRule, stroke: Color?, style: StrokeStyle)
  /// The layer's rounded bounds filled with a paint (a gradient layer).
  case roundedFill(Paint)
}

/// What the coverage of a node's shapes is cached under: its geometry for rounded bounds and
/// borders, else the hash of what its own shapes are made of (`Layer.shapeSignature`), else the
/// layer's identity and content version (values only: nothing reads the layer).
struct ShapeID: Sendable {
  var layer: ObjectIdentifier
  var version: UInt64
  var signature: Int?
  var size: Size
  var radii: CornerRadii
  var borderWidth: Double
}

/// One layer of the list, resolved.
struct DisplayNode: Sendable {
  enum Kind: UInt8, Sendable {
    /// Hidden, fully transparent, or masked by a hidden mask: draws nothing and is not counted.
    case hidden
    /// Outside the frame: drawn by nothing (counted as culled); its subtree is not in the list.
    case culled
    case drawn
  }
  var kind: Kind
  /// Hidden or fully transparent (never covered by a sibling: it draws nothing).
  var invisible: Bool
  /// The index past the node's subtree (its mask's nodes and its sublayers').
  var end: Int
  /// The index of the first sublayer's node (after the mask's nodes, if any).
  var childStart: Int
  var childCount: Int
  /// Whether the layer has a mask: when drawn, its nodes start at the next index.
  var hasMask: Bool
  /// Maps the layer's coordinates to its parent's.
  var relative: Transform
  /// Maps the layer's coordinates to device pixels, under the list's root transform.
  var ctm: Transform
  /// Device pixels the layer can touch, shadow included (under `ctm`), for binning.
  var deviceExtent: IntRect
  var localFullExtent: Rect
  var localBodyExtent: Rect
  var opacity: Double
  var masksToBounds: Bool
  /// The layer's bounds (what `masksToBounds` clips to, with its corners).
  var bounds: Rect
  var rounded: Path
  var shape: ShapeID
  /// Whether the layer draws straight into its parent (see `Layer.drawsPlainly`), where it is in
  /// its parent (the frame's origin), and the rectangle it certainly covers with opaque colour.
  var drawsPlainly: Bool
  var origin: Point
  var opaqueInterior: Rect?
  /// What the layer's own background certainly covers with opaque colour (its bounds between the
  /// corners, across and down; nil without an opaque background): covers for occlusion.
  var coverAcross: Rect?
  var coverDown: Rect?
  /// The rectangles the body covers with opaque colour (`Layer.opaqueParts`), where a shadow
  /// need not be blended: `DisplayList.opaqueParts[opaqueStart..<opaqueEnd]`.
  var opaqueStart: Int
  var opaqueEnd: Int
  // The shadow.
  var shadowVisible: Bool
  var shadowColor: Color?
  var shadowOpacity: Double
  var shadowRadius: Double
  var shadowOffset: Size
  var shadowPath: Path?
  /// The shadow as rounded rectangles (the `shadowPath`'s, or the layer's alpha), when it is.
  var shadowShapes: [ShadowShape]?
  /// What a shadow of the layer's alpha is kept under.
  var alphaSignature: Int
  // The body.
  var background: Color?
  var image: RasterImage?
  var minification: ImageFilter
  var magnification: ImageFilter
  /// The image's parts: `DisplayList.parts[partStart..<partEnd]`.
  var partStart: Int
  var partEnd: Int
  var content: LayerContent?
  var border: Path?
  var borderColor: Color?
  /// Bitmap pixels per point when the layer is rasterized (`Layer.shouldRasterize`), else 0.
  var rasterScale = 0.0
  /// A kept bitmap of the node and its subtree, composited instead of drawing them (set by
  /// `RasterCache.prepare` before the bands draw).
  var raster: RasterPlacement? = nil
  /// With `raster`, when the bitmap is of a run of siblings from this one: the index after the
  /// run (the compositor skips the others); else 0.
  var spanEnd = 0
  /// The layer's `preparedStamp`: the same while nothing in its subtree changed (the raster
  /// cache finds the bitmap of a subtree partly culled by it).
  var stamp: UInt64 = 0
}

/// A frame's layer tree, resolved into nodes (see the top of this file). `Sendable`: band
/// threads replay it while the layers may change on the caller's thread.
public struct DisplayList: Sendable {
  var nodes: [DisplayNode] = []
  var parts: [ContentsPart] = []
  /// Nodes with `shouldRasterize` (the raster cache looks for them only when there are some).
  var rasterizedCount = 0
  /// Copied, not shared with the layers (which rebuild theirs in place).
  var opaqueParts: [Rect] = []
  /// How many nodes are the top-level layers' (the roots are siblings from index 0).
  var rootCount = 0
  /// The transform of the top-level layers' parent (points to device pixels).
  public internal(set) var transform = Transform.identity

  public init() {}

  /// How many layers the list holds.
  public var count: Int { nodes.count }

  /// Empties the list, keeping its storage.
  mutating func removeAll() {
    nodes.removeAll(keepingCapacity: true)
    parts.removeAll(keepingCapacity: true)
    opaqueParts.removeAll(keepingCapacity: true)
    rootCount = 0
    rasterizedCount = 0
  }

  /// Prepares `layers` for drawing (`Layer.prepareForDrawingTree`) and makes the list of them
  /// under `transform`, in place (reusing its storage). Subtrees that reach nothing of `cull`
  /// (device pixels) are left out, except under a layer whose shadow is made from its alpha
  /// (its whole body is drawn offscreen).
  public mutating func build(_ layers: [Layer], transform: Transform, cull: IntRect?) {
    Layer.prepareForDrawingTree(layers)
    removeAll()
    self.transform = transform
    for l in layers { append(l, parent: transform, cull: cull, keyed: false) }
    rootCount = layers.count
  }

  /// Appends the node of `layer` and its subtree. With `keyed` (below a layer whose shadow is made
  /// from its alpha), returns the key of what the subtree draws where its parent is (`DrawKey`),
  /// else 0.
  @discardableResult
  private mutating func append(_ layer: Layer, parent: Transform, cull: IntRect?, keyed: Bool) -> Int {
    let index = nodes.count
    let relative = layer.transformToSuperlayer
    let ctm = relative.concatenating(parent)
    var kind = DisplayNode.Kind.drawn
    if layer.isHidden || !(layer.opacity > 0) || (layer.mask?.isHidden ?? false) { kind = .hidden }
    var deviceExtent = IntRect(x: 0, y: 0, width: 0, height: 0)
    let invertible = ctm.determinant != 0 && ctm.determinant.isFinite
    if kind == .drawn {
      if invertible {
        deviceExtent = IntRect(enclosing: ctm.apply(layer.localFullExtent).insetBy(dx: -2, dy: -2))
        if let cull, deviceExtent.intersection(cull).isEmpty { kind = .culled }
      } else {
        kind = .hidden
      }
    }
    let alphaShadow = layer.shadowVisible && layer.shadowPath == nil
    var id = ShapeID(
      layer: ObjectIdentifier(layer), version: layer.contentVersion, signature: nil, size: layer.frame.size,
      radii: layer.effectiveCornerRadii, borderWidth: layer.borderWidth)
    if kind == .drawn { id.signature = layer.shapeSignature }
    let drawn = kind == .drawn
    let hasBorder = drawn && layer.borderWidth > 0 && (layer.borderColor.map { $0.alpha > 0 } ?? false)
    nodes.append(
      DisplayNode(
        kind: kind, invisible: layer.isHidden || !(layer.opacity > 0), end: index + 1, childStart: index + 1,
        childCount: 0, hasMask: layer.mask != nil,
        relative: relative, ctm: ctm, deviceExtent: deviceExtent,
        localFullExtent: layer.localFullExtent, localBodyExtent: layer.localBodyExtent,
        opacity: layer.opacity, masksToBounds: layer.masksToBounds, bounds: layer.bounds,
        rounded: drawn ? layer.roundedBoundsPath : DisplayList.emptyPath, shape: id,
        drawsPlainly: layer.drawsPlainly, origin: Point(x: layer.frame.minX, y: layer.frame.minY),
        opaqueInterior: layer.opaqueInterior,
        coverAcross: nil, coverDown: nil,
        opaqueStart: opaqueParts.count, opaqueEnd: opaqueParts.count,
        shadowVisible: drawn && layer.shadowVisible, shadowColor: layer.shadowColor,
        shadowOpacity: layer.shadowOpacity, shadowRadius: layer.shadowRadius,
        shadowOffset: layer.shadowOffset,
        shadowPath: drawn ? layer.shadowPath : nil,
        shadowShapes: drawn ? (layer.shadowPath != nil ? layer.shadowPathShapes : layer.alphaShapes) : nil,
        alphaSignature: 0,
        background: drawn ? layer.backgroundColor : nil, image: drawn ? layer.contents : nil,
        minification: layer.minificationFilter, magnification: layer.magnificationFilter,
        partStart: parts.count, partEnd: parts.count,
        content: drawn && layer.hasContent ? layer.displayContent() : nil,
        border: hasBorder ? layer.borderPath : nil, borderColor: layer.borderColor))
    guard drawn else { return keyed ? DrawKey.notDrawn(kind, relative) : 0 }
    nodes[index].stamp = layer.preparedStamp
    if let bg = layer.backgroundColor, bg.alpha >= 1 {
      let b = layer.bounds
      let r = layer.effectiveCornerRadii
      let top = max(r.topLeft, r.topRight)
      let bottom = max(r.bottomLeft, r.bottomRight)
      let left = max(r.topLeft, r.bottomLeft)
      let right = max(r.topRight, r.bottomRight)
      let across = Rect(x: b.minX, y: b.minY + top, width: b.width, height: b.height - top - bottom)
      if !across.isEmpty { nodes[index].coverAcross = across }
      if max(top, bottom, left, right) > 0 {
        let down = Rect(x: b.minX + left, y: b.minY, width: b.width - left - right, height: b.height)
        if !down.isEmpty { nodes[index].coverDown = down }
      }
    }
    if layer.shouldRasterize {
      rasterizedCount += 1
      let r = layer.rasterizationScale
      nodes[index].rasterScale = r > 0 && r.isFinite ? min(r, 16) : 1
    }
    if layer.shadowVisible {
      opaqueParts.append(contentsOf: layer.opaqueParts)
      nodes[index].opaqueEnd = opaqueParts.count
    }
    if layer.contents != nil {
      layer.forEachContentsPart { parts.append($0) }
      nodes[index].partEnd = parts.count
    }
    // Below a shadow made from the layer's alpha the whole body is drawn offscreen, wherever the
    // frame is; a mask is drawn into its own group: neither is culled here.
    // Keys are worked out below a shadow of the layer's alpha (its cache key), and kept on the
    // layers until something in the subtree changes (`Layer.preparedDrawKey`).
    let kept = layer.needsPrepare ? nil : layer.preparedDrawKey
    let keys = (keyed || alphaShadow) && kept == nil
    var maskKey = 0
    if let m = layer.mask {
      maskKey = append(m, parent: ctm, cull: nil, keyed: keys)
    }
    nodes[index].childStart = nodes.count
    nodes[index].childCount = layer.sublayers.count
    // Sublayers are culled to the layer's clip as well (a list's rows scrolled out of its
    // bounds): a conservative bound of it, the device box of the bounds and a pixel.
    // Nor below a rasterized layer, whose bitmap holds all of it (RasterCache.swift).
    var childCull = alphaShadow || layer.shouldRasterize ? nil : cull
    if let c = childCull, layer.masksToBounds {
      let box = IntRect(enclosing: ctm.apply(layer.bounds).insetBy(dx: -1, dy: -1))
      childCull = c.intersection(box)
    }
    var body = Hasher()
    if keys { DrawKey.body(of: nodes[index], content: layer, into: &body) }
    // A sublayer drawn wholly on the layer's own opaque background adds nothing to its alpha
    // (a button pressed on a card, text changing on it): left out of the key.
    let opaque = keys && (layer.backgroundColor.map { $0.alpha >= 1 } ?? false)
    for s in layer.sublayers {
      let k = append(s, parent: ctm, cull: childCull, keyed: keys)
      if keys && !(opaque && layer.drawsInsideOpaqueBackground(s)) { body.combine(k) }
    }
    nodes[index].end = nodes.count
    var key = kept ?? (body: 0, full: 0)
    if keys {
      key.body = body.finalize()
      key.full = DrawKey.full(of: nodes[index], body: key.body, mask: maskKey)
      layer.preparedDrawKey = key
    }
    if alphaShadow { nodes[index].alphaSignature = key.body }
    return keyed ? key.full : 0
  }

  static let emptyPath = Path()
}

/// The keys of what a subtree draws, made from the list's own nodes (never from which layers they
/// are): any change to anything any layer of the subtree draws (shape, colour, text, image,
/// clip, opacity, shadow, mask, where it sits in its parent) changes them, and nothing else
/// does: the subtree moved as a whole, or an equal subtree elsewhere, has the same keys. A shadow
/// made from a layer's alpha is kept under its `body` key (issue 15: a key from a hand-picked
/// list of layer properties went stale when one it left out changed).
enum DrawKey {
  /// What the layer's body draws itself, in its own coordinates: bounds and corners, clip,
  /// background, image, content, border (its sublayers' keys are combined after).
  static func body(of n: DisplayNode, content layer: Layer, into h: inout Hasher) {
    h.combine(n.shape.size)
    h.combine(n.shape.radii)
    h.combine(n.masksToBounds)
    h.combine(n.background)
    if n.border != nil {
      h.combine(n.shape.borderWidth)
      h.combine(n.borderColor)
    }
    if let image = n.image {
      h.combine(image.id)
      h.combine(n.minification)
      h.combine(n.magnification)
      h.combine(n.partEnd - n.partStart)
      layer.forEachContentsPart { h.combine($0) }
    }
    content(of: n, into: &h)
  }

  /// What a node's content adds to a key: its shapes by the hash of what makes them
  /// (`Layer.shapeSignature`), or by the layer's content version (bumped by any change, never
  /// reused) when it cannot say, and the paints and styles it draws them with. Shared by every key
  /// made from the list's nodes (this one and the raster cache's) so that they cannot drift apart.
  static func content(of n: DisplayNode, into h: inout Hasher) {
    guard let content = n.content else { return }
    if let s = n.shape.signature { h.combine(s) } else { h.combine(n.shape.version) }
    switch content {
    case .text(_, let color, let clip):
      h.combine(0 as UInt8)
      h.combine(color)
      h.combine(clip)
    case .shape(_, let fill, let rule, let stroke, let style):
      h.combine(1 as UInt8)
      h.combine(fill)
      h.combine(rule)
      h.combine(stroke)
      h.combine(style)
    case .roundedFill(let paint):
      h.combine(2 as UInt8)
      h.combine(paint)
    }
  }

  /// The body's key with what the layer adds as a whole where its parent is: its place, group
  /// opacity, shadow and mask.
  static func full(of n: DisplayNode, body: Int, mask: Int) -> Int {
    var h = Hasher()
    h.combine(body)
    h.combine(n.relative)
    h.combine(n.opacity)
    h.combine(n.hasMask)
    h.combine(mask)
    h.combine(n.shadowVisible)
    if n.shadowVisible {
      h.combine(n.shadowColor)
      h.combine(n.shadowOpacity)
      h.combine(n.shadowRadius)
      h.combine(n.shadowOffset)
      h.combine(n.shadowPath)
    }
    return h.finalize()
  }

  /// A layer that draws nothing (hidden, fully transparent, or not invertible) still takes a
  /// place in its parent's key.
  static func notDrawn(_ kind: DisplayNode.Kind, _ relative: Transform) -> Int {
    var h = Hasher()
    h.combine(kind)
    h.combine(relative)
    return h.finalize()
  }
}
