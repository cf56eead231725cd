import Foundation
import SheenLayers
import SheenRaster

// Custom drawing as Core Animation schedules it: `setNeedsDisplay()` marks a layer; before the
// next frame is drawn, the window's display pass calls `display()` on every marked layer (and
// only those: flags on the path to them let it skip the rest of the tree), which draws with
// `draw(in:)` (a view's `draw(_:)`) into a bitmap of the bounds at the window's scale. The
// bitmap becomes the layer's `contents` (an image at `contentsScale`, shown by the image path
// like any other) and is drawn, unchanged, by every later frame.

/// What a layer asks of the object that draws for it (Core Animation's `CALayerDelegate`).
///
/// Unlike Core Animation, `display(_:)` is not consulted: override `CALayer.display()` instead.
public protocol CALayerDelegate: AnyObject {
  /// Draws the layer's content into `ctx` (the layer's bounds, in points).
  func draw(_ layer: CALayer, in ctx: CGContext)
}

extension UIView: CALayerDelegate {}

/// The display flags of a layer face.
struct DisplayState {
  /// `display()` is due before the next frame.
  var needsDisplay = false
  /// This layer or one below it needs display.
  var subtreeNeedsDisplay = false
  /// The part to redraw (layer coordinates), or nil for all of it.
  var dirty: CGRect?
  /// Whether `contents` holds what `display()` drew (not an image someone set).
  var ownsContents = false
  /// Whether the last `display()` ran `UIView.draw(_:)`'s empty default: a view with no drawing
  /// of its own, which drew nothing, is not counted as a `draw(_:)` call.
  var ranEmptyDraw = false
}

extension CALayer {
  /// Marks the layer (all of it, or `rect` more) and the path to it as needing display.
  func markNeedsDisplay(_ rect: CGRect?) {
    if displayState.needsDisplay {
      // Already due: widen the part (nil is everything).
      if let r = rect, let d = displayState.dirty {
        displayState.dirty = d.union(r)
      } else {
        displayState.dirty = nil
      }
    } else {
      displayState.needsDisplay = true
      displayState.dirty = rect
    }
    displayState.subtreeNeedsDisplay = true
    propagateDisplayFlag()
  }

  /// Marks the ancestors' faces: something below them needs display.
  func propagateDisplayFlag() {
    var l = sheenLayer.superlayer
    while let x = l {
      if let f = x.owner as? CALayer {
        if f.displayState.subtreeNeedsDisplay { return }
        f.displayState.subtreeNeedsDisplay = true
      }
      l = x.superlayer
    }
  }

  /// After an insertion: a layer that needs display (or has one below it) tells its new
  /// ancestors.
  func didMoveIntoTree() {
    if displayState.subtreeNeedsDisplay { propagateDisplayFlag() }
  }

  /// Whether `display()` is due (Core Animation's `needsDisplay()`).
  public func needsDisplay() -> Bool { displayState.needsDisplay }

  /// Runs `display()` now if it is due.
  public func displayIfNeeded() { displayIfDue() }

  /// Runs `display()` if it is due; whether it drew (ran a `draw(_:)` other than `UIView`'s
  /// empty one, or made contents): every new view displays once when it first shows, and one
  /// without a `draw(_:)` of its own draws nothing then.
  @discardableResult func displayIfDue() -> Bool {
    guard displayState.needsDisplay else { return false }
    displayState.needsDisplay = false
    displayState.ranEmptyDraw = false
    display()
    displayState.dirty = nil
    return !displayState.ranEmptyDraw || displayState.ownsContents
  }

  /// The display pass of a frame: `display()` for every marked layer at or below this one.
  /// Views' layers draw at `scale` (the window's pixels per point).
  /// Returns how many layers drew (see `displayIfDue`).
  @discardableResult func displayTree(scale: CGFloat) -> Int {
    guard displayState.subtreeNeedsDisplay else { return 0 }
    displayState.subtreeNeedsDisplay = false
    if view != nil { contentsScale = scale }
    var n = displayIfDue() ? 1 : 0
    for s in sublayerHost.sublayers {
      n += (s.owner as? CALayer)?.displayTree(scale: scale) ?? 0
    }
    if let m = sheenLayer.mask { n += (m.owner as? CALayer)?.displayTree(scale: scale) ?? 0 }
    return n
  }

  /// `display()`'s default (see there).
  func displayBackingStore() {
    let scale = Double(contentsScale.isFinite && contentsScale > 0 ? contentsScale : 1)
    let size = bounds.size
    let w = (Double(size.width) * scale).rounded(.up)
    let h = (Double(size.height) * scale).rounded(.up)
    guard w >= 1, h >= 1, w <= Double(Surface.maxDimension), h <= Double(Surface.maxDimension),
      (try? Surface.validate(width: Int(w), height: Int(h))) != nil
    else {
      if displayState.ownsContents { sheenLayer.contents = nil }
      displayState.ownsContents = false
      return
    }
    let ctx: CGContext
    var dirty = CGRect(origin: .zero, size: size)
    if let d = displayState.dirty, displayState.ownsContents, sheenLayer.contents?.width == Int(w),
      sheenLayer.contents?.height == Int(h), sheenLayer.contentsScale == scale,
      let kept = sheenLayer.contents?.surface.copy()
    {
      // Redraw a part of a copy of the kept bitmap (an image never changes once shown).
      let c = Canvas(surface: kept)
      c.transform = Transform(scaleX: scale, y: scale)
      ctx = CGContext(canvas: c)
      dirty = d.intersection(dirty)
      if dirty.isNull || dirty.isEmpty { return }
      ctx.clip(to: dirty)
      ctx.clear(dirty)
    } else {
      ctx = DisplayContexts.take(
        width: Int(w), height: Int(h), scale: scale, reusing: takeSpareBitmap(width: Int(w), height: Int(h)))
    }
    withCurrentContext(ctx) { draw(in: ctx) }
    if let c = ctx.madeCanvas {
      sheenLayer.contents = RasterImage(surface: c.surface)
      sheenLayer.contentsScale = scale
      displayState.ownsContents = true
    } else if displayState.ownsContents {
      // Drew nothing this time: the kept drawing goes (an image set by someone else stays).
      sheenLayer.contents = nil
      displayState.ownsContents = false
    }
    DisplayContexts.giveBack(ctx)
  }

  /// The kept drawing's bitmap, to draw the next one into, when it is `width` x `height` and
  /// nothing but this layer holds it (no snapshot, cache or image made of it): a redraw at an
  /// unchanged size then allocates no new bitmap. The layer's contents are let go.
  func takeSpareBitmap(width: Int, height: Int) -> Surface? {
    guard displayState.ownsContents, sheenLayer.contents?.width == width,
      sheenLayer.contents?.height == height
    else { return nil }
    var image = sheenLayer.contents
    sheenLayer.contents = nil
    displayState.ownsContents = false
    guard isKnownUniquelyReferenced(&image) else { return nil }
    var surface: Surface? = image?.surface
    image = nil
    return isKnownUniquelyReferenced(&surface) ? surface : nil
  }

  /// `draw(in:)`'s default: the view's or the delegate's drawing.
  func drawThroughDelegate(in ctx: CGContext) {
    if let v = view {
      v.draw(self, in: ctx)
    } else {
      delegate?.draw(self, in: ctx)
    }
  }

  /// Draws the layer and its sublayers into `ctx` as the screen shows them (shadows, masks,
  /// opacity), the layer's origin at the user-space origin: Core Animation's `render(in:)`.
  /// Marked layers are displayed first.
  public func render(in ctx: CGContext) {
    displayTree(scale: CGFloat((abs(ctx.canvas.transform.determinant)).squareRoot()))
    let f = sheenLayer.frame
    let canvas = ctx.canvas
    let t = canvas.transform
    let place = Transform(translationX: -f.minX, y: -f.minY).concatenating(t)
    ctx.painting {
      Compositor().render([sheenLayer], in: canvas, transform: place)
    }
    canvas.transform = t
  }
}

/// The contexts the display pass draws with, kept from one `display()` to the next: a reused
/// cell's view drawn again for another item (a chart given other values) draws with the canvas,
/// rasterizer buffers, clip masks and path storage of an earlier drawing instead of making them
/// again. Each thread keeps a few (a `draw(_:)` that renders another layer displays it inside
/// its own drawing); more in use at once are made and let go. As UIKit's, the context is valid
/// only during `draw(_:)`: one kept beyond it is drawn into again by a later display.
enum DisplayContexts {
  /// The most contexts a thread keeps.
  static let capacity = 4

  /// A context for a `width` x `height` bitmap at `scale` (drawn into `spare` when it has that
  /// size), made on first use.
  static func take(width: Int, height: Int, scale: Double, reusing spare: Surface?) -> CGContext {
    if let c = GraphicsContextStack.box.spareDisplayContexts.popLast() {
      c.reuse(deferredWidth: width, height: height, scale: scale, reusing: spare)
      return c
    }
    return CGContext(deferredWidth: width, height: height, scale: scale, reusing: spare)
  }

  /// Takes back a context `take` gave once the layer has its bitmap.
  static func giveBack(_ c: CGContext) {
    c.finishReuse()
    let box = GraphicsContextStack.box
    if box.spareDisplayContexts.count < capacity { box.spareDisplayContexts.append(c) }
  }

  /// How many contexts the calling thread keeps (for tests).
  static var kept: Int { GraphicsContextStack.box.spareDisplayContexts.count }
}
