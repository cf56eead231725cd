import SheenKit

/// One section of the list: a title, a line saying what it shows, and its cards in a grid.
///
/// In a `.container` section each row of cells sits in a clear container view (a "shelf", as a
/// horizontally laid-out collection view) that carries the row's only shadow (seed 001); in a
/// `.perCard` section each cell casts its own (seeds 000, 003).
///
/// A shelf per row rather than one container for the whole section: the container's shadow is
/// taken from everything it draws, so any change inside (a pressed button) blurs it again, and a
/// row is a tenth of the section to blur.
public final class SectionView: UIView {
  public let section: DemoContent.Section
  public let titleLabel = UILabel()
  public let detailLabel = UILabel()
  /// Holds the cells (through the shelves in a container section).
  public let container = UIView()
  /// In a container section, one clear view per row of cells, each with the row's shadow.
  public private(set) var shelves: [UIView] = []
  /// The cards, in order.
  public private(set) var cards: [CardView] = []
  private var cells: [UIView] = []

  static let titleHeight: CGFloat = 64
  static let spacing: CGFloat = 20

  public init(section: DemoContent.Section) {
    self.section = section
    super.init(frame: .zero)
    titleLabel.text = section.title
    titleLabel.font = UIFont.systemFont(ofSize: 20, weight: .bold)
    titleLabel.textColor = UIColor(white: 0.12, alpha: 1)
    addSubview(titleLabel)
    detailLabel.text = section.detail
    detailLabel.font = UIFont.systemFont(ofSize: 13)
    detailLabel.textColor = UIColor(white: 0.4, alpha: 1)
    addSubview(detailLabel)

    container.backgroundColor = .clear
    addSubview(container)
    for i in section.cards {
      let content = CardContent(index: i)
      switch section.style {
      case .container:
        let cell = ClearCardCell(content: content)
        cells.append(cell)
        cards.append(cell.card)
      case .perCard:
        let cell = ShadowedCardCell(content: content)
        cells.append(cell)
        cards.append(cell.card)
      }
      if section.style == .perCard { container.addSubview(cells[cells.count - 1]) }
    }
  }

  /// A clear container whose one shadow follows every card in it (seed 001).
  private func makeShelf() -> UIView {
    let shelf = UIView()
    shelf.backgroundColor = .clear
    shelf.layer.shadowColor = UIColor.black.cgColor
    shelf.layer.shadowOpacity = 0.28
    shelf.layer.shadowOffset = CGSize(width: 0, height: 4)
    shelf.layer.shadowRadius = 8
    return shelf
  }

  public required init?(coder: NSCoder) { return nil }

  /// How many columns cards of at least `minimumCardWidth` get in `width`.
  static func columns(for width: CGFloat) -> Int {
    max(1, Int((width + spacing) / (CardListView.minimumCardWidth + spacing)))
  }

  /// The section's height for `width`, laid out as `layoutSubviews` does.
  static func height(for section: DemoContent.Section, width: CGFloat) -> CGFloat {
    let cols = columns(for: width)
    let rows = (section.cards.count + cols - 1) / cols
    return titleHeight + CGFloat(rows) * CardView.height + CGFloat(max(0, rows - 1)) * spacing
  }

  public override func layoutSubviews() {
    super.layoutSubviews()
    let w = bounds.width
    titleLabel.frame = CGRect(x: 0, y: 8, width: w, height: 26)
    detailLabel.frame = CGRect(x: 0, y: 36, width: w, height: 18)
    let cols = SectionView.columns(for: w)
    let s = SectionView.spacing
    let cardWidth = ((w - CGFloat(cols - 1) * s) / CGFloat(cols)).rounded(.down)
    let rows = (cells.count + cols - 1) / cols
    container.frame = CGRect(
      x: 0, y: SectionView.titleHeight, width: w,
      height: CGFloat(rows) * CardView.height + CGFloat(max(0, rows - 1)) * s)
    if section.style == .container {
      // One shelf per row: regroup the cells when the number of columns changes.
      if shelves.count != rows || shelves.first?.subviews.count ?? 0 != min(cols, cells.count) {
        for shelf in shelves { shelf.removeFromSuperview() }
        shelves = (0..<rows).map { _ in makeShelf() }
        for shelf in shelves { container.addSubview(shelf) }
        for (i, cell) in cells.enumerated() { shelves[i / cols].addSubview(cell) }
      }
      for (row, shelf) in shelves.enumerated() {
        shelf.frame = CGRect(x: 0, y: CGFloat(row) * (CardView.height + s), width: w, height: CardView.height)
      }
    }
    for (i, cell) in cells.enumerated() {
      let col = i % cols
      let row = i / cols
      // In a shelf, cells are placed within their row.
      let y = section.style == .container ? 0 : CGFloat(row) * (CardView.height + s)
      cell.frame = CGRect(x: CGFloat(col) * (cardWidth + s), y: y, width: cardWidth, height: CardView.height)
    }
  }
}
