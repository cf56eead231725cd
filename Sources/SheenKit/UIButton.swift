import Foundation

/// A control with a title (UIKit's `UIButton`): titles and title colours per state, a
/// `titleLabel` centred in the bounds, and the highlighted state while a touch is inside.
///
/// Unlike UIKit, there are no images or configurations; `.system` buttons fade their title
/// while highlighted, `.custom` ones change only to the highlighted title colour if one is set.
open class UIButton: UIControl {
  /// UIKit's button types.
  public enum ButtonType: Int, Sendable {
    case custom = 0
    case system = 1
  }

  public let buttonType: ButtonType
  private let label = UILabel()
  private var titles: [UInt: String] = [:]
  private var titleColors: [UInt: UIColor] = [:]
  /// Insets of the title within the bounds.
  open var contentEdgeInsets = UIEdgeInsets.zero {
    didSet { setNeedsLayout() }
  }
  open var titleEdgeInsets = UIEdgeInsets.zero {
    didSet { setNeedsLayout() }
  }

  public init(type: ButtonType) {
    buttonType = type
    super.init(frame: .zero)
    setUp()
  }

  /// A `.custom` button.
  public override init(frame: CGRect) {
    buttonType = .custom
    super.init(frame: frame)
    setUp()
  }

  public required init?(coder: NSCoder) { return nil }

  private func setUp() {
    label.font = .systemFont(ofSize: buttonType == .system ? 15 : UIFont.buttonFontSize)
    label.textAlignment = .center
    addSubview(label)
    updateTitle()
  }

  /// The label that shows the current title.
  open var titleLabel: UILabel? { label }

  open func setTitle(_ title: String?, for state: State) {
    titles[state.rawValue] = title
    updateTitle()
  }

  open func title(for state: State) -> String? { titles[state.rawValue] ?? titles[State.normal.rawValue] }

  open func setTitleColor(_ color: UIColor?, for state: State) {
    titleColors[state.rawValue] = color
    updateTitle()
  }

  open func titleColor(for state: State) -> UIColor? {
    titleColors[state.rawValue] ?? titleColors[State.normal.rawValue]
      ?? (buttonType == .system ? tintColor : .white)
  }

  open var currentTitle: String? { title(for: stateForLookup) }
  open var currentTitleColor: UIColor { titleColor(for: stateForLookup) ?? .white }

  /// The single state whose title shows: disabled, then highlighted, then selected, then normal.
  private var stateForLookup: State {
    if !isEnabled { return .disabled }
    if isHighlighted { return .highlighted }
    if isSelected { return .selected }
    return .normal
  }

  open override func stateDidChange() {
    super.stateDidChange()
    updateTitle()
  }

  private func updateTitle() {
    let t = currentTitle
    if label.text != t { label.text = t }
    label.textColor = currentTitleColor
    if buttonType == .system { label.alpha = isHighlighted ? 0.2 : 1 }
  }

  open override func layoutSubviews() {
    super.layoutSubviews()
    let area = bounds.inset(by: contentEdgeInsets).inset(by: titleEdgeInsets)
    let fit = label.sizeThatFits(area.size)
    let w = min(fit.width, max(0, area.width))
    let h = min(fit.height, max(0, area.height))
    label.frame = CGRect(x: area.midX - w / 2, y: area.midY - h / 2, width: w, height: h)
  }

  open override func sizeThatFits(_ size: CGSize) -> CGSize {
    let fit = label.sizeThatFits(size)
    return CGSize(
      width: fit.width + contentEdgeInsets.left + contentEdgeInsets.right,
      height: fit.height + contentEdgeInsets.top + contentEdgeInsets.bottom)
  }

  open override var intrinsicContentSize: CGSize { sizeThatFits(.zero) }
}
