import SheenKit

/// A piece of user interface described as a value (SwiftUI's `View`): either a composition of
/// other views (`body`) or one of SheenUI's primitives (whose `Body` is `Never`).
public protocol View {
  associatedtype Body: View
  @ViewBuilder var body: Self.Body { get }
  /// SheenUI's own: brings the node standing for this view up to date (a view with a body
  /// keeps its value and asks for its body; SheenUI's primitives make what they draw). Called
  /// on the view itself through its conformance: no look-up of its type, no copy of its value.
  func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult
}

/// What `View._reconcile` is given: the node that stood for the view last time, if any, and the
/// update's environment and graph.
public struct _ReconcileInput {
  let old: Node?
  let context: UpdateContext
}

/// The node `View._reconcile` made or kept.
public struct _ReconcileResult {
  let node: Node
}

extension View {
  /// A view with a `body`: a node keeping its value, which asks for the body when the value,
  /// the environment or its state changed.
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    if Body.self == Never.self { fatalError("\(Self.self) has no body and is not one of SheenUI's views") }
    let n = (input.old as? BodyNode<Self>) ?? BodyNode<Self>()
    n.graph = input.context.graph
    n.update(self, input.context)
    return _ReconcileResult(node: n)
  }
}

extension Never: View {
  public typealias Body = Never
  public var body: Never { fatalError("Never has no body") }
}

/// A view that draws nothing and takes no space.
public struct EmptyView: View {
  public init() {}
  public typealias Body = Never
  public var body: Never { fatalError("EmptyView has no body") }
}

/// Several views in a builder block, in order.
public struct TupleView<each Content: View>: View {
  public var value: (repeat each Content)
  public init(_ value: (repeat each Content)) { self.value = value }
  public typealias Body = Never
  public var body: Never { fatalError("TupleView has no body") }
}

/// One of two views, chosen by an `if`/`else` or a `switch` in a builder block.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
  enum Storage {
    case first(TrueContent)
    case second(FalseContent)
  }
  let storage: Storage
  public typealias Body = Never
  public var body: Never { fatalError("_ConditionalContent has no body") }
}

extension Optional: View where Wrapped: View {
  public typealias Body = Never
  public var body: Never { fatalError("Optional has no body") }
}

/// Views written one after another, taken as a list by the enclosing stack.
public struct Group<Content: View>: View {
  public var content: Content
  public init(@ViewBuilder content: () -> Content) { self.content = content() }
  public typealias Body = Never
  public var body: Never { fatalError("Group has no body") }
}

/// A view of any type (SwiftUI's `AnyView`): identity changes when the wrapped type does.
public struct AnyView: View {
  let view: any View
  public init<V: View>(_ view: V) { self.view = view }
  public init<V: View>(erasing view: V) { self.view = view }
  public typealias Body = Never
  public var body: Never { fatalError("AnyView has no body") }
}

/// The `@ViewBuilder` result builder: blocks, `if`/`else`, `if let`, `switch`, `#available`.
@resultBuilder
public enum ViewBuilder {
  public static func buildBlock() -> EmptyView { EmptyView() }
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
    repeat each Content
  > {
    TupleView((repeat each content))
  }
  public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
  public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
  public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> {
    _ConditionalContent(storage: .first(first))
  }
  public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> {
    _ConditionalContent(storage: .second(second))
  }
  public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView {
    AnyView(content)
  }
}

/// A value that modifies a view (SwiftUI's `ViewModifier`): `body(content:)` receives the view
/// it is applied to as `Content`.
public protocol ViewModifier {
  associatedtype Body: View
  typealias Content = _ViewModifier_Content<Self>
  @ViewBuilder func body(content: Self.Content) -> Self.Body
}

/// The view a `ViewModifier` is applied to, as its `body(content:)` sees it.
public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
  let view: AnyView
  public typealias Body = Never
  public var body: Never { fatalError("_ViewModifier_Content has no body") }
}

/// A view with a modifier applied (SwiftUI's `ModifiedContent`).
public struct ModifiedContent<Content, Modifier> {
  public var content: Content
  public var modifier: Modifier
  public init(content: Content, modifier: Modifier) {
    self.content = content
    self.modifier = modifier
  }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
  public var body: Modifier.Body {
    modifier.body(content: _ViewModifier_Content(view: AnyView(content)))
  }
}

extension View {
  /// Applies `modifier` to this view.
  public func modifier<T: ViewModifier>(_ modifier: T) -> ModifiedContent<Self, T> {
    ModifiedContent(content: self, modifier: modifier)
  }
}

/// A type that shows views in previews (SwiftUI's `PreviewProvider`); SheenUI renders them to
/// PNG with `PreviewRenderer` (and `sheen preview NAME -o OUT.png` for registered ones).
public protocol PreviewProvider {
  associatedtype Previews: View
  @ViewBuilder static var previews: Self.Previews { get }
}
