import Foundation
import SheenLayers
import SheenRaster

/// The properties `UIView.animate` animates: a view's own, and some of its layer's.
enum AnimationKey: Hashable {
  case center, bounds, alpha, transform, backgroundColor
  case cornerRadius, borderWidth, shadowOpacity, shadowRadius, shadowOffset
}

/// How an animation's progress follows time.
enum AnimationTiming {
  case curve(CubicTimingCurve)
  case spring(SpringCurve)
}

/// What one `UIView.animate` call started: its timing and its completion, shared by the
/// property animations it made.
final class AnimationGroup {
  let timing: AnimationTiming
  let duration: Double
  let delay: Double
  /// Resolved by the first frame that advances the animation (the host's frame time).
  var begin: Double?
  var remaining = 0
  var completion: ((Bool) -> Void)?
  var finishedAll = true

  init(timing: AnimationTiming, duration: Double, delay: Double, completion: ((Bool) -> Void)?) {
    self.timing = timing
    self.duration = duration
    self.delay = delay
    self.completion = completion
  }

  /// Progress at `now` and whether the animation is over.
  func progress(at now: Double) -> (Double, Bool) {
    if begin == nil { begin = now }
    let t = now - begin! - delay
    if t <= 0 { return (0, false) }
    // Within a nanosecond of the end is the end (frame times are sums of floating steps).
    if t >= duration - 1e-9 { return (1, true) }
    switch timing {
    case .curve(let c): return (c.value(at: t / duration), false)
    case .spring(let s): return (s.value(at: t), false)
    }
  }

  /// One of its property animations ended (or was replaced, or cancelled).
  func end(finished: Bool) {
    if !finished { finishedAll = false }
    remaining -= 1
    if remaining == 0, let c = completion {
      completion = nil
      c(finishedAll)
    }
  }
}

/// One property moving from one value to another; values are vectors of doubles.
struct PropertyAnimation {
  var from: [Double]
  var to: [Double]
  var current: [Double]
  let group: AnimationGroup
}

/// The property changes recorded while an animation block runs.
final class AnimationCapture: @unchecked Sendable {
  var records: [(view: UIView, key: AnimationKey, from: [Double])] = []
  var seen: Set<Pair> = []

  struct Pair: Hashable {
    let view: ObjectIdentifier
    let key: AnimationKey
  }

  func record(_ view: UIView, _ key: AnimationKey, from: [Double]) {
    if seen.insert(Pair(view: ObjectIdentifier(view), key: key)).inserted {
      records.append((view, key, from))
    }
  }
}

enum AnimationState {
  /// The block being recorded on this thread (nil outside blocks).
  @TaskLocal static var capture: AnimationCapture?
}

extension UIView {
  /// Options of block animations (UIKit's `UIView.AnimationOptions`).
  public struct AnimationOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
    /// Unlike UIKit, views always receive touches while they animate.
    public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
    /// Sheen always begins from the current (presentation) state.
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
    /// Unlike UIKit, ignored: animations play once.
    public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
    /// Unlike UIKit, ignored: animations play once.
    public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
    public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
    public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
    public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

    var curve: CubicTimingCurve {
      switch (rawValue >> 16) & 3 {
      case 1: return .easeIn
      case 2: return .easeOut
      case 3: return .linear
      default: return .easeInEaseOut
      }
    }
  }

  /// Animates the changes `animations` makes to frame, bounds, center, alpha, transform and
  /// backgroundColor (and the view's layer's cornerRadius, borderWidth, shadowOpacity,
  /// shadowRadius, shadowOffset) from their current on-screen values, with a cubic Bézier curve.
  ///
  /// The animation begins at the time of the next frame the host draws. Unlike UIKit, a
  /// completion with nothing to animate is called at once, before this returns.
  public static func animate(
    withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
    animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
  ) {
    run(
      AnimationGroup(timing: .curve(options.curve), duration: duration, delay: delay, completion: completion),
      animations)
  }

  public static func animate(
    withDuration duration: TimeInterval, animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
  ) {
    animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
  }

  public static func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
    animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
  }

  /// The spring form: a damped harmonic oscillator (see `SpringCurve`) with damping ratio
  /// `dampingRatio` (below 1 overshoots) and initial velocity in whole distances per second.
  public static func animate(
    withDuration duration: TimeInterval, delay: TimeInterval, usingSpringWithDamping dampingRatio: CGFloat,
    initialSpringVelocity velocity: CGFloat, options: AnimationOptions = [], animations: @escaping () -> Void,
    completion: ((Bool) -> Void)? = nil
  ) {
    let spring = SpringCurve(
      dampingRatio: Double(dampingRatio), initialVelocity: Double(velocity), duration: duration)
    run(
      AnimationGroup(timing: .spring(spring), duration: duration, delay: delay, completion: completion),
      animations)
  }

  /// Runs `actions` with no animation, even inside an animation block.
  public static func performWithoutAnimation(_ actions: () -> Void) {
    // Outside an animation block there is nothing to turn off (binding the task-local value
    // allocates each time).
    guard AnimationState.capture != nil else { return actions() }
    AnimationState.$capture.withValue(nil) { actions() }
  }

  private static func run(_ group: AnimationGroup, _ animations: () -> Void) {
    guard group.duration > 0 || group.delay > 0 else {
      performWithoutAnimation(animations)
      group.completion?(true)
      return
    }
    let capture = AnimationCapture()
    AnimationState.$capture.withValue(capture) { animations() }
    for r in capture.records {
      let to = r.view.modelVector(r.key)
      if to == r.from {
        // Nothing to animate to what is already on screen, but an animation still running
        // towards another value (a press and release in one frame) must not carry on.
        if let old = r.view.animations[r.key] {
          old.group.end(finished: true)
          r.view.animations[r.key] = nil
          r.view.applyPresentation(r.key, to)
        }
        continue
      }
      group.remaining += 1
      if let old = r.view.animations[r.key] { old.group.end(finished: true) }
      let (from, end) = matchColorEnds(r.key, r.from, to)
      r.view.animations[r.key] = PropertyAnimation(from: from, to: end, current: from, group: group)
      r.view.applyPresentation(r.key, from)
    }
    if group.remaining == 0 {
      group.completion?(true)
      group.completion = nil
    }
  }

  /// A colour fading from or to nothing keeps the other end's hue.
  private static func matchColorEnds(_ key: AnimationKey, _ a: [Double], _ b: [Double]) -> (
    [Double], [Double]
  ) {
    guard key == .backgroundColor else { return (a, b) }
    var a = a
    var b = b
    if a[3] == 0 { (a[0], a[1], a[2]) = (b[0], b[1], b[2]) }
    if b[3] == 0 { (b[0], b[1], b[2]) = (a[0], a[1], a[2]) }
    return (a, b)
  }

  // MARK: Per view

  /// Called by every setter of an animatable property before it changes the model: records the
  /// on-screen value inside an animation block, and stops a running animation outside one.
  func animatableWillChange(_ key: AnimationKey) {
    if let capture = AnimationState.capture {
      capture.record(self, key, from: presentationVector(key))
    } else if let old = animations.removeValue(forKey: key) {
      old.group.end(finished: false)
    }
  }

  /// The value on screen.
  func presentationVector(_ key: AnimationKey) -> [Double] {
    animations[key]?.current ?? modelVector(key)
  }

  /// The value the program set.
  func modelVector(_ key: AnimationKey) -> [Double] {
    let l = layer.sheenLayer
    switch key {
    case .center: return [Double(centerModel.x), Double(centerModel.y)]
    case .bounds:
      let b = boundsModel
      return [Double(b.minX), Double(b.minY), Double(b.width), Double(b.height)]
    case .alpha: return [Double(alphaModel)]
    case .transform:
      let t = transformModel.layerTransform
      return [t.scaleX, t.scaleY, t.rotation, t.translationX, t.translationY]
    case .backgroundColor:
      let c = backgroundColorModel?.color ?? .clear
      return [c.red, c.green, c.blue, c.alpha]
    case .cornerRadius: return [l.cornerRadius]
    case .borderWidth: return [l.borderWidth]
    case .shadowOpacity: return [l.shadowOpacity]
    case .shadowRadius: return [l.shadowRadius]
    case .shadowOffset: return [l.shadowOffset.width, l.shadowOffset.height]
    }
  }

  /// Shows a value on the real layer without changing the model.
  func applyPresentation(_ key: AnimationKey, _ v: [Double]) {
    let l = layer.sheenLayer
    switch key {
    case .center, .bounds: applyGeometry()
    case .alpha: l.opacity = min(1, max(0, v[0]))
    case .transform:
      l.transform = LayerTransform(
        scaleX: v[0], scaleY: v[1], rotation: v[2], translationX: v[3], translationY: v[4])
    case .backgroundColor:
      let c = Color(
        red: min(1, max(0, v[0])), green: min(1, max(0, v[1])), blue: min(1, max(0, v[2])),
        alpha: min(1, max(0, v[3])))
      l.backgroundColor = c.alpha > 0 ? c : (backgroundColorModel == nil ? nil : c)
    case .cornerRadius: l.cornerRadius = max(0, v[0])
    case .borderWidth: l.borderWidth = max(0, v[0])
    case .shadowOpacity: l.shadowOpacity = min(1, max(0, v[0]))
    case .shadowRadius: l.shadowRadius = max(0, v[0])
    case .shadowOffset: l.shadowOffset = Size(width: v[0], height: v[1])
    }
  }

  /// Advances this view's animations to `now`; returns whether any is still running.
  func advanceAnimations(to now: Double) -> Bool {
    guard !animations.isEmpty else { return false }
    var ended: [(AnimationKey, AnimationGroup, [Double])] = []
    for (key, var a) in animations {
      let (p, done) = a.group.progress(at: now)
      if done {
        ended.append((key, a.group, a.to))
        continue
      }
      a.current = zip(a.from, a.to).map { $0 + ($1 - $0) * p }
      animations[key] = a
      applyPresentation(key, a.current)
    }
    for (key, group, to) in ended {
      animations[key] = nil
      applyPresentation(key, to)
      group.end(finished: true)
    }
    return !animations.isEmpty
  }

  /// Stops every animation of the view; the model values show at once.
  public func removeAllAnimations() {
    let all = animations
    animations = [:]
    for (key, a) in all {
      applyPresentation(key, a.to)
      a.group.end(finished: false)
    }
  }
}
