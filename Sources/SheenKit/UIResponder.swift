import Foundation

/// An object that receives touches (UIKit's `UIResponder`). Unhandled touches go up the chain of
/// `next` responders: a view's is its superview.
open class UIResponder {
  public init() {}

  open var next: UIResponder? { nil }

  open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
    next?.touchesBegan(touches, with: event)
  }
  open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
    next?.touchesMoved(touches, with: event)
  }
  open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
    next?.touchesEnded(touches, with: event)
  }
  open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
    next?.touchesCancelled(touches, with: event)
  }
}

/// One finger (here: the primary pointer button) on the screen (UIKit's `UITouch`).
public final class UITouch: Hashable {
  public enum Phase: Int, Sendable {
    case began, moved, stationary, ended, cancelled
  }

  public internal(set) var phase: Phase = .began
  /// The view the touch began in (its hit-test view).
  public internal(set) weak var view: UIView?
  public internal(set) weak var window: UIWindow?
  /// Seconds on the host's clock.
  public internal(set) var timestamp: TimeInterval = 0
  public internal(set) var tapCount = 1
  /// In the window's coordinates (points).
  var locationInWindow = CGPoint.zero
  var previousLocationInWindow = CGPoint.zero

  init() {}

  /// The touch's location in `view`'s coordinates (the window's when nil).
  public func location(in view: UIView?) -> CGPoint {
    guard let view else { return locationInWindow }
    return view.convertFromWindow(locationInWindow)
  }

  public func previousLocation(in view: UIView?) -> CGPoint {
    guard let view else { return previousLocationInWindow }
    return view.convertFromWindow(previousLocationInWindow)
  }

  public static func == (a: UITouch, b: UITouch) -> Bool { a === b }
  public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
}

/// The touches of one event (UIKit's `UIEvent`).
public final class UIEvent {
  public let timestamp: TimeInterval
  public let allTouches: Set<UITouch>?

  init(timestamp: TimeInterval, touches: Set<UITouch>) {
    self.timestamp = timestamp
    self.allTouches = touches
  }

  public func touches(for view: UIView) -> Set<UITouch>? { allTouches?.filter { $0.view === view } }
}
