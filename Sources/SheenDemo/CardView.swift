import SheenKit
import Synchronization

/// One card: radius 16, clipped, so that the header (a coloured strip, some with a small chart
/// drawn in `draw(_:)`, a generated picture or a photo, aspect fill) follows the rounded corners; a round photo avatar beside some titles; a bold title, a two-line subtitle truncated with an ellipsis,
/// tags rounded on chosen corners, and a primary button whose taps the card counts (a badge with
/// a checkmark and the count appears in the header).
///
/// A card in a reused cell shows one content after another: `configure(with:tapCount:)` sets
/// everything that depends on it (its views are made once).
public final class CardView: UIView {
  /// The card's height in points.
  public static let height: CGFloat = 200
  static let headerHeight: CGFloat = 72
  static let inset: CGFloat = 16

  public private(set) var content: CardContent
  public let titleLabel = UILabel()
  public let subtitleLabel = UILabel()
  public let button: PrimaryButton
  /// Tag views, made as contents need them; only the first `content.tags.count` show.
  public private(set) var tags: [TagView] = []
  /// Taps of the button that ended inside it.
  public private(set) var tapCount = 0
  /// Told of each tap (with the card's index and its new count), so the count outlives reuse.
  public var onTap: ((Int, Int) -> Void)?

  private let header = UIView()
  private let picture = CAGradientLayer()
  /// The header's photo (`.photo` headers) and the avatar beside the title.
  private let photoView = UIImageView()
  private let avatarView = UIImageView()
  private var circles: [CAShapeLayer] = []
  /// The small chart some flat headers show (`CardContent.trend`), drawn in `draw(_:)`.
  public let sparkline = SparklineView()
  private let badge = UIView()
  private let badgeCheck = CAShapeLayer()
  private let badgeLabel = UILabel()

  public init(content: CardContent) {
    self.content = content
    button = PrimaryButton(hue: CGFloat(content.buttonHue))
    super.init(frame: .zero)
    backgroundColor = .white
    layer.cornerRadius = 16
    clipsToBounds = true

    header.isUserInteractionEnabled = false
    // A generated picture (shown for `.image` headers): a diagonal gradient with a few
    // translucent circles.
    picture.startPoint = CGPoint(x: 0, y: 0)
    picture.endPoint = CGPoint(x: 1, y: 1)
    header.layer.addSublayer(picture)
    for i in 0..<3 {
      let c = CAShapeLayer()
      c.fillColor = UIColor(white: 1, alpha: 0.16 + 0.06 * CGFloat(i)).cgColor
      header.layer.addSublayer(c)
      circles.append(c)
    }
    // The photo fills the header (aspect fill), cut at the header's bottom edge; the card's
    // rounded clip cuts its top corners.
    photoView.contentMode = .scaleAspectFill
    photoView.clipsToBounds = true
    photoView.isHidden = true
    header.addSubview(photoView)
    sparkline.isHidden = true
    header.addSubview(sparkline)
    addSubview(header)

    avatarView.contentMode = .scaleAspectFill
    avatarView.clipsToBounds = true
    avatarView.layer.cornerRadius = CardView.avatarSize / 2
    avatarView.isHidden = true
    addSubview(avatarView)

    titleLabel.font = UIFont.systemFont(ofSize: 17, weight: .bold)
    titleLabel.textColor = .label
    addSubview(titleLabel)

    subtitleLabel.font = UIFont.systemFont(ofSize: 13)
    subtitleLabel.textColor = UIColor(white: 0.38, alpha: 1)
    subtitleLabel.numberOfLines = 2
    subtitleLabel.lineBreakMode = .byTruncatingTail
    addSubview(subtitleLabel)

    button.addAction(for: .touchUpInside) { [weak self] in self?.buttonTapped() }
    addSubview(button)

    badge.backgroundColor = UIColor(white: 1, alpha: 0.92)
    badge.layer.cornerRadius = 12
    badge.isHidden = true
    badge.isUserInteractionEnabled = false
    badgeCheck.strokeColor = UIColor.systemGreen.cgColor
    badgeCheck.fillColor = nil
    badgeCheck.lineWidth = 2.2
    badgeCheck.lineCap = .round
    badgeCheck.lineJoin = .round
    let check = UIBezierPath()
    check.move(to: CGPoint(x: 8, y: 12.5))
    check.addLine(to: CGPoint(x: 11.5, y: 16))
    check.addLine(to: CGPoint(x: 18, y: 8.5))
    badgeCheck.path = check.cgPath
    badge.layer.addSublayer(badgeCheck)
    badgeLabel.font = UIFont.systemFont(ofSize: 12, weight: .bold)
    badgeLabel.textColor = UIColor(white: 0.2, alpha: 1)
    badge.addSubview(badgeLabel)
    addSubview(badge)
    apply(content)
  }

  /// Shows `content`, with the badge for `tapCount` taps (none for 0).
  public func configure(with content: CardContent, tapCount: Int) {
    if content != self.content {
      self.content = content
      apply(content)
    }
    if tapCount != self.tapCount {
      self.tapCount = tapCount
      badge.isHidden = tapCount == 0
      badge.transform = .identity
      badge.alpha = 1
      badgeLabel.text = tapCount == 0 ? nil : "\(tapCount)"
      layoutBadge()
    }
  }

  /// Everything the content decides.
  private func apply(_ content: CardContent) {
    let hue = CGFloat(content.hue)
    let palette = HuePalette.of(hue)
    var photo: UIImage?
    switch content.header {
    case .photo(let name):
      // Without the bundled photos, a strip.
      photo = CardView.photo(name)
      header.backgroundColor = photo == nil ? palette.header : nil
    case .strip:
      header.backgroundColor = palette.header
    case .image:
      header.backgroundColor = nil
      picture.colors = palette.picture
    }
    picture.isHidden = content.header != .image
    for c in circles { c.isHidden = content.header != .image }
    photoView.image = photo
    photoView.isHidden = photo == nil
    sparkline.isHidden = !content.hasTrend
    if content.hasTrend { sparkline.updateValues { content.trend(into: &$0) } }
    let avatar = content.avatar.flatMap(CardView.photo)
    avatarView.image = avatar
    avatarView.isHidden = avatar == nil

    if titleLabel.text != content.title { titleLabel.text = content.title }
    if subtitleLabel.text != content.subtitle { subtitleLabel.text = content.subtitle }

    // Each tag rounds a different choice of corners (seed 004).
    let choices = CardView.tagCorners
    for (i, t) in content.tags.enumerated() {
      let corners = choices[(content.index + i) % choices.count]
      if i < tags.count {
        tags[i].configure(text: t, hue: hue, corners: corners)
      } else {
        let tag = TagView(text: t, hue: hue, corners: corners)
        tags.append(tag)
        insertSubview(tag, belowSubview: button)
      }
    }
    shownTags = content.tags.count

    button.hue = CGFloat(content.buttonHue)
    button.setTitle(content.buttonTitle, for: .normal)
    setNeedsLayout()
  }

  /// The corners the tags round, in turn.
  static let tagCorners: [UIRectCorner] = [
    [.topLeft, .bottomRight], [.topRight, .bottomLeft], [.topLeft, .topRight], .allCorners,
  ]

  /// How many of `tags` the content uses (the rest stay hidden).
  private var shownTags = 0

  public required init?(coder: NSCoder) { return nil }

  static let avatarSize: CGFloat = 28

  /// The bundled photos, decoded once and shared by every card (nil when the assets are missing).
  /// Views are made on one thread per window, as UIKit's, but windows (tests) may run on several:
  /// the table is locked.
  private static let photos = Mutex<[String: UIImage?]>([:])

  static func photo(_ name: String) -> UIImage? {
    if let p = photos.withLock({ $0[name] }) { return p }
    let p = UIImage(named: name)
    photos.withLock { $0[name] = p }
    return p
  }

  public override func layoutSubviews() {
    super.layoutSubviews()
    let b = bounds
    let inset = CardView.inset
    header.frame = CGRect(x: 0, y: 0, width: b.width, height: CardView.headerHeight)
    if content.header == .image && circlesWidth != b.width {
      // The circles follow the width only.
      circlesWidth = b.width
      picture.frame = header.bounds
      let w = b.width
      let spots: [(CGFloat, CGFloat, CGFloat)] = [(0.78, 0.2, 46), (0.62, 1.0, 30), (0.93, 0.85, 22)]
      for (c, s) in zip(circles, spots) {
        c.frame = header.bounds
        c.path =
          UIBezierPath(ovalIn: CGRect(x: w * s.0 - s.2, y: 72 * s.1 - s.2, width: 2 * s.2, height: 2 * s.2))
          .cgPath
      }
    }
    photoView.frame = header.bounds
    sparkline.frame = CGRect(x: CardView.inset, y: 14, width: 104, height: 44)
    let textWidth = max(0, b.width - 2 * inset)
    var titleX = inset
    if !avatarView.isHidden {
      let s = CardView.avatarSize
      avatarView.frame = CGRect(x: inset, y: CardView.headerHeight + 7, width: s, height: s)
      titleX += s + 8
    }
    titleLabel.frame = CGRect(
      x: titleX, y: CardView.headerHeight + 10, width: max(0, textWidth - (titleX - inset)), height: 22)
    // Two lines of 13-point DejaVu Sans fit 34 points; fallback fonts (CJK, Devanagari) have taller lines.
    let subtitleHeight: CGFloat = content.language == nil ? 34 : 40
    subtitleLabel.frame = CGRect(
      x: inset, y: CardView.headerHeight + 34, width: textWidth, height: subtitleHeight)

    let buttonSize = button.sizeThatFits(.zero)
    let bw = max(76, buttonSize.width + 28)
    let bh: CGFloat = 28
    button.bounds = CGRect(x: 0, y: 0, width: bw, height: bh)
    button.center = CGPoint(x: b.width - inset - bw / 2, y: b.height - inset - bh / 2)

    var x = inset
    let tagY = b.height - inset - 14 - 10
    for (i, t) in tags.enumerated() {
      let s = t.sizeThatFits(.zero)
      // Tags that would run into the button are hidden (and those the content does not use).
      t.isHidden = i >= shownTags || x + s.width > b.width - inset - bw - 8
      t.frame = CGRect(x: x, y: tagY, width: s.width, height: s.height)
      x += s.width + 6
    }
    layoutBadge()
  }

  /// The width the picture's circles were made for.
  private var circlesWidth: CGFloat = -1

  private func layoutBadge() {
    let text = badgeLabel.sizeThatFits(.zero)
    let w = 24 + text.width + 8
    badge.bounds = CGRect(x: 0, y: 0, width: w, height: 24)
    badge.center = CGPoint(x: bounds.width - 12 - w / 2, y: 12 + 12)
    badgeLabel.frame = CGRect(x: 22, y: 0, width: text.width + 2, height: 24)
  }

  private func buttonTapped() {
    tapCount += 1
    onTap?(content.index, tapCount)
    badgeLabel.text = "\(tapCount)"
    layoutBadge()
    if badge.isHidden {
      badge.isHidden = false
      badge.transform = CGAffineTransform(scaleX: 0.4, y: 0.4)
      badge.alpha = 0
      UIView.animate(
        withDuration: 0.45, delay: 0, usingSpringWithDamping: 0.55, initialSpringVelocity: 0,
        animations: {
          self.badge.transform = .identity
          self.badge.alpha = 1
        })
    }
  }
}
