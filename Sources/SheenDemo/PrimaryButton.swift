import SheenKit
import SheenLayers

/// The card's "primary" button in the style of seed 002: a vertical background gradient, a
/// one-point gradient border drawn through a mask (a stroked rounded rectangle), radius 4, a
/// small shadow and a bold uppercase white title.
///
/// Press feedback (DESIGN.md, "Motion"): touch-down shrinks the button to 0.95 and tightens its
/// shadow with a fast ease-out (0.12 s); touch-up, or a cancel, springs it back (damping 0.5 over
/// 0.4 s, a slight overshoot). While highlighted the gradient darkens, so a press shows even in a
/// still picture.
///
/// Unlike the seed, which inserts new layers on every `layoutSubviews`, the layers are made once
/// and only their frames and paths follow the bounds.
public final class PrimaryButton: UIButton {
  /// The scale a pressed button shrinks to.
  public static let pressedScale: CGFloat = 0.95
  /// Seconds of the release spring.
  public static let pressDuration: TimeInterval = 0.4
  /// Seconds of the touch-down ease-out.
  public static let pressDownDuration: TimeInterval = 0.12
  /// Damping ratio of the release spring.
  public static let pressDamping: CGFloat = 0.5

  private let borderGradient = CAGradientLayer()
  private let borderMask = CAShapeLayer()
  private let background = CAGradientLayer()
  /// The tint; a reused card sets its own.
  public var hue: CGFloat {
    didSet {
      if hue != oldValue {
        updateBorder()
        updateBackground()
      }
    }
  }

  /// A button tinted with `hue` (seed 002 uses 0.72, a violet).
  public init(hue: CGFloat = 0.72) {
    self.hue = hue
    super.init(frame: .zero)

    // Border: a gradient seen only through a one-point stroke of the rounded rectangle.
    updateBorder()
    borderGradient.cornerRadius = 4
    borderMask.lineWidth = 1
    borderMask.fillColor = UIColor.clear.cgColor
    borderMask.strokeColor = UIColor.black.cgColor
    borderGradient.mask = borderMask
    layer.insertSublayer(borderGradient, below: titleLabel?.layer)

    // Background.
    background.cornerRadius = 4
    layer.insertSublayer(background, below: borderGradient)
    updateBackground()

    // Shadow.
    layer.shadowColor = UIColor.black.cgColor
    layer.shadowOffset = CGSize(width: 0, height: 0.5)
    layer.shadowOpacity = 0.2
    layer.shadowRadius = 1
    layer.masksToBounds = false

    // Text.
    setTitleColor(UIColor.white, for: .normal)
    titleLabel?.font = UIFont.systemFont(ofSize: 12, weight: .bold)

    addAction(for: .touchDown) { [weak self] in self?.animatePress(down: true) }
    addAction(for: [.touchUpInside, .touchUpOutside, .touchCancel]) { [weak self] in
      self?.animatePress(down: false)
    }
  }

  public required init?(coder: NSCoder) { return nil }

  /// Titles are shown uppercased, as the seed does.
  public override func setTitle(_ title: String?, for state: UIControl.State) {
    super.setTitle(title?.uppercased(), for: state)
  }

  public override func layoutSubviews() {
    super.layoutSubviews()
    borderGradient.frame = bounds
    background.frame = bounds
    // The border's path follows the size only.
    if borderSize != bounds.size {
      borderSize = bounds.size
      borderMask.path = ShapePaths.roundedRect(size: bounds.size, radius: 4)
    }
  }

  /// The size the border's path was made for.
  private var borderSize: CGSize?

  public override func stateDidChange() {
    super.stateDidChange()
    updateBackground()
  }

  private func updateBorder() {
    borderGradient.colors = HuePalette.of(hue).buttonBorder
  }

  private func updateBackground() {
    // Darkened to 78 % while highlighted.
    let palette = HuePalette.of(hue)
    background.colors = isHighlighted ? palette.buttonBackgroundPressed : palette.buttonBackground
  }

  /// Eases to the pressed look (`down`) or springs back to rest.
  private func animatePress(down: Bool) {
    // Hold the running animation where it is on screen before starting the next one.
    let shown = layer.sheenLayer
    UIView.performWithoutAnimation {
      transform = CGAffineTransform(
        scaleX: CGFloat(shown.transform.scaleX), y: CGFloat(shown.transform.scaleY))
      layer.shadowRadius = CGFloat(shown.shadowRadius)
      layer.shadowOffset = CGSize(width: shown.shadowOffset.width, height: shown.shadowOffset.height)
    }
    let look = {
      let s = down ? PrimaryButton.pressedScale : 1
      self.transform = CGAffineTransform(scaleX: s, y: s)
      self.layer.shadowRadius = down ? 0.5 : 1
      self.layer.shadowOffset = CGSize(width: 0, height: down ? 0.25 : 0.5)
    }
    if down {
      UIView.animate(
        withDuration: PrimaryButton.pressDownDuration, delay: 0,
        options: [.allowUserInteraction, .beginFromCurrentState, .curveEaseOut], animations: look)
    } else {
      UIView.animate(
        withDuration: PrimaryButton.pressDuration, delay: 0,
        usingSpringWithDamping: PrimaryButton.pressDamping,
        initialSpringVelocity: 0, options: [.allowUserInteraction, .beginFromCurrentState], animations: look)
    }
  }
}
