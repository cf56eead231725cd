import SheenKit

/// The demo's list, as an iOS developer writes one: a view controller with a
/// `UICollectionView` in a flow layout. Section 0's header is the list's header; each section of
/// cards has a title header and one item per row of cards (`ShelfCell` or `CardRowCell`, reused
/// as they scroll), as many cards to a row as fit the width. Only the rows on screen exist, so a
/// list of a million cards costs what a screenful does.
///
/// Card contents are made on demand and kept (prefetching makes those of the rows about to show
/// before they do); tap counts are kept by card, so a reused card shows its own.
public final class CardsViewController: UIViewController, UICollectionViewDataSource,
  UICollectionViewDelegateFlowLayout, UICollectionViewDataSourcePrefetching
{
  /// The narrowest a card may be before a row drops a column.
  public static let minimumCardWidth: CGFloat = 300
  /// Space around the content.
  public static let margin: CGFloat = 20
  /// Space between cards, across and down.
  public static let spacing: CGFloat = 20
  /// Space after a section.
  static let sectionGap: CGFloat = 16

  /// How many cards the list shows.
  public let cardCount: Int
  public private(set) var collectionView: UICollectionView!
  let layout = UICollectionViewFlowLayout()
  /// Cards per row for the current width.
  public private(set) var columns = 1
  private var laidOutWidth: CGFloat = -1
  private var contents: [Int: CardContent] = [:]
  private var tapCounts: [Int: Int] = [:]
  private let sectionCount: Int
  private lazy var tapped: (Int, Int) -> Void = { [weak self] index, count in self?.tapCounts[index] = count }

  public init(cardCount: Int = DemoContent.cardCount) {
    self.cardCount = max(0, cardCount)
    sectionCount = DemoContent.sectionCount(cards: max(0, cardCount))
    super.init(nibName: nil, bundle: nil)
  }

  public required init?(coder: NSCoder) { return nil }

  public override func loadView() {
    view = UIView(frame: CGRect(x: 0, y: 0, width: 800, height: 600))
    view.backgroundColor = CardsViewController.background
  }

  static let background = UIColor(red: 0.93, green: 0.94, blue: 0.96, alpha: 1)

  public override func viewDidLoad() {
    super.viewDidLoad()
    layout.minimumLineSpacing = CardsViewController.spacing
    layout.minimumInteritemSpacing = CardsViewController.spacing
    collectionView = UICollectionView(frame: view.bounds, collectionViewLayout: layout)
    collectionView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    collectionView.backgroundColor = CardsViewController.background
    collectionView.alwaysBounceVertical = true
    collectionView.register(ShelfCell.self, forCellWithReuseIdentifier: "shelf")
    collectionView.register(CardRowCell.self, forCellWithReuseIdentifier: "row")
    collectionView.register(
      ListHeaderReusableView.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
      withReuseIdentifier: "list")
    collectionView.register(
      SectionHeaderView.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
      withReuseIdentifier: "section")
    collectionView.dataSource = self
    collectionView.delegate = self
    collectionView.prefetchDataSource = self
    view.addSubview(collectionView)
  }

  /// A new width: rows as wide as the list, as many cards to a row as fit.
  public override func viewWillLayoutSubviews() {
    super.viewWillLayoutSubviews()
    let w = view.bounds.width
    guard w != laidOutWidth else { return }
    laidOutWidth = w
    let inner = max(1, w - 2 * CardsViewController.margin)
    layout.itemSize = CGSize(width: inner, height: CardView.height)
    let cols = CardsViewController.columns(for: inner)
    if cols != columns {
      columns = cols
      collectionView.reloadData()
    }
  }

  /// Keeps the offset in range after a resize (unless a drag or a bounce is moving it).
  public override func viewDidLayoutSubviews() {
    super.viewDidLayoutSubviews()
    collectionView.layoutIfNeeded()
    let maxY = max(0, collectionView.contentSize.height - collectionView.bounds.height)
    if collectionView.contentOffset.y > maxY && !collectionView.isDragging && !collectionView.isDecelerating {
      collectionView.contentOffset = CGPoint(x: 0, y: maxY)
    }
  }

  /// How many columns cards of at least `minimumCardWidth` get in `width`.
  static func columns(for width: CGFloat) -> Int {
    max(1, Int((width + spacing) / (minimumCardWidth + spacing)))
  }

  // MARK: Content

  /// The content of card `index`, made once and kept while the list is near it.
  public func content(at index: Int) -> CardContent {
    if let c = contents[index] { return c }
    // A long scroll through a huge list keeps only a few screens' worth.
    if contents.count >= 4096 { contents.removeAll(keepingCapacity: true) }
    let c = CardContent(index: index)
    contents[index] = c
    return c
  }

  /// Section `s` of the collection view is the list's header (0) or card section `s - 1`.
  public func cardSection(_ s: Int) -> DemoContent.Section? {
    s >= 1 && s <= sectionCount ? DemoContent.section(s - 1, cards: cardCount) : nil
  }

  /// The cards of item `item` of collection-view section `s`.
  func cards(_ s: Int, _ item: Int) -> Range<Int> {
    guard let section = cardSection(s) else { return 0..<0 }
    let lo = section.cards.lowerBound + item * columns
    return lo..<min(section.cards.upperBound, lo + columns)
  }

  /// Rows that came into view so far (benchmarks tell the frames that showed new rows from
  /// steady ones).
  public private(set) var rowsShown = 0

  /// How many times card `index`'s button was tapped.
  public func tapCount(at index: Int) -> Int { tapCounts[index] ?? 0 }

  /// The cards on screen, top to bottom.
  public var visibleCards: [CardView] {
    collectionView.visibleCells.flatMap { ($0 as? CardRowCell)?.cards ?? [] }
  }

  /// Card `index`'s view, if it is on screen.
  public func cardView(at index: Int) -> CardView? {
    visibleCards.first { $0.content.index == index }
  }

  /// Where card `index` is in the collection view (its row's item).
  public func indexPath(forCard index: Int) -> IndexPath? {
    guard index >= 0, index < cardCount else { return nil }
    let s = index / DemoContent.cardsPerSection
    let inSection = index - s * DemoContent.cardsPerSection
    return IndexPath(item: inSection / columns, section: s + 1)
  }

  // MARK: UICollectionViewDataSource

  public func numberOfSections(in collectionView: UICollectionView) -> Int { 1 + sectionCount }

  public func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
    // Arithmetic, not the section itself (whose title is a new string): asked once per section.
    guard section >= 1 && section <= sectionCount else { return 0 }
    let first = (section - 1) * DemoContent.cardsPerSection
    let cards = min(cardCount, first + DemoContent.cardsPerSection) - first
    return (cards + columns - 1) / columns
  }

  public func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
    -> UICollectionViewCell
  {
    let style = cardSection(indexPath.section)?.style ?? .perCard
    let id = style == .container ? "shelf" : "row"
    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: id, for: indexPath) as! CardRowCell
    cell.configure(
      cards(indexPath.section, indexPath.item), columns: columns, content: content(at:),
      tapCount: { tapCounts[$0] ?? 0 }, onTap: tapped)
    return cell
  }

  public func collectionView(
    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
    at indexPath: IndexPath
  ) -> UICollectionReusableView {
    if indexPath.section == 0 {
      let v =
        collectionView.dequeueReusableSupplementaryView(
          ofKind: kind, withReuseIdentifier: "list", for: indexPath)
        as! ListHeaderReusableView
      v.header.configure(cardCount: cardCount)
      return v
    }
    let v =
      collectionView.dequeueReusableSupplementaryView(
        ofKind: kind, withReuseIdentifier: "section", for: indexPath)
      as! SectionHeaderView
    if let s = cardSection(indexPath.section) { v.configure(s) }
    return v
  }

  // MARK: UICollectionViewDelegateFlowLayout

  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    referenceSizeForHeaderInSection section: Int
  ) -> CGSize {
    CGSize(
      width: collectionView.bounds.width,
      height: section == 0 ? ListHeaderReusableView.height : SectionHeaderView.height)
  }

  public func collectionView(
    _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
    insetForSectionAt section: Int
  ) -> UIEdgeInsets {
    guard section > 0 else { return .zero }
    let m = CardsViewController.margin
    // The last section keeps the list's bottom margin too.
    let bottom = CardsViewController.sectionGap + (section == sectionCount ? m : 0)
    return UIEdgeInsets(top: 0, left: m, bottom: bottom, right: m)
  }

  public func collectionView(
    _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
  ) {
    rowsShown += 1
  }

  // MARK: UICollectionViewDataSourcePrefetching

  /// Makes the contents of rows about to show, so that a row coming in only configures views.
  public func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    for p in indexPaths {
      for i in cards(p.section, p.item) { _ = content(at: i) }
    }
  }
}
