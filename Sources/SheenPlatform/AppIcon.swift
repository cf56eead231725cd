import SheenRaster

/// Sheen's application icon, drawn by Sheen's own rasterizer at any size: a rounded square with
/// a blue-to-violet gradient holding two white cards, the demo's list in miniature. Window
/// backends hand it to the desktop (X11's `_NET_WM_ICON`).
public enum AppIcon {
  /// The sizes a backend offers, in pixels (docks and task switchers pick the nearest).
  public static let standardSizes = [16, 24, 32, 48, 64, 128]

  /// The background's gradient, top to bottom.
  public static let topColor = Color(r8: 0x5C, g8: 0x8D, b8: 0xFF)
  public static let bottomColor = Color(r8: 0x7A, g8: 0x3E, b8: 0xE6)

  /// The icon as a premultiplied `size`x`size` surface (transparent around the rounded square).
  /// - Throws: `RasterError` for a size outside 1...4096.
  public static func draw(size: Int) throws -> Surface {
    guard (1...4096).contains(size) else { throw RasterError.invalidSize(width: size, height: size) }
    let surface = try Surface(width: size, height: size)
    let canvas = Canvas(surface: surface)
    // Designed on a 128-unit grid.
    let s = Double(size) / 128
    canvas.scaleBy(x: s, y: s)
    let square = Rect(x: 4, y: 4, width: 120, height: 120)
    let gradient = Gradient(colors: [topColor, bottomColor])
    canvas.fill(
      Path(roundedRect: square, cornerRadius: 28),
      paint: .linearGradient(gradient, start: Point(x: 0, y: 4), end: Point(x: 0, y: 124)))
    // A soft sheen over the upper half.
    canvas.save()
    canvas.clip(to: Path(roundedRect: square, cornerRadius: 28))
    canvas.fill(
      Path(ellipseIn: Rect(x: -30, y: -70, width: 188, height: 130)),
      paint: .solid(Color(red: 1, green: 1, blue: 1, alpha: 0.16)))
    canvas.restore()
    canvas.fill(
      Path(roundedRect: Rect(x: 26, y: 36, width: 76, height: 24), cornerRadius: 7),
      paint: .solid(Color(red: 1, green: 1, blue: 1, alpha: 0.96)))
    canvas.fill(
      Path(roundedRect: Rect(x: 26, y: 68, width: 76, height: 24), cornerRadius: 7),
      paint: .solid(Color(red: 1, green: 1, blue: 1, alpha: 0.7)))
    return surface
  }
}
