import Foundation

/// The flow layout's questions to the delegate, per section and item (UIKit's
/// `UICollectionViewDelegateFlowLayout`); each has a default that means "use the layout's
/// property".
public protocol UICollectionViewDelegateFlowLayout: UICollectionViewDelegate {
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    sizeForItemAt indexPath: IndexPath
  ) -> CGSize
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    insetForSectionAt section: Int
  ) -> UIEdgeInsets
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    minimumLineSpacingForSectionAt section: Int
  ) -> CGFloat
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    minimumInteritemSpacingForSectionAt section: Int
  ) -> CGFloat
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForHeaderInSection section: Int
  ) -> CGSize
  func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForFooterInSection section: Int
  ) -> CGSize
}

extension UICollectionViewDelegateFlowLayout {
  /// Not implemented: the layout's `itemSize` (or `estimatedItemSize`) for every item, so that a
  /// section's positions are worked out arithmetically.
  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    sizeForItemAt indexPath: IndexPath
  ) -> CGSize {
    UICollectionViewFlowLayout.notImplementedSize
  }
  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    insetForSectionAt section: Int
  ) -> UIEdgeInsets {
    (collectionViewLayout as? UICollectionViewFlowLayout)?.sectionInset ?? .zero
  }
  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    minimumLineSpacingForSectionAt section: Int
  ) -> CGFloat {
    (collectionViewLayout as? UICollectionViewFlowLayout)?.minimumLineSpacing ?? 0
  }
  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    minimumInteritemSpacingForSectionAt section: Int
  ) -> CGFloat {
    (collectionViewLayout as? UICollectionViewFlowLayout)?.minimumInteritemSpacing ?? 0
  }
  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForHeaderInSection section: Int
  ) -> CGSize {
    (collectionViewLayout as? UICollectionViewFlowLayout)?.headerReferenceSize ?? .zero
  }
  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForFooterInSection section: Int
  ) -> CGSize {
    (collectionViewLayout as? UICollectionViewFlowLayout)?.footerReferenceSize ?? .zero
  }
}

/// Items in lines, lines along the scroll direction (UIKit's `UICollectionViewFlowLayout`): a
/// vertical layout fills rows left to right and stacks them down; a horizontal one fills columns
/// top to bottom and stacks them to the right. Each section: a header, the section insets, the
/// items, a footer. A line holds as many items as fit with `minimumInteritemSpacing`; the space
/// left over is shared between them (a line of one item is centred), and lines are
/// `minimumLineSpacing` apart.
///
/// Items of one size in a section (`itemSize`, or a delegate that does not answer
/// `sizeForItemAt`) are placed by arithmetic: finding what shows in a rectangle costs a binary
/// search over sections and nothing per item, so a million items cost what a screenful does.
/// Sizes from the delegate, and self-sized items (`estimatedItemSize`, measured when they are
/// first shown), place their sections item by item.
///
/// Unlike UIKit: lines of items of different heights align their items' centres (UIKit's
/// default too) but a self-sizing item's width does not re-flow lines of a section before it is
/// shown; `sectionHeadersPinToVisibleBounds` is stored only.
open class UICollectionViewFlowLayout: UICollectionViewLayout {
  /// UIKit's `automaticSize`: as `estimatedItemSize`, asks cells for their size.
  public static let automaticSize = CGSize(
    width: CGFloat.greatestFiniteMagnitude, height: .greatestFiniteMagnitude)
  static let notImplementedSize = CGSize(width: -1, height: -1)

  open var itemSize = CGSize(width: 50, height: 50) { didSet { invalidateLayout() } }
  /// Non-zero: items start at this size and take the size their cells ask for when shown.
  open var estimatedItemSize = CGSize.zero { didSet { invalidateLayout() } }
  open var minimumLineSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
  open var minimumInteritemSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
  open var headerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }
  open var footerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }
  open var sectionInset = UIEdgeInsets.zero { didSet { invalidateLayout() } }
  open var scrollDirection = UICollectionView.ScrollDirection.vertical { didSet { invalidateLayout() } }
  open var sectionHeadersPinToVisibleBounds = false
  open var sectionFootersPinToVisibleBounds = false

  /// A section's geometry along the scroll axis ("main") and across it ("cross").
  struct Section {
    var start: CGFloat = 0
    var length: CGFloat = 0
    var header: CGFloat = 0
    var footer: CGFloat = 0
    var insets = UIEdgeInsets.zero
    var lineSpacing: CGFloat = 0
    var interitem: CGFloat = 0
    var count = 0
    /// Every item this size: placed arithmetically.
    var uniform: CGSize?
    var columns = 1
    var crossStart: CGFloat = 0
    var crossStep: CGFloat = 0
    /// Otherwise each item's size, frame and line, kept apart (a list of many sections of equal
    /// items pays one word per section for them).
    var items: ItemGeometry?

    private var geometry: ItemGeometry {
      mutating get {
        if let g = items { return g }
        let g = ItemGeometry()
        items = g
        return g
      }
    }
    var sizes: [CGSize] {
      get { items?.sizes ?? [] }
      _modify { yield &geometry.sizes }
    }
    var frames: [CGRect] {
      get { items?.frames ?? [] }
      _modify { yield &geometry.frames }
    }
    var lineStarts: [CGFloat] {
      get { items?.lineStarts ?? [] }
      _modify { yield &geometry.lineStarts }
    }
    var lineEnds: [CGFloat] {
      get { items?.lineEnds ?? [] }
      _modify { yield &geometry.lineEnds }
    }
    var lineFirst: [Int] {
      get { items?.lineFirst ?? [] }
      _modify { yield &geometry.lineFirst }
    }
  }

  /// A section's items placed one by one: sizes, frames (relative to the section's start on the
  /// main axis), and per line where it starts and ends and its first item.
  final class ItemGeometry {
    var sizes: [CGSize] = []
    var frames: [CGRect] = []
    var lineStarts: [CGFloat] = []
    var lineEnds: [CGFloat] = []
    var lineFirst: [Int] = []
  }

  private var sections: [Section] = []
  private var contentLength: CGFloat = 0
  private var crossExtent: CGFloat = 0
  private var preparedFor = CGSize(width: -1, height: -1)
  private var isPrepared = false

  public override init() { super.init() }

  public required init?(coder: NSCoder) { return nil }

  private var vertical: Bool { scrollDirection == .vertical }

  open override func invalidateLayout() {
    isPrepared = false
    super.invalidateLayout()
  }

  /// A new width (vertical) or height (horizontal) needs new lines.
  open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
    guard let cv = collectionView else { return false }
    return vertical ? newBounds.width != cv.bounds.width : newBounds.height != cv.bounds.height
  }

  open override func prepare() {
    super.prepare()
    guard let cv = collectionView else {
      sections = []
      return
    }
    let size = cv.bounds.size
    crossExtent = vertical ? size.width : size.height
    let delegate = cv.delegate as? UICollectionViewDelegateFlowLayout
    let n = cv.numberOfSections
    // The old sections' storage is reused: a list of many sections is not held twice.
    var new = sections
    sections = []
    new.removeAll(keepingCapacity: true)
    new.reserveCapacity(n)
    for s in 0..<n {
      var sec = Section()
      sec.count = cv.numberOfItems(inSection: s)
      let header =
        delegate?.collectionView(cv, layout: self, referenceSizeForHeaderInSection: s) ?? headerReferenceSize
      let footer =
        delegate?.collectionView(cv, layout: self, referenceSizeForFooterInSection: s) ?? footerReferenceSize
      sec.header = max(0, vertical ? header.height : header.width)
      sec.footer = max(0, vertical ? footer.height : footer.width)
      sec.insets = delegate?.collectionView(cv, layout: self, insetForSectionAt: s) ?? sectionInset
      sec.lineSpacing =
        delegate?.collectionView(cv, layout: self, minimumLineSpacingForSectionAt: s) ?? minimumLineSpacing
      sec.interitem =
        delegate?.collectionView(cv, layout: self, minimumInteritemSpacingForSectionAt: s)
        ?? minimumInteritemSpacing
      // Per-item sizes from the delegate, or one size for all.
      var first = UICollectionViewFlowLayout.notImplementedSize
      if sec.count > 0, let delegate {
        first = delegate.collectionView(cv, layout: self, sizeForItemAt: IndexPath(item: 0, section: s))
      }
      if first != UICollectionViewFlowLayout.notImplementedSize {
        sec.sizes = (0..<sec.count).map { i in
          i == 0
            ? first
            : delegate!.collectionView(cv, layout: self, sizeForItemAt: IndexPath(item: i, section: s))
        }
      } else if let kept = keptSizes(s, sec.count) {
        sec.sizes = kept
      } else {
        sec.uniform = estimatedItemSize != .zero ? estimatedSize : itemSize
      }
      place(&sec)
      new.append(sec)
    }
    sections = new
    restack(from: 0)
    preparedFor = size
    isPrepared = true
  }

  /// The estimated size, with `automaticSize` standing for a full-width line of 50 points.
  private var estimatedSize: CGSize {
    guard estimatedItemSize == UICollectionViewFlowLayout.automaticSize else { return estimatedItemSize }
    return vertical ? CGSize(width: crossExtent, height: 50) : CGSize(width: 50, height: crossExtent)
  }

  /// Sizes measured by self-sizing before an invalidation that did not change the counts.
  private var measured: [Int: [CGSize]] = [:]

  private func keptSizes(_ section: Int, _ count: Int) -> [CGSize]? {
    guard estimatedItemSize != .zero, let m = measured[section], m.count == count else { return nil }
    return m
  }

  private func main(_ s: CGSize) -> CGFloat { vertical ? s.height : s.width }

  /// Whether items of size `s` can be placed: both sides positive and finite.
  private func isUsable(_ s: CGSize) -> Bool {
    s.width > 0 && s.height > 0 && s.width.isFinite && s.height.isFinite
  }

  /// Lines of `count` items, `columns` to a line (no overflow near `Int.max`).
  private func rowCount(_ count: Int, _ columns: Int) -> Int {
    count / columns + (count % columns == 0 ? 0 : 1)
  }
  private func cross(_ s: CGSize) -> CGFloat { vertical ? s.width : s.height }

  /// Works out a section's lines and length (relative to its start).
  private func place(_ sec: inout Section) {
    let i = sec.insets
    let mainLead = vertical ? i.top : i.left
    let mainTrail = vertical ? i.bottom : i.right
    let crossLead = vertical ? i.left : i.top
    let crossTrail = vertical ? i.right : i.bottom
    let avail = max(0, crossExtent - crossLead - crossTrail)
    let itemsStart = sec.header + mainLead
    if let u = sec.uniform {
      guard isUsable(u) else {
        // UIKit's complaint; the items take no room and show nothing.
        collectionView?.report("negative or zero sizes are not supported in the flow layout (item size \(u))")
        sec.columns = 1
        sec.length = itemsStart + mainTrail + sec.footer
        return
      }
      let w = max(0, cross(u))
      let h = max(0, main(u))
      let cols =
        w + sec.interitem > 0
        ? max(1, Int(((avail + sec.interitem) / (w + sec.interitem)).rounded(.down))) : 1
      sec.columns = cols
      if cols == 1 {
        sec.crossStart = crossLead + max(0, (avail - w) / 2)
        sec.crossStep = 0
      } else {
        sec.crossStart = crossLead
        sec.crossStep = w + (avail - CGFloat(cols) * w) / CGFloat(cols - 1)
      }
      let rows = rowCount(sec.count, cols)
      let itemsLength = rows > 0 ? CGFloat(rows) * h + CGFloat(rows - 1) * sec.lineSpacing : 0
      sec.length = itemsStart + itemsLength + mainTrail + sec.footer
      return
    }
    // Item by item: fill lines greedily, share the space left, centre items across each line.
    // Sizes that are not positive and finite take no room and show nothing, told once.
    if let bad = sec.sizes.first(where: { !isUsable($0) }) {
      collectionView?.report("negative or zero sizes are not supported in the flow layout (item size \(bad))")
      for k in sec.sizes.indices where !isUsable(sec.sizes[k]) { sec.sizes[k] = .zero }
    }
    sec.frames = []
    sec.frames.reserveCapacity(sec.count)
    sec.lineStarts = []
    sec.lineEnds = []
    sec.lineFirst = []
    var index = 0
    var y = itemsStart
    while index < sec.count {
      var end = index
      var used: CGFloat = 0
      var tallest: CGFloat = 0
      while end < sec.count {
        let w = max(0, cross(sec.sizes[end]))
        let next = used + (end > index ? sec.interitem : 0) + w
        if end > index && next > avail + 0.0001 { break }
        used = next
        tallest = max(tallest, max(0, main(sec.sizes[end])))
        end += 1
      }
      let n = end - index
      let widths = (index..<end).reduce(CGFloat(0)) { $0 + max(0, cross(sec.sizes[$1])) }
      var x = crossLead
      var gap: CGFloat = 0
      if n == 1 {
        x = crossLead + max(0, (avail - widths) / 2)
      } else {
        gap = max(sec.interitem, (avail - widths) / CGFloat(n - 1))
      }
      sec.lineStarts.append(y)
      sec.lineEnds.append(y + tallest)
      sec.lineFirst.append(index)
      for k in index..<end {
        let s = sec.sizes[k]
        let m = (tallest - max(0, main(s))) / 2
        sec.frames.append(
          frame(main: y + m, cross: x, mainSize: max(0, main(s)), crossSize: max(0, cross(s))))
        x += max(0, cross(s)) + gap
      }
      y += tallest + sec.lineSpacing
      index = end
    }
    let itemsEnd = sec.lineEnds.last ?? itemsStart
    sec.length = itemsEnd + mainTrail + sec.footer
  }

  private func frame(main m: CGFloat, cross c: CGFloat, mainSize: CGFloat, crossSize: CGFloat) -> CGRect {
    vertical
      ? CGRect(x: c, y: m, width: crossSize, height: mainSize)
      : CGRect(x: m, y: c, width: mainSize, height: crossSize)
  }

  /// Section starts from `index` on, and the content length.
  private func restack(from index: Int) {
    var start = index > 0 ? sections[index - 1].start + sections[index - 1].length : 0
    for s in index..<sections.count {
      sections[s].start = start
      start += sections[s].length
    }
    contentLength = start
  }

  private func ensurePrepared() {
    guard let cv = collectionView else { return }
    if !isPrepared || cv.bounds.size != preparedFor && shouldInvalidate(for: cv.bounds.size) { prepare() }
  }

  private func shouldInvalidate(for size: CGSize) -> Bool {
    vertical ? size.width != preparedFor.width : size.height != preparedFor.height
  }

  open override var collectionViewContentSize: CGSize {
    ensurePrepared()
    return vertical
      ? CGSize(width: crossExtent, height: contentLength) : CGSize(width: contentLength, height: crossExtent)
  }

  // MARK: Frames

  /// The frame of an item, or nil outside the sections and counts.
  func itemFrame(_ key: ItemKey) -> CGRect? {
    ensurePrepared()
    guard sections.indices.contains(key.section) else { return nil }
    let sec = sections[key.section]
    guard key.item >= 0, key.item < sec.count else { return nil }
    return itemFrame(sec, key.item)
  }

  private func itemFrame(_ sec: Section, _ item: Int) -> CGRect {
    if let u = sec.uniform {
      let row = item / sec.columns
      let col = item % sec.columns
      let mainLead = vertical ? sec.insets.top : sec.insets.left
      let m = sec.start + sec.header + mainLead + CGFloat(row) * (main(u) + sec.lineSpacing)
      return frame(
        main: m, cross: sec.crossStart + CGFloat(col) * sec.crossStep, mainSize: max(0, main(u)),
        crossSize: max(0, cross(u)))
    }
    let f = sec.frames[item]
    return vertical ? f.offsetBy(dx: 0, dy: sec.start) : f.offsetBy(dx: sec.start, dy: 0)
  }

  private func headerFrame(_ sec: Section) -> CGRect {
    frame(main: sec.start, cross: 0, mainSize: sec.header, crossSize: crossExtent)
  }

  private func footerFrame(_ sec: Section) -> CGRect {
    frame(main: sec.start + sec.length - sec.footer, cross: 0, mainSize: sec.footer, crossSize: crossExtent)
  }

  /// The first section whose end is past `m`.
  private func firstSection(endingAfter m: CGFloat) -> Int {
    var lo = 0
    var hi = sections.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if sections[mid].start + sections[mid].length <= m { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  override func forEachElement(in rect: CGRect, _ body: (LayoutElement) -> Void) {
    ensurePrepared()
    guard !rect.isNull, !rect.isEmpty || rect.width > 0 || rect.height > 0 else { return }
    let a = vertical ? rect.minY : rect.minX
    let b = vertical ? rect.maxY : rect.maxX
    var s = firstSection(endingAfter: a)
    while s < sections.count && sections[s].start < b {
      let sec = sections[s]
      if sec.header > 0 {
        let f = headerFrame(sec)
        if f.intersects(rect) {
          body(
            LayoutElement(
              category: .supplementaryView, kind: UICollectionView.elementKindSectionHeader,
              key: ItemKey(section: s, item: 0), frame: f))
        }
      }
      forEachItem(sec, s, a, b, rect, body)
      if sec.footer > 0 {
        let f = footerFrame(sec)
        if f.intersects(rect) {
          body(
            LayoutElement(
              category: .supplementaryView, kind: UICollectionView.elementKindSectionFooter,
              key: ItemKey(section: s, item: 0), frame: f))
        }
      }
      s += 1
    }
  }

  private func forEachItem(
    _ sec: Section, _ s: Int, _ a: CGFloat, _ b: CGFloat, _ rect: CGRect, _ body: (LayoutElement) -> Void
  ) {
    guard sec.count > 0 else { return }
    if let u = sec.uniform {
      let h = max(0, main(u))
      let step = h + sec.lineSpacing
      let mainLead = vertical ? sec.insets.top : sec.insets.left
      let top = sec.start + sec.header + mainLead
      guard isUsable(u) else { return }
      let rows = rowCount(sec.count, sec.columns)
      var first = 0
      var last = rows - 1
      if step > 0 {
        let f = ((a - top - h) / step).rounded(.down) + 1
        let l = ((b - top) / step).rounded(.up) - 1
        guard f.isFinite, l.isFinite else { return }
        first = max(0, Int(max(-1, min(f, CGFloat(rows)))))
        last = min(rows - 1, Int(max(-1, min(l, CGFloat(rows)))))
      }
      guard first <= last else { return }
      for row in first...last {
        let base = row * sec.columns
        for col in 0..<sec.columns where base + col < sec.count {
          let item = base + col
          let f = itemFrame(sec, item)
          if f.intersects(rect) || f.isEmpty && rect.contains(f.origin) {
            body(LayoutElement(category: .cell, kind: nil, key: ItemKey(section: s, item: item), frame: f))
          }
        }
      }
      return
    }
    // Item by item: binary search for the first line ending after `a`.
    let ra = a - sec.start
    let rb = b - sec.start
    var lo = 0
    var hi = sec.lineEnds.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if sec.lineEnds[mid] <= ra { lo = mid + 1 } else { hi = mid }
    }
    var line = lo
    while line < sec.lineStarts.count && sec.lineStarts[line] < rb {
      let end = line + 1 < sec.lineFirst.count ? sec.lineFirst[line + 1] : sec.count
      for item in sec.lineFirst[line]..<end {
        let f = itemFrame(sec, item)
        if f.intersects(rect) {
          body(LayoutElement(category: .cell, kind: nil, key: ItemKey(section: s, item: item), frame: f))
        }
      }
      line += 1
    }
  }

  // MARK: UIKit's queries

  open override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
    var out: [UICollectionViewLayoutAttributes] = []
    forEachElement(in: rect) { e in
      let a: UICollectionViewLayoutAttributes
      if e.category == .cell {
        a = UICollectionViewLayoutAttributes(forCellWith: e.key.indexPath)
      } else {
        a = UICollectionViewLayoutAttributes(forSupplementaryViewOfKind: e.kind ?? "", with: e.key.indexPath)
      }
      a.frame = e.frame
      out.append(a)
    }
    return out
  }

  open override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
    guard indexPath.count == 2, let f = itemFrame(ItemKey(indexPath)) else { return nil }
    let a = UICollectionViewLayoutAttributes(forCellWith: indexPath)
    a.frame = f
    return a
  }

  open override func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath)
    -> UICollectionViewLayoutAttributes?
  {
    ensurePrepared()
    guard indexPath.count >= 1, sections.indices.contains(indexPath[0]) else { return nil }
    let sec = sections[indexPath[0]]
    let a = UICollectionViewLayoutAttributes(forSupplementaryViewOfKind: elementKind, with: indexPath)
    switch elementKind {
    case UICollectionView.elementKindSectionHeader where sec.header > 0: a.frame = headerFrame(sec)
    case UICollectionView.elementKindSectionFooter where sec.footer > 0: a.frame = footerFrame(sec)
    default: return nil
    }
    return a
  }

  // MARK: Self-sizing

  override var wantsPreferredAttributes: Bool { estimatedItemSize != .zero }

  override func itemDidSelfSize(_ key: ItemKey, _ size: CGSize) -> Bool {
    guard estimatedItemSize != .zero, sections.indices.contains(key.section) else { return false }
    var sec = sections[key.section]
    guard key.item >= 0, key.item < sec.count else { return false }
    if let u = sec.uniform {
      if u == size { return false }
      sec.uniform = nil
      sec.sizes = Array(repeating: u, count: sec.count)
    }
    guard sec.sizes[key.item] != size else { return false }
    sec.sizes[key.item] = size
    place(&sec)
    sections[key.section] = sec
    measured[key.section] = sec.sizes
    restack(from: key.section)
    return true
  }

  /// Forgets measured sizes (the data changed).
  func forgetMeasuredSizes() { measured.removeAll() }
}
