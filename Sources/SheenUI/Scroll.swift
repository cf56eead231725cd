import SheenKit

/// A scrolling view (SwiftUI's `ScrollView`), drawn and moved by SheenKit's `UIScrollView` (its
/// drag, fling, wheel, rubber band and keys). It takes the space offered; its content is offered
/// the scroll view's width (vertically scrolling) and its ideal height.
public struct ScrollView<Content: View>: View {
  let axes: Axis.Set
  let showsIndicators: Bool
  let content: Content

  public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content)
  {
    self.axes = axes
    self.showsIndicators = showsIndicators
    self.content = content()
  }

  public typealias Body = Never
  public var body: Never { fatalError("ScrollView has no body") }
}

/// The scroll view of a `ScrollView` node; it tells the lazy stacks in it when it scrolls.
final class HostScrollView: UIScrollView, UIScrollViewDelegate {
  weak var node: ScrollNode?

  override init(frame: CGRect) {
    super.init(frame: frame)
    delegate = self
  }
  required init?(coder: NSCoder) { return nil }

  func scrollViewDidScroll(_ scrollView: UIScrollView) { node?.didScroll() }
  func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}
  func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {}
  func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {}
}

final class ScrollNode: Node {
  let view = HostScrollView()
  var axes: Axis.Set = .vertical
  /// The lazy stacks whose rows follow this scroll view's visible rectangle (weakly: a lazy
  /// stack in a row given back goes with it).
  var lazyStacks: [WeakLazyStack] = []
  var contentRect = CGRect.zero

  override var ownView: UIView? { view }

  override init() {
    super.init()
    view.node = self
    view.backgroundColor = nil
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    let c = children.first?.sizeThatFits(contentProposal(p)) ?? .zero
    return CGSize(width: p.width ?? c.width, height: p.height ?? c.height)
  }

  func contentProposal(_ p: ProposedViewSize) -> ProposedViewSize {
    ProposedViewSize(
      width: axes.contains(.horizontal) ? nil : p.width, height: axes.contains(.vertical) ? nil : p.height)
  }

  override func placeChildren(in rect: CGRect) {
    guard let c = children.first else { return }
    let s = c.sizeThatFits(contentProposal(ProposedViewSize(rect.size)))
    // Narrower content is centred across the scrolling axis.
    let x = axes.contains(.horizontal) ? 0 : max(0, (rect.width - s.width) / 2)
    let y = axes.contains(.vertical) ? 0 : max(0, (rect.height - s.height) / 2)
    contentRect = CGRect(x: x, y: y, width: s.width, height: s.height)
    view.alwaysBounceVertical = axes.contains(.vertical)
    view.alwaysBounceHorizontal = axes.contains(.horizontal)
    c.place(in: contentRect)
    // Lazy content measures the rows it made while placed: ask again.
    let e = c.sizeThatFits(contentProposal(ProposedViewSize(rect.size)))
    let size = CGSize(width: max(e.width, rect.width), height: e.height)
    if view.contentSize != size { view.contentSize = size }
  }

  /// The part of the content shown, in the content's coordinates.
  var visibleRect: CGRect { view.bounds }

  func didScroll() {
    lazyStacks.removeAll { $0.node?.parent == nil }
    for w in lazyStacks {
      guard let l = w.node else { continue }
      if l.needsRows(in: visibleRect) {
        l.requestRows()
      } else {
        l.scrolled(to: visibleRect)
      }
    }
  }
}

struct WeakLazyStack {
  weak var node: LazyStackNode?
}

extension ScrollView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ScrollNode) ?? ScrollNode()
    if n.axes != axes {
      n.axes = axes
      n.invalidateLayout()
    }
    n.view.showsVerticalScrollIndicator = showsIndicators
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

// MARK: - Lazy stacks

/// A vertical stack whose `ForEach` rows are made only as they come into view of the scroll
/// view it is in (SwiftUI's `LazyVStack`). Rows once made keep their node, state and views.
/// Rows not made yet count with the average height of the rows made so far.
public struct LazyVStack<Content: View>: View {
  let alignment: HorizontalAlignment
  let spacing: CGFloat?
  let content: Content
  public init(
    alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
  ) {
    self.alignment = alignment
    self.spacing = spacing
    self.content = content()
  }
  public typealias Body = Never
  public var body: Never { fatalError("LazyVStack has no body") }
}

final class LazyStackNode: Node {
  /// The guide rows line up by: on the stack's own (default) guide.
  var alignment = HorizontalAlignment.center.key
  var spacing: CGFloat = Defaults.spacing
  weak var scroll: ScrollNode?
  /// The entries, top to bottom: a node, or a row of a lazy `ForEach`.
  fileprivate var entries: [(list: ForEachNode?, index: Int, node: Node?)] = []
  private var entriesValid = false
  /// The top of each entry and the end, for the last width laid out.
  fileprivate var tops: [CGFloat] = []
  private var heights: [CGFloat?] = []
  /// The heights of the made lazy rows by kind (sum, count), when they are of several kinds.
  private var kindHeights: [Int: (CGFloat, Int)] = [:]
  /// The kinds of the made lazy rows (see `rowKind`), when some rows are not made.
  private var madeKinds = Set<Int>()
  private var laidOutWidth: CGFloat?
  /// Where the stack was last placed, in the scroll content's coordinates.
  private var origin = CGPoint.zero
  private var rowsRequested = false
  /// Rows were made while measuring: they join their lists and the host's views when placed.
  private var rowsToJoin = false
  /// Where the scroll view's visible rectangle began at the last placement, and whether it
  /// moved up since the one before: rows are made ahead in that direction.
  private var lastVisibleMinY: CGFloat?
  private var scrollingUp = false
  /// A row to make in the next placement, ahead of scrolling (see `LazyRowPrefetcher`).
  fileprivate var prefetchIndex: Int?
  private lazy var prefetcher = LazyRowPrefetcher(self)
  /// How far beyond the visible rectangle rows are made.
  static let margin: CGFloat = 200
  /// How far beyond the visible rectangle, at least, rows are kept (further ones are given
  /// back: their views and layers go, their height and state stay), behind and ahead of the
  /// direction of scrolling: behind, the margin (a collection view reuses a cell once it has
  /// left); ahead, the rows made ahead (the margin and half a screen) and 200 points more, so
  /// that a row made ahead is not given back before it shows.
  static func keepReach(_ visible: CGRect) -> (behind: CGFloat, ahead: CGFloat) {
    (margin, margin + max(visible.height, 400) / 2 + 200)
  }

  /// Made lazy rows whose layout changed since the last measure (their heights are asked
  /// again; the rows keep their tops unless a height changed).
  private var changedRows: [Node] = []
  /// The indices of the entries that have a node, in order (so that placing the rows, and
  /// what a tap changes, visits the rows made, not every row of the list).
  private var madeEntries: [Int] = []

  override init() {
    super.init()
    watchesLayout = true
  }

  override func layoutInvalidated(row: Node?) {
    if let row, laidOutWidth != nil {
      if !changedRows.contains(where: { $0 === row }) { changedRows.append(row) }
    } else {
      laidOutWidth = nil
    }
  }

  /// Sets entry `i`'s node (nil: given back), keeping `madeEntries` and the row's index.
  private func setEntryNode(_ i: Int, _ node: Node?) {
    if let old = entries[i].node, old.lazyEntryIndex == i { old.lazyEntryIndex = -1 }
    entries[i].node = node
    node?.lazyEntryIndex = i
    let k = madeEntries.partitionPoint(i)
    let present = k < madeEntries.count && madeEntries[k] == i
    if node != nil && !present { madeEntries.insert(i, at: k) }
    if node == nil && present { madeEntries.remove(at: k) }
  }

  func refreshEntries() {
    guard !entriesValid else { return }
    entriesValid = true
    var items: [Node] = []
    for c in children { c.collectItems(into: &items) }
    for e in entries { if let n = e.node { n.lazyEntryIndex = -1 } }
    entries.removeAll(keepingCapacity: true)
    madeEntries.removeAll(keepingCapacity: true)
    for i in items {
      if let f = i as? ForEachNode, f.isLazy {
        for r in 0..<f.rowCount {
          let n = f.lazyRows[r]
          if let n {
            n.lazyEntryIndex = entries.count
            madeEntries.append(entries.count)
          }
          entries.append((f, r, n))
        }
      } else {
        i.lazyEntryIndex = entries.count
        madeEntries.append(entries.count)
        entries.append((nil, 0, i))
      }
    }
    graph?.lazyEntriesVisited += entries.count
    laidOutWidth = nil
  }

  /// Measures the changed rows again at the width laid out: true when none changed its height
  /// (the tops stand), false when the whole stack must be measured again.
  private func remeasureChangedRows(_ width: CGFloat?) -> Bool {
    defer { changedRows.removeAll(keepingCapacity: true) }
    for row in changedRows {
      let i = row.lazyEntryIndex
      guard i >= 0, i < entries.count, entries[i].node === row, entries[i].list != nil else { return false }
      graph?.lazyEntriesVisited += 1
      let h = row.sizeThatFits(ProposedViewSize(width: width, height: nil)).height
      if heights[i] != h { return false }
    }
    return true
  }

  /// Heights and tops of every entry for `width`, measuring the made ones.
  private func measure(_ width: CGFloat?) {
    refreshEntries()
    if laidOutWidth == width, tops.count == entries.count + 1, heights.count == entries.count {
      if changedRows.isEmpty || remeasureChangedRows(width) { return }
    }
    changedRows.removeAll(keepingCapacity: true)
    graph?.lazyEntriesVisited += entries.count
    laidOutWidth = width
    // With no lazy row measured, the first is made, wherever it is, so that the rest are
    // estimated from it: a stack that is itself below the view (a section's rows, in a list of
    // sections) is asked for its height before it has a row in range.
    if !entries.contains(where: { $0.list != nil && $0.node != nil }),
      let f = entries.firstIndex(where: { $0.list != nil }),
      entries[f].list?.releasedHeight(entries[f].index, width: width) == nil,
      let list = entries[f].list, let row = list.makeRow?(entries[f].index)
    {
      setEntryNode(f, row)
      rowsToJoin = true
    }
    heights = entries.map { e in
      if let n = e.node { return n.sizeThatFits(ProposedViewSize(width: width, height: nil)).height }
      return e.list?.releasedHeight(e.index, width: width)
    }
    // Rows not made yet are estimated from the lazy rows made (other entries are not like them):
    // from those of their kind when there are some (see `rowKind`), else from all.
    var sum: CGFloat = 0
    var count = 0
    var kinds = false
    for (e, h) in zip(entries, heights) where e.list != nil {
      if let h {
        sum += h
        count += 1
      } else {
        kinds = true
      }
    }
    let estimate = count > 0 ? sum / CGFloat(count) : 0
    kindHeights.removeAll(keepingCapacity: true)
    madeKinds.removeAll(keepingCapacity: true)
    if kinds && count > 0 {
      for (e, h) in zip(entries, heights) {
        guard let l = e.list, let h else { continue }
        let k = l.kind(of: e.index)
        let (s, c) = kindHeights[k] ?? (0, 0)
        kindHeights[k] = (s + h, c + 1)
        madeKinds.insert(k)
      }
      // One kind: the average of all.
      if kindHeights.count < 2 { kindHeights.removeAll(keepingCapacity: true) }
    }
    tops.removeAll(keepingCapacity: true)
    var y: CGFloat = 0
    for (i, h) in heights.enumerated() {
      tops.append(y)
      var e = estimate
      if h == nil, !kindHeights.isEmpty, let l = entries[i].list,
        let (s, c) = kindHeights[l.kind(of: entries[i].index)]
      {
        e = s / CGFloat(c)
      }
      y += (h ?? e) + (i + 1 < heights.count ? spacing : 0)
    }
    tops.append(y)
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    measure(p.width)
    var w: CGFloat = p.width ?? 0
    if p.width == nil {
      for e in entries {
        if let n = e.node { w = max(w, n.sizeThatFits(.unspecified).width) }
      }
    }
    return CGSize(width: w, height: tops.last ?? 0)
  }

  /// Whether rows not made yet fall in `visible` (in the scroll content's coordinates).
  func needsRows(in visible: CGRect) -> Bool {
    guard !rowsRequested, tops.count == entries.count + 1, !entries.isEmpty else { return false }
    let lo = visible.minY - origin.y - Self.margin
    let hi = visible.maxY - origin.y + Self.margin
    var i = firstEntry(atOrBelow: lo)
    while i < entries.count && tops[i] < hi {
      if entries[i].node == nil { return true }
      i += 1
    }
    return false
  }

  /// Follows the direction of scrolling.
  private func noteDirection(_ visible: CGRect) {
    if let last = lastVisibleMinY, last != visible.minY { scrollingUp = visible.minY < last }
    lastVisibleMinY = visible.minY
  }

  /// The scroll view moved without bringing rows not made into the margin: rows ahead may be
  /// made in idle time.
  func scrolled(to visible: CGRect) {
    noteDirection(visible)
    if hasIdleWork, let w = (root as? RootNode)?.hostView?.window { w.setNeedsIdleWork(prefetcher) }
  }

  /// The next row not made yet within half a screen beyond the margin, in the direction the
  /// scroll view last moved (UICollectionView prefetches as far), nearest first.
  fileprivate func nextRowToPrefetch() -> Int? {
    guard let s = scroll, tops.count == entries.count + 1, !entries.isEmpty else { return nil }
    let v = s.visibleRect
    let reach = Self.margin + v.height / 2
    if scrollingUp {
      let lo = v.minY - origin.y - reach
      var i = min(firstEntry(atOrBelow: v.minY - origin.y), entries.count - 1)
      while i >= 0 && tops[i + 1] > lo {
        if entries[i].node == nil, entries[i].list != nil { return i }
        i -= 1
      }
    } else {
      let hi = v.maxY - origin.y + reach
      var i = firstEntry(atOrBelow: v.maxY - origin.y)
      while i < entries.count && tops[i] < hi {
        if entries[i].node == nil, entries[i].list != nil { return i }
        i += 1
      }
    }
    return nil
  }

  /// The next row made but not drawn ahead (see `LazyRowPrefetcher`) that the scroll view
  /// shows only in part, cut by its edge on the side it moves to, or not yet, within the reach
  /// of `nextRowToPrefetch`.
  fileprivate func nextRowToWarm(_ warmed: Set<ObjectIdentifier>) -> Int? {
    guard let s = scroll, tops.count == entries.count + 1, !entries.isEmpty else { return nil }
    let v = s.visibleRect
    let reach = Self.margin + v.height / 2
    let lo = scrollingUp ? v.minY - origin.y - reach : v.maxY - origin.y
    let hi = scrollingUp ? v.minY - origin.y : v.maxY - origin.y + reach
    var i = firstEntry(atOrBelow: lo)
    while i < entries.count && tops[i] < hi {
      if let n = entries[i].node, entries[i].list != nil, !warmed.contains(ObjectIdentifier(n)) { return i }
      i += 1
    }
    return nil
  }

  /// Whether rows ahead of scrolling are to be made or drawn in idle time.
  fileprivate var hasIdleWork: Bool { nextRowToPrefetch() != nil || nextRowToWarm(prefetcher.warmed) != nil }

  /// The first entry whose bottom is below `y`.
  private func firstEntry(atOrBelow y: CGFloat) -> Int {
    var lo = 0
    var hi = entries.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if tops[mid + 1] <= y { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// Asks for a layout pass, which makes the rows now in view.
  func requestRows() {
    rowsRequested = true
    invalidateLayout()
    var n: Node? = self
    while let x = n {
      if let r = x as? RootNode { r.hostView?.setNeedsLayout() }
      n = x.parent
    }
  }

  override func placeChildren(in rect: CGRect) {
    rowsRequested = false
    // Find the scroll view and where this stack sits in its content.
    var o = rect.origin
    var n = parent
    var s: ScrollNode?
    while let x = n {
      if let sn = x as? ScrollNode {
        s = sn
        break
      }
      if x.ownView != nil { o.x += x.placedRect.minX; o.y += x.placedRect.minY }
      n = x.parent
    }
    if scroll !== s {
      scroll?.lazyStacks.removeAll { $0.node === self || $0.node == nil }
      s?.lazyStacks.append(WeakLazyStack(node: self))
      scroll = s
    }
    origin = o
    measure(rect.width)
    // Make the rows in view (or every row outside a scroll view).
    let visible = s?.visibleRect ?? CGRect(x: 0, y: o.y, width: rect.width, height: .infinity)
    if s != nil { noteDirection(visible) }
    let lo = visible.minY - o.y - Self.margin
    let hi = visible.maxY - o.y + Self.margin
    // Rows are made a few at a time: until one is measured, one, so that the estimate of the
    // rows not made yet is known before the range in view is.
    var made = false
    // A row asked for ahead of scrolling (idle work).
    if let p = prefetchIndex, p < entries.count, entries[p].node == nil, let list = entries[p].list,
      let row = list.makeRow?(entries[p].index)
    {
      setEntryNode(p, row)
      made = true
      laidOutWidth = nil
      measure(rect.width)
    }
    prefetchIndex = nil
    for _ in 0..<entries.count {
      var batch = false
      var i = firstEntry(atOrBelow: lo)
      let one = !madeEntries.contains { entries[$0].list != nil && heights[$0] != nil }
      while i < entries.count && tops[i] < hi {
        if entries[i].node == nil, let list = entries[i].list, let row = list.makeRow?(entries[i].index) {
          setEntryNode(i, row)
          batch = true
          // The first row of a kind not made before: the rows after it are estimated anew.
          if one || !madeKinds.contains(list.kind(of: entries[i].index)) { break }
        }
        i += 1
      }
      guard batch else { break }
      made = true
      laidOutWidth = nil
      measure(rect.width)
    }
    // In a scroll view, rows far out of view are given back (SwiftUI keeps their state, not
    // their drawing): the list holds what a screen or two show, not all it ever showed. They
    // are given back when rows are made (only then does the list grow), so that a frame that
    // brings no row into view does no work for the rows leaving it either.
    var released = false
    if s != nil, made || rowsToJoin {
      let reach = Self.keepReach(visible)
      let keepLo = visible.minY - o.y - (scrollingUp ? reach.ahead : reach.behind)
      let keepHi = visible.maxY - o.y + (scrollingUp ? reach.behind : reach.ahead)
      // Backwards: a row given back leaves `madeEntries`.
      var k = madeEntries.count - 1
      while k >= 0 {
        let i = madeEntries[k]
        k -= 1
        guard entries[i].node != nil, let list = entries[i].list, let h = heights[i],
          tops[i + 1] < keepLo || tops[i] > keepHi
        else { continue }
        list.releaseRow(entries[i].index, width: rect.width, height: h)
        setEntryNode(i, nil)
        released = true
      }
    }
    if made || released || rowsToJoin {
      rowsToJoin = false
      if made { invalidateLayout() }
      // The new rows join their lists, in order, and their views the host's.
      var lists: [ForEachNode] = []
      for e in entries {
        if let l = e.list, !lists.contains(where: { $0 === l }) { lists.append(l) }
      }
      for l in lists { l.children = l.lazyRows.keys.sorted().map { l.lazyRows[$0]! } }
      host.syncSubviews()
    }
    graph?.lazyEntriesVisited += madeEntries.count
    var k = 0
    while k < madeEntries.count {
      let i = madeEntries[k]
      k += 1
      guard let node = entries[i].node, let h = heights[i] else { continue }
      let w = node.sizeThatFits(ProposedViewSize(width: rect.width, height: nil)).width
      let x = alignment.defaultValue(rect.size) - node.alignmentValue(alignment, CGSize(width: w, height: h))
      node.place(in: CGRect(x: rect.minX + x, y: rect.minY + tops[i], width: w, height: h))
    }
    // Rows to make ahead of scrolling: in the window's idle time.
    if s != nil, let w = (root as? RootNode)?.hostView?.window, hasIdleWork {
      w.setNeedsIdleWork(prefetcher)
    }
  }

  func update<Content: View>(_ content: Content, _ ctx: UpdateContext) {
    var c = ctx
    c.environment.inLazyStack = true
    setChild(0, SheenUI.reconcile(children.first, content, c), c)
    entriesValid = false
    invalidateLayout()
  }
}

extension LazyVStack: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? LazyStackNode) ?? LazyStackNode()
    n.alignment = alignment.key
    n.spacing = spacing ?? Defaults.spacing
    n.update(content, ctx)
    return n
  }
}

/// Makes a lazy stack's rows ahead of scrolling in the window's idle time, as UICollectionView
/// prefetches cells: one piece makes the next row (its body, layout, views), then each of its
/// top views is laid out and drawn once where it will show, into the renderer's caches (text
/// and shapes as coverage, glyphs, images, shadows), a piece each. A frame then shows the row
/// with nothing left to make, shape or rasterize.
final class LazyRowPrefetcher: UIIdleWorking {
  weak var stack: LazyStackNode?
  private var toWarm: [UIView] = []
  /// The rows drawn ahead (made ahead, or made in a frame that showed them cut by the edge).
  var warmed = Set<ObjectIdentifier>()

  init(_ stack: LazyStackNode) { self.stack = stack }

  func performIdleWork(in window: UIWindow, until deadline: Double) -> Bool {
    guard let stack, let host = (stack.root as? RootNode)?.hostView, host.window === window else {
      toWarm.removeAll()
      return false
    }
    if !toWarm.isEmpty {
      let v = toWarm.removeFirst()
      if v.window === window {
        v.layoutIfNeeded()
        window.warmRendererCaches(for: v)
      }
      return true
    }
    if warmed.count > 4096 { warmed.removeAll() }
    if let i = stack.nextRowToWarm(warmed), let row = stack.entries[i].node {
      // A row made in a frame, shown cut by the edge: the rest of it is drawn ahead.
      warmed.insert(ObjectIdentifier(row))
      row.collectViews(into: &toWarm)
      return true
    }
    guard let i = stack.nextRowToPrefetch() else { return false }
    stack.prefetchIndex = i
    stack.requestRows()
    host.layoutIfNeeded()
    stack.prefetchIndex = nil
    if i < stack.entries.count, let row = stack.entries[i].node {
      warmed.insert(ObjectIdentifier(row))
      row.collectViews(into: &toWarm)
    }
    return true
  }
}

// MARK: - Geometry

/// The size a `GeometryReader` was given (SwiftUI's `GeometryProxy`).
public struct GeometryProxy {
  public let size: CGSize
}

/// A view that takes all the space offered and builds its content for that size (SwiftUI's
/// `GeometryReader`); the content is placed at the top leading corner.
public struct GeometryReader<Content: View>: View {
  let content: (GeometryProxy) -> Content
  public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }
  public typealias Body = Never
  public var body: Never { fatalError("GeometryReader has no body") }
}

final class GeometryNode<Content: View>: Node {
  /// The reader's content, built for the size it is placed at (kept in the node: no closure made
  /// at each update).
  var content: ((GeometryProxy) -> Content)?
  var context: UpdateContext?
  var builtSize: CGSize?

  override func computeSize(_ p: ProposedViewSize) -> CGSize { p.replacingUnspecifiedDimensions() }

  override func placeChildren(in rect: CGRect) {
    if builtSize != rect.size, let ctx = context {
      builtSize = rect.size
      build(rect.size, ctx)
      ctx.graph.syncPending()
    }
    guard let c = children.first else { return }
    let s = c.sizeThatFits(ProposedViewSize(rect.size))
    c.place(in: CGRect(origin: rect.origin, size: s))
  }

  /// Builds the content for `size`.
  func build(_ size: CGSize, _ ctx: UpdateContext) {
    guard let content else { return }
    setChild(0, SheenUI.reconcile(children.first, content(GeometryProxy(size: size)), ctx), ctx)
  }
}

extension GeometryReader: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? GeometryNode<Content>) ?? GeometryNode<Content>()
    n.content = content
    n.context = ctx
    if let s = n.builtSize { n.build(s, ctx) }
    return n
  }
}

// MARK: - Implicit animation

public struct _AnimationView<Content: View, Value: Equatable>: View {
  let content: Content
  let animation: Animation?
  /// nil: the deprecated `.animation(_:)`, which animates every change in the view.
  let value: Value?
  public typealias Body = Never
  public var body: Never { fatalError("_AnimationView has no body") }
}

/// A node that changes the transaction of its part of the tree: the changes made there are
/// placed inside their own animation block (or with none), and the rest of the tree is not.
class TransactionScopeNode: Node {
  /// The transaction this part of the tree is placed with in an update made in `outer`, or nil
  /// to keep `outer`.
  func scopedTransaction(_ outer: Transaction) -> Transaction? { nil }

  override func placeNode(in rect: CGRect) {
    guard let g = graph, g.isUpdating, let t = scopedTransaction(g.transaction) else {
      return super.placeNode(in: rect)
    }
    let outer = g.transaction
    g.transaction = t
    defer { g.transaction = outer }
    if let a = t.animation, !t.disablesAnimations {
      a.run { super.placeNode(in: rect) }
    } else {
      UIView.performWithoutAnimation { super.placeNode(in: rect) }
    }
  }
}

final class AnimationNode<Value: Equatable>: TransactionScopeNode {
  var value: Value?
  var animation: Animation?
  /// Whether the value changed in the update being made.
  var changed = false

  /// Whether this is the form without a value, which animates every change below it.
  var always = false

  override func scopedTransaction(_ outer: Transaction) -> Transaction? {
    guard changed || always else { return nil }
    changed = false
    var t = outer
    if !t.disablesAnimations { t.animation = animation }
    return t
  }
}

extension _AnimationView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let existing = old as? AnimationNode<Value>
    let n = existing ?? AnimationNode<Value>()
    n.graph = ctx.graph
    n.animation = animation
    // SwiftUI's rule: only a change of the value (any change, for the form without one) gives
    // this part of the tree the animation, in the update it changed in.
    n.always = value == nil
    n.changed = existing != nil && n.value != value
    n.value = value
    // The changes below are placed in this node's animation: it is placed (and forgets the
    // change) in this update.
    if n.changed { n.setNeedsPlacement() }
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

public struct _TransactionView<Content: View>: View {
  let content: Content
  let transform: (inout Transaction) -> Void
  public typealias Body = Never
  public var body: Never { fatalError("_TransactionView has no body") }
}

final class TransactionNode: TransactionScopeNode {
  var transform: (inout Transaction) -> Void = { _ in }

  override func scopedTransaction(_ outer: Transaction) -> Transaction? {
    var t = outer
    transform(&t)
    return t
  }
}

extension _TransactionView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? TransactionNode) ?? TransactionNode()
    n.graph = ctx.graph
    n.transform = transform
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// Animates the changes made to this view (and what it contains) with `animation` in an
  /// update where `value` changed (SwiftUI's `animation(_:value:)`): only this part of the tree,
  /// and only then; nil places them without animation even inside `withAnimation`. Changes
  /// elsewhere (a sibling moved by this view's new size) keep the update's own transaction.
  public func animation<V: Equatable>(_ animation: Animation?, value: V) -> _AnimationView<Self, V> {
    _AnimationView(content: self, animation: animation, value: value)
  }

  /// Animates every change made to this view in any update (the form iOS 15 deprecated).
  public func animation(_ animation: Animation?) -> _AnimationView<Self, Bool> {
    _AnimationView(content: self, animation: animation, value: nil)
  }

  /// Changes the transaction this view's changes are made in (SwiftUI's `transaction(_:)`):
  /// `$0.animation = nil` or `$0.disablesAnimations = true` keeps them still.
  public func transaction(_ transform: @escaping (inout Transaction) -> Void) -> _TransactionView<Self> {
    _TransactionView(content: self, transform: transform)
  }
}

extension Array where Element == Int {
  /// The first index whose element is not below `value` (the array sorted).
  func partitionPoint(_ value: Int) -> Int {
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo + hi) / 2
      if self[mid] < value { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }
}
