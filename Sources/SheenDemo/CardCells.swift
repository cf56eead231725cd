import SheenKit

/// A cell of the container-shadow section (seed 001): the cell and its content view stay clear;
/// only the card inside draws, rounded and clipped, so the container's one shadow takes the
/// card's shape.
public final class ClearCardCell: UICollectionViewCell {
  public let card: CardView

  public init(content: CardContent) {
    card = CardView(content: content)
    super.init(frame: .zero)
    backgroundColor = .clear
    contentView.backgroundColor = .clear
    contentView.addSubview(card)
  }

  public required init?(coder: NSCoder) { return nil }

  /// What a collection view would make: the first card.
  public required convenience init(dequeuedWithFrame frame: CGRect) {
    self.init(content: CardContent(index: 0))
    self.frame = frame
  }

  public override func layoutSubviews() {
    super.layoutSubviews()
    card.frame = contentView.bounds
  }
}

/// A cell with its own shadow (seeds 000 and 003): the layer does not clip, so its shadow shows;
/// the card inside clips to radius 16; `shadowPath` is the rounded bounds, set again whenever the
/// cell's size changes.
public final class ShadowedCardCell: UICollectionViewCell {
  public let card: CardView
  public var cornerRadius: CGFloat = 16

  public init(content: CardContent) {
    card = CardView(content: content)
    super.init(frame: .zero)
    contentView.addSubview(card)

    // Masks to bounds false, so that the shadow is not clipped (seed 003).
    layer.cornerRadius = cornerRadius
    layer.masksToBounds = false
    layer.shadowRadius = 8
    layer.shadowOpacity = 0.10
    layer.shadowColor = UIColor.black.cgColor
    layer.shadowOffset = CGSize(width: 0, height: 5)
  }

  public required init?(coder: NSCoder) { return nil }

  /// What a collection view would make: the first card.
  public required convenience init(dequeuedWithFrame frame: CGRect) {
    self.init(content: CardContent(index: 0))
    self.frame = frame
  }

  public override func layoutSubviews() {
    super.layoutSubviews()
    card.frame = contentView.bounds
    // An explicit shadowPath: the shadow's shape is known without looking at the pixels.
    layer.shadowPath = UIBezierPath(roundedRect: bounds, cornerRadius: cornerRadius).cgPath
  }
}
