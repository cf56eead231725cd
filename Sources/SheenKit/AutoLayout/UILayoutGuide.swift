import Foundation

/// A rectangle in a view's coordinates that constraints can place and relate to, without a view
/// of its own (UIKit's `UILayoutGuide`): spacers, and a view's layout margins and safe area.
open class UILayoutGuide: LayoutItem, CustomStringConvertible {
  /// The view the guide belongs to (`addLayoutGuide` sets it).
  public internal(set) weak var owningView: UIView?
  open var identifier = ""

  /// How a view's own guide follows it: margins or the safe area, or not at all (an app's).
  enum Role { case free, margins, safeArea }
  let role: Role

  let layoutState = LayoutItemState()
  var layoutParent: UIView? { owningView }
  /// Set while the guide's placing constraints are being made.
  var placing = false

  public init() { role = .free }

  init(role: Role, owner: UIView, identifier: String) {
    self.role = role
    owningView = owner
    self.identifier = identifier
  }

  public lazy var leadingAnchor = NSLayoutXAxisAnchor(item: self, attribute: .leading)
  public lazy var trailingAnchor = NSLayoutXAxisAnchor(item: self, attribute: .trailing)
  public lazy var leftAnchor = NSLayoutXAxisAnchor(item: self, attribute: .left)
  public lazy var rightAnchor = NSLayoutXAxisAnchor(item: self, attribute: .right)
  public lazy var centerXAnchor = NSLayoutXAxisAnchor(item: self, attribute: .centerX)
  public lazy var topAnchor = NSLayoutYAxisAnchor(item: self, attribute: .top)
  public lazy var bottomAnchor = NSLayoutYAxisAnchor(item: self, attribute: .bottom)
  public lazy var centerYAnchor = NSLayoutYAxisAnchor(item: self, attribute: .centerY)
  public lazy var widthAnchor = NSLayoutDimension(item: self, attribute: .width)
  public lazy var heightAnchor = NSLayoutDimension(item: self, attribute: .height)

  /// The guide's rectangle in its owning view's coordinates, from the last layout.
  open var layoutFrame: CGRect {
    guard let owner = owningView else { return .zero }
    let engine = LayoutEngine.engine(for: owner)
    engine.solve()
    func v(_ c: LayoutComponent) -> CGFloat { CGFloat(engine.variable(self, c).value) }
    return CGRect(x: v(.minX), y: v(.minY), width: v(.width), height: v(.height))
  }

  open var description: String { LayoutEngine.name(of: self) }

  /// The insets a margins or safe-area guide keeps from its owning view's edges.
  var insets: UIEdgeInsets {
    guard let owner = owningView else { return .zero }
    switch role {
    case .free: return .zero
    case .margins: return owner.layoutMargins
    case .safeArea: return owner.safeAreaInsets
    }
  }

  /// Makes the required constraints that place a margins or safe-area guide in its view.
  func placeInOwningView(_ engine: LayoutEngine) {
    guard role != .free, !placing, layoutState.guideConstraints.isEmpty, let owner = owningView else {
      return
    }
    placing = true
    defer { placing = false }
    let minX = engine.variable(self, .minX)
    let minY = engine.variable(self, .minY)
    let width = engine.variable(self, .width)
    let height = engine.variable(self, .height)
    let ownerWidth = engine.variable(owner, .width)
    let ownerHeight = engine.variable(owner, .height)
    var w = LinearExpression(width)
    w.add(ownerWidth, -1)
    var h = LinearExpression(height)
    h.add(ownerHeight, -1)
    let made = [LinearExpression(minX), LinearExpression(minY), w, h].map { e -> EngineConstraint in
      EngineConstraint(SolverConstraint(e, .equal, strength: SimplexSolver.required), .system, first: self)
    }
    layoutState.guideConstraints = made
    setConstants()
    for e in made { engine.add(e) }
  }

  /// The guide's constants follow the insets (an incremental re-solve).
  func insetsDidChange() {
    guard let engine = layoutState.guideConstraints.first?.engine else { return }
    let i = insets
    let shifts = [-i.left, -i.top, i.left + i.right, i.top + i.bottom]
    for (e, s) in zip(layoutState.guideConstraints, shifts) { engine.setConstant(e, Double(s)) }
  }

  private func setConstants() {
    let i = insets
    let shifts = [-i.left, -i.top, i.left + i.right, i.top + i.bottom]
    for (e, s) in zip(layoutState.guideConstraints, shifts) { e.solver.setInitialShift(Double(s)) }
  }
}
