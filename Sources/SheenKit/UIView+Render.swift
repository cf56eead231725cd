import Foundation
import SheenLayers
import SheenRaster

extension UIView {
  /// Lays the tree out and draws the view (at its bounds, shadows cut at the edges) into a new
  /// transparent surface of `bounds.size × scale` pixels, showing animations where they are.
  public func renderImage(scale: CGFloat = 1, compositor: Compositor = Compositor()) throws -> Surface {
    layoutIfNeeded()
    layer.displayTree(scale: scale)
    let s = Double(scale)
    let w = max(1, Int((Double(bounds.width) * s).rounded()))
    let h = max(1, Int((Double(bounds.height) * s).rounded()))
    let surface = try Surface(width: w, height: h)
    let canvas = Canvas(surface: surface)
    canvas.clear(.clear)
    // Draw the view's layer as its own root: undo where the frame puts it.
    let f = layer.sheenLayer.frame
    let place = Transform(translationX: -f.minX, y: -f.minY).concatenating(Transform(scaleX: s, y: s))
    compositor.render([layer.sheenLayer], in: canvas, transform: place)
    return surface
  }

  /// Renders the view (see `renderImage(scale:)`) and writes it as a PNG file.
  public func renderPNG(to path: String, scale: CGFloat = 1) throws {
    try renderImage(scale: scale).writePNG(to: path)
  }
}
