import SheenKit
import Synchronization

/// A size a parent offers a child (SwiftUI's `ProposedViewSize`): nil in a dimension asks for
/// the child's ideal size, 0 for its smallest, `.infinity` for its largest.
public struct ProposedViewSize: Hashable, Sendable {
  public var width: CGFloat?
  public var height: CGFloat?

  public init(width: CGFloat?, height: CGFloat?) {
    self.width = width
    self.height = height
  }
  public init(_ size: CGSize) { self.init(width: size.width, height: size.height) }

  public static let zero = ProposedViewSize(width: 0, height: 0)
  public static let unspecified = ProposedViewSize(width: nil, height: nil)
  public static let infinity = ProposedViewSize(width: .infinity, height: .infinity)

  /// The proposal with nil dimensions replaced (by 10 points, as SwiftUI).
  public func replacingUnspecifiedDimensions(by size: CGSize = CGSize(width: 10, height: 10)) -> CGSize {
    CGSize(width: width ?? size.width, height: height ?? size.height)
  }
}

/// What an update passes down the tree: the environment and the graph being updated.
struct UpdateContext {
  var environment: EnvironmentValues
  unowned let graph: ViewGraph
}

/// A persistent node of the view graph: the identity of one view across updates, its layout, and
/// the UIKit-shaped view (if any) that draws it.
///
/// Subclasses override `computeSize(_:)` (the child's answer to a proposal) and `place(in:)`
/// (where its children go). A node with an `ownView` places that view at the rectangle it is
/// given (in the coordinates of the nearest ancestor with a view) and its children inside it.
class Node {
  /// The node above, which keeps this one (in `children`, or as a lazy list's row). Not a weak
  /// reference: a weak reference gives the node a side table, and every retain and release of
  /// it then takes the runtime's slow path (a tap's update spent a third of its instructions
  /// there). A node going away clears the parent of the nodes that still name it (`deinit`),
  /// and a node taken out of the tree has its parent cleared, so the pointer is never left
  /// dangling.
  unowned(unsafe) var parent: Node?
  var children: [Node] = []

  /// The UIKit-shaped view drawing this node, if it draws or groups (a clip, an opacity...).
  var ownView: UIView? { nil }
  /// Whether this node stands for a list of views (a block, a `ForEach`, an `if`), which the
  /// enclosing stack lays out one by one.
  var isList: Bool { false }
  /// Spacers are flexible along their stack's axis only, and take no spacing next to them.
  var spacerMinLength: CGFloat?? { nil }

  // A few answers to proposals, cleared when anything below changes (kept in the node: no
  // allocation per node).
  private var sizes = SizeCache()
  /// The rectangle the node was last placed in (in its host view's coordinates).
  var placedRect = CGRect.null
  /// Whether the node must be placed again even at the rectangle it has: it, or something
  /// below it, was updated or laid out anew since it was last placed. A node not marked and
  /// given its rectangle again is left as it is, with everything below it (so a state change
  /// places only the part of the tree it changed and the path to it).
  var needsPlacement = true
  /// The graph the node belongs to (it owns the root, which owns every node): for counters.
  unowned(unsafe) var graph: ViewGraph?
  /// Whether the node is listed for its subviews to be listed again (see `ViewGraph.syncs`).
  var awaitsSubviewSync = false
  /// Which explicit alignment guides this part of the tree may set (1: `alignmentGuide`s, 2:
  /// text baselines), or -1 when not known since the last change.
  var guideFlags: Int8 = -1
  /// The guides this node itself sets (see `guideFlags`).
  var ownGuideFlags: Int8 { 0 }

  init() {}

  deinit {
    for c in children where c.parent === self { c.parent = nil }
  }

  /// The node's size for `proposal`: the child's, and remembered.
  final func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize {
    if let s = sizes.size(for: proposal) { return s }
    graph?.sizesComputed += 1
    let s = computeSize(proposal)
    sizes.insert(proposal, s)
    return s
  }

  /// The proposal this node answered with `size` most recently (its placement follows that
  /// proposal, as SwiftUI's does), or `size` itself.
  final func proposal(for size: CGSize) -> ProposedViewSize {
    sizes.proposal(for: size) ?? ProposedViewSize(size)
  }

  /// The size for `proposal`, worked out (see `sizeThatFits`). By default the first child's.
  func computeSize(_ proposal: ProposedViewSize) -> CGSize {
    children.first?.sizeThatFits(proposal) ?? .zero
  }

  /// Forgets the remembered sizes here and above: something that decides them changed.
  ///
  /// Above a node whose size does not depend on what is in it (a frame of fixed width and
  /// height) the sizes stay as they are, as long as nothing in it sets an alignment guide and
  /// nothing above asks for a text baseline (which a text in it may have moved): the nodes
  /// above are only placed again, on the path down to the change (a card whose badge counts a
  /// tap lays out the card again, not its row, the list and the scroll view).
  final func invalidateLayout() {
    var n: Node? = self
    // The node below on the path, and the row of the nearest lazy list passed (a lazy stack
    // measures that row again rather than all of its rows).
    var below: Node?
    var row: Node?
    var sizesKept = false
    while let x = n {
      if sizesKept && x.asksForBaselines { sizesKept = false }
      x.guideFlags = -1
      x.needsPlacement = true
      if !sizesKept {
        x.sizes.removeAll()
        if x.isLazyRowList { row = below }
        if x.watchesLayout {
          x.layoutInvalidated(row: row)
          row = nil
        }
        graph?.layoutInvalidations += 1
        // (A frame whose own size changed is not such a node: the change starts at it.)
        if x !== self && x.hasFixedSize && x.subtreeGuideFlags & 1 == 0 { sizesKept = true }
      }
      below = x
      n = x.parent
    }
  }

  /// Whether the node's size is the same whatever is in it (see `invalidateLayout`).
  var hasFixedSize: Bool { false }
  /// Whether the node asks what is in it for a text baseline, to align by it or to work out a
  /// guide (see `invalidateLayout`).
  var asksForBaselines: Bool { false }

  /// Whether this node is a lazy stack's list of rows (see `invalidateLayout`).
  final var isLazyRowList = false
  /// Whether `layoutInvalidated(row:)` does anything for this node.
  final var watchesLayout = false
  /// This node's entry in its lazy stack, when it is a made entry of one (else -1).
  final var lazyEntryIndex = -1

  /// The value of guide `key` at `size` set by something in this node (see
  /// `explicitAlignment`), in this node's coordinates. By default the only child's, placed over
  /// the whole node; nodes that place their children elsewhere or merge several override it.
  func computeExplicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    children.count == 1 ? children[0].explicitAlignment(key, size) : nil
  }

  /// Which guides this part of the tree may set, worked out once after each change.
  final var subtreeGuideFlags: Int8 {
    if guideFlags < 0 {
      var f = ownGuideFlags
      for c in children { f |= c.subtreeGuideFlags }
      guideFlags = f
    }
    return guideFlags
  }

  /// Called on this node and its ancestors that set `watchesLayout` when something below
  /// changed its layout; `row` is the row of a lazy list below whose layout changed, when the
  /// change came through one (and not through anything else between).
  func layoutInvalidated(row: Node?) {}

  /// Puts this node at `rect` (in the coordinates of the nearest ancestor with a view): its own
  /// view there and its children inside, or its children at `rect` when it has no view.
  final func place(in rect: CGRect) {
    // Nothing here changed and the rectangle is the same: the views below are where they were.
    if !needsPlacement && rect == placedRect { return }
    needsPlacement = false
    graph?.nodesPlaced += 1
    // A view placed for the first time appears where it belongs, even in an animated update.
    if placedRect.isNull {
      UIView.performWithoutAnimation { placeNode(in: rect) }
    } else {
      placeNode(in: rect)
    }
  }

  /// Asks for this node and the path to the root to be placed again in the next update (see
  /// `needsPlacement`): something here changed that placing applies.
  final func setNeedsPlacement() {
    var n: Node? = self
    while let x = n {
      x.needsPlacement = true
      n = x.parent
    }
  }

  /// Places this node (see `place(in:)`); subclasses override this one.
  func placeNode(in rect: CGRect) {
    placedRect = rect
    if let v = ownView {
      setFrame(v, rect)
      placeChildren(in: CGRect(origin: .zero, size: rect.size))
    } else {
      placeChildren(in: rect)
    }
  }

  /// Places the children in `rect` (in the coordinates they are placed in). All of it, by default.
  func placeChildren(in rect: CGRect) {
    for c in children { c.place(in: rect) }
  }

  /// The views of this node's part of the tree, in drawing order, as subviews of its host.
  func collectViews(into views: inout [UIView]) {
    if let v = ownView {
      views.append(v)
      return
    }
    for c in children { c.collectViews(into: &views) }
  }

  /// Calls `body` with each node the enclosing stack lays out (see `collectItems`), listing none.
  func forEachItem(_ body: (Node) -> Void) {
    if isList {
      for c in children { c.forEachItem(body) }
    } else {
      body(self)
    }
  }

  /// The nodes the enclosing stack lays out: this one, or a list's members.
  func collectItems(into items: inout [Node]) {
    if isList {
      for c in children { c.collectItems(into: &items) }
    } else {
      items.append(self)
    }
  }

  /// The root of the node's tree (a `RootNode` when the node is in a graph).
  var root: Node {
    var n: Node = self
    while let p = n.parent { n = p }
    return n
  }

  /// The nearest node at or above this one with a view, or the root.
  var host: Node {
    var n: Node = self
    while n.ownView == nil, let p = n.parent { n = p }
    return n
  }

  /// Puts `node` as child `index` (appending when `index` is the count); a new node there means
  /// the host's subviews must be listed again and the layout worked out again.
  final func setChild(_ index: Int, _ node: Node, _ ctx: UpdateContext) {
    if index < children.count {
      if children[index] === node { return }
      children[index].parent = nil
      children[index] = node
    } else {
      children.append(node)
    }
    node.parent = self
    structureChanged(ctx)
  }

  /// Drops the children from `count` on.
  final func truncateChildren(_ count: Int, _ ctx: UpdateContext) {
    guard children.count > count else { return }
    for c in children[count...] { c.parent = nil }
    children.removeSubrange(count...)
    structureChanged(ctx)
  }

  /// The views below changed: the host lists its subviews again after the update.
  final func structureChanged(_ ctx: UpdateContext) {
    ctx.graph.needsSubviewSync(host)
    invalidateLayout()
  }

  /// Subviews of this node's view: the views of its children, in order, keeping the ones that stay.
  func syncSubviews() {
    guard let v = ownView ?? (self as? RootNode)?.hostView else { return }
    var views: [UIView] = []
    for c in children { c.collectViews(into: &views) }
    let container = subviewContainer ?? v
    if container.subviews.count == views.count && zip(container.subviews, views).allSatisfy({ $0 === $1 }) {
      return
    }
    // A new view's subviews, all new: added in order (no set of those kept).
    if container.subviews.isEmpty {
      for s in views { container.addSubview(s) }
      return
    }
    let keep = Set(views.map(ObjectIdentifier.init))
    for s in container.subviews where !keep.contains(ObjectIdentifier(s)) { s.removeFromSuperview() }
    for (i, s) in views.enumerated() where i >= container.subviews.count || container.subviews[i] !== s {
      container.insertSubview(s, at: i)
    }
  }

  /// The `@State` storage this node keeps (a body node's), in the order of the view's fields.
  var keptStates: [AnyObject] { [] }
  /// Takes `saved` (the storage of a row given back and made again) and asks for the body again
  /// with it (body nodes only).
  func adoptStates(_ saved: [AnyObject]) {}

  /// Asks for a body again after a state change (body nodes only).
  func reevaluate() {}
  /// Called by a `@State` this node keeps when its value changes.
  func stateDidChange() {}

  /// Where the children's views go, when not the own view itself (a scroll view's content).
  var subviewContainer: UIView? { nil }

  /// Sets a view's bounds and center (so that a transform, about the center, stays as it is).
  final func setFrame(_ v: UIView, _ r: CGRect) {
    let b = CGRect(origin: v.bounds.origin, size: r.size)
    if v.bounds != b { v.bounds = b }
    let c = CGPoint(x: r.midX, y: r.midY)
    if v.center != c { v.center = c }
  }
}

/// Reconciles `view` with the node that stood for the view at the same place last time: the same
/// node, updated, when it can stand for it, or a new one.
func reconcile<V: View>(_ old: Node?, _ view: V, _ ctx: UpdateContext) -> Node {
  // Only the lists directly in a lazy stack are lazy: anything else ends it. (The checks are of
  // the type: a value cast to an existential is copied into a box when it is large.)
  if ctx.environment.inLazyStack && !(V.self is any LazyStackTransparent.Type) {
    var c = ctx
    c.environment.inLazyStack = false
    return reconcile(old, view, c)
  }
  // The view's own conformance makes or keeps its node (see `View._reconcile`). A node whose
  // value changed something placing applies (a colour, an effect, a press) asks to be placed
  // again itself (`setNeedsPlacement`), and one whose size may have changed invalidates its
  // layout: an update places only what changed and the path to it.
  let n = view._reconcile(_ReconcileInput(old: old, context: ctx)).node
  n.graph = ctx.graph
  ctx.graph.nodesReconciled += 1
  return n
}

/// Views that stand for lists of views: a lazy stack's rows may be found through them.
protocol LazyStackTransparent {}

/// SheenUI's views that draw or lay out themselves (their `Body` is `Never`).
protocol PrimitiveView {
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node
}

/// A node that stands for a view with a `body`: it keeps the view's value, its state, and the
/// node of its body, and asks for the body again only when the value, the environment or its
/// state changed.
final class BodyNode<V: View>: Node {
  var view: V?
  var context: UpdateContext?
  var needsBody = true
  /// The persistent storage of each `@State` of the view, in the order Mirror lists them.
  var states: [AnyObject] = []
  /// Whether V has fields that `@State` or a binding brings: compared field by field.
  lazy var hasDynamicFields: Bool = view.map(SheenUI.hasDynamicFields) ?? false

  func update(_ v: V, _ ctx: UpdateContext) {
    if !needsBody, let old = view, let c = context, c.environment == ctx.environment,
      sameView(old, v)
    {
      return
    }
    view = v
    context = ctx
    connectState(v)
    evaluate(ctx)
  }

  /// Asks for the body again (state changed) with the value and environment of the last update.
  override func reevaluate() {
    guard needsBody, let ctx = context else { return }
    evaluate(ctx)
  }

  fileprivate func evaluate(_ ctx: UpdateContext) {
    needsBody = false
    guard let v = view else { return }
    ctx.graph.countBody(ObjectIdentifier(V.self))
    let b = v.body
    setChild(0, SheenUI.reconcile(children.first, b, ctx), ctx)
  }

  /// Connects each `@State` of a new value to the storage this node keeps for it (made from the
  /// first value's initial values).
  fileprivate func connectState(_ v: V) {
    guard hasDynamicFields else { return }
    var i = 0
    for c in Mirror(reflecting: v).children {
      guard let f = c.value as? any DynamicPropertyField else { continue }
      if let s = f.connect(i < states.count ? states[i] : nil, node: self) {
        if i < states.count { states[i] = s } else { states.append(s) }
        i += 1
      }
    }
  }

  /// Whether two values of the view are the same for its body (SwiftUI's rule): the same
  /// bytes; else, for a view that is `Equatable`, `==`; else, unless the view is plain data,
  /// field by field, each field the same bytes or `==` when its type is `Equatable`, a
  /// `Binding` the same when it points at the same place and shows the same value, and every
  /// `@State` counted as equal (a new value brings only an initial value, which SwiftUI reads
  /// once). A closure is never the same as another.
  private func sameView(_ a: V, _ b: V) -> Bool {
    if bytesEqual(a, b) { return true }
    if let ea = a as? any Equatable { return anyEquatableEqual(ea, b) }
    if _isPOD(V.self) { return false }
    let ma = Mirror(reflecting: a).children
    let mb = Mirror(reflecting: b).children
    guard ma.count == mb.count, !ma.isEmpty else { return false }
    for (x, y) in zip(ma, mb) where !sameField(x.value, y.value) { return false }
    return true
  }

  override var keptStates: [AnyObject] { states }
  override func adoptStates(_ saved: [AnyObject]) { adopt(saved) }

  override func stateDidChange() {
    guard !needsBody else { return }
    needsBody = true
    context?.graph.bodyNeedsUpdate(self)
  }
}

/// Whether a struct or class type has `@State` or binding fields, by type (reflecting a value
/// allocates; a type's stored properties are the same in every value).
private let dynamicFieldTypes = Mutex<[ObjectIdentifier: Bool]>([:])

/// Whether `v` has fields that `@State` or a binding brings (once per struct or class type).
func hasDynamicFields<V>(_ v: V) -> Bool {
  let key = ObjectIdentifier(V.self)
  if let known = dynamicFieldTypes.withLock({ $0[key] }) { return known }
  let m = Mirror(reflecting: v)
  let has = m.children.contains { $0.value is any DynamicPropertyField }
  // An enum's children are its case's payload: not the same for every value.
  if m.displayStyle == .struct || m.displayStyle == .class { dynamicFieldTypes.withLock { $0[key] = has } }
  return has
}

extension BodyNode {
  /// Takes `saved` (the storage of a row given back and made again) and asks for the body
  /// again with it.
  func adopt(_ saved: [AnyObject]) {
    guard saved.count == states.count, let v = view, let ctx = context else { return }
    states = saved
    connectState(v)
    needsBody = true
    evaluate(ctx)
  }
}

/// Whether two values have the same bytes (so are the same value; different bytes may still be
/// equal values, which only costs a body evaluation).
///
/// The size comes from `MemoryLayout`, never from the buffer `withUnsafeBytes(of:)` gives: for a
/// value of a type with no stored properties (`struct ContentView: View` with only a `body`),
/// Swift 6.3.1's optimizer can hand that buffer an undefined start and a nil end, so its `count`
/// is negative (README, "Your SwiftUI code on Linux": a compiler bug).
func bytesEqual<T>(_ a: T, _ b: T) -> Bool {
  let size = MemoryLayout<T>.size
  if size == 0 { return true }
  return withUnsafeBytes(of: a) { pa in
    withUnsafeBytes(of: b) { pb in memcmp(pa.baseAddress!, pb.baseAddress!, size) == 0 }
  }
}

/// The bytes of a value (empty for a type with no stored properties; see `bytesEqual`).
func valueBytes<T>(_ x: T) -> [UInt8] {
  let size = MemoryLayout<T>.size
  if size == 0 { return [] }
  return withUnsafeBytes(of: x) { Array(UnsafeRawBufferPointer(start: $0.baseAddress!, count: size)) }
}

/// Whether two fields of a view are the same for its body (see `BodyNode.sameView`).
func sameField(_ a: Any, _ b: Any) -> Bool {
  if a is any StateField { return true }
  if let ba = a as? any BindingField { return ba.isSame(as: b) }
  if anyBytesEqual(a, b) { return true }
  if let ea = a as? any Equatable { return anyEquatableEqual(ea, b) }
  return false
}

/// `==` of an `Equatable` value and a value of (one hopes) the same type.
func anyEquatableEqual<T: Equatable>(_ a: T, _ b: Any) -> Bool {
  guard let y = b as? T else { return false }
  return a == y
}

/// `bytesEqual` for two values of the same dynamic type held as `Any`.
func anyBytesEqual(_ a: Any, _ b: Any) -> Bool {
  func open<T>(_ x: T) -> Bool {
    guard let y = b as? T else { return false }
    return bytesEqual(x, y)
  }
  return _openExistential(a, do: open)
}

/// A node's last few answers to proposals (at most `capacity`, the oldest forgotten first),
/// stored in the node itself: a node made allocates nothing for them.
struct SizeCache {
  struct Entry {
    var proposal = ProposedViewSize.zero
    var size = CGSize.zero
  }
  static let capacity = 6
  private var entries = (Entry(), Entry(), Entry(), Entry(), Entry(), Entry())
  /// Entries in use, and the slot written next (the oldest when all are in use).
  private var count = 0
  private var next = 0

  private func entry(_ i: Int) -> Entry {
    withUnsafeBytes(of: entries) { $0.load(fromByteOffset: i * MemoryLayout<Entry>.stride, as: Entry.self) }
  }

  /// The size answered to `proposal`, if remembered.
  func size(for proposal: ProposedViewSize) -> CGSize? {
    for i in 0..<count {
      let e = entry(i)
      if e.proposal == proposal { return e.size }
    }
    return nil
  }

  /// The proposal most recently answered with `size`, if remembered.
  func proposal(for size: CGSize) -> ProposedViewSize? {
    var i = next
    for _ in 0..<count {
      i = i == 0 ? Self.capacity - 1 : i - 1
      let e = entry(i)
      if e.size == size { return e.proposal }
    }
    return nil
  }

  mutating func insert(_ proposal: ProposedViewSize, _ size: CGSize) {
    let i = next
    withUnsafeMutableBytes(of: &entries) {
      $0.storeBytes(
        of: Entry(proposal: proposal, size: size), toByteOffset: i * MemoryLayout<Entry>.stride,
        as: Entry.self)
    }
    next = i + 1 == Self.capacity ? 0 : i + 1
    count = min(count + 1, Self.capacity)
  }

  mutating func removeAll() {
    count = 0
    next = 0
  }
}
