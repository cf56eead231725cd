import Foundation

/// A view that lines up its arranged subviews in a row or a column with constraints (UIKit's
/// `UIStackView`): `axis`, `spacing` (and custom spacing after a view), `alignment` across the
/// axis and `distribution` along it. Hidden arranged subviews take no room. The constraints it
/// makes carry UIKit's identifiers (`UISV-spacing`, `UISV-alignment`, …).
///
/// Unlike UIKit: `firstBaseline` and `lastBaseline` align tops and bottoms (Sheen has no
/// baseline anchors); hiding is not animated.
open class UIStackView: UIView {
  public enum Distribution: Int, Sendable {
    /// The views fill the axis; the one with the lowest hugging (or compression resistance)
    /// priority stretches (or shrinks).
    case fill = 0
    /// Every view gets the same size.
    case fillEqually
    /// Sizes in proportion to the views' intrinsic sizes.
    case fillProportionally
    /// Intrinsic sizes, with equal gaps (at least `spacing`).
    case equalSpacing
    /// Intrinsic sizes, with equal distances between centres (gaps at least `spacing`).
    case equalCentering
  }

  public enum Alignment: Int, Sendable {
    case fill = 0
    case leading
    case firstBaseline
    case center
    case trailing
    case lastBaseline
    public static let top = Alignment.leading
    public static let bottom = Alignment.trailing
  }

  /// UIKit's `UIStackView.spacingUseDefault`: custom spacing that means `spacing`.
  public static let spacingUseDefault = CGFloat.greatestFiniteMagnitude
  /// UIKit's `UIStackView.spacingUseSystem`: 8 points in Sheen.
  public static let spacingUseSystem = -CGFloat.greatestFiniteMagnitude

  public private(set) var arrangedSubviews: [UIView] = []
  open var axis = NSLayoutConstraint.Axis.horizontal { didSet { arrangementDidChange() } }
  open var distribution = Distribution.fill { didSet { arrangementDidChange() } }
  open var alignment = Alignment.fill { didSet { arrangementDidChange() } }
  open var spacing: CGFloat = 0 { didSet { arrangementDidChange() } }
  /// Whether the views line up inside the layout margins instead of the bounds.
  open var isLayoutMarginsRelativeArrangement = false { didSet { arrangementDidChange() } }
  open var isBaselineRelativeArrangement = false

  private var customSpacings: [ObjectIdentifier: CGFloat] = [:]
  private var generated: [NSLayoutConstraint] = []
  private var spacers: [UILayoutGuide] = []
  private var needsArrangement = true

  public override init(frame: CGRect) {
    super.init(frame: frame)
  }

  public convenience init(arrangedSubviews views: [UIView]) {
    self.init(frame: .zero)
    for v in views { addArrangedSubview(v) }
  }

  public required init?(coder: NSCoder) { return nil }

  /// Adds `view` at the end of the arrangement (and as a subview); it is placed by constraints
  /// from now on.
  open func addArrangedSubview(_ view: UIView) {
    insertArrangedSubview(view, at: arrangedSubviews.count)
  }

  open func insertArrangedSubview(_ view: UIView, at stackIndex: Int) {
    arrangedSubviews.removeAll { $0 === view }
    arrangedSubviews.insert(view, at: max(0, min(stackIndex, arrangedSubviews.count)))
    view.translatesAutoresizingMaskIntoConstraints = false
    if view.superview !== self { addSubview(view) }
    arrangementDidChange()
  }

  /// Takes `view` out of the arrangement; it stays a subview (as in UIKit).
  open func removeArrangedSubview(_ view: UIView) {
    guard arrangedSubviews.contains(where: { $0 === view }) else { return }
    arrangedSubviews.removeAll { $0 === view }
    customSpacings[ObjectIdentifier(view)] = nil
    arrangementDidChange()
  }

  open func setCustomSpacing(_ spacing: CGFloat, after arrangedSubview: UIView) {
    customSpacings[ObjectIdentifier(arrangedSubview)] = spacing
    arrangementDidChange()
  }

  open func customSpacing(after arrangedSubview: UIView) -> CGFloat {
    customSpacings[ObjectIdentifier(arrangedSubview)] ?? UIStackView.spacingUseDefault
  }

  open override func willRemoveSubview(_ subview: UIView) {
    super.willRemoveSubview(subview)
    // A view removed from the stack leaves the arrangement too.
    removeArrangedSubview(subview)
  }

  func arrangedSubviewVisibilityDidChange(_ view: UIView) {
    if arrangedSubviews.contains(where: { $0 === view }) { arrangementDidChange() }
  }

  private func arrangementDidChange() {
    needsArrangement = true
    setNeedsUpdateConstraints()
  }

  open override func updateConstraints() {
    if needsArrangement { arrange() }
    super.updateConstraints()
  }

  open override func layoutSubviews() {
    if needsArrangement { arrange() }
    super.layoutSubviews()
  }

  /// Replaces the constraints the stack made with ones for the current arrangement.
  private func arrange() {
    needsArrangement = false
    NSLayoutConstraint.deactivate(generated)
    generated.removeAll()
    for g in spacers { removeLayoutGuide(g) }
    spacers.removeAll()
    let views = arrangedSubviews.filter { !$0.isHidden && $0.superview === self }
    guard let first = views.first, let last = views.last else { return }
    let box: AnyObject = isLayoutMarginsRelativeArrangement ? layoutMarginsGuide : self
    let h = axis == .horizontal
    let lead: NSLayoutConstraint.Attribute = h ? .leading : .top
    let trail: NSLayoutConstraint.Attribute = h ? .trailing : .bottom
    let size: NSLayoutConstraint.Attribute = h ? .width : .height
    let center: NSLayoutConstraint.Attribute = h ? .centerX : .centerY
    let crossLead: NSLayoutConstraint.Attribute = h ? .top : .leading
    let crossTrail: NSLayoutConstraint.Attribute = h ? .bottom : .trailing
    let crossCenter: NSLayoutConstraint.Attribute = h ? .centerY : .centerX
    let crossSize: NSLayoutConstraint.Attribute = h ? .height : .width
    var made: [NSLayoutConstraint] = []
    func make(
      _ a: AnyObject, _ aa: NSLayoutConstraint.Attribute, _ r: NSLayoutConstraint.Relation, _ b: AnyObject?,
      _ ba: NSLayoutConstraint.Attribute, multiplier: CGFloat = 1, constant: CGFloat = 0,
      priority: UILayoutPriority = .required, _ name: String
    ) {
      let c = NSLayoutConstraint(
        a, aa, r, b, ba, multiplier: multiplier, constant: constant, priority: priority)
      c.identifier = name
      made.append(c)
    }

    // Along the axis.
    make(first, lead, .equal, box, lead, "UISV-canvas-connection")
    make(last, trail, .equal, box, trail, "UISV-canvas-connection")
    var firstSpacer: UILayoutGuide?
    for (a, b) in zip(views, views.dropFirst()) {
      var gap = customSpacings[ObjectIdentifier(a)] ?? spacing
      if gap == UIStackView.spacingUseDefault { gap = spacing }
      if gap == UIStackView.spacingUseSystem { gap = 8 }
      switch distribution {
      case .fill, .fillEqually, .fillProportionally:
        make(b, lead, .equal, a, trail, constant: gap, "UISV-spacing")
      case .equalSpacing, .equalCentering:
        make(b, lead, .greaterThanOrEqual, a, trail, constant: gap, "UISV-spacing")
        let g = UILayoutGuide()
        g.identifier = distribution == .equalSpacing ? "UISV-distributing" : "UISV-centering"
        addLayoutGuide(g)
        spacers.append(g)
        let from = distribution == .equalSpacing ? trail : center
        let to = distribution == .equalSpacing ? lead : center
        make(g, lead, .equal, a, from, "UISV-distributing-edge")
        make(g, trail, .equal, b, to, "UISV-distributing-edge")
        if let f = firstSpacer {
          make(g, size, .equal, f, size, priority: UILayoutPriority(999), "UISV-fill-equally")
        } else {
          firstSpacer = g
        }
      }
    }
    switch distribution {
    case .fillEqually:
      for v in views.dropFirst() { make(v, size, .equal, first, size, "UISV-fill-equally") }
    case .fillProportionally:
      let base = h ? first.intrinsicContentSize.width : first.intrinsicContentSize.height
      if base > 0 {
        for v in views.dropFirst() {
          let s = h ? v.intrinsicContentSize.width : v.intrinsicContentSize.height
          guard s >= 0 else { continue }
          make(
            v, size, .equal, first, size, multiplier: s / base, priority: UILayoutPriority(999),
            "UISV-fill-proportionally")
        }
      }
    default: break
    }

    // Across it.
    for v in views {
      switch alignment {
      case .fill:
        make(v, crossLead, .equal, box, crossLead, "UISV-alignment")
        make(v, crossTrail, .equal, box, crossTrail, "UISV-alignment")
      case .leading, .firstBaseline:
        make(v, crossLead, .equal, box, crossLead, "UISV-alignment")
        make(v, crossTrail, .lessThanOrEqual, box, crossTrail, "UISV-spanning-boundary")
      case .trailing, .lastBaseline:
        make(v, crossTrail, .equal, box, crossTrail, "UISV-alignment")
        make(v, crossLead, .greaterThanOrEqual, box, crossLead, "UISV-spanning-boundary")
      case .center:
        make(v, crossCenter, .equal, box, crossCenter, "UISV-alignment")
        make(v, crossLead, .greaterThanOrEqual, box, crossLead, "UISV-spanning-boundary")
      }
    }
    if alignment != .fill {
      // As small across as the largest view allows, when nothing else sets the stack's size.
      make(box, crossSize, .equal, nil, .notAnAttribute, priority: UILayoutPriority(49), "UISV-canvas-fit")
    }
    generated = made
    NSLayoutConstraint.activate(made)
  }
}
