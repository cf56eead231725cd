import SheenKit

/// A small line chart drawn in `draw(_:)` as an iOS developer writes one: a rounded white card,
/// a dashed grid with value labels, axes, a gradient-filled area under the curve, the curve,
/// and a shadowed marker on the highest value. It redraws when its values change or (with
/// `contentMode = .redraw`) when its size does; every other frame shows the kept bitmap.
open class ChartView: UIView {
  public var values: [CGFloat] = [12, 18, 15, 26, 22, 31, 28, 36, 33, 40] {
    didSet { setNeedsDisplay() }
  }
  public var lineColor = UIColor.systemBlue {
    didSet { setNeedsDisplay() }
  }
  public var title = "Weekly sales" {
    didSet { setNeedsDisplay() }
  }

  public override init(frame: CGRect) {
    super.init(frame: frame)
    isOpaque = false
    contentMode = .redraw
  }

  public required init?(coder: NSCoder) { return nil }

  open override func draw(_ rect: CGRect) {
    guard let ctx = UIGraphicsGetCurrentContext() else { return }
    UIColor.white.setFill()
    UIBezierPath(roundedRect: bounds, cornerRadius: 10).fill()
    let titleAttributes: [NSAttributedString.Key: Any] = [
      .font: UIFont.systemFont(ofSize: 11, weight: .bold), .foregroundColor: UIColor.darkGray,
    ]
    (title as NSString).draw(at: CGPoint(x: 10, y: 6), withAttributes: titleAttributes)
    guard values.count > 1, let top = values.max(), top > 0 else { return }
    let plot = bounds.inset(by: UIEdgeInsets(top: 24, left: 30, bottom: 10, right: 12))
    guard plot.width > 0, plot.height > 0 else { return }

    // A dashed grid, with the value of each line on the left.
    let labelAttributes: [NSAttributedString.Key: Any] = [
      .font: UIFont.systemFont(ofSize: 8), .foregroundColor: UIColor.gray,
    ]
    ctx.saveGState()
    ctx.setStrokeColor(UIColor(white: 0.85, alpha: 1).cgColor)
    ctx.setLineWidth(1)
    ctx.setLineDash(phase: 0, lengths: [3, 3])
    for i in 0...3 {
      let y = (plot.minY + plot.height * CGFloat(i) / 3).rounded() + 0.5
      ctx.move(to: CGPoint(x: plot.minX, y: y))
      ctx.addLine(to: CGPoint(x: plot.maxX, y: y))
      let label = "\(Int((top * CGFloat(3 - i) / 3).rounded()))" as NSString
      let size = label.size(withAttributes: labelAttributes)
      label.draw(
        at: CGPoint(x: plot.minX - 4 - size.width, y: y - size.height / 2), withAttributes: labelAttributes)
    }
    ctx.strokePath()
    ctx.restoreGState()

    // Axes.
    let axes = UIBezierPath()
    axes.move(to: CGPoint(x: plot.minX + 0.5, y: plot.minY))
    axes.addLine(to: CGPoint(x: plot.minX + 0.5, y: plot.maxY + 0.5))
    axes.addLine(to: CGPoint(x: plot.maxX, y: plot.maxY + 0.5))
    UIColor.gray.setStroke()
    axes.stroke()

    let points = values.enumerated().map { i, v in
      CGPoint(
        x: plot.minX + plot.width * CGFloat(i) / CGFloat(values.count - 1),
        y: plot.maxY - plot.height * max(0, v) / top)
    }
    let curve = UIBezierPath()
    curve.move(to: points[0])
    for p in points.dropFirst() { curve.addLine(to: p) }

    // The area under the curve, filled with a fading gradient.
    ctx.saveGState()
    let area = UIBezierPath(cgPath: curve.cgPath)
    area.addLine(to: CGPoint(x: plot.maxX, y: plot.maxY))
    area.addLine(to: CGPoint(x: plot.minX, y: plot.maxY))
    area.close()
    area.addClip()
    let colors = [lineColor.withAlphaComponent(0.45).cgColor, lineColor.withAlphaComponent(0.03).cgColor]
    if let gradient = CGGradient(
      colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors, locations: [0, 1])
    {
      ctx.drawLinearGradient(
        gradient, start: CGPoint(x: 0, y: plot.minY), end: CGPoint(x: 0, y: plot.maxY), options: [])
    }
    ctx.restoreGState()

    lineColor.setStroke()
    curve.lineWidth = 2
    curve.lineJoinStyle = .round
    curve.lineCapStyle = .round
    curve.stroke()

    // A marker on the highest value, with a soft shadow.
    let peak = points[values.firstIndex(of: top) ?? 0]
    let marker = UIBezierPath(ovalIn: CGRect(x: peak.x - 4, y: peak.y - 4, width: 8, height: 8))
    ctx.saveGState()
    ctx.setShadow(
      offset: CGSize(width: 0, height: 1.5), blur: 4, color: UIColor(white: 0, alpha: 0.4).cgColor)
    UIColor.white.setFill()
    marker.fill()
    ctx.restoreGState()
    marker.lineWidth = 2
    marker.stroke()
  }
}
