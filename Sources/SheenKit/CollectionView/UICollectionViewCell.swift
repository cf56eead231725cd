import Foundation

/// A view a collection view shows and reuses (UIKit's `UICollectionReusableView`): headers,
/// footers, and the base of cells.
open class UICollectionReusableView: UIView {
  /// The identifier it was dequeued with.
  public internal(set) var reuseIdentifier: String?
  /// Whether the collection view dequeued it (a view made by the data source itself is not).
  var wasDequeued = false
  /// The layout pass that last showed it.
  var shownInPass = 0
  /// The item it last showed.
  var lastItem: ItemKey?

  public override init(frame: CGRect) {
    super.init(frame: frame)
  }

  public required init?(coder: NSCoder) { return nil }

  /// How a collection view makes a registered class: through `init(frame:)`, which subclasses
  /// override (their `init(frame:)` is the one that runs).
  public required convenience init(dequeuedWithFrame frame: CGRect) {
    self.init(frame: frame)
  }

  /// Called before the view is handed out again by `dequeueReusable…`; resets nothing by
  /// default.
  open func prepareForReuse() {}

  /// Called with the attributes the layout gives the view, before it is shown.
  open func apply(_ layoutAttributes: UICollectionViewLayoutAttributes) {}

  /// The attributes the view would like, for self-sizing (`estimatedItemSize`): by default the
  /// size its constraints give it, starting from the estimated size.
  open func preferredLayoutAttributesFitting(_ layoutAttributes: UICollectionViewLayoutAttributes)
    -> UICollectionViewLayoutAttributes
  {
    let a = layoutAttributes.copy()
    a.size = systemLayoutSizeFitting(
      layoutAttributes.size, withHorizontalFittingPriority: .fittingSizeLevel,
      verticalFittingPriority: .fittingSizeLevel)
    return a
  }
}

/// A cell of a collection view (UIKit's `UICollectionViewCell`): a `contentView` that fills it
/// (put content there), an optional `backgroundView` and `selectedBackgroundView` behind it, and
/// the highlighted and selected states the collection view sets.
open class UICollectionViewCell: UICollectionReusableView {
  /// Where the cell's content goes; always the cell's bounds.
  public let contentView = UIView()

  public override init(frame: CGRect) {
    super.init(frame: frame)
    contentView.frame = bounds
    addSubview(contentView)
  }

  public required init?(coder: NSCoder) { return nil }

  /// Behind the content, filling the cell.
  open var backgroundView: UIView? {
    didSet {
      if oldValue !== backgroundView { oldValue?.removeFromSuperview() }
      if let v = backgroundView {
        v.frame = bounds
        insertSubview(v, at: 0)
      }
    }
  }

  /// Behind the content and above `backgroundView`, shown while selected or highlighted.
  open var selectedBackgroundView: UIView? {
    didSet {
      if oldValue !== selectedBackgroundView { oldValue?.removeFromSuperview() }
      if let v = selectedBackgroundView {
        v.frame = bounds
        insertSubview(v, at: backgroundView == nil ? 0 : 1)
        v.isHidden = !(isSelected || isHighlighted)
      }
    }
  }

  open override func layoutSubviews() {
    super.layoutSubviews()
    contentView.frame = bounds
    backgroundView?.frame = bounds
    selectedBackgroundView?.frame = bounds
  }

  /// Set by the collection view while the item is selected.
  open var isSelected = false {
    didSet { selectedBackgroundView?.isHidden = !(isSelected || isHighlighted) }
  }

  /// Set by the collection view while a touch is down on the cell.
  open var isHighlighted = false {
    didSet { selectedBackgroundView?.isHidden = !(isSelected || isHighlighted) }
  }

  /// The content view's constraints give the size (when it has any inside).
  open override func preferredLayoutAttributesFitting(_ layoutAttributes: UICollectionViewLayoutAttributes)
    -> UICollectionViewLayoutAttributes
  {
    let a = layoutAttributes.copy()
    a.size = contentView.systemLayoutSizeFitting(
      layoutAttributes.size, withHorizontalFittingPriority: .fittingSizeLevel,
      verticalFittingPriority: .fittingSizeLevel)
    return a
  }
}
