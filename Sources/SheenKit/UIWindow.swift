import Foundation
import SheenLayers
import SheenPlatform
import SheenRaster

/// The root of a view tree and its host (UIKit's `UIWindow`): turns platform events into
/// touches, lays out and animates the tree on one clock, and renders it with `FrameRenderer`
/// (bands drawn on several threads, the same pixels as one).
///
/// It is a `FrameLoopClient`: `FrameLoop` hands it events and asks for frames; the events are
/// kept and dispatched with the frame's time. Headless, call `dispatch(_:time:)` and
/// `renderFrame(into:time:)` yourself on a virtual clock.
///
/// Unlike UIKit, one touch is tracked (the primary pointer button, or the first finger on a
/// touch screen); touches are delivered at once (no `delaysContentTouches`), and a drag of more
/// than `UIScrollView.panThreshold` points over a scroll view cancels them and scrolls instead.
/// Touchpad scrolling (`smoothScroll`) moves the scroll view under the pointer as a drag would
/// and flings when the fingers lift; wheel notches (`scroll`) glide.
open class UIWindow: UIView, FrameLoopClient {
  /// Pixels per point.
  public var scale: CGFloat = 1
  /// Whether a `scaleChange` from the platform changes `scale` (false when the user chose one).
  public var followsPlatformScale = true
  /// Called with key events (and events nothing else handles). Return true when handled;
  /// otherwise keys scroll `keyboardScrollView` if it is set.
  public var eventHandler: ((PlatformEvent) -> Bool)?
  /// The scroll view that arrow keys, Page Up/Down, Space, Home and End scroll.
  public weak var keyboardScrollView: UIScrollView?
  /// Draws and caches (shadows, glyphs) across frames; `renderer.threads` threads per frame.
  public var renderer = FrameRenderer()
  /// The time of the latest event or frame, on the host's clock.
  public private(set) var currentTime: Double = 0
  /// How many views and layers this window's display passes have drawn (`draw(_:)`,
  /// `draw(in:)`, a delegate's `draw(_:in:)`): Sheen's, for tests and `sheen bench` (steady
  /// frames draw none).
  public private(set) var displayCount = 0
  /// The tree drawn each frame, made once (a new array each frame was a heap allocation).
  private lazy var roots = [layer.sheenLayer]
  /// Views with work for the time between frames (`setNeedsIdleWork`).
  var idleWorkers: [WeakIdleWorker] = []
  /// Draws subtrees ahead of showing them (`warmRendererCaches`), sharing `renderer`'s caches.
  var warmRenderer: FrameRenderer?
  /// What `warmRendererCaches` draws into.
  var warmSurface: Surface?
  /// Storage for the layer list `warmRendererCaches` draws.
  var warmLayers: [Layer] = []

  private var pending: [PlatformEvent] = []
  private var touch: UITouch?
  private var pan: (scrollView: UIScrollView, start: CGPoint)?
  private var panCandidates: [UIScrollView] = []
  private var touchStart = CGPoint.zero
  private var touchSwallowed = false
  /// The touch screen finger that acts as the touch (nil: the pointer, or none).
  private var fingerID: Int?
  /// The scroll view a touchpad scroll in progress moves.
  private var touchpadScrollView: UIScrollView?

  public override init(frame: CGRect) {
    super.init(frame: frame)
  }

  public required init?(coder: NSCoder) { return nil }

  /// Unlike UIKit, there is nothing to make key: this is a no-op kept for familiar code.
  open func makeKeyAndVisible() {}

  /// The controller whose view fills the window: setting it loads the view, puts it under the
  /// window's other subviews with a flexible size, and starts its appearance
  /// (`viewWillAppear` now, `viewDidAppear` after its first layout); the old one's view leaves.
  open var rootViewController: UIViewController? {
    didSet {
      guard oldValue !== rootViewController else { return }
      if let old = oldValue, old.viewIfLoaded?.superview === self { old.view.removeFromSuperview() }
      guard let vc = rootViewController else { return }
      let v: UIView = vc.view
      v.frame = bounds
      v.autoresizingMask = [.flexibleWidth, .flexibleHeight]
      insertSubview(v, at: 0)
    }
  }

  /// Controllers whose appearance began; it ends after the next layout.
  var pendingAppearance: [UIViewController] = []

  /// Ends the appearance transitions that began (`viewDidAppear`, `viewDidDisappear`).
  func finishAppearance() {
    guard !pendingAppearance.isEmpty else { return }
    let done = pendingAppearance
    pendingAppearance.removeAll()
    for c in done { c.endAppearance() }
  }

  // MARK: FrameLoopClient

  public func handle(_ event: PlatformEvent) { pending.append(event) }

  public func draw(into surface: Surface, frame: FrameLoop.FrameInfo) {
    let events = pending
    pending.removeAll()
    for e in events { dispatch(e, time: frame.time) }
    renderFrame(into: surface, time: frame.time)
  }

  /// The cursor of the frontmost view under `point` (window pixels) that names one, else the
  /// arrow.
  public func cursor(at point: Point) -> CursorShape {
    let s = Double(scale)
    let p = CGPoint(x: point.x / s, y: point.y / s)
    var v = hitTest(p, with: nil)
    while let view = v {
      if let c = view.pointerCursor { return c }
      v = view.superview
    }
    return .arrow
  }

  /// True while an animation, a deceleration or a bounce runs, or events wait.
  public var isAnimating: Bool { !pending.isEmpty || subtreeIsMoving() }

  // MARK: Frames

  /// Advances animations and scrolling to `time`, lays out, and draws the tree into `surface`
  /// at `scale` pixels per point.
  public func renderFrame(into surface: Surface, time: Double) {
    advance(to: time)
    let s = Double(scale)
    renderer.render(roots, into: surface, transform: Transform(scaleX: s, y: s), background: .black)
  }

  /// Lays out and advances animations and scrolling to `time` without drawing.
  public func advance(to time: Double) {
    currentTime = max(currentTime, time)
    layoutIfNeeded()
    finishAppearance()
    _ = advanceSubtree(to: currentTime)
    // Layout asked for by completions runs before drawing too.
    layoutIfNeeded()
    // Views and layers marked for drawing draw now (`draw(_:)`, `draw(in:)`).
    displayCount += layer.displayTree(scale: scale)
  }

  // MARK: Events

  /// Delivers one platform event at `time` (seconds on the host's clock).
  public func dispatch(_ event: PlatformEvent, time: Double) {
    currentTime = max(currentTime, time)
    let s = Double(scale)
    func points(_ p: Point) -> CGPoint { CGPoint(x: p.x / s, y: p.y / s) }
    switch event {
    case .pointerDown(let p, .left, _) where fingerID == nil:
      endTouchpadScroll()
      pointerDown(points(p))
    case .pointerMove(let p, _) where fingerID == nil: pointerMoved(points(p))
    case .pointerUp(let p, .left, _) where fingerID == nil: pointerUp(points(p))
    case .touchDown(let id, let p) where touch == nil:
      // The first finger is the touch; others wait (one touch is tracked).
      endTouchpadScroll()
      fingerID = id
      pointerDown(points(p))
    case .touchMove(let id, let p) where id == fingerID: pointerMoved(points(p))
    case .touchUp(let id, let p) where id == fingerID:
      fingerID = nil
      pointerUp(points(p))
    case .touchCancel(let id) where id == fingerID:
      fingerID = nil
      cancelTouch()
    case .scroll(let delta, let at, _):
      let p = points(at)
      if let sv = scrollView(at: p, delta: CGPoint(x: delta.x, y: delta.y)) {
        sv.scrollByWheel(CGPoint(x: delta.x, y: delta.y), time: currentTime)
      }
    case .smoothScroll(let delta, let at, _) where touch == nil:
      let d = CGPoint(x: delta.x, y: delta.y)
      if touchpadScrollView == nil { touchpadScrollView = scrollView(at: points(at), delta: d) }
      touchpadScrollView?.touchpadScroll(by: d, time: currentTime)
    case .smoothScrollEnded:
      endTouchpadScroll()
    case .scaleChange(let newScale) where followsPlatformScale && newScale > 0 && newScale.isFinite:
      // The same pixels in the new points, until the resize that follows.
      let pixels = CGSize(width: bounds.width * scale, height: bounds.height * scale)
      scale = CGFloat(newScale)
      frame = CGRect(x: 0, y: 0, width: pixels.width / scale, height: pixels.height / scale)
      setNeedsLayout()
    case .resize(let size):
      frame = CGRect(
        x: 0, y: 0, width: CGFloat(Double(size.width) / s), height: CGFloat(Double(size.height) / s))
    case .keyDown(let key, _, _):
      if eventHandler?(event) == true { return }
      keyboardScrollView?.scroll(for: key)
    case .focusOut, .pointerLeave:
      if eventHandler?(event) == true { return }
      if event == .focusOut {
        fingerID = nil
        cancelTouch()
        endTouchpadScroll()
      }
    default:
      _ = eventHandler?(event)
    }
  }

  private func endTouchpadScroll() {
    touchpadScrollView?.touchpadScrollEnded(time: currentTime)
    touchpadScrollView = nil
  }

  private func scrollViews(containing view: UIView?) -> [UIScrollView] {
    var out: [UIScrollView] = []
    var v = view
    while let x = v {
      if let sv = x as? UIScrollView, sv.isScrollEnabled, sv.isUserInteractionEnabled { out.append(sv) }
      v = x.superview
    }
    return out
  }

  private func scrollView(at p: CGPoint, delta: CGPoint) -> UIScrollView? {
    scrollViews(containing: hitTest(p, with: nil)).first { $0.canScroll(along: delta) }
  }

  private func event(_ t: UITouch) -> UIEvent { UIEvent(timestamp: currentTime, touches: [t]) }

  private func pointerDown(_ p: CGPoint) {
    cancelTouch()
    let t = UITouch()
    t.window = self
    t.timestamp = currentTime
    t.locationInWindow = p
    t.previousLocationInWindow = p
    t.phase = .began
    let hit = hitTest(p, with: nil)
    t.view = hit
    touch = t
    touchStart = p
    panCandidates = scrollViews(containing: hit)
    // A touch that stops a moving scroll view only stops it, as in UIKit.
    touchSwallowed = false
    for sv in panCandidates where sv.stopMotionForTouch() { touchSwallowed = true }
    if !touchSwallowed, let v = hit { v.touchesBegan([t], with: event(t)) }
  }

  private func pointerMoved(_ p: CGPoint) {
    guard let t = touch else { return }
    t.previousLocationInWindow = t.locationInWindow
    t.locationInWindow = p
    t.timestamp = currentTime
    if let pan {
      pan.scrollView.panMoved(to: p, time: currentTime)
      return
    }
    let d = CGPoint(x: p.x - touchStart.x, y: p.y - touchStart.y)
    if (d.x * d.x + d.y * d.y).squareRoot() > UIScrollView.panThreshold,
      let sv = panCandidates.first(where: { $0.canScroll(along: CGPoint(x: -d.x, y: -d.y)) })
    {
      if !touchSwallowed, let v = t.view {
        t.phase = .cancelled
        v.touchesCancelled([t], with: event(t))
      }
      touchSwallowed = true
      pan = (sv, p)
      sv.panBegan(at: p, time: currentTime)
      return
    }
    t.phase = .moved
    if !touchSwallowed, let v = t.view { v.touchesMoved([t], with: event(t)) }
  }

  private func pointerUp(_ p: CGPoint) {
    guard let t = touch else { return }
    t.previousLocationInWindow = t.locationInWindow
    t.locationInWindow = p
    t.timestamp = currentTime
    touch = nil
    if let pan {
      self.pan = nil
      pan.scrollView.panEnded(time: currentTime)
      return
    }
    t.phase = .ended
    if !touchSwallowed, let v = t.view { v.touchesEnded([t], with: event(t)) }
  }

  private func cancelTouch() {
    guard let t = touch else { return }
    touch = nil
    if let pan {
      self.pan = nil
      pan.scrollView.panEnded(time: currentTime)
    } else if !touchSwallowed, let v = t.view {
      t.phase = .cancelled
      v.touchesCancelled([t], with: event(t))
    }
  }
}
