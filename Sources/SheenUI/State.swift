import SheenKit

/// A stored property SheenUI manages for a view (SwiftUI's `DynamicProperty`).
public protocol DynamicProperty {}

/// A field of a view struct that the view's node connects to storage it keeps.
protocol DynamicPropertyField {
  /// Connects this field to `storage` (made when nil) and returns the storage to keep, or nil
  /// when the field keeps none.
  func connect(_ storage: AnyObject?, node: Node) -> AnyObject?
}

/// Marks `@State` fields, which count as equal when two values of a view are compared.
protocol StateField {}

/// The storage of one `@State`: it lives in the view's node, across updates.
final class StateStorage<Value>: StateBox {
  var value: Value
  weak var node: Node?
  /// Whether the value was ever set (a row given back keeps only state that was).
  var wasSet = false
  init(_ value: Value, node: Node) {
    self.value = value
    self.node = node
  }

  func set(_ newValue: Value) {
    value = newValue
    wasSet = true
    node?.stateDidChange()
  }
}

/// A `@State`'s storage, whatever its value's type.
protocol StateBox: AnyObject {
  var wasSet: Bool { get }
}

/// What a `@State` field holds: its initial value, and, once its view is in a graph, the
/// storage its node keeps for it.
final class StateLocation<Value> {
  var initial: Value
  var storage: StateStorage<Value>?
  init(_ initial: Value) { self.initial = initial }

  var value: Value {
    get { storage?.value ?? initial }
    set {
      if let s = storage { s.set(newValue) } else { initial = newValue }
    }
  }
}

/// A value a view owns and SheenUI keeps between updates (SwiftUI's `@State`): changing it asks
/// for the view's body again before the next frame.
@propertyWrapper
public struct State<Value>: DynamicProperty, DynamicPropertyField, StateField {
  let location: StateLocation<Value>

  public init(wrappedValue value: Value) { location = StateLocation(value) }
  public init(initialValue value: Value) { location = StateLocation(value) }

  public var wrappedValue: Value {
    get { location.value }
    nonmutating set { location.value = newValue }
  }

  /// A binding to the value, for a child view that changes it.
  public var projectedValue: Binding<Value> {
    let l = location
    var b = Binding(get: { l.value }, set: { l.value = $0 })
    // Where it points: the storage the node keeps (the same across values of the view).
    b.location = l.storage ?? l
    return b
  }

  func connect(_ storage: AnyObject?, node: Node) -> AnyObject? {
    let s = (storage as? StateStorage<Value>) ?? StateStorage(location.initial, node: node)
    // Storage kept from a row given back follows the node that keeps it now.
    if s.node !== node { s.node = node }
    location.storage = s
    return s
  }
}

extension State where Value: ExpressibleByNilLiteral {
  public init() { self.init(wrappedValue: nil) }
}

/// A way to read and write a value someone else owns (SwiftUI's `@Binding`).
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value>: DynamicProperty, BindingField {
  let getter: () -> Value
  let setter: (Value) -> Void
  /// The value when the binding was made: a view holding a binding whose value changed is a
  /// different value (its body is asked for again), as in SwiftUI.
  let snapshot: Value
  /// What the binding points at, when known (a `@State`'s storage), and the property of it: two
  /// bindings to the same place showing the same value are the same input to a view.
  var location: AnyObject?
  var keyPath: AnyKeyPath?

  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    getter = get
    setter = set
    snapshot = get()
  }

  /// A binding that always reads `value` and ignores writes (for previews).
  public static func constant(_ value: Value) -> Binding<Value> {
    var b = Binding(get: { value }, set: { _ in })
    // Two constant bindings of equal values are interchangeable.
    b.location = ConstantBindingLocation.shared
    return b
  }

  public init(projectedValue: Binding<Value>) { self = projectedValue }

  public var wrappedValue: Value {
    get { getter() }
    nonmutating set { setter(newValue) }
  }
  public var projectedValue: Binding<Value> { self }

  /// A binding to a property of the value.
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
    let g = getter
    let s = setter
    var b = Binding<Subject>(
      get: { g()[keyPath: keyPath] },
      set: { v in
        var whole = g()
        whole[keyPath: keyPath] = v
        s(whole)
      })
    // A property of a property is not followed: such bindings count as different.
    if self.keyPath == nil, let l = location {
      b.location = l
      b.keyPath = keyPath
    }
    return b
  }

  func isSame(as other: Any) -> Bool {
    guard let o = other as? Binding<Value>, let l = location, l === o.location, keyPath == o.keyPath else {
      return false
    }
    if let e = snapshot as? any Equatable { return anyEquatableEqual(e, o.snapshot) }
    return bytesEqual(snapshot, o.snapshot)
  }
}

/// Where every constant binding points.
final class ConstantBindingLocation: Sendable {
  static let shared = ConstantBindingLocation()
}

/// A `Binding` field of a view: the same as another when it points at the same place and shows
/// the same value.
protocol BindingField {
  func isSame(as other: Any) -> Bool
}

// MARK: - Animation

/// How a change moves on screen (SwiftUI's `Animation`), run by SheenKit's animation engine:
/// curves are `UIView.animate` curves, springs are `SpringCurve`s.
///
/// A SwiftUI spring is given by its response (the period of the undamped oscillation, so
/// ω₀ = 2π / response) and damping fraction ζ; SheenKit's `SpringCurve` is given by the time at
/// which the envelope has decayed to 1/1000, so the duration used is ln(1000) / (ζ·ω₀) below
/// critical damping and ln(1000) / (ω₀·(ζ - √(ζ²-1))) above: the same oscillator.
public struct Animation: Hashable, Sendable {
  enum Timing: Hashable, Sendable {
    case curve(UInt, Double)
    case spring(response: Double, damping: Double)
  }
  let timing: Timing
  var delayTime: Double = 0
  /// A duration given outright (UIKit's form of a spring), instead of the response's.
  var fixedDuration: Double?

  init(timing: Timing, delayTime: Double = 0, fixedDuration: Double? = nil) {
    self.timing = timing
    self.delayTime = delayTime
    self.fixedDuration = fixedDuration
  }

  public static func easeInOut(duration: Double) -> Animation { Animation(timing: .curve(0, duration)) }
  public static func easeIn(duration: Double) -> Animation { Animation(timing: .curve(1, duration)) }
  public static func easeOut(duration: Double) -> Animation { Animation(timing: .curve(2, duration)) }
  public static func linear(duration: Double) -> Animation { Animation(timing: .curve(3, duration)) }
  public static let easeInOut = easeInOut(duration: 0.35)
  public static let easeIn = easeIn(duration: 0.35)
  public static let easeOut = easeOut(duration: 0.35)
  public static let linear = linear(duration: 0.35)

  public static func spring(
    response: Double = 0.55, dampingFraction: Double = 0.825, blendDuration: Double = 0
  )
    -> Animation
  {
    Animation(timing: .spring(response: max(0.01, response), damping: max(0.01, dampingFraction)))
  }
  /// The iOS 17 form: `bounce` 0 is critically damped, positive bounces (ζ = 1 - bounce).
  public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0)
    -> Animation
  {
    spring(response: duration, dampingFraction: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce))
  }
  public static func interactiveSpring(
    response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
  ) -> Animation {
    spring(response: response, dampingFraction: dampingFraction)
  }
  public static let spring = spring(response: 0.55, dampingFraction: 0.825, blendDuration: 0)
  public static let bouncy = spring(duration: 0.5, bounce: 0.3)
  public static let snappy = spring(duration: 0.5, bounce: 0.15)
  public static let smooth = spring(duration: 0.5, bounce: 0)
  /// iOS 17's default: a critically damped spring of response 0.55.
  public static let `default` = spring(response: 0.55, dampingFraction: 1)

  public func delay(_ delay: Double) -> Animation {
    var a = self
    a.delayTime = delay
    return a
  }

  /// The settling time of the spring as SheenKit's `SpringCurve` reads it.
  var duration: Double {
    if let d = fixedDuration { return d }
    switch timing {
    case .curve(_, let d): return d
    case .spring(let response, let z):
      let w = 2 * Double.pi / response
      let k = log(1000.0)
      return z < 1 ? k / (z * w) : k / (w * (z - (z * z - 1).squareRoot()))
    }
  }

  /// Runs `changes` as one SheenKit animation block.
  func run(_ changes: @escaping () -> Void) {
    switch timing {
    case .curve(let c, let d):
      UIView.animate(
        withDuration: d, delay: delayTime, options: UIView.AnimationOptions(rawValue: c << 16),
        animations: changes)
    case .spring(_, let z):
      UIView.animate(
        withDuration: duration, delay: delayTime, usingSpringWithDamping: CGFloat(z),
        initialSpringVelocity: 0,
        animations: changes)
    }
  }
}

/// The animation of the changes being made now (SwiftUI's `Transaction`).
public struct Transaction: Sendable {
  public var animation: Animation?
  public var disablesAnimations = false
  public init(animation: Animation? = nil) { self.animation = animation }

  @TaskLocal static var current: Transaction?
}

/// Makes the state changes in `body` and animates what they change on screen with `animation`.
@discardableResult
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows
  -> Result
{
  try Transaction.$current.withValue(Transaction(animation: animation)) { try body() }
}

/// Makes the state changes in `body` within `transaction`.
@discardableResult
public func withTransaction<Result>(_ transaction: Transaction, _ body: () throws -> Result) rethrows
  -> Result
{
  try Transaction.$current.withValue(transaction) { try body() }
}
