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
/// 16.7 ms line. Drawn with Sheen's own text and shapes; its text changes four times a second.
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
  private let graph = CAShapeLayer()
  private let budgetLine = CAShapeLayer()
  private let graphFrame = CGRect(x: 10, y: 66, width: 242, height: 36)
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

    let plot = CALayer()
    plot.frame = graphFrame
    plot.backgroundColor = UIColor(white: 1, alpha: 0.08).cgColor
    layer.addSublayer(plot)
    graph.frame = graphFrame
    graph.fillColor = UIColor(red: 0.45, green: 0.8, blue: 1, alpha: 0.9).cgColor
    layer.addSublayer(graph)
    budgetLine.frame = graphFrame
    budgetLine.strokeColor = UIColor(red: 1, green: 0.45, blue: 0.4, alpha: 0.9).cgColor
    budgetLine.fillColor = nil
    budgetLine.lineWidth = 1
    let y = graphFrame.height * CGFloat(1 - (1000.0 / 60) / FPSOverlay.graphRange)
    let line = UIBezierPath()
    line.move(to: CGPoint(x: 0, y: y.rounded() + 0.5))
    line.addLine(to: CGPoint(x: graphFrame.width, y: y.rounded() + 0.5))
    budgetLine.path = line.cgPath
    layer.addSublayer(budgetLine)
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

  /// Bars of the last frames' total times, newest on the right.
  private func updateGraph() {
    let path = UIBezierPath()
    let frames = statistics.frames
    let n = FrameStatistics.window
    let barWidth = graphFrame.width / CGFloat(n)
    let h = graphFrame.height
    for (i, f) in frames.enumerated() {
      let v = min(1, f.total * 1000 / FPSOverlay.graphRange)
      let bar = max(1, h * CGFloat(v))
      let x = CGFloat(n - frames.count + i) * barWidth
      path.append(UIBezierPath(rect: CGRect(x: x, y: h - bar, width: barWidth, height: bar)))
    }
    graph.path = path.cgPath
  }

  private func ms(_ seconds: Double) -> String {
    let v = seconds * 1000
    let tenths = Int((v * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
