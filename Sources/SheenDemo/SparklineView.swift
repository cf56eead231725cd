import SheenKit

/// A card's small chart, drawn in `draw(_:)`: a soft panel, the area under the values filled
/// with a fading white gradient, the line, and a dot on the last value. Shown on the flat
/// headers of some cards (`CardContent.trend`). It draws when it first shows and again only when
/// a reused card gives it other values (or another size): scrolling shows the kept bitmap.
public final class SparklineView: UIView {
  public var values: [CGFloat] = [] {
    didSet { if values != oldValue { setNeedsDisplay() } }
  }

  /// Storage for the next values (`updateValues`).
  private var spare: [CGFloat] = []

  /// Gives `values` the values `fill` writes into an array it is handed (emptied, its storage
  /// kept): a reused card's chart takes another card's values without a new array, and draws
  /// again only when they differ.
  public func updateValues(_ fill: (inout [CGFloat]) -> Void) {
    fill(&spare)
    if spare == values { return }
    swap(&spare, &values)
  }

  // What `draw(_:)` fills and strokes, kept from one drawing to the next (a reused card's chart
  // is drawn again in the same storage), and its colours, made once.
  private var panel: (size: CGSize, path: UIBezierPath)?
  private let line = UIBezierPath()
  private let area = UIBezierPath()
  private var points: [CGPoint] = []
  private static let panelColor = UIColor(white: 1, alpha: 0.2)
  private static let fade = CGGradient(
    colorsSpace: CGColorSpaceCreateDeviceRGB(),
    colors: [UIColor(white: 1, alpha: 0.55).cgColor, UIColor(white: 1, alpha: 0).cgColor], locations: [0, 1])

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
    var result: [CGPoint] = []
    points(values, lo: lo, hi: hi, in: plot, into: &result)
    return result
  }

  /// The same, into `result`'s storage.
  static func points(
    _ values: [CGFloat], lo: CGFloat, hi: CGFloat, in plot: CGRect, into result: inout [CGPoint]
  ) {
    let span = max(hi - lo, 1e-6)
    result.removeAll(keepingCapacity: true)
    for (i, v) in values.enumerated() {
      result.append(
        CGPoint(
          x: plot.minX + plot.width * CGFloat(i) / CGFloat(max(1, values.count - 1)),
          y: plot.maxY - plot.height * (v - lo) / span))
    }
  }

  public override func draw(_ rect: CGRect) {
    guard let ctx = UIGraphicsGetCurrentContext(), values.count > 1, let lo = values.min(),
      let hi = values.max()
    else { return }
    Self.panelColor.setFill()
    if panel?.size != bounds.size {
      panel = (bounds.size, UIBezierPath(roundedRect: bounds, cornerRadius: 8))
    }
    panel?.path.fill()
    let plot = SparklineView.plot(in: bounds)
    guard plot.width > 0, plot.height > 0 else { return }
    SparklineView.points(values, lo: lo, hi: hi, in: plot, into: &points)
    line.removeAllPoints()
    line.move(to: points[0])
    for p in points.dropFirst() { line.addLine(to: p) }

    ctx.saveGState()
    area.removeAllPoints()
    area.append(line)
    area.addLine(to: CGPoint(x: plot.maxX, y: plot.maxY))
    area.addLine(to: CGPoint(x: plot.minX, y: plot.maxY))
    area.close()
    area.addClip()
    if let gradient = Self.fade {
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
    ctx.fillEllipse(in: CGRect(x: last.x - 2.5, y: last.y - 2.5, width: 5, height: 5))
  }
}
