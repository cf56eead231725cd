// The Auto Layout engine of a view tree: one incremental simplex solver per tree root, holding
// every active constraint among the tree's views and layout guides.
//
// Variables: each view or guide that a constraint mentions gets up to four, made on demand:
// minX and minY in its superview's bounds coordinates (a guide: its owning view's), width and
// height. A constraint between items with a common ancestor A sees each item's edge in A's
// coordinates: the item's offset plus the minX (minY) of every view on the way up to A.
//
// A view with `translatesAutoresizingMaskIntoConstraints` (the default) has its frame pinned:
// each of its variables that exists has a required constraint to the frame's value, whose
// constant follows the frame (an incremental re-solve, no rebuilding). A view without it is
// placed by the engine: its superview's `layoutSubviews` (UIView's own) sets its frame from the
// solution, rounded to the pixel grid. Such a view's intrinsic content size becomes four
// constraints: hugging (size <= intrinsic) and compression resistance (size >= intrinsic) at the
// view's priorities.
//
// When a tree is added into another, its constraints move into the other's engine; when a view
// leaves its tree, constraints between it (or its subviews) and the rest are deactivated, as in
// UIKit, and those within it go with it.

import Foundation
import Synchronization

/// A view or a layout guide: something constraints relate.
protocol LayoutItem: AnyObject {
  var layoutState: LayoutItemState { get }
  /// The view whose bounds coordinates the item's minX and minY are in.
  var layoutParent: UIView? { get }
}

/// The components of an item's frame the engine solves.
enum LayoutComponent: Int, CaseIterable {
  case minX = 0, minY, width, height

  var name: String { ["minX", "minY", "Width", "Height"][rawValue] }
}

/// An item's variables and the constraints the engine made for it.
final class LayoutItemState {
  var variables: [SolverVariable?] = [nil, nil, nil, nil]
  /// `translatesAutoresizingMaskIntoConstraints`: a required `variable == frame component`.
  var fixed: [EngineConstraint?] = [nil, nil, nil, nil]
  /// Hugging and compression resistance, per axis: [horizontal, vertical] × [hug, resist].
  var intrinsic: [EngineConstraint?] = [nil, nil, nil, nil]
  /// A guide's placement in its owning view (layout margins, safe area).
  var guideConstraints: [EngineConstraint] = []
  /// The engine of the tree this item is the root of.
  var hostedEngine: LayoutEngine?
  var huggingPriority: [UILayoutPriority] = [.defaultLow, .defaultLow]
  var compressionPriority: [UILayoutPriority] = [.defaultHigh, .defaultHigh]
  /// The width the intrinsic height was last worked out for (labels that wrap).
  var intrinsicWidth: CGFloat = -1
  /// Whether `updateConstraints` is due.
  var needsUpdateConstraints = false
  /// A view's guides: its margins, its safe area, and those added by the app.
  var marginsGuide: UILayoutGuide?
  var safeAreaGuide: UILayoutGuide?
  var guides: [UILayoutGuide] = []
  /// The active constraints installed on a view (whose items' common ancestor it is), kept
  /// alive by it as in UIKit.
  var installed: [NSLayoutConstraint] = []

  var hasVariables: Bool {
    variables[0] != nil || variables[1] != nil || variables[2] != nil || variables[3] != nil
  }
}

/// A constraint in an engine: the solver's, and what it stands for.
final class EngineConstraint {
  enum Kind {
    /// An `NSLayoutConstraint` of the app (or of a stack view).
    case layout
    /// The frame of a view that translates its autoresizing mask.
    case autoresizing(LayoutComponent)
    /// Hugging or compression resistance.
    case contentSize(LayoutComponent, hug: Bool)
    /// A layout guide's placement, or the engine's own (fitting).
    case system
  }

  let solver: SolverConstraint
  let kind: Kind
  weak var layoutConstraint: NSLayoutConstraint?
  /// The items whose trees the constraint ties together.
  weak var first: AnyObject?
  weak var second: AnyObject?
  weak var engine: LayoutEngine?
  /// Not in the solver: it conflicted with required constraints and was broken.
  var isBroken = false

  init(_ solver: SolverConstraint, _ kind: Kind, first: AnyObject?, second: AnyObject? = nil) {
    self.solver = solver
    self.kind = kind
    self.first = first
    self.second = second
  }

  /// The `NSLayoutConstraint`'s constant changed: move the solver's.
  func constantDidChange() {
    guard let c = layoutConstraint, let engine else { return }
    engine.setConstant(self, Double(-c.constant))
    LayoutEngine.itemsNeedLayout(c.firstItem, c.secondItem)
  }

  var description: String {
    if let c = layoutConstraint { return c.description }
    let name = first.map(LayoutEngine.name(of:)) ?? "nil"
    let value = LayoutEngine.number(CGFloat(-solver.constantShift))
    switch kind {
    case .autoresizing(let component):
      let mask = (first as? UIView)?.autoresizingMask ?? []
      func axis(_ a: UIViewAutoresizing, _ b: UIViewAutoresizing, _ c: UIViewAutoresizing) -> String {
        [a, b, c].map { mask.contains($0) ? "&" : "-" }.joined()
      }
      let h = axis(.flexibleLeftMargin, .flexibleWidth, .flexibleRightMargin)
      let v = axis(.flexibleTopMargin, .flexibleHeight, .flexibleBottomMargin)
      return "<NSAutoresizingMaskLayoutConstraint:\(LayoutEngine.address(self)) h=\(h) v=\(v) "
        + "\(name).\(component.name) == \(value)   (active)>"
    case .contentSize(let component, let hug):
      let state = (first as? LayoutItem)?.layoutState
      let axis = component == .width ? 0 : 1
      let p = hug ? state?.huggingPriority[axis].rawValue : state?.compressionPriority[axis].rawValue
      return "<NSContentSizeLayoutConstraint:\(LayoutEngine.address(self)) \(name).\(component.name) "
        + "\(hug ? "<=" : ">=") \(value) \(hug ? "Hug" : "CompressionResistance"):\(Int(p ?? 0))   (active)>"
    case .system, .layout:
      return "<NSLayoutConstraint:\(LayoutEngine.address(self)) (system) \(name)   (active)>"
    }
  }
}

/// The engine of one view tree.
final class LayoutEngine {
  let solver = SimplexSolver()
  /// The root view of the tree, told when the solution may have changed.
  weak var host: UIView?
  /// Every constraint in the solver (and broken ones), in the order they came.
  private(set) var entries: [EngineConstraint] = []

  /// Where messages go (stderr by default, as UIKit's console): tests may capture them.
  static let messageHandler = Mutex<(@Sendable (String) -> Void)?>(nil)

  static func report(_ message: String) {
    let line = "[LayoutConstraints] " + message
    if let handler = messageHandler.withLock({ $0 }) {
      handler(line)
    } else {
      FileHandle.standardError.write(Data((line + "\n").utf8))
    }
  }

  // MARK: Finding engines

  /// The view at the root of `view`'s tree.
  static func root(of view: UIView) -> UIView {
    var v = view
    while let s = v.superview { v = s }
    return v
  }

  /// The engine of `view`'s tree, made when first needed.
  static func engine(for view: UIView) -> LayoutEngine {
    let r = root(of: view)
    if let e = r.layoutState.hostedEngine { return e }
    let e = LayoutEngine()
    e.host = r
    r.layoutState.hostedEngine = e
    return e
  }

  /// The engine of `view`'s tree, if it has one.
  static func existingEngine(for view: UIView) -> LayoutEngine? {
    root(of: view).layoutStateIfAny?.hostedEngine
  }

  /// The view an item's position is in (itself for a view).
  static func anchorView(_ item: AnyObject) -> UIView? {
    if let v = item as? UIView { return v }
    return (item as? UILayoutGuide)?.owningView
  }

  // MARK: Variables

  /// The variable for `component` of `item`, made (with the constraints that come with it)
  /// on first use.
  func variable(_ item: LayoutItem, _ component: LayoutComponent) -> SolverVariable {
    let state = item.layoutState
    if let v = state.variables[component.rawValue] { return v }
    let v = SimplexSolver.makeVariable(name: "\(LayoutEngine.name(of: item)).\(component.name)", owner: item)
    state.variables[component.rawValue] = v
    if let view = item as? UIView {
      if view.translatesAutoresizingMaskIntoConstraints {
        addFixed(view, component)
      } else {
        if component == .width || component == .height { updateIntrinsic(view) }
        view.superview?.setNeedsLayout()
      }
    } else if let guide = item as? UILayoutGuide {
      guide.placeInOwningView(self)
    }
    return v
  }

  /// The frame component a view with autoresizing constraints is pinned to.
  static func frameValue(_ view: UIView, _ component: LayoutComponent) -> Double {
    let f = view.frame
    switch component {
    case .minX: return Double(f.minX)
    case .minY: return Double(f.minY)
    case .width: return Double(f.width)
    case .height: return Double(f.height)
    }
  }

  private func addFixed(_ view: UIView, _ component: LayoutComponent) {
    guard let v = view.layoutState.variables[component.rawValue] else { return }
    let c = SolverConstraint(LinearExpression(v), .equal, strength: SimplexSolver.required)
    let e = EngineConstraint(c, .autoresizing(component), first: view)
    view.layoutState.fixed[component.rawValue] = e
    c.setInitialShift(-LayoutEngine.frameValue(view, component))
    add(e)
  }

  /// A view's frame changed: its pinned variables follow.
  static func frameDidChange(_ view: UIView) {
    guard let state = view.layoutStateIfAny, view.translatesAutoresizingMaskIntoConstraints else { return }
    for component in LayoutComponent.allCases {
      guard let e = state.fixed[component.rawValue], let engine = e.engine else { continue }
      engine.setConstant(e, -frameValue(view, component))
    }
  }

  /// `translatesAutoresizingMaskIntoConstraints` changed: pin or free the view's variables.
  static func translatesDidChange(_ view: UIView) {
    guard let state = view.layoutStateIfAny, state.hasVariables else { return }
    let engine = LayoutEngine.engine(for: view)
    for component in LayoutComponent.allCases {
      if let e = state.fixed[component.rawValue] {
        engine.remove(e)
        state.fixed[component.rawValue] = nil
      }
    }
    for i in 0..<4 {
      if let e = state.intrinsic[i] {
        engine.remove(e)
        state.intrinsic[i] = nil
      }
    }
    if view.translatesAutoresizingMaskIntoConstraints {
      for component in LayoutComponent.allCases where state.variables[component.rawValue] != nil {
        engine.addFixed(view, component)
      }
    } else {
      engine.updateIntrinsic(view)
      view.superview?.setNeedsLayout()
    }
  }

  /// Makes, moves or drops a view's hugging and compression-resistance constraints to match its
  /// intrinsic content size.
  func updateIntrinsic(_ view: UIView) {
    let state = view.layoutState
    guard !view.translatesAutoresizingMaskIntoConstraints else { return }
    let size = view.intrinsicContentSizeForLayout
    state.intrinsicWidth = view.bounds.width
    for axis in 0..<2 {
      let component: LayoutComponent = axis == 0 ? .width : .height
      guard let v = state.variables[component.rawValue] else { continue }
      let value = axis == 0 ? size.width : size.height
      // (A range, not `[true, false]`: that array was a heap allocation per axis per change.)
      for side in 0..<2 {
        let hug = side == 0
        let slot = axis * 2 + side
        if value < 0 {
          if let e = state.intrinsic[slot] {
            remove(e)
            state.intrinsic[slot] = nil
          }
          continue
        }
        if let e = state.intrinsic[slot] {
          setConstant(e, -Double(value))
        } else {
          let p = hug ? state.huggingPriority[axis] : state.compressionPriority[axis]
          let c = SolverConstraint(
            LinearExpression(v), hug ? .lessOrEqual : .greaterOrEqual, strength: p.strength)
          c.setInitialShift(-Double(value))
          let e = EngineConstraint(c, .contentSize(component, hug: hug), first: view)
          state.intrinsic[slot] = e
          add(e)
        }
      }
    }
  }

  /// Drops and remakes a view's content-size constraints (a priority changed).
  func rebuildIntrinsic(_ view: UIView) {
    let state = view.layoutState
    for i in 0..<4 {
      if let e = state.intrinsic[i] {
        remove(e)
        state.intrinsic[i] = nil
      }
    }
    updateIntrinsic(view)
  }

  // MARK: Expressions

  /// `attribute` of `item` in the coordinates of `ancestor`'s bounds (nil when the item is not
  /// in `ancestor`'s tree). Size attributes do not depend on the ancestor.
  func expression(_ item: AnyObject, _ attribute: NSLayoutConstraint.Attribute, in ancestor: UIView?)
    -> LinearExpression?
  {
    var item = item
    var attribute = attribute
    // Margin attributes are the item's layout margins guide's edges.
    if let margin = LayoutEngine.marginBase(attribute) {
      guard let view = item as? UIView else { return nil }
      item = view.layoutMarginsGuide
      attribute = margin
    }
    guard let layoutItem = item as? LayoutItem else { return nil }
    switch attribute {
    case .width: return LinearExpression(variable(layoutItem, .width))
    case .height: return LinearExpression(variable(layoutItem, .height))
    case .notAnAttribute: return LinearExpression()
    default: break
    }
    let horizontal = [.left, .right, .leading, .trailing, .centerX].contains(attribute)
    var e = LinearExpression()
    let size = variable(layoutItem, horizontal ? .width : .height)
    switch attribute {
    case .right, .trailing, .bottom: e.add(size, 1)
    case .centerX, .centerY: e.add(size, 0.5)
    default: break
    }
    // The item's own coordinates: a view's edges in itself are 0 and its size.
    if let view = item as? UIView, view === ancestor { return e }
    var current: LayoutItem = layoutItem
    while true {
      e.add(variable(current, horizontal ? .minX : .minY), 1)
      guard let parent = current.layoutParent else { return nil }
      if parent === ancestor { return e }
      current = parent
    }
  }

  static func marginBase(_ a: NSLayoutConstraint.Attribute) -> NSLayoutConstraint.Attribute? {
    switch a {
    case .leftMargin: return .left
    case .rightMargin: return .right
    case .topMargin: return .top
    case .bottomMargin: return .bottom
    case .leadingMargin: return .leading
    case .trailingMargin: return .trailing
    case .centerXWithinMargins: return .centerX
    case .centerYWithinMargins: return .centerY
    default: return nil
    }
  }

  static func isPosition(_ a: NSLayoutConstraint.Attribute) -> Bool {
    a != .width && a != .height && a != .notAnAttribute
  }

  static func isHorizontal(_ a: NSLayoutConstraint.Attribute) -> Bool {
    switch a {
    case .left, .right, .leading, .trailing, .centerX, .width, .leftMargin, .rightMargin, .leadingMargin,
      .trailingMargin, .centerXWithinMargins:
      return true
    default: return false
    }
  }

  /// The nearest view that is (or holds) both items.
  static func commonAncestor(_ a: AnyObject, _ b: AnyObject?) -> UIView? {
    guard let va = anchorView(a) else { return nil }
    guard let b else { return va }
    guard let vb = anchorView(b) else { return nil }
    var x: UIView? = va
    while let v = x {
      if vb.isDescendant(of: v) { return v }
      x = v.superview
    }
    return nil
  }

  // MARK: Activation

  static func activate(_ c: NSLayoutConstraint) {
    guard let first = c.firstItem, first is LayoutItem else {
      report("Unable to activate constraint \(c): its first item is not a view or layout guide.")
      return
    }
    if let second = c.secondItem, !(second is LayoutItem) {
      report("Unable to activate constraint \(c): its second item is not a view or layout guide.")
      return
    }
    let position = isPosition(c.firstAttribute)
    if c.secondItem != nil && position != isPosition(c.secondAttribute)
      || position && c.secondItem != nil && isHorizontal(c.firstAttribute) != isHorizontal(c.secondAttribute)
    {
      report(
        "Invalid pairing of layout attributes: \(NSLayoutConstraint.attributeName(c.firstAttribute)) and "
          + "\(NSLayoutConstraint.attributeName(c.secondAttribute)) in \(c).")
      return
    }
    if position && c.secondItem == nil {
      report(
        "A constraint cannot be made between a \(NSLayoutConstraint.attributeName(c.firstAttribute)) attribute "
          + "and a constant: \(c).")
      return
    }
    guard let ancestor = commonAncestor(first, c.secondItem) else {
      report(
        "Unable to activate constraint with anchors \(c.firstAnchor) and \(c.secondAnchor.map { "\($0)" } ?? "nil") "
          + "because they have no common ancestor.  Does the constraint or its anchors reference items in "
          + "different view hierarchies?  That's illegal.")
      return
    }
    let engine = LayoutEngine.engine(for: ancestor)
    let frame = position ? ancestor : nil
    guard var e = engine.expression(first, c.firstAttribute, in: frame) else { return }
    if let second = c.secondItem {
      guard let s = engine.expression(second, c.secondAttribute, in: frame) else { return }
      e.add(s, -Double(c.multiplier))
    }
    let relation: SolverConstraint.Relation
    switch c.relation {
    case .equal: relation = .equal
    case .lessThanOrEqual: relation = .lessOrEqual
    case .greaterThanOrEqual: relation = .greaterOrEqual
    }
    let solver = SolverConstraint(e, relation, strength: c.priority.strength, owner: c)
    solver.setInitialShift(-Double(c.constant))
    let entry = EngineConstraint(solver, .layout, first: first, second: c.secondItem)
    entry.layoutConstraint = c
    c.engineEntry = entry
    c.installedView = ancestor
    ancestor.layoutState.installed.append(c)
    engine.add(entry)
    itemsNeedLayout(first, c.secondItem)
  }

  static func deactivate(_ c: NSLayoutConstraint) {
    guard let entry = c.engineEntry else { return }
    c.engineEntry = nil
    if let v = c.installedView { v.layoutState.installed.removeAll { $0 === c } }
    c.installedView = nil
    entry.engine?.remove(entry)
    itemsNeedLayout(c.firstItem, c.secondItem)
  }

  /// The views whose frames a constraint sets lay out again.
  static func itemsNeedLayout(_ a: AnyObject?, _ b: AnyObject?) {
    for item in [a, b] {
      guard let item else { continue }
      if let v = item as? UIView {
        v.superview?.setNeedsLayout()
        v.setNeedsLayout()
      } else if let g = item as? UILayoutGuide {
        g.owningView?.setNeedsLayout()
      }
    }
  }

  // MARK: The solver

  /// The solution may change: the next `layoutIfNeeded` of the tree solves again (and lays out
  /// the superviews of what moved).
  private func invalidate() {
    guard let host, !host.subtreeNeedsLayout else { return }
    host.propagateLayoutFlag()
  }

  /// Adds an entry; a required one that conflicts is reported and broken (left out).
  func add(_ e: EngineConstraint) {
    invalidate()
    e.engine = self
    entries.append(e)
    do {
      try solver.add(e.solver)
      e.isBroken = false
    } catch SolverError.unsatisfiable(let conflicting) {
      e.isBroken = true
      reportUnsatisfiable(conflicting, breaking: e)
    } catch {
      e.isBroken = true
      LayoutEngine.report("Unable to add constraint \(e.description): the layout engine gave up (\(error)).")
    }
  }

  func remove(_ e: EngineConstraint) {
    invalidate()
    if let i = entries.firstIndex(where: { $0 === e }) { entries.remove(at: i) }
    if !e.isBroken && solver.contains(e.solver) { try? solver.remove(e.solver) }
    e.engine = nil
  }

  /// Moves an entry's constant; if required constraints cannot follow, the conflict is
  /// reported and the lowest-priority culprit broken (as when adding).
  func setConstant(_ e: EngineConstraint, _ shift: Double) {
    if e.solver.constantShift == shift && !e.isBroken { return }
    invalidate()
    guard !e.isBroken else {
      // A broken constraint may be satisfiable with its new constant: try it again.
      e.solver.setInitialShift(shift)
      if let i = entries.firstIndex(where: { $0 === e }) { entries.remove(at: i) }
      add(e)
      return
    }
    do { try solver.setConstantShift(e.solver, shift) } catch {
      // Take it out and add it back with the new constant: the addition finds the conflict.
      try? solver.remove(e.solver)
      e.solver.setInitialShift(shift)
      do {
        try solver.add(e.solver)
      } catch SolverError.unsatisfiable(let conflicting) {
        // The app's constraints give way to the frame of a view that translates its mask.
        let culprit = conflicting.compactMap { c in entries.first { $0.solver === c } }.first {
          if case .layout = $0.kind { return true } else { return false }
        }
        if let culprit, case .autoresizing = e.kind {
          reportUnsatisfiable(conflicting + [e.solver], breaking: culprit)
          try? solver.remove(culprit.solver)
          culprit.isBroken = true
          do { try solver.add(e.solver) } catch { e.isBroken = true }
        } else {
          e.isBroken = true
          reportUnsatisfiable(conflicting, breaking: e)
        }
      } catch {
        e.isBroken = true
      }
    }
  }

  private func reportUnsatisfiable(_ conflicting: [SolverConstraint], breaking e: EngineConstraint) {
    var involved: [EngineConstraint] = []
    for c in conflicting {
      if let x = entries.first(where: { $0.solver === c }), !involved.contains(where: { $0 === x }) {
        involved.append(x)
      }
    }
    if !involved.contains(where: { $0 === e }) { involved.append(e) }
    let autoresizing = involved.contains {
      if case .autoresizing = $0.kind { return true } else { return false }
    }
    var m = "Unable to simultaneously satisfy constraints.\n"
    m += "\tProbably at least one of the constraints in the following list is one you don't want. \n"
    m += "\tTry this: \n"
    m += "\t\t(1) look at each constraint and try to figure out which you don't expect; \n"
    m += "\t\t(2) find the code that added the unwanted constraint or constraints and fix it. \n"
    if autoresizing {
      m +=
        "\t(Note: If you're seeing NSAutoresizingMaskLayoutConstraints that you don't understand, refer to the "
      m += "documentation for the UIView property translatesAutoresizingMaskIntoConstraints) \n"
    }
    m += "(\n" + involved.map { "    \"\($0.description)\"" }.joined(separator: ",\n") + "\n)\n\n"
    m += "Will attempt to recover by breaking constraint \n\(e.description)\n"
    LayoutEngine.report(m)
  }

  /// Brings the variables up to date; the superviews of engine-placed views that moved lay out
  /// again.
  func solve() {
    guard solver.changed else { return }
    solver.updateVariables { v in
      if let view = v.owner as? UIView, !view.translatesAutoresizingMaskIntoConstraints {
        view.superview?.setNeedsLayout()
      } else if let guide = v.owner as? UILayoutGuide {
        guide.owningView?.setNeedsLayout()
      }
    }
  }

  // MARK: Trees joining and leaving

  /// `view` (the root of a tree) was added to another tree: its constraints move to that
  /// tree's engine.
  static func viewDidJoin(_ view: UIView) {
    guard let state = view.layoutStateIfAny, let old = state.hostedEngine else { return }
    state.hostedEngine = nil
    guard !old.entries.isEmpty else { return }
    let target = engine(for: view)
    for e in old.entries {
      if !e.isBroken { try? old.solver.remove(e.solver) }
      target.add(e)
    }
    old.entries.removeAll()
  }

  /// `view` left the tree whose engine is `engine`: constraints tying it to the rest are
  /// deactivated; those within it move to its own engine.
  static func viewDidLeave(_ view: UIView, engine: LayoutEngine) {
    func inside(_ item: AnyObject?) -> Bool? {
      guard let item else { return nil }
      return anchorView(item).map { $0.isDescendant(of: view) }
    }
    var moving: [EngineConstraint] = []
    var cut: [NSLayoutConstraint] = []
    for e in engine.entries {
      let a = inside(e.first)
      let b = inside(e.second)
      if a == true && (b ?? true) {
        moving.append(e)
      } else if a == true || b == true, let c = e.layoutConstraint {
        cut.append(c)
      }
    }
    for c in cut { c.isActive = false }
    guard !moving.isEmpty else { return }
    let target = LayoutEngine.engine(for: view)
    for e in moving {
      engine.remove(e)
      target.add(e)
    }
  }

  // MARK: Names

  static func address(_ object: AnyObject) -> String {
    "0x" + String(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), radix: 16)
  }

  static func name(of item: AnyObject) -> String {
    if let g = item as? UILayoutGuide {
      return "\(type(of: g)):\(address(g))'\(g.identifier)'" + (g.owningView.map { "\(name(of: $0))" } ?? "")
    }
    return "\(type(of: item)):\(address(item))"
  }

  static func number(_ v: CGFloat) -> String {
    v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%g", Double(v))
  }
}

extension SolverConstraint {
  /// Sets the constant shift of a constraint not yet in a solver.
  func setInitialShift(_ shift: Double) { constantShiftStorage = shift }
}
