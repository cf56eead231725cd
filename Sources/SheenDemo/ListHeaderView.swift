import SheenKit

/// The list's header: what the demo is and what its sections show.
public final class ListHeaderView: UIView {
  public let titleLabel = UILabel()
  public let bodyLabel = UILabel()
  public let legendLabel = UILabel()
  private let accent = CAGradientLayer()

  static let height: CGFloat = 150

  public override init(frame: CGRect) {
    super.init(frame: frame)
    backgroundColor = UIColor(red: 0.11, green: 0.12, blue: 0.19, alpha: 1)
    layer.cornerRadius = 20
    clipsToBounds = true
    accent.colors = [
      UIColor(hue: 0.72, saturation: 0.6, brightness: 0.95, alpha: 1).cgColor,
      UIColor(hue: 0.55, saturation: 0.7, brightness: 0.9, alpha: 1).cgColor,
    ]
    accent.startPoint = CGPoint(x: 0, y: 0.5)
    accent.endPoint = CGPoint(x: 1, y: 0.5)
    layer.addSublayer(accent)

    titleLabel.text = "Sheen: \(DemoContent.cardCount) cards drawn by the CPU"
    titleLabel.font = UIFont.systemFont(ofSize: 24, weight: .bold)
    titleLabel.textColor = .white
    addSubview(titleLabel)

    bodyLabel.text =
      "A UIKit-style list: every card is a UIView with rounded, clipped corners, a gradient button and"
      + " stroked tags, composited each frame by Sheen's own rasterizer. Tap a button, drag, fling or"
      + " use the wheel and the keys."
    bodyLabel.font = UIFont.systemFont(ofSize: 14)
    bodyLabel.textColor = UIColor(white: 0.85, alpha: 1)
    bodyLabel.numberOfLines = 2
    addSubview(bodyLabel)

    legendLabel.text =
      "Odd sections: one shadow per clear row container (seed 001).  Even sections: a shadow per card"
      + " with an explicit shadowPath (seeds 000, 003)."
    legendLabel.font = UIFont.systemFont(ofSize: 13, weight: .semibold)
    legendLabel.textColor = UIColor(hue: 0.55, saturation: 0.35, brightness: 1, alpha: 1)
    legendLabel.numberOfLines = 2
    addSubview(legendLabel)
  }

  public required init?(coder: NSCoder) { return nil }

  /// Announces a list of `cardCount` cards.
  public func configure(cardCount: Int) {
    // The title is made only when the count changes (the header comes back into view often).
    guard cardCount != shownCount else { return }
    shownCount = cardCount
    let title = "Sheen: \(cardCount) cards drawn by the CPU"
    if titleLabel.text != title { titleLabel.text = title }
  }

  private var shownCount: Int?

  public override func layoutSubviews() {
    super.layoutSubviews()
    let w = bounds.width
    accent.frame = CGRect(x: 0, y: 0, width: w, height: 6)
    // Wide enough windows keep the text clear of the FPS overlay at the top right.
    let text = max(0, w - 48 - (w > 760 ? FPSOverlay.size.width : 0))
    titleLabel.frame = CGRect(x: 24, y: 22, width: text, height: 30)
    bodyLabel.frame = CGRect(x: 24, y: 58, width: text, height: 36)
    legendLabel.frame = CGRect(x: 24, y: 102, width: text, height: 34)
  }
}
