import Foundation
import SheenLayers
import SheenRaster

extension UIView {
  /// Draws the view and its subviews as the screen shows them (backgrounds, shadows, masks,
  /// `draw(_:)` content) into the current context, scaled to fill `rect`. Views marked for
  /// display are drawn first whatever `afterScreenUpdates` says (Sheen has no pending screen
  /// update to wait for). False when there is no current context or the view is empty.
  @discardableResult
  public func drawHierarchy(in rect: CGRect, afterScreenUpdates: Bool) -> Bool {
    guard let ctx = UIGraphicsGetCurrentContext() else { return false }
    layoutIfNeeded()
    let b = bounds
    guard b.width > 0, b.height > 0, rect.width.isFinite, rect.height.isFinite, !rect.isEmpty else {
      return false
    }
    ctx.saveGState()
    ctx.translateBy(x: rect.minX, y: rect.minY)
    ctx.scaleBy(x: rect.width / b.width, y: rect.height / b.height)
    layer.render(in: ctx)
    ctx.restoreGState()
    return true
  }

  /// A new view showing a picture of this one as it looks now, at its window's scale (1 without
  /// a window); nil for an empty view.
  public func snapshotView(afterScreenUpdates: Bool) -> UIView? {
    let scale = window?.scale ?? 1
    let format = UIGraphicsImageRendererFormat()
    format.scale = scale
    let b = bounds
    let image = UIGraphicsImageRenderer(size: b.size, format: format).image { _ in
      drawHierarchy(in: CGRect(origin: .zero, size: b.size), afterScreenUpdates: afterScreenUpdates)
    }
    guard let surface = image.cgImage?.surface else { return nil }
    let v = UIView(frame: CGRect(origin: .zero, size: b.size))
    v.layer.sheenLayer.contents = RasterImage(surface: surface)
    v.layer.sheenLayer.contentsScale = Double(scale)
    // It shows the picture: no `draw(_:)` of its own.
    v.layer.displayState.needsDisplay = false
    return v
  }
}
