import SheenKit

/// A node standing for several views (a block, an `if`, a `ForEach`, a `Group`): stacks lay
/// its members out one by one; anywhere else they are placed on top of one another, as
/// SwiftUI's implicit `ZStack`... of one view (the usual case).
class ListNode: Node {
  override var isList: Bool { true }

  override func computeSize(_ proposal: ProposedViewSize) -> CGSize {
    var w: CGFloat = 0
    var h: CGFloat = 0
    forEachItem { i in
      guard i !== self else { return }
      let s = i.sizeThatFits(proposal)
      w = max(w, s.width)
      h = max(h, s.height)
    }
    return CGSize(width: w, height: h)
  }

  override func placeChildren(in rect: CGRect) {
    let p = proposal(for: rect.size)
    forEachItem { i in
      guard i !== self else { return }
      let s = i.sizeThatFits(p)
      i.place(
        in: CGRect(x: rect.midX - s.width / 2, y: rect.midY - s.height / 2, width: s.width, height: s.height))
    }
  }
}

extension EmptyView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node { (old as? ListNode) ?? ListNode() }
}

extension TupleView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? TupleNode) ?? TupleNode()
    if n.children.isEmpty {
      // Made once at its size (appended one by one, it would grow two or three times).
      var count = 0
      for _ in repeat each value { count += 1 }
      n.children.reserveCapacity(count)
    }
    var i = 0
    for v in repeat each value {
      n.setChild(i, SheenUI.reconcile(i < n.children.count ? n.children[i] : nil, v, ctx), ctx)
      i += 1
    }
    n.truncateChildren(i, ctx)
    return n
  }
}

final class TupleNode: ListNode {}

/// Which branch of an `if` or `switch` shows: a new branch is a new identity.
final class ConditionalNode: ListNode {
  var branch = -1
}

extension _ConditionalContent: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ConditionalNode) ?? ConditionalNode()
    let b: Int
    let c: Node
    switch storage {
    case .first(let v):
      b = 0
      c = SheenUI.reconcile(n.branch == b ? n.children.first : nil, v, ctx)
    case .second(let v):
      b = 1
      c = SheenUI.reconcile(n.branch == b ? n.children.first : nil, v, ctx)
    }
    n.branch = b
    n.setChild(0, c, ctx)
    return n
  }
}

extension Optional: PrimitiveView where Wrapped: View {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ConditionalNode) ?? ConditionalNode()
    if let v = self {
      n.setChild(0, SheenUI.reconcile(n.children.first, v, ctx), ctx)
    } else {
      n.truncateChildren(0, ctx)
    }
    return n
  }
}

extension Group: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? GroupNode) ?? GroupNode()
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

final class GroupNode: ListNode {}

/// The node of an `AnyView`: a new wrapped type is a new identity.
final class AnyViewNode: ListNode {
  var wrapped: ObjectIdentifier?
}

extension AnyView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? AnyViewNode) ?? AnyViewNode()
    func open<V: View>(_ v: V) -> Node {
      let t = ObjectIdentifier(V.self)
      let c = SheenUI.reconcile(n.wrapped == t ? n.children.first : nil, v, ctx)
      n.wrapped = t
      return c
    }
    n.setChild(0, open(view), ctx)
    return n
  }
}

extension _ViewModifier_Content: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node { view.reconcile(old, ctx) }
}

/// Views made from a collection, one per element, each known by its id (SwiftUI's `ForEach`).
/// In a `LazyVStack`, rows are made only as they come into view.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
  public var data: Data
  let id: (Data.Element) -> ID
  public var content: (Data.Element) -> Content

  public init(
    _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content
  ) {
    self.data = data
    self.id = { $0[keyPath: id] }
    self.content = content
  }

  public typealias Body = Never
  public var body: Never { fatalError("ForEach has no body") }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
  public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
    self.data = data
    self.id = { $0.id }
    self.content = content
  }
}

extension ForEach where Data == Range<Int>, ID == Int {
  /// One view per integer of a constant range.
  public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
    self.data = data
    self.id = { $0 }
    self.content = content
  }
}

/// A `ForEach`'s node: its rows' nodes by id, so that a row keeps its node (state, views)
/// when rows are inserted, removed or moved around it.
final class ForEachNode: ListNode {
  var byID: [AnyHashable: Node] = [:]
  /// Makes row `index`'s node (used by lazy stacks): nil when out of range.
  var makeRow: ((Int) -> Node?)?
  var rowCount = 0
  /// The rows made so far, by index, for lazy stacks.
  var lazyRows: [Int: Node] = [:]
  var isLazy = false
  /// Row `index`'s id (used by lazy stacks): nil when out of range.
  var rowID: ((Int) -> AnyHashable?)?
  /// Rows a lazy stack gave back, by id (see `ReleasedRow`).
  var releasedRows: [AnyHashable: ReleasedRow] = [:]
  /// The ids of the rows given back, by their index in the data of the last update (so that a
  /// lazy stack measuring its rows works out no id for rows that were not given back).
  private var releasedIndex: [Int: AnyHashable] = [:]
  /// Row `index`'s kind (see `rowKind`), for lazy stacks.
  var rowKindOf: ((Int) -> Int)?
  /// The kinds of the rows, worked out once for the data of the last update (see `kind(of:)`).
  private var kinds: [Int] = []

  deinit {
    for r in lazyRows.values where r.parent === self { r.parent = nil }
    for r in byID.values where r.parent === self { r.parent = nil }
  }

  /// Row `index`'s kind (see `rowKind`): the kinds are worked out once for all the rows, when
  /// first asked for after an update.
  func kind(of index: Int) -> Int {
    if kinds.count != rowCount {
      kinds.removeAll(keepingCapacity: true)
      kinds.reserveCapacity(rowCount)
      for i in 0..<rowCount { kinds.append(rowKindOf?(i) ?? 0) }
    }
    return index < kinds.count ? kinds[index] : 0
  }

  /// Forgets the rows' kinds (the data may have changed).
  func forgetKinds() { kinds.removeAll(keepingCapacity: true) }

  /// What a row given back keeps: the height it had at a width, the `@State` storage it kept
  /// that was ever set, by the path of its node in the row, and what the lazy lists inside it
  /// kept of their own rows (those made and those given back), by the path of their node.
  struct ReleasedRow {
    var width: CGFloat
    var height: CGFloat
    var states: [([Int], [AnyObject])] = []
    var lists: [([Int], [AnyHashable: ReleasedRow])] = []
  }

  /// What `row` keeps when given back at `height` for `width` (see `ReleasedRow`).
  static func keep(_ row: Node, width: CGFloat, height: CGFloat) -> ReleasedRow {
    var kept = ReleasedRow(width: width, height: height)
    // The path of the node being looked at (copied only for what is kept).
    var path: [Int] = []
    func collect(_ n: Node) {
      let states = n.keptStates
      if states.contains(where: { ($0 as? StateBox)?.wasSet == true }) { kept.states.append((path, states)) }
      if let f = n as? ForEachNode, f.isLazy {
        // A lazy list's rows are kept as it keeps them (their heights at a width unknown here).
        var rows = f.releasedRows
        for (i, r) in f.lazyRows {
          guard let key = f.rowID?(i) else { continue }
          let k = keep(r, width: .nan, height: 0)
          if !k.states.isEmpty || !k.lists.isEmpty { rows[key] = k }
        }
        if !rows.isEmpty { kept.lists.append((path, rows)) }
        return
      }
      for i in n.children.indices {
        path.append(i)
        collect(n.children[i])
        path.removeLast()
      }
    }
    collect(row)
    return kept
  }

  /// Gives made row `index` back (its nodes and views go; its height and state stay, and come
  /// back when it is made again).
  func releaseRow(_ index: Int, width: CGFloat, height: CGFloat) {
    guard let row = lazyRows[index], let key = rowID?(index) else { return }
    releasedRows[key] = Self.keep(row, width: width, height: height)
    releasedIndex[index] = key
    byID[key] = nil
    lazyRows[index] = nil
    row.parent = nil
  }

  /// The height row `index` had when given back, if at `width`.
  func releasedHeight(_ index: Int, width: CGFloat?) -> CGFloat? {
    guard !releasedRows.isEmpty, let key = releasedIndex[index], let r = releasedRows[key], r.width == width,
      r.height > 0
    else {
      return nil
    }
    return r.height
  }

  /// Finds, for new data (or rows given back merged in), the index of every row given back.
  func indexReleasedRows() {
    releasedIndex.removeAll()
    guard !releasedRows.isEmpty, let rowID else { return }
    for i in 0..<rowCount {
      if let key = rowID(i), releasedRows[key] != nil { releasedIndex[i] = key }
    }
  }

  /// A row made again takes the state it kept, outermost first (a body asked again with its
  /// state may change what is below it).
  func restore(_ row: Node, key: AnyHashable, index: Int) {
    guard let saved = releasedRows.removeValue(forKey: key) else { return }
    releasedIndex[index] = nil
    func node(_ path: [Int]) -> Node? {
      var n: Node? = row
      for i in path { n = n.flatMap { i < $0.children.count ? $0.children[i] : nil } }
      return n
    }
    for (path, states) in saved.states { node(path)?.adoptStates(states) }
    // The lazy lists inside take back what they kept, for the rows they make again.
    for (path, rows) in saved.lists {
      if let list = node(path) as? ForEachNode {
        list.releasedRows.merge(rows) { mine, _ in mine }
        list.indexReleasedRows()
      }
    }
  }

  /// A lazy list is one entry of its lazy stack, which makes its rows.
  override func collectItems(into items: inout [Node]) {
    if isLazy { items.append(self) } else { super.collectItems(into: &items) }
  }

  override func forEachItem(_ body: (Node) -> Void) {
    if isLazy { body(self) } else { super.forEachItem(body) }
  }
}

/// Lets a lazy stack find the `ForEach` in its content.
protocol LazyRows {}

extension ForEach: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ForEachNode) ?? ForEachNode()
    n.rowCount = data.count
    if ctx.environment.inLazyStack {
      // Rows are made on demand; those already made are brought up to date now.
      n.isLazy = true
      n.isLazyRowList = true
      let data = self.data
      let content = self.content
      let id = self.id
      var newByID: [AnyHashable: Node] = [:]
      var rows: [Int: Node] = [:]
      let make: (Int) -> Node? = { [unowned n] i in
        guard i >= 0, i < data.count else { return nil }
        let e = data[data.index(data.startIndex, offsetBy: i)]
        let key = AnyHashable(id(e))
        let row = SheenUI.reconcile(n.byID[key], content(e), ctx)
        row.parent = n
        n.byID[key] = row
        n.lazyRows[i] = row
        n.restore(row, key: key, index: i)
        return row
      }
      n.rowID = { i in
        guard i >= 0, i < data.count else { return nil }
        return AnyHashable(id(data[data.index(data.startIndex, offsetBy: i)]))
      }
      n.rowKindOf = { i in rowKind(content(data[data.index(data.startIndex, offsetBy: i)])) }
      n.forgetKinds()
      n.indexReleasedRows()
      for (i, old) in n.lazyRows where i < data.count {
        let e = data[data.index(data.startIndex, offsetBy: i)]
        let key = AnyHashable(id(e))
        guard n.byID[key] === old else { continue }
        let row = SheenUI.reconcile(old, content(e), ctx)
        row.parent = n
        newByID[key] = row
        rows[i] = row
      }
      if rows.count != n.lazyRows.count {
        // Rows no longer in the data leave the tree.
        for (i, old) in n.lazyRows where rows[i] !== old && old.parent === n { old.parent = nil }
        n.structureChanged(ctx)
      }
      n.byID = newByID
      n.lazyRows = rows
      n.children = rows.keys.sorted().map { rows[$0]! }
      n.makeRow = make
      return n
    }
    var newByID: [AnyHashable: Node] = [:]
    var i = 0
    for e in data {
      let key = AnyHashable(id(e))
      let row = SheenUI.reconcile(n.byID[key], content(e), ctx)
      newByID[key] = row
      n.setChild(i, row, ctx)
      i += 1
    }
    n.truncateChildren(i, ctx)
    n.byID = newByID
    return n
  }
}

/// Sets an environment value for a view and everything in it: a key path and a value, not a
/// closure (a closure capturing the value was a heap allocation for each modifier of each body
/// made).
public struct _EnvironmentModifier<Content: View, Value: Equatable>: View {
  let content: Content
  let keyPath: WritableKeyPath<EnvironmentValues, Value>
  let value: Value
  public typealias Body = Never
  public var body: Never { fatalError("_EnvironmentModifier has no body") }
}

final class EnvironmentNode: Node {}

extension _EnvironmentModifier: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? EnvironmentNode) ?? EnvironmentNode()
    var c = ctx
    c.environment[keyPath: keyPath] = value
    n.setChild(0, SheenUI.reconcile(n.children.first, content, c), c)
    return n
  }
}

extension View {
  func environment<Value: Equatable>(
    _ keyPath: WritableKeyPath<EnvironmentValues, Value>, _ value: Value
  ) -> _EnvironmentModifier<Self, Value> {
    _EnvironmentModifier(content: self, keyPath: keyPath, value: value)
  }
}

extension TupleView: LazyStackTransparent {}
extension _ConditionalContent: LazyStackTransparent {}
extension Optional: LazyStackTransparent where Wrapped: View {}
extension Group: LazyStackTransparent {}
extension ForEach: LazyStackTransparent {}

// MARK: - Row kinds

/// Views that choose one of several contents (an `if`, a `switch`, an optional): which one
/// tells rows of a lazy stack apart (see `rowKind`).
protocol BranchingView {
  func branchKind(into hasher: inout Hasher)
}

/// Adds the branches `view` takes to `hasher` when it is a `BranchingView` (checked by type: a
/// value cast to an existential is copied into a box when it is large).
func addBranchKind<V>(of view: V, into hasher: inout Hasher) {
  guard let t = V.self as? any BranchingView.Type else { return }
  func open<B: BranchingView>(_: B.Type) {
    withUnsafePointer(to: view) {
      $0.withMemoryRebound(to: B.self, capacity: 1) { $0.pointee.branchKind(into: &hasher) }
    }
  }
  open(t)
}

/// A number for the kind of a lazy row's view: its type and, through its `if`s and `switch`es,
/// the branches it takes (a section's title and a row of its cards, written in one `switch`,
/// are two kinds). A lazy stack estimates a row not made yet from made rows of its kind.
func rowKind<V: View>(_ view: V) -> Int {
  var h = Hasher()
  h.combine(ObjectIdentifier(V.self))
  addBranchKind(of: view, into: &h)
  return h.finalize()
}

extension _ConditionalContent: BranchingView {
  func branchKind(into hasher: inout Hasher) {
    switch storage {
    case .first(let v):
      hasher.combine(0)
      addBranchKind(of: v, into: &hasher)
    case .second(let v):
      hasher.combine(1)
      addBranchKind(of: v, into: &hasher)
    }
  }
}

extension Optional: BranchingView where Wrapped: View {
  func branchKind(into hasher: inout Hasher) {
    switch self {
    case .none: hasher.combine(0)
    case .some(let v):
      hasher.combine(1)
      addBranchKind(of: v, into: &hasher)
    }
  }
}

/// Views that wrap one view (modifiers): the branches of what they wrap.
protocol WrappingView: BranchingView {
  associatedtype Wrapped: View
  var content: Wrapped { get }
}

extension WrappingView {
  func branchKind(into hasher: inout Hasher) { addBranchKind(of: content, into: &hasher) }
}

extension ModifiedContent: BranchingView, WrappingView where Content: View {}
extension _AlignmentGuideView: BranchingView, WrappingView {}
extension _TapGestureView: BranchingView, WrappingView {}
extension _BackgroundLayout: BranchingView, WrappingView {}
extension _EffectView: BranchingView, WrappingView {}
extension _OffsetEffect: BranchingView, WrappingView {}
extension _IdentifiedView: BranchingView, WrappingView {}
extension _AspectRatioLayout: BranchingView, WrappingView {}
extension _PaddingLayout: BranchingView, WrappingView {}
extension _FrameLayout: BranchingView, WrappingView {}
extension _FlexFrameLayout: BranchingView, WrappingView {}
extension _FixedSizeLayout: BranchingView, WrappingView {}
extension _EnvironmentModifier: BranchingView, WrappingView {}
extension _AnimationView: BranchingView, WrappingView {}
extension _TransactionView: BranchingView, WrappingView {}

extension AnyView: BranchingView {
  func branchKind(into hasher: inout Hasher) {
    func open<W: View>(_ w: W) {
      hasher.combine(ObjectIdentifier(W.self))
      addBranchKind(of: w, into: &hasher)
    }
    open(view)
  }
}
