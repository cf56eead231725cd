import SheenKit

/// The parts of a button a style draws (SwiftUI's `ButtonStyleConfiguration`).
public struct ButtonStyleConfiguration {
  /// The button's label, as a view.
  public struct Label: View {
    let view: AnyView
    public typealias Body = Never
    public var body: Never { fatalError("ButtonStyleConfiguration.Label has no body") }
  }
  public let label: Label
  /// Whether a touch is down on the button now.
  public let isPressed: Bool
}

extension ButtonStyleConfiguration.Label: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node { view.reconcile(old, ctx) }
}

/// How buttons look, pressed or not (SwiftUI's `ButtonStyle`).
public protocol ButtonStyle {
  associatedtype Body: View
  typealias Configuration = ButtonStyleConfiguration
  @ViewBuilder func makeBody(configuration: Self.Configuration) -> Self.Body
}

/// iOS's default style for a button in a plain view: the label in the accent colour, faded
/// while pressed.
public struct BorderlessButtonStyle: ButtonStyle {
  public init() {}
  public func makeBody(configuration: Configuration) -> some View {
    configuration.label
      .foregroundColor(.accentColor)
      .opacity(configuration.isPressed ? 0.25 : 1)
  }
}

/// The label as it is, faded while pressed.
public struct PlainButtonStyle: ButtonStyle {
  public init() {}
  public func makeBody(configuration: Configuration) -> some View {
    configuration.label.opacity(configuration.isPressed ? 0.5 : 1)
  }
}

extension ButtonStyle where Self == BorderlessButtonStyle {
  public static var borderless: BorderlessButtonStyle { BorderlessButtonStyle() }
  public static var automatic: BorderlessButtonStyle { BorderlessButtonStyle() }
}

extension ButtonStyle where Self == PlainButtonStyle {
  public static var plain: PlainButtonStyle { PlainButtonStyle() }
}

/// A button style kept in the environment, compared by type and bytes.
struct ButtonStyleBox: Equatable {
  let style: any ButtonStyle
  static func == (a: ButtonStyleBox, b: ButtonStyleBox) -> Bool {
    type(of: a.style) == type(of: b.style) && anyBytesEqual(a.style, b.style)
  }
}

extension View {
  /// The style of the buttons in this view.
  public func buttonStyle<S: ButtonStyle>(_ style: S) -> some View {
    environment(\.buttonStyle, ButtonStyleBox(style: style))
  }
}

/// A control that performs an action when tapped (SwiftUI's `Button`).
///
/// A touch down presses it (its style's body is asked for again with `isPressed`), moving out of
/// it unpresses it, and lifting the touch inside performs the action; a drag that scrolls cancels
/// it. The change of look is animated as the UIKit demo's buttons are: a 0.12 s ease-out when
/// pressed, a spring (damping 0.5 over 0.4 s) when released.
public struct Button<Label: View>: View {
  let action: () -> Void
  let label: Label

  public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
    self.action = action
    self.label = label()
  }

  public typealias Body = Never
  public var body: Never { fatalError("Button has no body") }
}

extension Button where Label == Text {
  public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) {
    self.init(action: action) { Text(title) }
  }
}

/// The animations of a press and a release.
enum PressAnimation {
  static let down = Animation.easeOut(duration: 0.12)
  static let up = Animation(timing: .spring(response: 0, damping: 0.5), fixedDuration: 0.4)
}

/// A view that turns touches into presses and taps for its node.
final class TouchView: UIView {
  var onPress: ((Bool) -> Void)?
  var onTap: (() -> Void)?
  var enabled = true
  private var tracking = false
  private var inside = false

  override init(frame: CGRect) {
    super.init(frame: frame)
    isOpaque = false
  }
  required init?(coder: NSCoder) { return nil }

  private func isInside(_ t: UITouch) -> Bool { bounds.contains(t.location(in: self)) }

  override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard enabled, let t = touches.first else { return super.touchesBegan(touches, with: event) }
    tracking = true
    inside = isInside(t)
    onPress?(true)
  }

  override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard tracking, let t = touches.first else { return super.touchesMoved(touches, with: event) }
    let now = isInside(t)
    if now != inside {
      inside = now
      onPress?(now)
    }
  }

  override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard tracking, let t = touches.first else { return super.touchesEnded(touches, with: event) }
    tracking = false
    let wasInside = isInside(t)
    if inside { onPress?(false) }
    inside = false
    if wasInside { onTap?() }
  }

  override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard tracking else { return super.touchesCancelled(touches, with: event) }
    tracking = false
    if inside { onPress?(false) }
    inside = false
  }
}

final class ButtonNode: Node {
  let view = TouchView()
  var action: () -> Void = {}
  var label: AnyView?
  var style: ButtonStyleBox?
  var context: UpdateContext?
  var isPressed = false
  var needsBody = false

  override var ownView: UIView? { view }

  override init() {
    super.init()
    view.onPress = { [unowned self] down in self.setPressed(down) }
    view.onTap = { [unowned self] in self.action() }
  }

  func update<L: View>(_ b: Button<L>, _ ctx: UpdateContext) {
    action = b.action
    label = AnyView(b.label)
    style = ctx.environment.buttonStyle
    context = ctx
    view.enabled = ctx.environment.isEnabled
    makeBody(ctx)
  }

  private func makeBody(_ ctx: UpdateContext) {
    needsBody = false
    guard let label else { return }
    let config = ButtonStyleConfiguration(label: .init(view: label), isPressed: isPressed)
    let s: any ButtonStyle = style?.style ?? BorderlessButtonStyle()
    func open<S: ButtonStyle>(_ s: S) -> Node {
      ctx.graph.countBody(ObjectIdentifier(S.self))
      return SheenUI.reconcile(children.first, s.makeBody(configuration: config), ctx)
    }
    setChild(0, open(s), ctx)
  }

  /// The animation of the press or release to show at the next placement (of this button only).
  private var pressAnimation: Animation?

  private func setPressed(_ down: Bool) {
    guard down != isPressed, let ctx = context else { return }
    isPressed = down
    needsBody = true
    pressAnimation = down ? PressAnimation.down : PressAnimation.up
    // Placed in the next update, in the press's animation (what the style changes, below).
    setNeedsPlacement()
    ctx.graph.bodyNeedsUpdate(self)
  }

  override func placeNode(in rect: CGRect) {
    guard let a = pressAnimation else { return super.placeNode(in: rect) }
    pressAnimation = nil
    a.run { super.placeNode(in: rect) }
  }

  override func reevaluate() {
    guard needsBody, let ctx = context else { return }
    makeBody(ctx)
  }
}

extension Button: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ButtonNode) ?? ButtonNode()
    n.update(self, ctx)
    return n
  }
}

// MARK: - Tap gestures

public struct _TapGestureView<Content: View>: View {
  let content: Content
  let count: Int
  let action: () -> Void
  public typealias Body = Never
  public var body: Never { fatalError("_TapGestureView has no body") }
}

final class TapNode: Node {
  let view = TouchView()
  var action: () -> Void = {}
  override var ownView: UIView? { view }

  override init() {
    super.init()
    view.onTap = { [unowned self] in self.action() }
  }
}

extension _TapGestureView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? TapNode) ?? TapNode()
    n.action = action
    n.view.enabled = ctx.environment.isEnabled
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// Performs `action` when the view is tapped (a touch that goes down and up inside it without
  /// scrolling). Only single taps: `count` above 1 is treated as 1.
  public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> _TapGestureView<Self> {
    _TapGestureView(content: self, count: count, action: action)
  }
}
