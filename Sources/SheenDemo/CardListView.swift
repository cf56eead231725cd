import SheenKit

/// The demo's scrolling list: the header, then the sections of cards, laid out for the current
/// width (cards get as many columns as fit, so their widths follow the window).
public final class CardListView: UIScrollView {
  /// The narrowest a card may be before the grid drops a column.
  public static let minimumCardWidth: CGFloat = 300
  /// Space around the content.
  public static let margin: CGFloat = 20

  public let header = ListHeaderView()
  public private(set) var sections: [SectionView] = []
  private var laidOutWidth: CGFloat = -1

  public override init(frame: CGRect) {
    super.init(frame: frame)
    backgroundColor = UIColor(red: 0.93, green: 0.94, blue: 0.96, alpha: 1)
    alwaysBounceVertical = true
    addSubview(header)
    for s in DemoContent.sections {
      let v = SectionView(section: s)
      sections.append(v)
      addSubview(v)
    }
  }

  public required init?(coder: NSCoder) { return nil }

  /// Every card, top to bottom.
  public var cards: [CardView] { sections.flatMap(\.cards) }

  public override func layoutSubviews() {
    super.layoutSubviews()
    let w = bounds.width
    defer { clampOffset() }
    guard w != laidOutWidth else { return }
    laidOutWidth = w
    let m = CardListView.margin
    let inner = max(1, w - 2 * m)
    header.frame = CGRect(x: m, y: m, width: inner, height: ListHeaderView.height)
    var y = m + ListHeaderView.height + 12
    for s in sections {
      let h = SectionView.height(for: s.section, width: inner)
      s.frame = CGRect(x: m, y: y, width: inner, height: h)
      y += h + 16
    }
    contentSize = CGSize(width: w, height: y + m)
  }

  /// Keeps the offset in range after a resize (unless a drag or a bounce is moving it).
  private func clampOffset() {
    let maxY = max(0, contentSize.height - bounds.height)
    if contentOffset.y > maxY && !isDragging && !isDecelerating {
      contentOffset = CGPoint(x: 0, y: maxY)
    }
  }
}
