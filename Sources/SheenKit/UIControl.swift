import Foundation
import SheenPlatform

/// An action run by a control (UIKit's `UIAction`).
public final class UIAction {
  public let title: String
  public let identifier: String
  /// The control that sent the action, while it runs.
  public internal(set) weak var sender: AnyObject?
  let handler: (UIAction) -> Void

  public init(title: String = "", identifier: String? = nil, handler: @escaping (UIAction) -> Void) {
    self.title = title
    self.identifier = identifier ?? UUID().uuidString
    self.handler = handler
  }
}

/// A view that tracks a touch and sends events to actions (UIKit's `UIControl`).
///
/// Unlike UIKit, there are no Objective-C selectors on Linux: register closures with
/// `addAction(_:for:)` / `addAction(for:_:)`, or a target's method with
/// `addTarget(_:action:for:)` where `action` is an unapplied method reference
/// (`ViewController.tapped`) instead of `#selector(tapped)`.
open class UIControl: UIView {
  /// UIKit's control states.
  public struct State: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let normal = State([])
    public static let highlighted = State(rawValue: 1 << 0)
    public static let disabled = State(rawValue: 1 << 1)
    public static let selected = State(rawValue: 1 << 2)
    public static let focused = State(rawValue: 1 << 3)
  }

  /// UIKit's control events.
  public struct Event: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let touchDown = Event(rawValue: 1 << 0)
    public static let touchDownRepeat = Event(rawValue: 1 << 1)
    public static let touchDragInside = Event(rawValue: 1 << 2)
    public static let touchDragOutside = Event(rawValue: 1 << 3)
    public static let touchDragEnter = Event(rawValue: 1 << 4)
    public static let touchDragExit = Event(rawValue: 1 << 5)
    public static let touchUpInside = Event(rawValue: 1 << 6)
    public static let touchUpOutside = Event(rawValue: 1 << 7)
    public static let touchCancel = Event(rawValue: 1 << 8)
    public static let valueChanged = Event(rawValue: 1 << 12)
    public static let primaryActionTriggered = Event(rawValue: 1 << 13)
    public static let allTouchEvents = Event(rawValue: 0x0FFF)
    public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
  }

  /// How far outside its bounds a touch still counts as inside (UIKit's is about 70 points).
  public static let touchSlop: CGFloat = 70

  private var actions: [(UIAction, Event)] = []

  public override init(frame: CGRect) { super.init(frame: frame) }
  public required init?(coder: NSCoder) { return nil }

  /// A pointing hand while enabled, unless set otherwise.
  open override var pointerCursor: CursorShape? {
    get { super.pointerCursor ?? (isEnabled ? .pointingHand : nil) }
    set { super.pointerCursor = newValue }
  }

  open var isEnabled = true {
    didSet { if isEnabled != oldValue { stateDidChange() } }
  }
  open var isSelected = false {
    didSet { if isSelected != oldValue { stateDidChange() } }
  }
  open var isHighlighted = false {
    didSet { if isHighlighted != oldValue { stateDidChange() } }
  }
  public private(set) var isTracking = false
  public private(set) var isTouchInside = false

  open var state: State {
    var s = State.normal
    if isHighlighted { s.insert(.highlighted) }
    if !isEnabled { s.insert(.disabled) }
    if isSelected { s.insert(.selected) }
    return s
  }

  /// Called when `state` changes (subclasses restyle themselves).
  open func stateDidChange() {}

  // MARK: Actions

  open func addAction(_ action: UIAction, for events: Event) {
    actions.append((action, events))
  }

  /// Runs `handler` on `events`: the closure form of `addTarget(_:action:for:)`.
  @discardableResult
  public func addAction(for events: Event, _ handler: @escaping () -> Void) -> UIAction {
    let a = UIAction { _ in handler() }
    addAction(a, for: events)
    return a
  }

  open func removeAction(_ action: UIAction, for events: Event) {
    actions.removeAll { $0.0 === action && $0.1.isSubset(of: events) }
  }

  /// Calls `action(target)()` on `events`; the target is held weakly, as UIKit does.
  public func addTarget<T: AnyObject>(_ target: T, action: @escaping (T) -> () -> Void, for events: Event) {
    addAction(UIAction { [weak target] _ in if let target { action(target)() } }, for: events)
  }

  /// Calls `action(target)(sender)` on `events`, where the sender is this control.
  public func addTarget<T: AnyObject, Sender: UIControl>(
    _ target: T, action: @escaping (T) -> (Sender) -> Void, for events: Event
  ) {
    addAction(
      UIAction { [weak target, weak self] _ in
        if let target, let s = self as? Sender { action(target)(s) }
      }, for: events)
  }

  /// Runs the actions registered for any of `events`.
  open func sendActions(for events: Event) {
    for (a, e) in actions where !e.intersection(events).isEmpty {
      a.sender = self
      a.handler(a)
      a.sender = nil
    }
  }

  // MARK: Tracking

  private func isInside(_ touch: UITouch) -> Bool {
    let p = touch.location(in: self)
    return bounds.insetBy(dx: -UIControl.touchSlop, dy: -UIControl.touchSlop).contains(p)
  }

  open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard isEnabled, touches.first != nil else { return }
    isTracking = true
    isTouchInside = true
    isHighlighted = true
    sendActions(for: .touchDown)
  }

  open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard isTracking, let t = touches.first else { return }
    let inside = isInside(t)
    let was = isTouchInside
    isTouchInside = inside
    isHighlighted = inside
    if inside != was { sendActions(for: inside ? .touchDragEnter : .touchDragExit) }
    sendActions(for: inside ? .touchDragInside : .touchDragOutside)
  }

  open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard isTracking, let t = touches.first else { return }
    isTracking = false
    let inside = isInside(t)
    isTouchInside = false
    isHighlighted = false
    if inside {
      sendActions(for: [.touchUpInside, .primaryActionTriggered])
    } else {
      sendActions(for: .touchUpOutside)
    }
  }

  open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard isTracking else { return }
    isTracking = false
    isTouchInside = false
    isHighlighted = false
    sendActions(for: .touchCancel)
  }
}
