import Foundation
import SheenRaster

// UIKit's current graphics context: a stack of `CGContext`s that `UIGraphicsGetCurrentContext()`
// reads. A view's `draw(_:)`, `UIGraphicsImageRenderer` and `CALayer.render(in:)` push one
// while they draw; the helpers below (`UIColor.setFill()`, `UIBezierPath.fill()`, string
// drawing) draw into the top one. As UIKit's, each thread has its own.

enum GraphicsContextStack {
  /// The stack of the calling thread.
  final class Box {
    var contexts: [CGContext] = []
    /// Contexts kept for the next display (`DisplayContexts`).
    var spareDisplayContexts: [CGContext] = []
  }

  static let key: pthread_key_t = {
    var k = pthread_key_t()
    pthread_key_create(&k) { p in if let p { Unmanaged<Box>.fromOpaque(p).release() } }
    return k
  }()

  static var box: Box {
    if let p = pthread_getspecific(key) { return Unmanaged<Box>.fromOpaque(p).takeUnretainedValue() }
    let b = Box()
    pthread_setspecific(key, Unmanaged.passRetained(b).toOpaque())
    return b
  }

  static var contexts: [CGContext] {
    get { box.contexts }
    set { box.contexts = newValue }
  }
}

/// The context drawing is going to, or nil outside drawing.
public func UIGraphicsGetCurrentContext() -> CGContext? { GraphicsContextStack.box.contexts.last }

/// Makes `context` the current one until the matching `UIGraphicsPopContext()`.
public func UIGraphicsPushContext(_ context: CGContext) { GraphicsContextStack.box.contexts.append(context) }

/// Removes the context pushed last; without one it does nothing.
public func UIGraphicsPopContext() { _ = GraphicsContextStack.box.contexts.popLast() }

/// Runs `body` with `context` current.
func withCurrentContext<R>(_ context: CGContext, _ body: () throws -> R) rethrows -> R {
  UIGraphicsPushContext(context)
  let depth = GraphicsContextStack.contexts.count
  defer {
    // Drop whatever `body` pushed and left (as UIKit, which restores its own context).
    while GraphicsContextStack.contexts.count >= depth { UIGraphicsPopContext() }
  }
  return try body()
}

/// Fills a rectangle in the current context with its fill colour.
public func UIRectFill(_ rect: CGRect) { UIGraphicsGetCurrentContext()?.fill(rect) }

/// Strokes a rectangle's outline in the current context (1 point wide, as UIKit).
public func UIRectFrame(_ rect: CGRect) { UIGraphicsGetCurrentContext()?.stroke(rect, width: 1) }

extension UIColor {
  /// Makes this the fill colour of the current context.
  public func setFill() { UIGraphicsGetCurrentContext()?.setFillColor(color) }
  /// Makes this the stroke colour of the current context.
  public func setStroke() { UIGraphicsGetCurrentContext()?.setStrokeColor(color) }
  /// Makes this both the fill and the stroke colour.
  public func set() {
    setFill()
    setStroke()
  }
}

extension UIBezierPath {
  /// Draws with the path's own pen (width, cap, join, miter limit, dash) and fill rule, in the
  /// current context's colours, leaving the context's state as it was.
  private func drawing(_ body: (CGContext) -> Void) {
    guard let c = UIGraphicsGetCurrentContext() else { return }
    c.saveGState()
    body(c)
    c.restoreGState()
  }

  /// Fills the path with the current fill colour.
  public func fill() {
    drawing { c in
      c.beginPath()
      c.addUserPath(path)
      c.fillPath(using: usesEvenOddFillRule ? .evenOdd : .winding)
    }
  }

  /// Fills the path with a blend mode and an alpha.
  public func fill(with blendMode: CGBlendMode, alpha: CGFloat) {
    drawing { c in
      c.setBlendMode(blendMode)
      c.setAlpha(alpha)
      c.beginPath()
      c.addUserPath(path)
      c.fillPath(using: usesEvenOddFillRule ? .evenOdd : .winding)
    }
  }

  /// Strokes the path with the current stroke colour and the path's pen.
  public func stroke() { stroke(with: .normal, alpha: 1) }

  public func stroke(with blendMode: CGBlendMode, alpha: CGFloat) {
    drawing { c in
      c.setBlendMode(blendMode)
      if alpha < 1 { c.setAlpha(alpha) }
      c.setLineWidth(lineWidth)
      c.setLineCap(lineCapStyle)
      c.setLineJoin(lineJoinStyle)
      c.setMiterLimit(miterLimit)
      if let d = dash {
        c.setLineDash(phase: d.phase, lengths: d.lengths)
      }
      c.beginPath()
      c.addUserPath(path)
      c.strokePath()
    }
  }

  /// Intersects the current context's clip with the path (kept until the state is restored).
  public func addClip() {
    guard let c = UIGraphicsGetCurrentContext() else { return }
    c.beginPath()
    c.addUserPath(path)
    c.clip(using: usesEvenOddFillRule ? .evenOdd : .winding)
  }
}
