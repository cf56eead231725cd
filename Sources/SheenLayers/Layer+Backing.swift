import SheenRaster

/// A bitmap a layer shows as its content: what a `draw(in:)` or a view's `draw(_:)` drew, kept
/// at the scale it was drawn at (Core Animation's backing store), stretched over the bounds
/// when they no longer match.
public struct BackingStore {
  public let surface: Surface
  /// Pixels per point it was drawn at.
  public let scale: Double

  public init(surface: Surface, scale: Double) {
    self.surface = surface
    self.scale = scale
  }
}

extension Layer {
  /// Draws the backing store over the bounds (a layer's content when it has one).
  func drawBackingStore(in canvas: Canvas) {
    guard let b = backingStore else { return }
    canvas.drawBitmap(b.surface, in: bounds)
  }
}
