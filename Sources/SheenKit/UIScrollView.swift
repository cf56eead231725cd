import Foundation
import SheenLayers
import SheenPlatform
import SheenRaster

/// What a scroll view tells its delegate (UIKit's `UIScrollViewDelegate`); every method has an
/// empty default.
public protocol UIScrollViewDelegate: AnyObject {
  func scrollViewDidScroll(_ scrollView: UIScrollView)
  func scrollViewWillBeginDragging(_ scrollView: UIScrollView)
  func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
  func scrollViewDidEndDecelerating(_ scrollView: UIScrollView)
}

extension UIScrollViewDelegate {
  public func scrollViewDidScroll(_ scrollView: UIScrollView) {}
  public func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}
  public func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {}
  public func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {}
}

/// A view that scrolls its content (UIKit's `UIScrollView`): `contentOffset` is the bounds'
/// origin, and moving it moves one content layer, so the subviews shift without being laid out
/// again.
///
/// Physics as UIKit's: a drag pans; a fling decays as `v·r^t` (t in ms, r the deceleration
/// rate: 0.998 normal, 0.99 fast); past either end the content follows the finger by the rubber
/// band `(1 - 1/(x·0.55/d + 1))·d` and springs back when released (a critically damped spring).
/// A wheel notch (a `scroll` event) glides by its distance in 0.2 s.
///
/// Scroll indicators are drawn as UIKit draws them: a pill per axis that scrolls, sized by the
/// visible fraction of the content, shown while a drag, fling, bounce or glide moves the
/// offset (not when code sets it), held a moment after scrolling stops and faded out
/// (`UIScrollView+Indicators.swift`). They are two layers above the content: moving one costs a
/// rectangle, and once faded they are hidden, so still frames draw nothing of them.
///
/// Unlike UIKit, there is no paging and no zooming.
open class UIScrollView: UIView {
  /// A deceleration rate per millisecond (UIKit's `UIScrollView.DecelerationRate`).
  public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
    public let rawValue: CGFloat
    public init(rawValue: CGFloat) { self.rawValue = rawValue }
    public static let normal = DecelerationRate(rawValue: 0.998)
    public static let fast = DecelerationRate(rawValue: 0.99)
  }

  /// Points a touch must travel before it becomes a scroll (and the content's touch is
  /// cancelled), as UIKit's pan gesture.
  public static let panThreshold: CGFloat = 10
  /// Seconds a wheel notch takes to glide.
  public static let wheelGlideDuration = 0.2
  /// Seconds `setContentOffset(_:animated: true)` and keys take.
  public static let animatedScrollDuration = 0.3

  public weak var delegate: UIScrollViewDelegate?
  open var contentSize = CGSize.zero {
    didSet { if contentSize != oldValue && indicators.phase != .hidden { updateScrollIndicators() } }
  }
  open var contentInset = UIEdgeInsets.zero
  open var isScrollEnabled = true
  open var bounces = true
  open var alwaysBounceVertical = false
  open var alwaysBounceHorizontal = false
  open var decelerationRate = DecelerationRate.normal
  /// Whether the vertical indicator shows while the content scrolls vertically.
  open var showsVerticalScrollIndicator = true {
    didSet { if indicators.phase != .hidden { updateScrollIndicators() } }
  }
  /// Whether the horizontal indicator shows while the content scrolls horizontally.
  open var showsHorizontalScrollIndicator = true {
    didSet { if indicators.phase != .hidden { updateScrollIndicators() } }
  }
  /// How far the vertical indicator's track is inset from the scroll view's edges.
  open var verticalScrollIndicatorInsets = UIEdgeInsets.zero {
    didSet { if indicators.phase != .hidden { updateScrollIndicators() } }
  }
  /// How far the horizontal indicator's track is inset from the scroll view's edges.
  open var horizontalScrollIndicatorInsets = UIEdgeInsets.zero {
    didSet { if indicators.phase != .hidden { updateScrollIndicators() } }
  }
  /// Both indicators' insets (UIKit's older property): setting it sets both; it reads the
  /// vertical one's.
  open var scrollIndicatorInsets: UIEdgeInsets {
    get { verticalScrollIndicatorInsets }
    set {
      verticalScrollIndicatorInsets = newValue
      horizontalScrollIndicatorInsets = newValue
    }
  }
  /// The indicators' colour.
  open var indicatorStyle = IndicatorStyle.default {
    didSet { if indicators.phase != .hidden { updateScrollIndicators() } }
  }
  /// Stored; Sheen never delays content touches and always cancels them when a drag begins.
  open var delaysContentTouches = true
  open var canCancelContentTouches = true
  public private(set) var isDragging = false
  public var isTracking: Bool { isDragging }
  public var isDecelerating: Bool { !motionX.isIdle || !motionY.isIdle }

  /// Holds the subviews' layers and moves by minus the content offset.
  let contentLayer = Layer()
  /// The scroll indicators' layers (above `contentLayer`) and their fade.
  let indicators = ScrollIndicators()
  private var motionX = ScrollAxisMotion() { didSet { if !motionX.isIdle { setMayMove() } } }
  private var motionY = ScrollAxisMotion() { didSet { if !motionY.isIdle { setMayMove() } } }
  private var panStart = CGPoint.zero
  private var panStartRaw = CGPoint.zero
  private var samples: [(time: Double, offset: CGPoint)] = []

  public override init(frame: CGRect) {
    super.init(frame: frame)
    contentLayer.owner = InternalLayerMarker.shared
    layer.sheenLayer.addSublayer(contentLayer)
    layer.sheenLayer.addSublayer(indicators.vertical)
    layer.sheenLayer.addSublayer(indicators.horizontal)
    layer.sublayerHost = contentLayer
    clipsToBounds = true
  }

  public required init?(coder: NSCoder) { return nil }

  /// The bounds' origin: the content point at the top-left corner. As in UIKit, an offset set
  /// here (by code, a drag, a fling or the wheel) is rounded to whole pixels of the window's
  /// scale, so that scrolled content stays on the pixel grid: text stays sharp, and shapes keep
  /// the coverage they had (`bounds` takes any origin).
  open var contentOffset: CGPoint {
    get { bounds.origin }
    set {
      let s = Double(window?.scale ?? 1)
      func aligned(_ v: CGFloat) -> CGFloat {
        guard s > 0, v.isFinite else { return v }
        return CGFloat((Double(v) * s).rounded() / s)
      }
      var b = bounds
      b.origin = CGPoint(x: aligned(newValue.x), y: aligned(newValue.y))
      bounds = b
    }
  }

  /// The insets actually applied (Sheen has no safe area: `contentInset`).
  open var adjustedContentInset: UIEdgeInsets { contentInset }

  /// Moves to `offset`, gliding there when `animated`.
  open func setContentOffset(_ offset: CGPoint, animated: Bool) {
    guard animated else {
      stopMotion()
      contentOffset = offset
      return
    }
    glide(to: offset, duration: UIScrollView.animatedScrollDuration, curve: .easeInEaseOut, start: nil)
  }

  // MARK: Geometry

  override var sublayerOffset: CGPoint { .zero }

  override func applyGeometry() {
    super.applyGeometry()
    let b = presentedBounds
    // Set whole: modifying `frame.origin` in place goes through the layer's modify coroutine,
    // whose frame is allocated on the heap (one allocation per scrolled frame).
    var f = contentLayer.frame
    f.origin = Point(x: -Double(b.minX), y: -Double(b.minY))
    contentLayer.frame = f
    if indicators.phase != .hidden { updateScrollIndicators() }
  }

  override func boundsOriginDidChange() {
    scrollIndicatorsDidScroll()
    delegate?.scrollViewDidScroll(self)
  }

  /// The range of offsets that shows content, per axis.
  var rangeX: ClosedRange<Double> {
    let lo = -Double(contentInset.left)
    return lo...max(lo, Double(contentSize.width + contentInset.right - bounds.width))
  }

  var rangeY: ClosedRange<Double> {
    let lo = -Double(contentInset.top)
    return lo...max(lo, Double(contentSize.height + contentInset.bottom - bounds.height))
  }

  private var scrollsX: Bool { rangeX.upperBound > rangeX.lowerBound || alwaysBounceHorizontal }
  private var scrollsY: Bool { rangeY.upperBound > rangeY.lowerBound || alwaysBounceVertical }

  /// Whether a drag (or wheel) moving the content offset by `delta` would scroll.
  func canScroll(along delta: CGPoint) -> Bool {
    guard isScrollEnabled else { return false }
    if abs(delta.y) >= abs(delta.x) { return delta.y != 0 && scrollsY }
    return scrollsX
  }

  // MARK: Dragging

  /// Stops deceleration or a bounce because a touch landed; true if something was moving.
  func stopMotionForTouch() -> Bool {
    let moving = isDecelerating
    stopMotion()
    scrollIndicatorsScrollingEnded(at: nil)
    return moving
  }

  private func stopMotion() {
    motionX = ScrollAxisMotion()
    motionY = ScrollAxisMotion()
  }

  /// A drag began at `p` (window coordinates).
  func panBegan(at p: CGPoint, time: Double) {
    stopMotion()
    isDragging = true
    panStart = p
    let o = contentOffset
    panStartRaw = CGPoint(
      x: unband(Double(o.x), rangeX, Double(bounds.width)),
      y: unband(Double(o.y), rangeY, Double(bounds.height)))
    samples = [(time, o)]
    delegate?.scrollViewWillBeginDragging(self)
  }

  func panMoved(to p: CGPoint, time: Double) {
    var o = contentOffset
    if scrollsX {
      o.x = CGFloat(band(Double(panStartRaw.x - (p.x - panStart.x)), rangeX, Double(bounds.width)))
    }
    if scrollsY {
      o.y = CGFloat(band(Double(panStartRaw.y - (p.y - panStart.y)), rangeY, Double(bounds.height)))
    }
    contentOffset = o
    samples.append((time, o))
    samples.removeAll { time - $0.time > 0.1 }
  }

  /// The drag ended at `time`. The release velocity is that of the last 0.1 s of samples, or
  /// none if the content rested for `restLimit` seconds before the release.
  func panEnded(time: Double, restLimit: Double = 0.1) {
    isDragging = false
    var v = CGPoint.zero
    if let first = samples.first, let last = samples.last, last.time - first.time > 0.001,
      time - last.time < restLimit
    {
      let dt = CGFloat(last.time - first.time)
      v = CGPoint(x: (last.offset.x - first.offset.x) / dt, y: (last.offset.y - first.offset.y) / dt)
    }
    samples = []
    let o = contentOffset
    motionX = release(Double(o.x), Double(v.x), rangeX, time)
    motionY = release(Double(o.y), Double(v.y), rangeY, time)
    if !isDecelerating { scrollIndicatorsScrollingEnded(at: time) }
    delegate?.scrollViewDidEndDragging(self, willDecelerate: isDecelerating)
  }

  /// The motion after a release at `x` with velocity `v`: a spring back when past an edge,
  /// a deceleration when moving.
  private func release(_ x: Double, _ v: Double, _ range: ClosedRange<Double>, _ time: Double)
    -> ScrollAxisMotion
  {
    var m = ScrollAxisMotion()
    m.start = time
    if x < range.lowerBound || x > range.upperBound {
      let edge = x < range.lowerBound ? range.lowerBound : range.upperBound
      m.kind = .spring(target: edge, d0: x - edge, v0: v)
    } else if abs(v) > 1 {
      m.kind = .decelerate(x0: x, v0: v, rate: Double(decelerationRate.rawValue))
    }
    return m
  }

  private func band(_ raw: Double, _ range: ClosedRange<Double>, _ d: Double) -> Double {
    if raw < range.lowerBound {
      return bounces ? range.lowerBound - rubberBand(range.lowerBound - raw, dimension: d) : range.lowerBound
    }
    if raw > range.upperBound {
      return bounces ? range.upperBound + rubberBand(raw - range.upperBound, dimension: d) : range.upperBound
    }
    return raw
  }

  private func unband(_ shown: Double, _ range: ClosedRange<Double>, _ d: Double) -> Double {
    if shown < range.lowerBound {
      return range.lowerBound - inverseRubberBand(range.lowerBound - shown, dimension: d)
    }
    if shown > range.upperBound {
      return range.upperBound + inverseRubberBand(shown - range.upperBound, dimension: d)
    }
    return shown
  }

  // MARK: Touchpad

  /// Touchpad scrolling moves the content as a drag by an imaginary finger would: it follows
  /// the fingers exactly (rubber band past the ends), then flings or springs back when they
  /// lift. This is where that finger is, in window points.
  private var touchpadFinger: CGPoint?

  /// Whether a touchpad scroll is in progress.
  var isTouchpadScrolling: Bool { touchpadFinger != nil }

  /// The fingers on a touchpad moved the content by `delta` points (positive y: towards the
  /// end, as a wheel turned towards the user).
  func touchpadScroll(by delta: CGPoint, time: Double) {
    if touchpadFinger == nil {
      touchpadFinger = .zero
      panBegan(at: .zero, time: time)
    }
    var f = touchpadFinger!
    f.x -= delta.x
    f.y -= delta.y
    touchpadFinger = f
    panMoved(to: f, time: time)
  }

  /// Seconds the fingers may rest before lifting and still fling: X reports no lift, so the
  /// platform ends a touchpad scroll 0.1 s after its last movement, and a frame may pass before
  /// the end is seen.
  static let touchpadRestLimit = 0.2

  /// The fingers lifted at `time`: a fling with the velocity of their last 0.1 s of movement
  /// (none if they rested longer than `touchpadRestLimit`), or a spring back past an edge.
  func touchpadScrollEnded(time: Double) {
    guard touchpadFinger != nil else { return }
    touchpadFinger = nil
    panEnded(time: time, restLimit: UIScrollView.touchpadRestLimit)
  }

  // MARK: Wheel and keys

  /// Glides by `delta` points (a wheel notch is `PlatformEvent.scrollPointsPerNotch`), from
  /// where the current glide was heading; wheels do not bounce.
  func scrollByWheel(_ delta: CGPoint, time: Double) {
    let o = contentOffset
    let fromX = motionX.glideTarget ?? Double(o.x)
    let fromY = motionY.glideTarget ?? Double(o.y)
    let target = CGPoint(
      x: scrollsX ? clamp(fromX + Double(delta.x), rangeX) : fromX,
      y: scrollsY ? clamp(fromY + Double(delta.y), rangeY) : fromY)
    glide(to: target, duration: UIScrollView.wheelGlideDuration, curve: .easeOut, start: time)
  }

  private func glide(to target: CGPoint, duration: Double, curve: CubicTimingCurve, start: Double?) {
    let o = contentOffset
    motionX = ScrollAxisMotion()
    motionY = ScrollAxisMotion()
    motionX.start = start
    motionY.start = start
    if target.x != o.x {
      motionX.kind = .glide(from: Double(o.x), to: Double(target.x), duration: duration, curve: curve)
    }
    if target.y != o.y {
      motionY.kind = .glide(from: Double(o.y), to: Double(target.y), duration: duration, curve: curve)
    }
  }

  private func clamp(_ v: Double, _ r: ClosedRange<Double>) -> Double {
    min(r.upperBound, max(r.lowerBound, v))
  }

  /// Scrolls as a key asks: arrows by 40 points, Page Up/Down and Space by a page, Home and End
  /// to the ends.
  func scroll(for key: Key) {
    let o = contentOffset
    let y = motionY.glideTarget ?? Double(o.y)
    let page = max(40, Double(bounds.height) - 40)
    let target: Double
    switch key {
    case .down: target = y + 40
    case .up: target = y - 40
    case .pageDown, .space: target = y + page
    case .pageUp: target = y - page
    case .home: target = rangeY.lowerBound
    case .end: target = rangeY.upperBound
    default: return
    }
    glide(
      to: CGPoint(x: o.x, y: CGFloat(clamp(target, rangeY))), duration: UIScrollView.animatedScrollDuration,
      curve: .easeInEaseOut, start: nil)
  }

  // MARK: Frames

  override var hasOwnMotion: Bool { isDecelerating || scrollIndicatorsAreMoving }

  override func advanceOwnMotion(to now: Double) -> Bool {
    if isDecelerating {
      var o = contentOffset
      if let x = motionX.advance(to: now, range: rangeX, bounces: bounces) { o.x = CGFloat(x) }
      if let y = motionY.advance(to: now, range: rangeY, bounces: bounces) { o.y = CGFloat(y) }
      contentOffset = o
      if !isDecelerating {
        scrollIndicatorsScrollingEnded(at: now)
        delegate?.scrollViewDidEndDecelerating(self)
      }
    }
    let fading = advanceScrollIndicators(to: now)
    return isDecelerating || fading
  }
}
