import SheenKit

/// The values a view hands down to everything in it (SwiftUI's `EnvironmentValues`): the font,
/// the foreground colour, text layout settings.
public struct EnvironmentValues: Equatable {
  public var font: Font?
  public var foregroundColor: Color?
  /// Overrides the weight of the font (`.fontWeight` on a container).
  public var fontWeight: Font.Weight?
  public var lineLimit: Int?
  public var multilineTextAlignment: TextAlignment = .leading
  public var isEnabled = true
  var buttonStyle: ButtonStyleBox?
  /// Whether views are inside a lazy stack (whose `ForEach` makes rows on demand).
  var inLazyStack = false

  /// Set true, disables what is below (`.disabled(true)`); set false, leaves it as it is (a view
  /// enabled inside a disabled one is still disabled, as in SwiftUI).
  var disables: Bool {
    get { !isEnabled }
    set { if newValue { isEnabled = false } }
  }

  public init() {}
}

/// How lines of a multi-line text line up (SwiftUI's `TextAlignment`).
public enum TextAlignment: Hashable, Sendable, CaseIterable {
  case leading, center, trailing
}

extension View {
  /// The font of the text in this view that sets none of its own.
  public func font(_ font: Font?) -> some View { environment(\.font, font) }
  /// The colour text, symbols and shapes in this view draw with unless they say otherwise.
  public func foregroundColor(_ color: Color?) -> some View {
    environment(\.foregroundColor, color)
  }
  /// `foregroundColor` by its newer name (colours only).
  public func foregroundStyle(_ color: Color) -> some View {
    environment(\.foregroundColor, color)
  }
  public func fontWeight(_ weight: Font.Weight?) -> some View { environment(\.fontWeight, weight) }
  /// At most `number` lines of text (nil: as many as needed).
  public func lineLimit(_ number: Int?) -> some View { environment(\.lineLimit, number) }
  public func multilineTextAlignment(_ alignment: TextAlignment) -> some View {
    environment(\.multilineTextAlignment, alignment)
  }
  /// Disables buttons and tap gestures in this view.
  public func disabled(_ disabled: Bool) -> some View {
    environment(\.disables, disabled)
  }
}

/// Marks a view so that a host can find what draws it (`HostingView.view(withAccessibilityIdentifier:)`).
public struct _IdentifiedView<Content: View>: View {
  let content: Content
  let identifier: String
  public typealias Body = Never
  public var body: Never { fatalError("_IdentifiedView has no body") }
}

final class IdentifiedNode: Node {}

extension _IdentifiedView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? IdentifiedNode) ?? IdentifiedNode()
    ctx.graph.identified[identifier] = ViewGraph.WeakNode(node: n)
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// An identifier a host finds the view by.
  public func accessibilityIdentifier(_ identifier: String) -> _IdentifiedView<Self> {
    _IdentifiedView(content: self, identifier: identifier)
  }
}
