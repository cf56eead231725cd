import SheenKit

/// Lines of read-only text (SwiftUI's `Text`), drawn by a `UILabel`.
///
/// Its size for a proposal is the text's: as wide as the proposal at most, wrapping to as many
/// lines as it needs (or `lineLimit`), truncated with an ellipsis at the end of the last line.
public struct Text: View, Equatable {
  var string: String
  var font: Font?
  var weight: Font.Weight?
  var color: Color?

  public init(_ content: String) { string = content }
  public init(verbatim content: String) { string = content }
  public init<S: StringProtocol>(_ content: S) { string = String(content) }

  public func font(_ font: Font?) -> Text {
    var t = self
    t.font = font
    return t
  }
  public func fontWeight(_ weight: Font.Weight?) -> Text {
    var t = self
    t.weight = weight
    return t
  }
  public func bold() -> Text { fontWeight(.bold) }
  public func foregroundColor(_ color: Color?) -> Text {
    var t = self
    t.color = color
    return t
  }

  public typealias Body = Never
  public var body: Never { fatalError("Text has no body") }
}

final class TextNode: Node {
  let label = UILabel()
  var text: Text?
  var environment: EnvironmentValues?
  override var ownView: UIView? { label }

  func update(_ t: Text, _ ctx: UpdateContext) {
    guard t != text || ctx.environment != environment else { return }
    text = t
    environment = ctx.environment
    measurer = ctx.graph.measurer
    let env = ctx.environment
    var font = t.font ?? env.font ?? .body
    if let w = t.weight ?? env.fontWeight { font = font.weight(w) }
    // Only what changed is set: a label's line break mode and alignment lay its text out again
    // when set, even to the value they have.
    let uiFont = font.uiFont
    let lines = env.lineLimit ?? 0
    let changesSize = label.text != t.string || label.font != uiFont || label.numberOfLines != lines
    if label.text != t.string { label.text = t.string }
    if label.font != uiFont { label.font = uiFont }
    let color = (t.color ?? env.foregroundColor ?? .primary).uiColor
    if label.textColor != color { label.textColor = color }
    if label.numberOfLines != lines { label.numberOfLines = lines }
    if label.lineBreakMode != .byTruncatingTail { label.lineBreakMode = .byTruncatingTail }
    let alignment: NSTextAlignment
    switch env.multilineTextAlignment {
    // Leading is where a line begins: the left for left-to-right text, the right for Arabic or
    // Hebrew (the paragraph's own direction, as SwiftUI's text aligns its lines).
    case .leading: alignment = .natural
    case .center: alignment = .center
    case .trailing: alignment = .right
    }
    if label.textAlignment != alignment { label.textAlignment = alignment }
    // A new colour or alignment is drawn by the label as it is: nothing to measure again.
    if changesSize { invalidateLayout() }
  }

  /// The graph's label outside the tree that measures: the shown one is not touched (which
  /// would ask its superview for a layout).
  var measurer: UILabel?

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    let w = p.width.map { max(0, $0) } ?? .greatestFiniteMagnitude
    let m = measurer ?? UILabel()
    // The shared measurer takes this label's settings; each setter that changes one lays the
    // measurer's text out again, so only those that differ are set.
    if m.text != label.text { m.text = label.text }
    if m.font != label.font { m.font = label.font }
    if m.numberOfLines != label.numberOfLines { m.numberOfLines = label.numberOfLines }
    if m.lineBreakMode != label.lineBreakMode { m.lineBreakMode = label.lineBreakMode }
    // A zero width proposal still gets the widest word (as SwiftUI's text does not vanish).
    let fit = CGSize(width: w > 0 ? w : 1, height: .greatestFiniteMagnitude)
    let s = m.sizeThatFits(fit)
    var width = min(s.width, w)
    // Text cut short by its line limit is laid out at the whole width offered: drawn narrower,
    // its last line would end elsewhere.
    if label.numberOfLines > 1, w < .greatestFiniteMagnitude {
      m.numberOfLines = 0
      if m.sizeThatFits(fit).height > s.height { width = w }
    }
    return CGSize(width: width, height: s.height)
  }

  override var ownGuideFlags: Int8 { 2 }

  /// The baselines: lines of the font's line height, each baseline its ascent below the line's
  /// top, the text centred in the label's height (as UILabel draws it).
  override func computeExplicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    guard key.isBaseline, let f = label.font else { return nil }
    let textHeight = min(size.height, computeSize(ProposedViewSize(width: size.width, height: nil)).height)
    let top = (size.height - textHeight) / 2
    if key.id == FirstTextBaselineID.self { return top + f.ascender }
    return top + max(textHeight, f.lineHeight) - f.lineHeight + f.ascender
  }
}

extension Text: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? TextNode) ?? TextNode()
    n.update(self, ctx)
    return n
  }
}
