import SheenLayers
import SheenRaster

/// Renders layers onto a surface cleared to `background`, at `scale` pixels per point.
func render(
  _ layers: [Layer], width: Int, height: Int, scale: Double = 1, background: Color = .white,
  compositor: Compositor = Compositor()
) throws -> Surface {
  let s = try Surface(width: width, height: height)
  let c = Canvas(surface: s)
  c.clear(background)
  compositor.render(layers, in: c, transform: Transform(scaleX: scale, y: scale))
  return s
}

/// Straight-alpha components of a pixel, 0...255.
func rgba(_ p: UInt32) -> (r: Int, g: Int, b: Int, a: Int) {
  let (r, g, b, a) = Pixel.unpremultiplied(p)
  return (Int(r), Int(g), Int(b), Int(a))
}

/// The mean of the red, green and blue channels of a pixel: darker is lower.
func luminance(_ p: UInt32) -> Double {
  Double(Pixel.red(p) + Pixel.green(p) + Pixel.blue(p)) / 3
}

extension Color {
  static let testRed = Color(red: 1, green: 0, blue: 0)
  static let testBlue = Color(red: 0, green: 0, blue: 1)
}
