import SheenKit

/// A card's small chart, drawn in `draw(_:)`: a soft panel, the area under the values filled
/// with a fading white gradient, the line, and a dot on the last value. Shown on the flat
/// headers of some cards (`CardContent.trend`). It draws when it first shows and again only when
/// a reused card gives it other values (or another size): scrolling shows the kept bitmap.
public final class SparklineView: UIView {
  public var values: [CGFloat] = [] {
    didSet { if values != oldValue { setNeedsDisplay() } }
  }

  public override init(frame: CGRect) {
    super.init(frame: frame)
    isOpaque = false
    isUserInteractionEnabled = false
    contentMode = .redraw
  }

  public required init?(coder: NSCoder) { return nil }

  /// The area the values are plotted in: `bounds` inset by 7 points.
  static func plot(in bounds: CGRect) -> CGRect { bounds.insetBy(dx: 7, dy: 7) }

  /// Where each value goes: spread evenly across `plot`, lowest at its bottom, highest at its top.
  static func points(_ values: [CGFloat], lo: CGFloat, hi: CGFloat, in plot: CGRect) -> [CGPoint] {
    let span = max(hi - lo, 1e-6)
    return values.enumerated().map { i, v in
      CGPoint(
        x: plot.minX + plot.width * CGFloat(i) / CGFloat(max(1, values.count - 1)),
        y: plot.maxY - plot.height * (v - lo) / span)
    }
  }

  public override func draw(_ rect: CGRect) {
    guard let ctx = UIGraphicsGetCurrentContext(), values.count > 1, let lo = values.min(),
      let hi = values.max()
    else { return }
    UIColor(white: 1, alpha: 0.2).setFill()
    UIBezierPath(roundedRect: bounds, cornerRadius: 8).fill()
    let plot = SparklineView.plot(in: bounds)
    guard plot.width > 0, plot.height > 0 else { return }
    let points = SparklineView.points(values, lo: lo, hi: hi, in: plot)
    let line = UIBezierPath()
    line.move(to: points[0])
    for p in points.dropFirst() { line.addLine(to: p) }

    ctx.saveGState()
    let area = UIBezierPath(cgPath: line.cgPath)
    area.addLine(to: CGPoint(x: plot.maxX, y: plot.maxY))
    area.addLine(to: CGPoint(x: plot.minX, y: plot.maxY))
    area.close()
    area.addClip()
    let colors = [UIColor(white: 1, alpha: 0.55).cgColor, UIColor(white: 1, alpha: 0).cgColor]
    if let gradient = CGGradient(
      colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors, locations: [0, 1])
    {
      ctx.drawLinearGradient(
        gradient, start: CGPoint(x: 0, y: plot.minY), end: CGPoint(x: 0, y: plot.maxY), options: [])
    }
    ctx.restoreGState()

    UIColor.white.setStroke()
    line.lineWidth = 1.5
    line.lineJoinStyle = .round
    line.lineCapStyle = .round
    line.stroke()
    let last = points[points.count - 1]
    UIColor.white.setFill()
    UIBezierPath(ovalIn: CGRect(x: last.x - 2.5, y: last.y - 2.5, width: 5, height: 5)).fill()
  }
}
