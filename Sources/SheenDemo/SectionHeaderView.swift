import SheenKit

/// A section's header in the list's collection view: its title and a line saying what it shows,
/// inset by the list's margin, placed with constraints.
public final class SectionHeaderView: UICollectionReusableView {
  public let titleLabel = UILabel()
  public let detailLabel = UILabel()
  /// The header's height in points.
  static let height: CGFloat = 64

  public override init(frame: CGRect) {
    super.init(frame: frame)
    titleLabel.font = UIFont.systemFont(ofSize: 20, weight: .bold)
    titleLabel.textColor = UIColor(white: 0.12, alpha: 1)
    detailLabel.font = UIFont.systemFont(ofSize: 13)
    detailLabel.textColor = UIColor(white: 0.4, alpha: 1)
    for l in [titleLabel, detailLabel] {
      l.translatesAutoresizingMaskIntoConstraints = false
      addSubview(l)
    }
    let m = CardsViewController.margin
    NSLayoutConstraint.activate([
      titleLabel.leadingAnchor.constraint(equalTo: leadingAnchor, constant: m),
      titleLabel.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -m),
      titleLabel.topAnchor.constraint(equalTo: topAnchor, constant: 8),
      titleLabel.heightAnchor.constraint(equalToConstant: 26),
      detailLabel.leadingAnchor.constraint(equalTo: titleLabel.leadingAnchor),
      detailLabel.trailingAnchor.constraint(equalTo: titleLabel.trailingAnchor),
      detailLabel.topAnchor.constraint(equalTo: topAnchor, constant: 36),
      detailLabel.heightAnchor.constraint(equalToConstant: 18),
    ])
  }

  public required init?(coder: NSCoder) { return nil }

  func configure(_ section: DemoContent.Section) {
    if titleLabel.text != section.title { titleLabel.text = section.title }
    if detailLabel.text != section.detail { detailLabel.text = section.detail }
  }
}

/// The list's own header (`ListHeaderView`) as the first section's header, 20 points in from
/// the edges and 12 above the first section, pinned with constraints.
public final class ListHeaderReusableView: UICollectionReusableView {
  public let header = ListHeaderView()
  /// The header's height with its margins.
  static let height = CardsViewController.margin + ListHeaderView.height + 12

  public override init(frame: CGRect) {
    super.init(frame: frame)
    header.translatesAutoresizingMaskIntoConstraints = false
    addSubview(header)
    let m = CardsViewController.margin
    NSLayoutConstraint.activate([
      header.leadingAnchor.constraint(equalTo: leadingAnchor, constant: m),
      header.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -m),
      header.topAnchor.constraint(equalTo: topAnchor, constant: m),
      header.heightAnchor.constraint(equalToConstant: ListHeaderView.height),
    ])
  }

  public required init?(coder: NSCoder) { return nil }
}
