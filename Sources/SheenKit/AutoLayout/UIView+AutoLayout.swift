import Foundation

extension UIView: LayoutItem {
  var layoutState: LayoutItemState {
    if let s = layoutStateStorage { return s }
    let s = LayoutItemState()
    layoutStateStorage = s
    return s
  }

  var layoutStateIfAny: LayoutItemState? { layoutStateStorage }
  var layoutParent: UIView? { superview }
}

extension UIView {
  // MARK: Anchors

  public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .leading) }
  public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .trailing) }
  public var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .left) }
  public var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .right) }
  public var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .centerX) }
  public var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .top) }
  public var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .bottom) }
  public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .centerY) }
  public var widthAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .width) }
  public var heightAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .height) }

  // MARK: Guides

  /// The bounds inset by `layoutMargins`, following them.
  public var layoutMarginsGuide: UILayoutGuide {
    if let g = layoutState.marginsGuide { return g }
    let g = UILayoutGuide(role: .margins, owner: self, identifier: "UIViewLayoutMarginsGuide")
    layoutState.marginsGuide = g
    return g
  }

  /// The bounds inset by `safeAreaInsets` (zero in Sheen: its windows have no unsafe areas).
  public var safeAreaLayoutGuide: UILayoutGuide {
    if let g = layoutState.safeAreaGuide { return g }
    let g = UILayoutGuide(role: .safeArea, owner: self, identifier: "UIViewSafeAreaLayoutGuide")
    layoutState.safeAreaGuide = g
    return g
  }

  /// The guides added with `addLayoutGuide`.
  public var layoutGuides: [UILayoutGuide] { layoutStateIfAny?.guides ?? [] }

  public func addLayoutGuide(_ guide: UILayoutGuide) {
    guard guide.owningView !== self else { return }
    guide.owningView?.removeLayoutGuide(guide)
    guide.owningView = self
    layoutState.guides.append(guide)
  }

  public func removeLayoutGuide(_ guide: UILayoutGuide) {
    guard guide.owningView === self else { return }
    if let engine = LayoutEngine.existingEngine(for: self) {
      for e in engine.entries where e.first === guide || e.second === guide {
        if let c = e.layoutConstraint { c.isActive = false } else { engine.remove(e) }
      }
    }
    layoutState.guides.removeAll { $0 === guide }
    guide.owningView = nil
  }

  // MARK: Constraints

  /// The active constraints installed on this view: those whose items' nearest common ancestor
  /// it is.
  public var constraints: [NSLayoutConstraint] { layoutStateIfAny?.installed ?? [] }

  /// Activates `constraint` (the older API: UIKit installs it on the view).
  public func addConstraint(_ constraint: NSLayoutConstraint) { constraint.isActive = true }
  public func addConstraints(_ constraints: [NSLayoutConstraint]) { NSLayoutConstraint.activate(constraints) }
  public func removeConstraint(_ constraint: NSLayoutConstraint) { constraint.isActive = false }
  public func removeConstraints(_ constraints: [NSLayoutConstraint]) {
    NSLayoutConstraint.deactivate(constraints)
  }

  public func contentHuggingPriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
    layoutStateIfAny?.huggingPriority[axis.rawValue] ?? .defaultLow
  }

  public func setContentHuggingPriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
    guard layoutState.huggingPriority[axis.rawValue] != priority else { return }
    layoutState.huggingPriority[axis.rawValue] = priority
    LayoutEngine.existingEngine(for: self)?.rebuildIntrinsic(self)
  }

  public func contentCompressionResistancePriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
    layoutStateIfAny?.compressionPriority[axis.rawValue] ?? .defaultHigh
  }

  public func setContentCompressionResistancePriority(
    _ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis
  ) {
    guard layoutState.compressionPriority[axis.rawValue] != priority else { return }
    layoutState.compressionPriority[axis.rawValue] = priority
    LayoutEngine.existingEngine(for: self)?.rebuildIntrinsic(self)
  }

  /// The intrinsic size the engine uses: a view whose height depends on its width (a label
  /// that wraps) is asked at the width it was last given.
  var intrinsicContentSizeForLayout: CGSize {
    if let label = self as? UILabel, label.numberOfLines != 1 {
      return label.intrinsicSize(
        forWidth: label.preferredMaxLayoutWidth > 0 ? label.preferredMaxLayoutWidth : bounds.width)
    }
    return intrinsicContentSize
  }

  // MARK: Fitting

  /// The smallest size the constraints allow (UIKit's `layoutFittingCompressedSize`).
  public static let layoutFittingCompressedSize = CGSize(width: 0, height: 0)
  /// The largest size the constraints allow.
  public static let layoutFittingExpandedSize = CGSize(width: 10_000_000, height: 10_000_000)

  /// The size the view's constraints give it closest to `targetSize`.
  public func systemLayoutSizeFitting(_ targetSize: CGSize) -> CGSize {
    systemLayoutSizeFitting(
      targetSize, withHorizontalFittingPriority: .fittingSizeLevel, verticalFittingPriority: .fittingSizeLevel
    )
  }

  /// The size the view's constraints give it when its width is pulled towards
  /// `targetSize.width` at `horizontalFittingPriority` and its height likewise: a required
  /// width and a `fittingSizeLevel` height give a self-sizing cell's height for a given width.
  /// Without constraints inside, the view's `sizeThatFits` answers.
  public func systemLayoutSizeFitting(
    _ targetSize: CGSize, withHorizontalFittingPriority horizontalFittingPriority: UILayoutPriority,
    verticalFittingPriority: UILayoutPriority
  ) -> CGSize {
    let engine = LayoutEngine.engine(for: self)
    let hasInside = engine.entries.contains { e in
      guard case .layout = e.kind else { return false }
      for item in [e.first, e.second] {
        if let item, let v = LayoutEngine.anchorView(item), v !== self, v.isDescendant(of: self) {
          return true
        }
      }
      return false
    }
    guard hasInside else {
      let fit = sizeThatFits(targetSize)
      return CGSize(
        width: horizontalFittingPriority == .required ? targetSize.width : fit.width,
        height: verticalFittingPriority == .required ? targetSize.height : fit.height)
    }
    let width = engine.variable(self, .width)
    let height = engine.variable(self, .height)
    let state = layoutState
    // Free the view's own size for the question, then pull it towards the target.
    var lifted: [EngineConstraint] = []
    for slot in [LayoutComponent.width, .height] {
      if let e = state.fixed[slot.rawValue], e.engine === engine {
        engine.remove(e)
        lifted.append(e)
      }
    }
    let pulls = [
      (width, targetSize.width, horizontalFittingPriority),
      (height, targetSize.height, verticalFittingPriority),
    ]
    .map { v, target, p -> EngineConstraint in
      let c = SolverConstraint(LinearExpression(v), .equal, strength: p.strength)
      c.setInitialShift(-Double(target))
      return EngineConstraint(c, .system, first: self)
    }
    for e in pulls { engine.add(e) }
    let size = CGSize(width: engine.solver.value(of: width), height: engine.solver.value(of: height))
    for e in pulls { engine.remove(e) }
    for e in lifted {
      e.solver.setInitialShift(e.solver.constantShift)
      engine.add(e)
    }
    return size
  }

  // MARK: Updating constraints

  /// Asks for `updateConstraints` before the next layout.
  public func setNeedsUpdateConstraints() {
    layoutState.needsUpdateConstraints = true
    setNeedsLayout()
  }

  public func needsUpdateConstraints() -> Bool { layoutStateIfAny?.needsUpdateConstraints ?? false }

  /// Calls `updateConstraints` on this view and its subviews that asked for it.
  public func updateConstraintsIfNeeded() {
    for s in subviews { s.updateConstraintsIfNeeded() }
    if layoutStateIfAny?.needsUpdateConstraints == true {
      layoutState.needsUpdateConstraints = false
      updateConstraints()
    }
  }

  // MARK: Debugging

  /// Whether some of the view's frame is not fixed by its constraints: another solution as good
  /// as the one shown exists.
  public var hasAmbiguousLayout: Bool {
    guard !translatesAutoresizingMaskIntoConstraints, let state = layoutStateIfAny,
      let engine = LayoutEngine.existingEngine(for: self)
    else { return false }
    // A component no constraint mentions is free; one that is mentioned may still be.
    return state.variables.contains { v in v.map { engine.solver.isAmbiguous($0) } ?? true }
  }

  /// The tree below this view with each view placed by constraints whose layout is ambiguous
  /// marked, as UIKit's `_autolayoutTrace` prints it.
  public func autolayoutTrace() -> String {
    var out = ""
    func walk(_ v: UIView, _ depth: Int) {
      let ambiguous = v.hasAmbiguousLayout
      out += String(repeating: "|   ", count: depth) + (ambiguous ? "*" : "•") + LayoutEngine.name(of: v)
      if ambiguous {
        let engine = LayoutEngine.engine(for: v)
        let which = LayoutComponent.allCases.filter { c in
          v.layoutState.variables[c.rawValue].map { engine.solver.isAmbiguous($0) } ?? true
        }
        out +=
          " - AMBIGUOUS LAYOUT for "
          + which.map { "\(LayoutEngine.name(of: v)).\($0.name)" }.joined(separator: ", ")
      }
      out += "\n"
      for s in v.subviews { walk(s, depth + 1) }
    }
    walk(self, 0)
    return out
  }

  /// The active constraints that affect the view's position or size along `axis`.
  public func constraintsAffectingLayout(for axis: NSLayoutConstraint.Axis) -> [NSLayoutConstraint] {
    guard let engine = LayoutEngine.existingEngine(for: self) else { return [] }
    return engine.entries.compactMap { e in
      guard let c = e.layoutConstraint, e.first === self || e.second === self else { return nil }
      return LayoutEngine.isHorizontal(c.firstAttribute) == (axis == .horizontal) ? c : nil
    }
  }

  // MARK: Applying the solution

  /// Sets the frames of the subviews the engine places (UIView's `layoutSubviews` does this).
  func applyEngineFrames() {
    guard
      subviews.contains(where: { !$0.translatesAutoresizingMaskIntoConstraints && $0.layoutStateIfAny != nil }
      )
    else { return }
    let engine = LayoutEngine.engine(for: self)
    engine.solve()
    let scale = Double(window?.scale ?? 2)
    func snap(_ v: Double) -> Double { (v * scale).rounded() / scale }
    for s in subviews where !s.translatesAutoresizingMaskIntoConstraints {
      guard let state = s.layoutStateIfAny, state.hasVariables else { continue }
      let f = s.frame
      func value(_ c: LayoutComponent, _ current: CGFloat) -> Double {
        state.variables[c.rawValue]?.value ?? Double(current)
      }
      let x = value(.minX, f.minX)
      let y = value(.minY, f.minY)
      let w = max(0, value(.width, f.width))
      let h = max(0, value(.height, f.height))
      let x0 = snap(x)
      let y0 = snap(y)
      let r = CGRect(x: x0, y: y0, width: max(0, snap(x + w) - x0), height: max(0, snap(y + h) - y0))
      if r != f { s.frame = r }
      // A wrapping label's height depends on the width it got: ask again at the new width.
      if let label = s as? UILabel, label.numberOfLines != 1, label.preferredMaxLayoutWidth <= 0,
        state.intrinsicWidth != s.bounds.width
      {
        s.invalidateIntrinsicContentSize()
      }
    }
  }
}
