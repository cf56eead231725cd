import Foundation
import SheenLayers
import SheenRaster

/// A view that shows an image (UIKit's `UIImageView`) as its layer's contents: placed by
/// `contentMode` (every mode: scale to fill, aspect fit and fill, and the nine natural-size
/// placements), clipped by `clipsToBounds`, a resizable image stretched in nine parts.
///
/// Unlike UIKit, images are not tinted (`tintColor` and rendering modes are ignored) and there is
/// no animation of `animationImages`.
open class UIImageView: UIView {
  open var image: UIImage? {
    didSet { if image !== oldValue { shownImageDidChange() } }
  }
  /// Shown instead of `image` while `isHighlighted`, when set.
  open var highlightedImage: UIImage? {
    didSet { if highlightedImage !== oldValue { shownImageDidChange() } }
  }
  open var isHighlighted = false {
    didSet { if isHighlighted != oldValue { shownImageDidChange() } }
  }

  public override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
    isOpaque = false
  }

  /// A view the size of the image, showing it.
  public convenience init(image: UIImage?) {
    self.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
    self.image = image
    shownImageDidChange()
  }

  public convenience init(image: UIImage?, highlightedImage: UIImage?) {
    self.init(image: image)
    self.highlightedImage = highlightedImage
  }

  public required init?(coder: NSCoder) { return nil }

  /// The image's size; with no image, none (`noIntrinsicMetric` both ways), as UIKit's.
  open override var intrinsicContentSize: CGSize {
    shownImage?.size ?? CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)
  }

  open override func sizeThatFits(_ size: CGSize) -> CGSize { shownImage?.size ?? .zero }

  private var shownImage: UIImage? { isHighlighted ? (highlightedImage ?? image) : image }

  /// What shows changed: new contents and, when its size changed, a new intrinsic size.
  private func shownImageDidChange() {
    let old = shownSize
    updateContents()
    shownSize = shownImage?.size
    if shownSize != old { invalidateIntrinsicContentSize() }
  }

  /// The size of the image shown when it last changed.
  private var shownSize: CGSize?

  private func updateContents() {
    let l = layer.sheenLayer
    guard let shown = shownImage, let cg = shown.cgImage else {
      l.contents = nil
      return
    }
    l.contents = cg.rasterImage
    l.contentsScale = Double(shown.scale)
    l.contentsCenter = shown.contentsCenter.sheen
    l.contentsCenterTiles = shown.tiles
  }
}
