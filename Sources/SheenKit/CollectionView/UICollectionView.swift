import Foundation

/// What a collection view shows (UIKit's `UICollectionViewDataSource`).
public protocol UICollectionViewDataSource: AnyObject {
  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int
  /// A cell from `dequeueReusableCell(withReuseIdentifier:for:)`, configured for the item.
  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
    -> UICollectionViewCell
  /// 1 by default.
  func numberOfSections(in collectionView: UICollectionView) -> Int
  /// A view from `dequeueReusableSupplementaryView(ofKind:withReuseIdentifier:for:)`.
  func collectionView(
    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
    at indexPath: IndexPath
  ) -> UICollectionReusableView
}

extension UICollectionViewDataSource {
  public func numberOfSections(in collectionView: UICollectionView) -> Int { 1 }
  /// Not implemented: reported once, and an empty view is shown.
  public func collectionView(
    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
    at indexPath: IndexPath
  ) -> UICollectionReusableView {
    collectionView.missingSupplementaryView(kind)
  }
}

/// What a collection view tells about selection and display (UIKit's
/// `UICollectionViewDelegate`); every method has an empty default.
public protocol UICollectionViewDelegate: UIScrollViewDelegate {
  func collectionView(_ collectionView: UICollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool
  func collectionView(_ collectionView: UICollectionView, didHighlightItemAt indexPath: IndexPath)
  func collectionView(_ collectionView: UICollectionView, didUnhighlightItemAt indexPath: IndexPath)
  func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool
  func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath)
  func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath)
  func collectionView(
    _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
  )
  func collectionView(
    _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell,
    forItemAt indexPath: IndexPath)
  func collectionView(
    _ collectionView: UICollectionView, willDisplaySupplementaryView view: UICollectionReusableView,
    forElementKind elementKind: String, at indexPath: IndexPath)
}

extension UICollectionViewDelegate {
  public func collectionView(_ collectionView: UICollectionView, shouldHighlightItemAt indexPath: IndexPath)
    -> Bool
  {
    true
  }
  public func collectionView(_ collectionView: UICollectionView, didHighlightItemAt indexPath: IndexPath) {}
  public func collectionView(_ collectionView: UICollectionView, didUnhighlightItemAt indexPath: IndexPath) {}
  public func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath)
    -> Bool
  {
    true
  }
  public func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {}
  public func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {}
  public func collectionView(
    _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
  ) {}
  public func collectionView(
    _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell,
    forItemAt indexPath: IndexPath
  ) {}
  public func collectionView(
    _ collectionView: UICollectionView, willDisplaySupplementaryView view: UICollectionReusableView,
    forElementKind elementKind: String, at indexPath: IndexPath
  ) {}
}

/// Told about items that will show soon, to start their work early (UIKit's
/// `UICollectionViewDataSourcePrefetching`): the items of the next screenful in the direction of
/// scrolling.
public protocol UICollectionViewDataSourcePrefetching: AnyObject {
  func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath])
  func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath])
}

extension UICollectionViewDataSourcePrefetching {
  public func collectionView(
    _ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]
  ) {}
}

/// A scrolling view of items placed by a layout, with cells reused as they scroll in and out
/// (UIKit's `UICollectionView`).
///
/// Each layout pass asks the layout for the elements in the visible bounds only (the flow layout
/// answers by arithmetic), hands the data source an item's cell when it comes into view, and
/// puts cells that left into a queue per reuse identifier; `dequeueReusableCell` takes from that
/// queue (calling `prepareForReuse`) before it makes a new cell of the registered class. Queued
/// cells stay in the view, hidden.
///
/// Mistakes are reported with UIKit's wording and do not crash: a cell the data source made
/// itself is shown but not reused; an unregistered identifier gets a plain cell; an index path
/// out of range is refused.
///
/// With `isPrefetchingEnabled` (the default), as UIKit does, cells are also made ahead of
/// scrolling: when the window has time between frames (`UIWindow.performIdleWork`), the items of
/// the next half screen in the direction of scrolling get their cells from the data source
/// (`cellForItemAt`), laid out, drawn (`draw(_:)`) and drawn once more into the renderer's caches
/// where they will show, so that a row coming into view costs a frame no more than one already
/// on screen. Such a cell is not among `visibleCells` until it shows (`willDisplay` is told
/// then); one left behind by a change of direction goes back to the reuse queue. Hosts that
/// never call `performIdleWork` make every cell as it comes into view.
///
/// Unlike UIKit: no animated batch updates (insertions, deletions and moves reload), no drag and
/// drop, no decoration views, and prefetching is not cancelled on direction changes.
open class UICollectionView: UIScrollView, UIIdleWorking {
  public weak var dataSource: UICollectionViewDataSource? {
    didSet { reloadData() }
  }
  public weak var prefetchDataSource: UICollectionViewDataSourcePrefetching?
  open var isPrefetchingEnabled = true
  open var allowsSelection = true
  open var allowsMultipleSelection = false
  /// Behind the cells, filling the view (it does not scroll).
  open var backgroundView: UIView? {
    didSet {
      if oldValue !== backgroundView { oldValue?.removeFromSuperview() }
      if let v = backgroundView {
        layer.sheenLayer.insertSublayer(v.layer.sheenLayer, at: 0)
        v.frame = CGRect(origin: .zero, size: bounds.size)
      }
    }
  }

  open var collectionViewLayout: UICollectionViewLayout {
    didSet {
      oldValue.collectionView = nil
      collectionViewLayout.collectionView = self
      layoutDidInvalidate()
    }
  }

  private struct SupplementaryKey: Hashable {
    var kind: String
    var key: ItemKey
  }

  private struct RegistrationKey: Hashable {
    var kind: String
    var identifier: String
  }

  private static let cellKind = "UICollectionElementKindCell"

  private var registrations: [RegistrationKey: UICollectionReusableView.Type] = [:]
  private var queues: [RegistrationKey: ReuseQueue] = [:]

  /// Views waiting for reuse under one registration: a class, so that taking a view out or
  /// putting one back changes its array in place (a dictionary's value changed through its
  /// subscript went through modify accessors whose frames were allocated, three times per cell).
  private final class ReuseQueue {
    var views: [UICollectionReusableView] = []
  }
  private var visible: [ItemKey: UICollectionViewCell] = [:]
  private var visibleSupplementary: [SupplementaryKey: UICollectionReusableView] = [:]
  private var leaving: [ItemKey] = []
  private var leavingSupplementary: [SupplementaryKey] = []
  private var selected: Set<ItemKey> = []
  private var highlighted: ItemKey?
  private var pass = 0
  private var needsReload = true
  private var layoutIsValid = false
  private var counts: [Int] = []
  /// Set while the data source makes a view: what it dequeued.
  private var dequeuedInRequest: UICollectionReusableView?
  private var reported: Set<String> = []
  /// What prefetching was last told, as a range of main-axis offsets.
  private var prefetchedRange: ClosedRange<CGFloat>?
  /// Items the prefetch data source was told about.
  private var prefetched: Set<ItemKey> = []
  /// Cells made ahead of scrolling in idle time, by item, until they show.
  private var preparedCells: [ItemKey: UICollectionViewCell] = [:]
  /// Headers and footers made ahead, likewise.
  private var preparedSupplementary: [SupplementaryKey: UICollectionReusableView] = [:]
  /// Elements whose views are to be made ahead, nearest first.
  private var toPrepare: [LayoutElement] = []
  /// Views made ahead (or shown cut by the edge before they could be), not yet drawn into the
  /// renderer's caches.
  private var toWarm: [UIView] = []
  /// Prepared views that fell out of reach (reused storage).
  private var unprepared: [ItemKey] = []
  private var unpreparedSupplementary: [SupplementaryKey] = []
  /// The main-axis offset at the last layout, and whether scrolling goes forward (down or right).
  private var lastOffset: CGFloat = 0
  private var scrollsForward = true

  public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
    collectionViewLayout = layout
    super.init(frame: frame)
    layout.collectionView = self
    alwaysBounceVertical = true
  }

  public required init?(coder: NSCoder) { return nil }

  // MARK: Registration and reuse

  /// Cells for `identifier` are made from `cellClass` (a `UICollectionViewCell` subclass)
  /// through its `init(frame:)`.
  open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
    let key = RegistrationKey(kind: UICollectionView.cellKind, identifier: identifier)
    registrations[key] = cellClass as? UICollectionViewCell.Type
  }

  open func register(
    _ viewClass: AnyClass?, forSupplementaryViewOfKind elementKind: String,
    withReuseIdentifier identifier: String
  ) {
    registrations[RegistrationKey(kind: elementKind, identifier: identifier)] =
      viewClass as? UICollectionReusableView.Type
  }

  /// A queued cell for `identifier` (after `prepareForReuse`), or a new one.
  open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath)
    -> UICollectionViewCell
  {
    let key = RegistrationKey(kind: UICollectionView.cellKind, identifier: identifier)
    let view = dequeue(key, indexPath)
    if let cell = view as? UICollectionViewCell { return cell }
    report(
      "could not dequeue a view of kind: \(UICollectionView.cellKind) with identifier \(identifier) - must "
        + "register a nib or a class for the identifier or connect a prototype cell in a storyboard")
    let cell = UICollectionViewCell(frame: .zero)
    cell.reuseIdentifier = identifier
    cell.wasDequeued = true
    addSubview(cell)
    dequeuedInRequest = cell
    return cell
  }

  open func dequeueReusableSupplementaryView(
    ofKind elementKind: String, withReuseIdentifier identifier: String, for indexPath: IndexPath
  ) -> UICollectionReusableView {
    let key = RegistrationKey(kind: elementKind, identifier: identifier)
    if let view = dequeue(key, indexPath) { return view }
    report(
      "could not dequeue a view of kind: \(elementKind) with identifier \(identifier) - must register a nib or "
        + "a class for the identifier or connect a prototype cell in a storyboard")
    let view = UICollectionReusableView(frame: .zero)
    view.reuseIdentifier = identifier
    view.wasDequeued = true
    addSubview(view)
    dequeuedInRequest = view
    return view
  }

  private func dequeue(_ key: RegistrationKey, _ indexPath: IndexPath) -> UICollectionReusableView? {
    // The view that last showed this item, if it waits in the queue (scrolling back shows it
    // again as it was), else the one queued last.
    let item = ItemKey(indexPath)
    let queue = queues[key]
    if let q = queue, let i = q.views.lastIndex(where: { $0.lastItem == item }) {
      let view = q.views.remove(at: i)
      view.isHidden = false
      view.prepareForReuse()
      dequeuedInRequest = view
      return view
    }
    if let view = queue?.views.popLast() {
      view.isHidden = false
      view.prepareForReuse()
      dequeuedInRequest = view
      return view
    }
    guard let cls = registrations[key] else { return nil }
    let view = cls.init(dequeuedWithFrame: .zero)
    view.reuseIdentifier = key.identifier
    view.wasDequeued = true
    // Cells go below headers and footers, as UIKit orders them.
    if view is UICollectionViewCell,
      let firstSupplementary = subviews.first(where: {
        !($0 is UICollectionViewCell) && $0 is UICollectionReusableView
      })
    {
      insertSubview(view, belowSubview: firstSupplementary)
    } else {
      addSubview(view)
    }
    dequeuedInRequest = view
    return view
  }

  private func enqueue(_ view: UICollectionReusableView, kind: String) {
    guard view.wasDequeued, let id = view.reuseIdentifier else {
      view.removeFromSuperview()
      return
    }
    view.isHidden = true
    let key = RegistrationKey(kind: kind, identifier: id)
    if let q = queues[key] {
      q.views.append(view)
    } else {
      let q = ReuseQueue()
      q.views.append(view)
      queues[key] = q
    }
  }

  // MARK: Data

  open var numberOfSections: Int {
    if needsReload { reloadCounts() }
    return counts.count
  }

  open func numberOfItems(inSection section: Int) -> Int {
    if needsReload { reloadCounts() }
    return counts.indices.contains(section) ? counts[section] : 0
  }

  private func reloadCounts() {
    needsReload = false
    guard let ds = dataSource else {
      counts = []
      return
    }
    let n = ds.numberOfSections(in: self)
    if n < 0 { report("invalid number of sections (\(n)): a collection view needs zero or more") }
    counts = (0..<max(0, n)).map { s in
      let c = ds.collectionView(self, numberOfItemsInSection: s)
      if c < 0 { report("invalid number of items in section \(s) (\(c)): a section needs zero or more") }
      return max(0, c)
    }
  }

  /// Asks the data source again for everything, at the next layout.
  open func reloadData() {
    needsReload = true
    (collectionViewLayout as? UICollectionViewFlowLayout)?.forgetMeasuredSizes()
    for (key, cell) in visible {
      enqueue(cell, kind: UICollectionView.cellKind)
      _ = key
    }
    visible.removeAll(keepingCapacity: true)
    for (key, view) in visibleSupplementary { enqueue(view, kind: key.kind) }
    visibleSupplementary.removeAll(keepingCapacity: true)
    selected.removeAll()
    prefetchedRange = nil
    prefetched.removeAll()
    dropPreparedCells(all: true)
    layoutDidInvalidate()
  }

  /// Reconfigures the items' visible cells (a reload).
  open func reloadItems(at indexPaths: [IndexPath]) {
    for p in indexPaths {
      let key = ItemKey(p)
      if let cell = visible.removeValue(forKey: key) { enqueue(cell, kind: UICollectionView.cellKind) }
      if let cell = preparedCells.removeValue(forKey: key) { enqueue(cell, kind: UICollectionView.cellKind) }
    }
    setNeedsLayout()
  }

  open func reloadSections(_ sections: IndexSet) { reloadData() }
  open func insertItems(at indexPaths: [IndexPath]) { reloadData() }
  open func deleteItems(at indexPaths: [IndexPath]) { reloadData() }
  open func insertSections(_ sections: IndexSet) { reloadData() }
  open func deleteSections(_ sections: IndexSet) { reloadData() }

  /// Runs `updates` (insertions and deletions reload), then `completion`.
  open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
    updates?()
    reloadData()
    layoutIfNeeded()
    completion?(true)
  }

  func layoutDidInvalidate() {
    layoutIsValid = false
    setNeedsLayout()
  }

  // MARK: Layout

  open override var bounds: CGRect {
    get { super.bounds }
    set {
      if newValue.size != super.bounds.size
        && collectionViewLayout.shouldInvalidateLayout(forBoundsChange: newValue)
      {
        layoutIsValid = false
      }
      super.bounds = newValue
    }
  }

  override func boundsOriginDidChange() {
    super.boundsOriginDidChange()
    setNeedsLayout()
  }

  open override func layoutSubviews() {
    super.layoutSubviews()
    if needsReload { reloadCounts() }
    if !layoutIsValid {
      layoutIsValid = true
      collectionViewLayout.prepare()
      contentSize = collectionViewLayout.collectionViewContentSize
    }
    backgroundView?.frame = CGRect(origin: .zero, size: bounds.size)
    // Self-sized items move what follows them: a few passes settle it.
    for _ in 0..<4 {
      if !updateVisibleElements() { break }
      contentSize = collectionViewLayout.collectionViewContentSize
    }
    prefetchIfNeeded()
    planCellsAhead()
  }

  /// Brings the visible cells and supplementary views up to date; true if self-sizing moved
  /// something (another pass is due).
  private func updateVisibleElements() -> Bool {
    pass &+= 1
    let pass = self.pass
    let rect = bounds
    let layout = collectionViewLayout
    // First what stays (and where), then what left goes to the queues, then what came is
    // dequeued: a cell that scrolled out is the one reused for a cell that scrolled in.
    layout.forEachElement(in: rect) { e in
      switch e.category {
      case .cell:
        if let cell = visible[e.key] {
          cell.shownInPass = pass
          place(cell, e)
        }
      case .supplementaryView:
        guard let kind = e.kind, let view = visibleSupplementary[SupplementaryKey(kind: kind, key: e.key)]
        else {
          return
        }
        view.shownInPass = pass
        place(view, e)
      case .decorationView:
        break
      }
    }
    for (key, cell) in visible where cell.shownInPass != pass { leaving.append(key) }
    for key in leaving {
      guard let cell = visible.removeValue(forKey: key) else { continue }
      if highlighted == key { unhighlight() }
      (delegate as? UICollectionViewDelegate)?.collectionView(
        self, didEndDisplaying: cell, forItemAt: key.indexPath)
      enqueue(cell, kind: UICollectionView.cellKind)
    }
    leaving.removeAll(keepingCapacity: true)
    for (key, view) in visibleSupplementary where view.shownInPass != pass {
      leavingSupplementary.append(key)
    }
    for key in leavingSupplementary {
      if let view = visibleSupplementary.removeValue(forKey: key) { enqueue(view, kind: key.kind) }
    }
    leavingSupplementary.removeAll(keepingCapacity: true)

    var resized = false
    layout.forEachElement(in: rect) { e in
      switch e.category {
      case .cell:
        guard visible[e.key] == nil, counts.indices.contains(e.key.section), e.key.item >= 0,
          e.key.item < counts[e.key.section]
        else { return }
        let cell: UICollectionViewCell
        if let prepared = takePreparedCell(e.key) {
          cell = prepared
        } else if let made = makeCell(e.key) {
          cell = made
          // Cut by the edge: the rest of it is drawn ahead too, when there is time.
          // (A host that gives no idle time leaves at most a few waiting.)
          if !rect.contains(e.frame) && isPrefetchingEnabled && toWarm.count < 16 { toWarm.append(made) }
        } else {
          return
        }
        cell.shownInPass = pass
        visible[e.key] = cell
        place(cell, e)
        if layout.wantsPreferredAttributes {
          let attributes = UICollectionViewLayoutAttributes(forCellWith: e.key.indexPath)
          attributes.frame = e.frame
          cell.layoutIfNeeded()
          let preferred = cell.preferredLayoutAttributesFitting(attributes)
          if layout.itemDidSelfSize(e.key, preferred.size) { resized = true }
        }
        (delegate as? UICollectionViewDelegate)?.collectionView(
          self, willDisplay: cell, forItemAt: e.key.indexPath)
      case .supplementaryView:
        guard let kind = e.kind else { return }
        let key = SupplementaryKey(kind: kind, key: e.key)
        guard visibleSupplementary[key] == nil,
          let view = preparedSupplementary.removeValue(forKey: key) ?? makeSupplementary(kind, e.key)
        else { return }
        view.shownInPass = pass
        visibleSupplementary[key] = view
        place(view, e)
        (delegate as? UICollectionViewDelegate)?.collectionView(
          self, willDisplaySupplementaryView: view, forElementKind: kind, at: e.key.indexPath)
      case .decorationView:
        break
      }
    }
    return resized
  }

  private func place(_ view: UICollectionReusableView, _ e: LayoutElement) {
    if view.frame != e.frame { view.frame = e.frame }
    if view.isHidden != e.isHidden { view.isHidden = e.isHidden }
    if view.alpha != e.alpha { view.alpha = e.alpha }
  }

  private func makeCell(_ key: ItemKey) -> UICollectionViewCell? {
    guard let ds = dataSource else { return nil }
    dequeuedInRequest = nil
    let cell = ds.collectionView(self, cellForItemAt: key.indexPath)
    defer { dequeuedInRequest = nil }
    // A cell already showing another item (kept and returned again instead of dequeued): told,
    // and left where it is.
    if cell !== dequeuedInRequest, cell.superview === self, !cell.isHidden,
      visible.contains(where: { $0.value === cell })
    {
      report(
        "the cell returned from -collectionView:cellForItemAtIndexPath: already shows another item - cells "
          + "must be retrieved by calling -dequeueReusableCellWithReuseIdentifier:forIndexPath: for each item"
      )
      return nil
    }
    cell.lastItem = key
    if cell !== dequeuedInRequest && !cell.wasDequeued {
      report(
        "the cell returned from -collectionView:cellForItemAtIndexPath: does not have a reuseIdentifier - cells "
          + "must be retrieved by calling -dequeueReusableCellWithReuseIdentifier:forIndexPath:")
      if cell.superview !== self { addSubview(cell) }
      cell.isHidden = false
    }
    cell.isSelected = selected.contains(key)
    cell.isHighlighted = false
    return cell
  }

  private func makeSupplementary(_ kind: String, _ key: ItemKey) -> UICollectionReusableView? {
    guard let ds = dataSource else { return nil }
    dequeuedInRequest = nil
    let view = ds.collectionView(self, viewForSupplementaryElementOfKind: kind, at: key.indexPath)
    defer { dequeuedInRequest = nil }
    view.lastItem = key
    if view !== dequeuedInRequest && !view.wasDequeued {
      report(
        "the view returned from -collectionView:viewForSupplementaryElementOfKind:atIndexPath: does not have a "
          + "reuseIdentifier - views must be retrieved by calling "
          + "-dequeueReusableSupplementaryViewOfKind:withReuseIdentifier:forIndexPath:")
      if view.superview !== self { addSubview(view) }
      view.isHidden = false
    }
    return view
  }

  func missingSupplementaryView(_ kind: String) -> UICollectionReusableView {
    report(
      "the data source has no -collectionView:viewForSupplementaryElementOfKind:atIndexPath: for a view of kind "
        + "\(kind) that the layout shows")
    let v = UICollectionReusableView(frame: .zero)
    v.wasDequeued = true
    v.reuseIdentifier = "SheenMissingSupplementaryView"
    addSubview(v)
    return v
  }

  /// Reports a mistake once per collection view (a layout pass would repeat it every frame).
  func report(_ message: String) {
    guard !reported.contains(message) else { return }
    reported.insert(message)
    FileHandle.standardError.write(Data("[UICollectionView] \(message)\n".utf8))
    UICollectionView.reports.withLock { $0 += 1 }
  }

  /// How many mistakes were reported (for tests).
  static let reports = NSLockedCounter()

  // MARK: Prefetching

  /// Tells the prefetch data source about the items of the next screenful ahead (both ways
  /// when still), once per range.
  private func prefetchIfNeeded() {
    guard isPrefetchingEnabled, let prefetch = prefetchDataSource else { return }
    let vertical = (collectionViewLayout as? UICollectionViewFlowLayout)?.scrollDirection != .horizontal
    let length = vertical ? bounds.height : bounds.width
    let a = vertical ? bounds.minY : bounds.minX
    let range = (a - length)...(a + 2 * length)
    if let p = prefetchedRange, p.contains(range.lowerBound + length / 2),
      p.contains(range.upperBound - length / 2)
    {
      return
    }
    prefetchedRange = range
    let ahead =
      vertical
      ? CGRect(
        x: bounds.minX, y: range.lowerBound, width: bounds.width, height: range.upperBound - range.lowerBound)
      : CGRect(
        x: range.lowerBound, y: bounds.minY, width: range.upperBound - range.lowerBound, height: bounds.height
      )
    // Each item once (until the list of those told grows large): scrolling back and forth over
    // the same rows asks for nothing again.
    var fresh = 0
    collectionViewLayout.forEachElement(in: ahead) { e in
      if e.category == .cell && visible[e.key] == nil && !prefetched.contains(e.key) { fresh += 1 }
    }
    guard fresh > 0 else { return }
    if prefetched.count > 4096 { prefetched.removeAll(keepingCapacity: true) }
    var paths: [IndexPath] = []
    paths.reserveCapacity(fresh)
    collectionViewLayout.forEachElement(in: ahead) { e in
      if e.category == .cell && visible[e.key] == nil && prefetched.insert(e.key).inserted {
        paths.append(e.key.indexPath)
      }
    }
    if !paths.isEmpty { prefetch.collectionView(self, prefetchItemsAt: paths) }
  }

  // MARK: Cells made ahead of scrolling

  /// Lists the items of the next half screen in the direction of scrolling that have no cell
  /// yet, and asks the window for idle time to make them; prepared cells out of reach go back
  /// to the queue.
  private func planCellsAhead() {
    toPrepare.removeAll(keepingCapacity: true)
    guard isPrefetchingEnabled, !collectionViewLayout.wantsPreferredAttributes, let window
    else {
      dropPreparedCells(all: true)
      return
    }
    let vertical = (collectionViewLayout as? UICollectionViewFlowLayout)?.scrollDirection != .horizontal
    let length = vertical ? bounds.height : bounds.width
    let a = vertical ? bounds.minY : bounds.minX
    if a != lastOffset {
      scrollsForward = a > lastOffset
      lastOffset = a
    }
    guard length > 0 else { return }
    dropPreparedCells(all: false)
    let reach = length / 2
    let start = scrollsForward ? a + length : a - reach
    let ahead =
      vertical
      ? CGRect(x: bounds.minX, y: start, width: bounds.width, height: reach)
      : CGRect(x: start, y: bounds.minY, width: reach, height: bounds.height)
    collectionViewLayout.forEachElement(in: ahead) { e in
      switch e.category {
      case .cell:
        if visible[e.key] == nil && preparedCells[e.key] == nil && counts.indices.contains(e.key.section)
          && e.key.item >= 0 && e.key.item < counts[e.key.section]
        {
          toPrepare.append(e)
        }
      case .supplementaryView:
        if let kind = e.kind, visibleSupplementary[SupplementaryKey(kind: kind, key: e.key)] == nil,
          preparedSupplementary[SupplementaryKey(kind: kind, key: e.key)] == nil
        {
          toPrepare.append(e)
        }
      case .decorationView:
        break
      }
    }
    // Nearest first.
    if !scrollsForward { toPrepare.reverse() }
    if !toPrepare.isEmpty || !toWarm.isEmpty { window.setNeedsIdleWork(self) }
  }

  /// Sends prepared cells back to the reuse queue: all of them, or those out of reach (more than
  /// a screen before or two past the visible bounds).
  private func dropPreparedCells(all: Bool) {
    if all { toWarm.removeAll(keepingCapacity: true) }
    guard !preparedCells.isEmpty || !preparedSupplementary.isEmpty else { return }
    let vertical = (collectionViewLayout as? UICollectionViewFlowLayout)?.scrollDirection != .horizontal
    let length = vertical ? bounds.height : bounds.width
    let a = vertical ? bounds.minY : bounds.minX
    func outOfReach(_ v: UIView) -> Bool {
      let p = vertical ? v.frame.minY : v.frame.minX
      return all || p < a - length || p > a + 2 * length
    }
    for (key, cell) in preparedCells where outOfReach(cell) { unprepared.append(key) }
    for (key, view) in preparedSupplementary where outOfReach(view) { unpreparedSupplementary.append(key) }
    guard !unprepared.isEmpty || !unpreparedSupplementary.isEmpty else { return }
    for key in unprepared {
      if let cell = preparedCells.removeValue(forKey: key) { enqueue(cell, kind: UICollectionView.cellKind) }
    }
    for key in unpreparedSupplementary {
      if let view = preparedSupplementary.removeValue(forKey: key) { enqueue(view, kind: key.kind) }
    }
    toWarm.removeAll { !$0.isDescendant(of: self) || $0.isHidden }
    unprepared.removeAll(keepingCapacity: true)
    unpreparedSupplementary.removeAll(keepingCapacity: true)
  }

  /// The cell made ahead for `key`, if there is one, now shown.
  private func takePreparedCell(_ key: ItemKey) -> UICollectionViewCell? {
    guard let cell = preparedCells.removeValue(forKey: key) else { return nil }
    cell.isSelected = selected.contains(key)
    cell.isHighlighted = false
    return cell
  }

  /// One piece of the work ahead of scrolling: draws a cell made ahead (its views' `draw(_:)`,
  /// then once into the renderer's caches, where it will show), or makes the next one (the data
  /// source configures it; it is placed and laid out).
  public func performIdleWork(in window: UIWindow, until deadline: Double) -> Bool {
    guard self.window === window, isPrefetchingEnabled else {
      dropPreparedCells(all: true)
      return false
    }
    if !toWarm.isEmpty {
      let view = toWarm.removeFirst()
      if view.superview === self && !view.isHidden {
        view.layer.displayTree(scale: window.scale)
        window.warmRendererCaches(for: view)
      }
      return !toWarm.isEmpty || !toPrepare.isEmpty
    }
    while !toPrepare.isEmpty {
      let e = toPrepare.removeFirst()
      let made: UICollectionReusableView
      switch e.category {
      case .cell:
        guard visible[e.key] == nil, preparedCells[e.key] == nil, let cell = makeCell(e.key) else { continue }
        preparedCells[e.key] = cell
        made = cell
      case .supplementaryView:
        guard let kind = e.kind else { continue }
        let key = SupplementaryKey(kind: kind, key: e.key)
        guard visibleSupplementary[key] == nil, preparedSupplementary[key] == nil,
          let view = makeSupplementary(kind, e.key)
        else { continue }
        preparedSupplementary[key] = view
        made = view
      case .decorationView:
        continue
      }
      place(made, e)
      made.layoutIfNeeded()
      toWarm.append(made)
      return true
    }
    return false
  }

  // MARK: Queries

  /// The cells on screen.
  open var visibleCells: [UICollectionViewCell] {
    layoutIfNeeded()
    return visible.sorted { ($0.key.section, $0.key.item) < ($1.key.section, $1.key.item) }.map(\.value)
  }

  /// The index paths of the cells on screen, in order.
  open var indexPathsForVisibleItems: [IndexPath] {
    layoutIfNeeded()
    return visible.keys.sorted { ($0.section, $0.item) < ($1.section, $1.item) }.map(\.indexPath)
  }

  /// The cell showing the item, if it is on screen.
  open func cellForItem(at indexPath: IndexPath) -> UICollectionViewCell? {
    visible[ItemKey(indexPath)]
  }

  open func indexPath(for cell: UICollectionViewCell) -> IndexPath? {
    visible.first { $0.value === cell }?.key.indexPath
  }

  /// The item at a point of the content, if any.
  open func indexPathForItem(at point: CGPoint) -> IndexPath? {
    var found: ItemKey?
    collectionViewLayout.forEachElement(in: CGRect(x: point.x, y: point.y, width: 1, height: 1)) { e in
      if e.category == .cell && e.frame.contains(point) { found = e.key }
    }
    return found?.indexPath
  }

  open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
    collectionViewLayout.layoutAttributesForItem(at: indexPath)
  }

  private func isValid(_ p: IndexPath) -> Bool {
    guard p.count == 2 else { return false }
    let key = ItemKey(p)
    return key.section >= 0 && key.section < numberOfSections && key.item >= 0
      && key.item < numberOfItems(inSection: key.section)
  }

  /// Scrolls so that the item shows at `scrollPosition` (clamped to the content).
  open func scrollToItem(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
    layoutIfNeeded()
    guard isValid(indexPath), let f = collectionViewLayout.layoutAttributesForItem(at: indexPath)?.frame
    else {
      report("attempt to scroll to invalid index path: \(indexPath)")
      return
    }
    var o = contentOffset
    let b = bounds.size
    if scrollPosition.contains(.top) { o.y = f.minY }
    if scrollPosition.contains(.centeredVertically) { o.y = f.midY - b.height / 2 }
    if scrollPosition.contains(.bottom) { o.y = f.maxY - b.height }
    if scrollPosition.contains(.left) { o.x = f.minX }
    if scrollPosition.contains(.centeredHorizontally) { o.x = f.midX - b.width / 2 }
    if scrollPosition.contains(.right) { o.x = f.maxX - b.width }
    let maxX = max(-contentInset.left, contentSize.width + contentInset.right - b.width)
    let maxY = max(-contentInset.top, contentSize.height + contentInset.bottom - b.height)
    o.x = min(maxX, max(-contentInset.left, o.x))
    o.y = min(maxY, max(-contentInset.top, o.y))
    setContentOffset(o, animated: animated)
  }

  // MARK: Selection

  open var indexPathsForSelectedItems: [IndexPath]? {
    selected.sorted { ($0.section, $0.item) < ($1.section, $1.item) }.map(\.indexPath)
  }

  open func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
    guard let indexPath else {
      for k in selected { deselectItem(at: k.indexPath, animated: animated) }
      return
    }
    guard isValid(indexPath) else {
      report("attempt to select invalid index path: \(indexPath)")
      return
    }
    let key = ItemKey(indexPath)
    if !allowsMultipleSelection {
      for k in selected where k != key { deselectItem(at: k.indexPath, animated: animated) }
    }
    selected.insert(key)
    visible[key]?.isSelected = true
    if !scrollPosition.isEmpty { scrollToItem(at: indexPath, at: scrollPosition, animated: animated) }
  }

  open func deselectItem(at indexPath: IndexPath, animated: Bool) {
    let key = ItemKey(indexPath)
    selected.remove(key)
    visible[key]?.isSelected = false
  }

  private func key(at touch: UITouch) -> ItemKey? {
    let p = touch.location(in: self)
    return visible.first { $0.value.frame.contains(p) && !$0.value.isHidden }?.key
  }

  private func unhighlight() {
    guard let k = highlighted else { return }
    highlighted = nil
    visible[k]?.isHighlighted = false
    (delegate as? UICollectionViewDelegate)?.collectionView(self, didUnhighlightItemAt: k.indexPath)
  }

  open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard allowsSelection, let t = touches.first, let k = key(at: t) else { return }
    let d = delegate as? UICollectionViewDelegate
    guard d?.collectionView(self, shouldHighlightItemAt: k.indexPath) ?? true else { return }
    highlighted = k
    visible[k]?.isHighlighted = true
    d?.collectionView(self, didHighlightItemAt: k.indexPath)
  }

  open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { unhighlight() }

  open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
    guard let k = highlighted else { return }
    unhighlight()
    guard let t = touches.first, key(at: t) == k else { return }
    let d = delegate as? UICollectionViewDelegate
    if allowsMultipleSelection && selected.contains(k) {
      deselectItem(at: k.indexPath, animated: false)
      d?.collectionView(self, didDeselectItemAt: k.indexPath)
      return
    }
    guard d?.collectionView(self, shouldSelectItemAt: k.indexPath) ?? true else { return }
    if !allowsMultipleSelection {
      for old in selected where old != k {
        deselectItem(at: old.indexPath, animated: false)
        d?.collectionView(self, didDeselectItemAt: old.indexPath)
      }
    }
    selected.insert(k)
    visible[k]?.isSelected = true
    d?.collectionView(self, didSelectItemAt: k.indexPath)
  }
}

/// A counter shared across threads.
final class NSLockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func withLock<T>(_ body: (inout Int) -> T) -> T { lock.withLock { body(&value) } }
}
