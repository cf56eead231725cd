import Foundation

extension IndexPath {
  /// UIKit's index path of an item in a section.
  // Built by appending: an array literal would be a heap allocation per index path (the
  // collection view makes them for its delegate as cells scroll out of view).
  public init(item: Int, section: Int) {
    self.init()
    append(section)
    append(item)
  }
  public init(row: Int, section: Int) { self.init(item: row, section: section) }
  /// The section (the first index).
  public var section: Int {
    get { self[0] }
    set { self[0] = newValue }
  }
  /// The item (the second index).
  public var item: Int {
    get { self[1] }
    set { self[1] = newValue }
  }
  public var row: Int {
    get { self[1] }
    set { self[1] = newValue }
  }
}

/// Where an item sits, without an `IndexPath` (which a hot loop should not make).
struct ItemKey: Hashable {
  var section: Int
  var item: Int

  var indexPath: IndexPath { IndexPath(item: item, section: section) }
  init(section: Int, item: Int) {
    self.section = section
    self.item = item
  }
  init(_ p: IndexPath) {
    section = p.count > 0 ? p[0] : 0
    item = p.count > 1 ? p[1] : 0
  }
}

/// What kind of element attributes describe (UIKit's `UICollectionView.ElementCategory`).
extension UICollectionView {
  public enum ElementCategory: Int, Sendable {
    case cell, supplementaryView, decorationView
  }

  public enum ScrollDirection: Int, Sendable {
    case vertical, horizontal
  }

  /// Where `scrollToItem` puts the item.
  public struct ScrollPosition: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let top = ScrollPosition(rawValue: 1 << 0)
    public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
    public static let bottom = ScrollPosition(rawValue: 1 << 2)
    public static let left = ScrollPosition(rawValue: 1 << 3)
    public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
    public static let right = ScrollPosition(rawValue: 1 << 5)
  }

  public static let elementKindSectionHeader = "UICollectionElementKindSectionHeader"
  public static let elementKindSectionFooter = "UICollectionElementKindSectionFooter"
}

/// Where and how one element shows (UIKit's `UICollectionViewLayoutAttributes`).
open class UICollectionViewLayoutAttributes {
  open var frame: CGRect
  open var center: CGPoint {
    get { CGPoint(x: frame.midX, y: frame.midY) }
    set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
  }
  open var size: CGSize {
    get { frame.size }
    set {
      let c = center
      frame = CGRect(
        x: c.x - newValue.width / 2, y: c.y - newValue.height / 2, width: newValue.width,
        height: newValue.height)
    }
  }
  open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
  open var indexPath: IndexPath
  public let representedElementCategory: UICollectionView.ElementCategory
  public let representedElementKind: String?
  open var zIndex = 0
  open var isHidden = false
  open var alpha: CGFloat = 1
  open var transform = CGAffineTransform.identity

  public init(forCellWith indexPath: IndexPath) {
    self.indexPath = indexPath
    representedElementCategory = .cell
    representedElementKind = nil
    frame = .zero
  }

  public init(forSupplementaryViewOfKind kind: String, with indexPath: IndexPath) {
    self.indexPath = indexPath
    representedElementCategory = .supplementaryView
    representedElementKind = kind
    frame = .zero
  }

  public init(forDecorationViewOfKind kind: String, with indexPath: IndexPath) {
    self.indexPath = indexPath
    representedElementCategory = .decorationView
    representedElementKind = kind
    frame = .zero
  }

  open func copy() -> UICollectionViewLayoutAttributes {
    let a: UICollectionViewLayoutAttributes
    switch representedElementCategory {
    case .cell: a = UICollectionViewLayoutAttributes(forCellWith: indexPath)
    case .supplementaryView:
      a = UICollectionViewLayoutAttributes(
        forSupplementaryViewOfKind: representedElementKind ?? "", with: indexPath)
    case .decorationView:
      a = UICollectionViewLayoutAttributes(
        forDecorationViewOfKind: representedElementKind ?? "", with: indexPath)
    }
    a.frame = frame
    a.zIndex = zIndex
    a.isHidden = isHidden
    a.alpha = alpha
    a.transform = transform
    return a
  }
}

/// One element a layout places, as the collection view's own loop sees it (no objects made).
struct LayoutElement {
  var category: UICollectionView.ElementCategory
  /// The supplementary kind (nil for cells).
  var kind: String?
  var key: ItemKey
  var frame: CGRect
  var zIndex = 0
  var isHidden = false
  var alpha: CGFloat = 1
}

/// Places a collection view's items (UIKit's `UICollectionViewLayout`): subclass it and answer
/// `collectionViewContentSize`, `layoutAttributesForElements(in:)` and
/// `layoutAttributesForItem(at:)`, preparing in `prepare()`.
open class UICollectionViewLayout {
  public internal(set) weak var collectionView: UICollectionView?

  public init() {}

  public required init?(coder: NSCoder) { return nil }

  /// Called before the layout is asked anything after an invalidation.
  open func prepare() {}

  open var collectionViewContentSize: CGSize { .zero }

  open func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? { nil }

  open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }

  open func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath)
    -> UICollectionViewLayoutAttributes?
  {
    nil
  }

  /// Asks for a new `prepare()` before the next layout pass.
  open func invalidateLayout() { collectionView?.layoutDidInvalidate() }

  /// Whether a change of the collection view's bounds needs a new layout (scrolling does not).
  open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { false }

  /// Whether a self-sized view's preferred attributes should replace the original ones.
  open func shouldInvalidateLayout(
    forPreferredLayoutAttributes preferredAttributes: UICollectionViewLayoutAttributes,
    withOriginalAttributes originalAttributes: UICollectionViewLayoutAttributes
  ) -> Bool {
    false
  }

  // MARK: The collection view's loop

  /// Calls `body` with each element in `rect`. Layouts of SheenKit answer without making
  /// objects; a subclass's answer comes from `layoutAttributesForElements(in:)`.
  func forEachElement(in rect: CGRect, _ body: (LayoutElement) -> Void) {
    for a in layoutAttributesForElements(in: rect) ?? [] {
      body(
        LayoutElement(
          category: a.representedElementCategory, kind: a.representedElementKind, key: ItemKey(a.indexPath),
          frame: a.frame, zIndex: a.zIndex, isHidden: a.isHidden, alpha: a.alpha))
    }
  }

  /// Whether views asked for their preferred attributes (self-sizing).
  var wantsPreferredAttributes: Bool { false }

  /// A self-sized item's size, for the layout to keep; true if anything moved.
  func itemDidSelfSize(_ key: ItemKey, _ size: CGSize) -> Bool { false }
}
