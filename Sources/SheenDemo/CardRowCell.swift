import SheenKit

/// One row of a section's grid, an item of the list's collection view: up to `columns` card
/// cells side by side, 20 points apart, each as wide as the row allows.
///
/// In a container section (`ShelfCell`) the row is the seed 001 container: a clear view whose
/// one shadow follows every card in it (cells clear, cards clipped). In a per-card section
/// (`CardRowCell`) the row is clear and each cell casts its own shadow. A row per item rather than
/// one container per section: the container's shadow is taken from everything it draws, so any
/// change inside (a pressed button) blurs it again, and a row is a tenth of a section to blur.
public class CardRowCell: UICollectionViewCell {
  /// The card cells, one per column (those past the row's cards hidden).
  public private(set) var cardCells: [UICollectionViewCell] = []
  /// The cards shown, in order.
  public var cards: [CardView] { zip(cardCells, 0..<shown).map { card(in: $0.0) } }
  private var shown = 0

  public override init(frame: CGRect) {
    super.init(frame: frame)
    backgroundColor = .clear
    contentView.backgroundColor = .clear
  }

  public required init?(coder: NSCoder) { return nil }

  /// A new card cell of the row's kind.
  func makeCardCell() -> UICollectionViewCell { ShadowedCardCell(frame: .zero) }

  func card(in cell: UICollectionViewCell) -> CardView {
    (cell as? ShadowedCardCell)?.card ?? (cell as! ClearCardCell).card
  }

  /// Shows the cards `indices` in a row of `columns`, each with its content and tap count.
  func configure(
    _ indices: Range<Int>, columns: Int, content: (Int) -> CardContent, tapCount: (Int) -> Int,
    onTap: @escaping (Int, Int) -> Void
  ) {
    if cardCells.count != columns {
      for c in cardCells { c.removeFromSuperview() }
      cardCells = (0..<columns).map { _ in makeCardCell() }
      for c in cardCells { contentView.addSubview(c) }
      setNeedsLayout()
    }
    shown = min(columns, indices.count)
    for (i, cell) in cardCells.enumerated() {
      cell.isHidden = i >= shown
      guard i < shown else { continue }
      let card = card(in: cell)
      let index = indices.lowerBound + i
      card.configure(with: content(index), tapCount: tapCount(index))
      card.onTap = onTap
    }
  }

  public override func layoutSubviews() {
    super.layoutSubviews()
    let w = contentView.bounds.width
    let cols = max(1, cardCells.count)
    let s = CardsViewController.spacing
    let cardWidth = ((w - CGFloat(cols - 1) * s) / CGFloat(cols)).rounded(.down)
    for (i, cell) in cardCells.enumerated() {
      cell.frame = CGRect(x: CGFloat(i) * (cardWidth + s), y: 0, width: cardWidth, height: CardView.height)
    }
  }
}

/// A row of a container section: the clear container with the row's one shadow (seed 001).
public final class ShelfCell: CardRowCell {
  public override init(frame: CGRect) {
    super.init(frame: frame)
    layer.shadowColor = UIColor.black.cgColor
    layer.shadowOpacity = 0.28
    layer.shadowOffset = CGSize(width: 0, height: 4)
    layer.shadowRadius = 8
  }

  public required init?(coder: NSCoder) { return nil }

  override func makeCardCell() -> UICollectionViewCell { ClearCardCell(frame: .zero) }
}
