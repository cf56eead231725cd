import SheenKit

/// A cell of the container-shadow section (seed 001): the cell and its content view stay clear;
/// only the card inside draws, rounded and clipped, so the container's one shadow takes the
/// card's shape. The card is pinned to the content view's edges with constraints, as the seed's
/// `CardCell` pins it.
public final class ClearCardCell: UICollectionViewCell {
  public let card = CardView(content: CardContent(index: 0))

  public override init(frame: CGRect) {
    super.init(frame: frame)
    backgroundColor = .clear
    contentView.backgroundColor = .clear
    card.translatesAutoresizingMaskIntoConstraints = false
    contentView.addSubview(card)
    NSLayoutConstraint.activate([
      card.leadingAnchor.constraint(equalTo: contentView.leadingAnchor),
      card.trailingAnchor.constraint(equalTo: contentView.trailingAnchor),
      card.topAnchor.constraint(equalTo: contentView.topAnchor),
      card.bottomAnchor.constraint(equalTo: contentView.bottomAnchor),
    ])
  }

  public required init?(coder: NSCoder) { return nil }
}

/// A cell with its own shadow (seeds 000 and 003): the layer does not clip, so its shadow shows;
/// the card inside clips to radius 16 and is pinned to the content view with constraints;
/// `shadowPath` is the rounded bounds, set again whenever the cell's size changes.
public final class ShadowedCardCell: UICollectionViewCell {
  public let card = CardView(content: CardContent(index: 0))
  public var cornerRadius: CGFloat = 16

  public override init(frame: CGRect) {
    super.init(frame: frame)
    card.translatesAutoresizingMaskIntoConstraints = false
    contentView.addSubview(card)
    NSLayoutConstraint.activate([
      card.leadingAnchor.constraint(equalTo: contentView.leadingAnchor),
      card.trailingAnchor.constraint(equalTo: contentView.trailingAnchor),
      card.topAnchor.constraint(equalTo: contentView.topAnchor),
      card.bottomAnchor.constraint(equalTo: contentView.bottomAnchor),
    ])

    // Masks to bounds false, so that the shadow is not clipped (seed 003).
    layer.cornerRadius = cornerRadius
    layer.masksToBounds = false
    layer.shadowRadius = 8
    layer.shadowOpacity = 0.10
    layer.shadowColor = UIColor.black.cgColor
    layer.shadowOffset = CGSize(width: 0, height: 5)
  }

  public required init?(coder: NSCoder) { return nil }

  public override func layoutSubviews() {
    super.layoutSubviews()
    // An explicit shadowPath: the shadow's shape is known without looking at the pixels.
    layer.shadowPath = UIBezierPath(roundedRect: bounds, cornerRadius: cornerRadius).cgPath
  }
}
