import SheenKit

/// The root of a view graph: it holds the top view's node in the hosting view, centred as
/// SwiftUI's hosting views centre their content.
final class RootNode: Node {
  weak var hostView: UIView?

  override func placeChildren(in rect: CGRect) {
    guard let c = children.first else { return }
    let s = c.sizeThatFits(ProposedViewSize(rect.size))
    let x = (rect.minX + (rect.width - s.width) / 2).rounded()
    let y = (rect.minY + (rect.height - s.height) / 2).rounded()
    c.place(in: CGRect(x: x, y: y, width: s.width, height: s.height))
  }
}

/// The persistent part of a SheenUI tree: its nodes, what changed since the last update, and
/// counters for tests and benchmarks.
final class ViewGraph {
  let root = RootNode()
  /// Measures text for the graph's `Text` nodes (one per graph: graphs may be used from
  /// different threads).
  let measurer = UILabel()
  private var dirtyBodies: [Node] = []
  private var syncs: [Node] = []
  /// The transaction the next update's changes are made in (from `withAnimation` or
  /// `withTransaction` around a state change).
  var pendingTransaction: Transaction?
  /// The transaction of the part of the tree being updated now (see `TransactionScopeNode`).
  var transaction = Transaction()
  /// Whether an update is being made (placements outside one, by a scroll view, keep still).
  private(set) var isUpdating = false
  /// How many times a body was asked for, in all and by view type.
  private(set) var bodyEvaluations = 0
  private(set) var bodyCounts: [ObjectIdentifier: Int] = [:]
  /// How many nodes were placed (not left as they were: see `Node.needsPlacement`).
  var nodesPlaced = 0
  /// How many nodes were reconciled with a new value (primitive views and views with a body).
  var nodesReconciled = 0
  /// How many sizes were worked out (not found among a node's remembered answers).
  var sizesComputed = 0
  /// How many nodes had their remembered sizes forgotten (each step of each invalidation).
  var layoutInvalidations = 0
  /// How many entries lazy stacks looked at to measure or place their rows.
  var lazyEntriesVisited = 0
  weak var hostView: UIView? {
    didSet { root.hostView = hostView }
  }

  var context: UpdateContext { UpdateContext(environment: EnvironmentValues(), graph: self) }

  init() { root.graph = self }

  func countBody(_ type: ObjectIdentifier) {
    bodyEvaluations += 1
    bodyCounts[type, default: 0] += 1
  }

  /// A state changed under `node`: its body is asked for again before the next frame.
  func bodyNeedsUpdate(_ node: Node) {
    dirtyBodies.append(node)
    // The state changed inside `withAnimation`: its animation, unless one already asked for.
    if let t = Transaction.current, pendingTransaction?.animation == nil { pendingTransaction = t }
    hostView?.setNeedsLayout()
  }

  /// Lists `node` for its subviews to be listed again after the update (once, however many of
  /// the nodes below it came or went).
  func needsSubviewSync(_ node: Node) {
    guard !node.awaitsSubviewSync else { return }
    node.awaitsSubviewSync = true
    syncs.append(node)
  }

  struct WeakNode {
    weak var node: Node?
  }
  /// Nodes marked with `.accessibilityIdentifier`, by identifier.
  var identified: [String: WeakNode] = [:]

  var hasChanges: Bool { !dirtyBodies.isEmpty || !syncs.isEmpty }

  /// Brings the nodes up to date with `rootView` (when given) and the state changes since the
  /// last update, lists subviews again where nodes came or went, and places everything in
  /// `bounds`, all inside one animation block when a change asked for one.
  func update(rootView: (() -> Void)?, bounds: CGRect) {
    let reconcileAll = { [self] in
      rootView?()
      while !dirtyBodies.isEmpty {
        let nodes = dirtyBodies.sorted { depth($0) < depth($1) }
        dirtyBodies.removeAll()
        for n in nodes { n.reevaluate() }
      }
      syncPending()
    }
    let placeAll = { [self] in
      root.place(in: bounds)
      syncPending()
    }
    let t = pendingTransaction ?? Transaction()
    pendingTransaction = nil
    transaction = t
    isUpdating = true
    defer {
      isUpdating = false
      transaction = Transaction()
    }
    if let a = t.animation, !t.disablesAnimations {
      a.run {
        reconcileAll()
        placeAll()
      }
    } else {
      reconcileAll()
      placeAll()
    }
  }

  /// Lists subviews again where nodes came or went.
  func syncPending() {
    while !syncs.isEmpty {
      let s = syncs
      syncs.removeAll()
      for n in s { n.awaitsSubviewSync = false }
      for n in s.reversed() { n.syncSubviews() }
    }
  }

  private func depth(_ n: Node) -> Int {
    var d = 0
    var x = n.parent
    while let p = x {
      d += 1
      x = p.parent
    }
    return d
  }
}

/// A UIKit-shaped view that shows a SheenUI view (what SwiftUI's `UIHostingController.view`
/// is): put it in a window or render it with `renderImage(scale:)`.
///
/// The content is laid out with SwiftUI's rules in the hosting view's bounds and centred in
/// them. Changes (a new `rootView`, a state change) are laid out before the next frame.
public final class HostingView<Content: View>: UIView {
  let graph = ViewGraph()
  private var rootChanged = true

  /// The view shown; setting it updates what changed.
  public var rootView: Content {
    didSet {
      rootChanged = true
      setNeedsLayout()
    }
  }

  public init(rootView: Content, frame: CGRect = .zero) {
    self.rootView = rootView
    super.init(frame: frame)
    backgroundColor = nil
    graph.hostView = self
  }

  public required init?(coder: NSCoder) { return nil }

  public override func layoutSubviews() {
    super.layoutSubviews()
    updateNodes()
  }

  private func updateNodes() {
    let ctx = graph.context
    let root = graph.root
    let v = rootView
    let change: (() -> Void)? =
      rootChanged
      ? {
        root.setChild(0, reconcile(root.children.first, v, ctx), ctx)
      } : nil
    rootChanged = false
    graph.update(rootView: change, bounds: CGRect(origin: .zero, size: bounds.size))
  }

  /// The content's size for a proposal of `size` (its ideal size in a dimension that is 0 or
  /// below, as `ProposedViewSize`'s nil).
  public override func sizeThatFits(_ size: CGSize) -> CGSize {
    sizeThatFits(
      ProposedViewSize(width: size.width > 0 ? size.width : nil, height: size.height > 0 ? size.height : nil))
  }

  /// The content's size for `proposal`.
  public func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize {
    if rootChanged || graph.hasChanges { layoutIfNeeded() }
    return graph.root.children.first?.sizeThatFits(proposal) ?? .zero
  }

  /// The first view drawn by the view marked `.accessibilityIdentifier(identifier)`, if it is
  /// in the graph now.
  public func view(withAccessibilityIdentifier identifier: String) -> UIView? {
    layoutIfNeeded()
    guard let n = graph.identified[identifier]?.node, n.parent != nil else { return nil }
    var views: [UIView] = []
    n.collectViews(into: &views)
    return views.first
  }

  /// How many bodies were asked for since the view was made (for tests).
  public var bodyEvaluationCount: Int { graph.bodyEvaluations }

  /// How many of the graph's nodes were placed since the view was made: an update places the
  /// nodes it changed, the path from them to the root and what moved, and leaves the rest as
  /// it was (for tests and benchmarks).
  public var nodePlacementCount: Int { graph.nodesPlaced }

  /// What the graph's updates did since the view was made, node by node (for tests and
  /// benchmarks: an update should visit what changed and the path to it, not the whole tree).
  public struct UpdateVisits: Equatable, Sendable {
    /// Bodies asked for.
    public var bodies: Int
    /// Nodes reconciled with a new value.
    public var reconciled: Int
    /// Sizes worked out (not remembered).
    public var sizesComputed: Int
    /// Nodes whose remembered sizes were forgotten.
    public var invalidations: Int
    /// Nodes placed.
    public var placed: Int
    /// Entries of lazy stacks looked at.
    public var lazyEntries: Int

    /// The visits since `earlier`.
    public static func - (a: UpdateVisits, b: UpdateVisits) -> UpdateVisits {
      UpdateVisits(
        bodies: a.bodies - b.bodies, reconciled: a.reconciled - b.reconciled,
        sizesComputed: a.sizesComputed - b.sizesComputed, invalidations: a.invalidations - b.invalidations,
        placed: a.placed - b.placed, lazyEntries: a.lazyEntries - b.lazyEntries)
    }
    /// Every visit counted.
    public var total: Int { bodies + reconciled + sizesComputed + invalidations + placed + lazyEntries }
  }

  /// The visits of the graph's updates since the view was made (see `UpdateVisits`).
  public var updateVisits: UpdateVisits {
    UpdateVisits(
      bodies: graph.bodyEvaluations, reconciled: graph.nodesReconciled, sizesComputed: graph.sizesComputed,
      invalidations: graph.layoutInvalidations, placed: graph.nodesPlaced,
      lazyEntries: graph.lazyEntriesVisited)
  }

  /// How many times `type`'s body was asked for since the view was made.
  public func bodyEvaluations<V: View>(of type: V.Type) -> Int {
    graph.bodyCounts[ObjectIdentifier(type)] ?? 0
  }
}

/// SwiftUI's hosting controller, reduced to what a Linux host needs: a `rootView` and the
/// `view` that shows it.
public final class UIHostingController<Content: View> {
  public let view: HostingView<Content>
  public var rootView: Content {
    get { view.rootView }
    set { view.rootView = newValue }
  }
  public init(rootView: Content) { view = HostingView(rootView: rootView) }

  /// The content's size for a proposal of `size` (see `HostingView.sizeThatFits`).
  public func sizeThatFits(in size: CGSize) -> CGSize { view.sizeThatFits(size) }
}
