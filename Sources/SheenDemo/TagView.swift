import SheenKit

/// A small tag rounded on chosen corners with a stroked outline, as seed 004's
/// `roundedCorners(radius:corners:strokeColor:lineWidth:)`: the fill is clipped to the shape and
/// the same shape is stroked over it.
///
/// Unlike the seed's SwiftUI clip plus overlay, the fill and the stroke are one `CAShapeLayer`
/// holding `UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:)`: the same picture without
/// an offscreen clip.
public final class TagView: UIView {
  public let label = UILabel()
  private let shape = CAShapeLayer()
  public private(set) var corners: UIRectCorner
  public let radius: CGFloat

  public init(text: String, hue: CGFloat, corners: UIRectCorner, radius: CGFloat = 8) {
    self.corners = corners
    self.radius = radius
    super.init(frame: .zero)
    isUserInteractionEnabled = false
    shape.lineWidth = 1
    layer.addSublayer(shape)
    label.font = UIFont.systemFont(ofSize: 11, weight: .medium)
    label.textAlignment = .center
    addSubview(label)
    configure(text: text, hue: hue, corners: corners)
  }

  /// Shows `text` tinted with `hue`, rounded on `corners` (a reused card's tag).
  public func configure(text: String, hue: CGFloat, corners: UIRectCorner) {
    let palette = HuePalette.of(hue)
    shape.fillColor = palette.tagFill
    shape.strokeColor = palette.tagStroke
    label.textColor = palette.tagText
    if label.text != text { label.text = text }
    if corners != self.corners {
      self.corners = corners
      setNeedsLayout()
    }
  }

  public required init?(coder: NSCoder) { return nil }

  public override func sizeThatFits(_ size: CGSize) -> CGSize {
    let text = label.sizeThatFits(size)
    return CGSize(width: text.width + 16, height: 20)
  }

  /// The size and corners the shape's path was made for.
  private var shaped: (size: CGSize, corners: UIRectCorner)?

  public override func layoutSubviews() {
    super.layoutSubviews()
    label.frame = bounds
    shape.frame = bounds
    // The path follows the size and the corners only.
    if let s = shaped, s.size == bounds.size, s.corners == corners { return }
    shaped = (bounds.size, corners)
    // Inset by half the line width, so that the stroke stays inside the bounds; a size and
    // corners seen before (another card's tag of the same width) take the path made then.
    shape.path = ShapePaths.roundedRect(size: bounds.size, inset: 0.5, radius: radius, corners: corners)
  }
}
