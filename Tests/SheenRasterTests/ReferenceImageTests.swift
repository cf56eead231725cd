import Foundation
import SheenTestSupport
import Testing

@testable import SheenRaster

/// Whole pictures compared with reference PNGs that were looked at (Tests/References/raster).
/// The rasterizer is deterministic float work: a level or two of difference is allowed.
@Suite struct RasterReferenceTests {
  @Test func strokesJoinsAndCaps() throws {
    let s = try Surface(width: 200, height: 120)
    let c = Canvas(surface: s)
    c.clear(.white)
    let ink = Paint.solid(Color(red: 0.1, green: 0.2, blue: 0.5))
    let joins: [LineJoin] = [.miter, .round, .bevel]
    let caps: [LineCap] = [.butt, .round, .square]
    for i in 0..<3 {
      var zigzag = Path()
      let x = 15 + Double(i) * 62
      zigzag.move(to: Point(x: x, y: 50))
      zigzag.addLine(to: Point(x: x + 20, y: 15))
      zigzag.addLine(to: Point(x: x + 40, y: 50))
      c.stroke(zigzag, style: StrokeStyle(width: 9, join: joins[i], cap: caps[i]), paint: ink)
      // The centre line, to see where the stroke sits.
      c.stroke(zigzag, style: StrokeStyle(width: 1), paint: .solid(Color(red: 1, green: 0.4, blue: 0.2)))
    }
    var curve = Path()
    curve.move(to: Point(x: 15, y: 105))
    curve.addCurve(to: Point(x: 185, y: 100), control1: Point(x: 60, y: 40), control2: Point(x: 120, y: 150))
    c.stroke(
      curve, style: StrokeStyle(width: 5, cap: .round), paint: .solid(Color(red: 0.8, green: 0.1, blue: 0.3)))
    var dashLike = Path()
    dashLike.addArc(center: Point(x: 100, y: 85), radius: 14, startAngle: 0, endAngle: 4.5)
    c.stroke(dashLike, style: StrokeStyle(width: 3, join: .round, cap: .round), paint: ink)
    if let m = ReferenceImage.mismatch(s, area: "raster", name: "strokes-joins-caps") { Issue.record("\(m)") }
  }

  @Test func fillsGradientsClipsAndShadow() throws {
    let s = try Surface(width: 200, height: 120)
    let c = Canvas(surface: s)
    c.clear(Color(red: 0.95, green: 0.95, blue: 0.97))
    // A shadow: a rounded rect filled into a mask, blurred, composited, then the card itself.
    let card = Path(
      roundedRect: Rect(x: 12, y: 12, width: 80, height: 50),
      radii: CornerRadii(topLeft: 16, topRight: 4, bottomRight: 16, bottomLeft: 4))
    let shadow = try AlphaMask(width: 120, height: 90)
    shadow.fill(card, transform: Transform(translationX: 0, y: 4))
    shadow.blur(sigma: 4)
    c.draw(mask: shadow, color: Color(red: 0, green: 0, blue: 0, alpha: 0.35))
    let g = Gradient(colors: [Color(hex: "#FF5E3A")!, Color(hex: "#FF2A68")!])
    c.fill(card, paint: .linearGradient(g, start: Point(x: 12, y: 12), end: Point(x: 92, y: 62)))
    // A star with both fill rules.
    func star(_ cx: Double) -> Path {
      var p = Path()
      for i in 0..<5 {
        let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
        let q = Point(x: cx + 24 * cos(a), y: 40 + 24 * sin(a))
        if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
      }
      p.closeSubpath()
      return p
    }
    c.fill(star(125), paint: .solid(Color(hex: "#34C759")!), rule: .nonZero)
    c.fill(star(175), paint: .solid(Color(hex: "#34C759")!), rule: .evenOdd)
    // A radial gradient clipped to a circle, with a translucent group over it.
    c.save()
    c.clip(to: Path(ellipseIn: Rect(x: 20, y: 72, width: 44, height: 44)))
    let rg = Gradient(colors: [Color(hex: "#FFCC00")!, Color(hex: "#FF3B30")!])
    c.fill(
      Rect(x: 0, y: 60, width: 100, height: 60),
      paint: .radialGradient(rg, center: Point(x: 36, y: 88), radius: 26))
    c.restore()
    c.beginGroup()
    c.fill(Rect(x: 80, y: 76, width: 40, height: 36), paint: .solid(Color(hex: "#007AFF")!))
    c.fill(Path(ellipseIn: Rect(x: 100, y: 70, width: 44, height: 44)), paint: .solid(Color(hex: "#AF52DE")!))
    c.endGroup(opacity: 0.6)
    // A rotated, scaled rounded rect.
    c.save()
    c.translateBy(x: 170, y: 92)
    c.rotate(by: 0.5)
    c.fill(
      Path(roundedRect: Rect(x: -18, y: -12, width: 36, height: 24), cornerRadius: 6),
      paint: .solid(Color(hex: "#5856D6")!))
    c.restore()
    if let m = ReferenceImage.mismatch(s, area: "raster", name: "fills-gradients-clips") {
      Issue.record("\(m)")
    }
  }
}
