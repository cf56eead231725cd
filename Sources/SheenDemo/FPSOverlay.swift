import SheenKit

/// Frame statistics the overlay shows: the times of recent frames and how long each took to
/// render and to present.
public struct FrameStatistics: Sendable {
  /// How many frames the medians, worst cases and graph cover.
  public static let window = 120

  public struct Frame: Sendable {
    /// When the frame was drawn, in seconds on the host's clock.
    public var time: Double
    /// Seconds spent rendering (layout, animation and drawing).
    public var render: Double
    /// Seconds spent presenting (copying to the screen).
    public var present: Double
    public var total: Double { render + present }
  }

  /// The last `window` frames, oldest first.
  public private(set) var frames: [Frame] = []

  /// Room for the whole window at once: recording a frame never allocates.
  public init() { frames.reserveCapacity(FrameStatistics.window) }

  public mutating func record(_ frame: Frame) {
    if frames.count == FrameStatistics.window { frames.removeFirst() }
    frames.append(frame)
  }

  /// Frames drawn in the second up to `now`.
  public func framesPerSecond(at now: Double) -> Int {
    frames.reduce(0) { $0 + (now - $1.time < 1 && $1.time <= now ? 1 : 0) }
  }

  /// The median and the worst of `value` over the recorded frames, in seconds.
  public func medianAndWorst(_ value: (Frame) -> Double) -> (median: Double, worst: Double) {
    guard !frames.isEmpty else { return (0, 0) }
    let sorted = frames.map(value).sorted()
    return (sorted[sorted.count / 2], sorted[sorted.count - 1])
  }
}

/// The FPS overlay: frames per second over the last second, the frame time (median and worst of
/// the last 120 frames, split into render and present) and a graph of those frames against the
/// 16.7 ms line. Its text and graph change four times a second; the graph is drawn in a view's
/// `draw(_:)` (`FrameGraphView`).
public final class FPSOverlay: UIView {
  public static let size = CGSize(width: 262, height: 112)
  /// Seconds between refreshes of the text and the graph.
  public static let refreshInterval = 0.25
  /// The graph's full height, in milliseconds of frame time.
  static let graphRange = 33.3

  public private(set) var statistics = FrameStatistics()
  public let fpsLabel = UILabel()
  public let timeLabel = UILabel()
  public let splitLabel = UILabel()
  private let graph = FrameGraphView(frame: CGRect(x: 10, y: 66, width: 242, height: 36))
  private var lastRefresh = -Double.infinity

  public override init(frame: CGRect) {
    super.init(frame: frame)
    backgroundColor = UIColor(white: 0.06, alpha: 0.78)
    layer.cornerRadius = 10
    isUserInteractionEnabled = false

    fpsLabel.font = UIFont.systemFont(ofSize: 15, weight: .bold)
    fpsLabel.textColor = UIColor(red: 0.45, green: 1, blue: 0.55, alpha: 1)
    timeLabel.font = UIFont.systemFont(ofSize: 11)
    timeLabel.textColor = .white
    splitLabel.font = UIFont.systemFont(ofSize: 11)
    splitLabel.textColor = UIColor(white: 0.75, alpha: 1)
    for l in [fpsLabel, timeLabel, splitLabel] { addSubview(l) }
    fpsLabel.frame = CGRect(x: 10, y: 6, width: 242, height: 20)
    timeLabel.frame = CGRect(x: 10, y: 27, width: 242, height: 16)
    splitLabel.frame = CGRect(x: 10, y: 44, width: 242, height: 16)

    addSubview(graph)
    refresh(at: 0, force: true)
  }

  public required init?(coder: NSCoder) { return nil }

  /// Records a frame that was drawn at `time` and took `render` + `present` seconds.
  public func record(time: Double, render: Double, present: Double) {
    statistics.record(FrameStatistics.Frame(time: time, render: render, present: present))
  }

  /// Updates the text and graph if a refresh interval has passed since the last update (or
  /// always with `force`). Returns whether it changed anything.
  @discardableResult
  public func refresh(at now: Double, force: Bool = false) -> Bool {
    guard force || now - lastRefresh >= FPSOverlay.refreshInterval else { return false }
    lastRefresh = now
    let s = statistics
    let total = s.medianAndWorst(\.total)
    let render = s.medianAndWorst(\.render)
    let present = s.medianAndWorst(\.present)
    fpsLabel.text = "\(s.framesPerSecond(at: now)) fps"
    timeLabel.text = "frame \(ms(total.median)) ms, worst \(ms(total.worst)) ms (last 120)"
    splitLabel.text =
      "render \(ms(render.median)) (\(ms(render.worst))) \u{B7} present \(ms(present.median)) (\(ms(present.worst))) ms"
    updateGraph()
    return true
  }

  /// Redraws the graph with the recorded frames.
  private func updateGraph() {
    graph.frames = statistics.frames
    graph.setNeedsDisplay()
  }

  private func ms(_ seconds: Double) -> String {
    let v = seconds * 1000
    let tenths = Int((v * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}

/// The overlay's graph: a bar per recorded frame (total time), newest on the right, over a faint
/// plot area, and the 16.7 ms budget line; drawn in `draw(_:)` when the overlay refreshes.
final class FrameGraphView: UIView {
  var frames: [FrameStatistics.Frame] = []

  override init(frame: CGRect) {
    super.init(frame: frame)
    isOpaque = false
    isUserInteractionEnabled = false
    frames.reserveCapacity(FrameStatistics.window)
  }

  required init?(coder: NSCoder) { return nil }

  override func draw(_ rect: CGRect) {
    guard let ctx = UIGraphicsGetCurrentContext() else { return }
    let w = bounds.width
    let h = bounds.height
    ctx.setFillColor(UIColor(white: 1, alpha: 0.08).cgColor)
    ctx.fill(bounds)
    let n = FrameStatistics.window
    let barWidth = w / CGFloat(n)
    ctx.setFillColor(UIColor(red: 0.45, green: 0.8, blue: 1, alpha: 0.9).cgColor)
    for (i, f) in frames.enumerated() {
      let v = min(1, f.total * 1000 / FPSOverlay.graphRange)
      let bar = max(1, h * CGFloat(v))
      ctx.addRect(
        CGRect(x: CGFloat(n - frames.count + i) * barWidth, y: h - bar, width: barWidth, height: bar))
    }
    ctx.fillPath()
    let y = (h * CGFloat(1 - (1000.0 / 60) / FPSOverlay.graphRange)).rounded() + 0.5
    ctx.setStrokeColor(UIColor(red: 1, green: 0.45, blue: 0.4, alpha: 0.9).cgColor)
    ctx.setLineWidth(1)
    ctx.move(to: CGPoint(x: 0, y: y))
    ctx.addLine(to: CGPoint(x: w, y: y))
    ctx.strokePath()
  }
}
