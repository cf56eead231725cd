import Foundation
import SheenLayers
import SheenRaster
import SheenText

/// Horizontal text alignment (UIKit's `NSTextAlignment`).
public enum NSTextAlignment: Int, Sendable {
  case left = 0
  case center = 1
  case right = 2
  /// Unlike UIKit, drawn as `natural`.
  case justified = 3
  /// Left for a left-to-right paragraph, right for a right-to-left one (Arabic, Hebrew).
  case natural = 4
}

/// What happens to text that does not fit (UIKit's `NSLineBreakMode`). As in UIKit, a label of
/// several lines wraps at words (at characters with `byCharWrapping`) and the mode says what
/// becomes of the last line that fits: "…" replaces its start, middle or end (in reading order:
/// the end of a right-to-left line is its left end), or it is cut off (`byClipping`,
/// `byWordWrapping`, `byCharWrapping`). A one-line label truncates its line, clips it
/// (`byClipping`) or shows the words (characters) that fit (`byWordWrapping`, `byCharWrapping`).
public enum NSLineBreakMode: Int, Sendable {
  case byWordWrapping = 0
  case byCharWrapping
  case byClipping
  case byTruncatingHead
  case byTruncatingTail
  case byTruncatingMiddle
}

/// A view that draws text in any script (UIKit's `UILabel`) through a SheenLayers `TextLayer`,
/// centred vertically in its bounds as UIKit does.
open class UILabel: UIView {
  /// The layer that draws the text (not listed in `layer.sublayers`, as UIKit's own layers).
  let textLayer = TextLayer()

  public override init(frame: CGRect) {
    super.init(frame: frame)
    textLayer.owner = InternalLayerMarker.shared
    layer.sheenLayer.addSublayer(textLayer)
    isUserInteractionEnabled = false
    isOpaque = false
    updateTextLayer()
  }

  public required init?(coder: NSCoder) { return nil }

  open var text: String? {
    didSet { if text != oldValue { textDidChange() } }
  }
  /// The system font at 17 points by default.
  open var font: UIFont! = .systemFont(ofSize: 17) {
    didSet { if font != oldValue { textDidChange() } }
  }
  open var textColor: UIColor! = .label {
    didSet { textLayer.foregroundColor = (textColor ?? .label).color }
  }
  open var textAlignment = NSTextAlignment.natural {
    didSet { updateTextLayer() }
  }
  /// 1 by default; 0 means as many as fit.
  open var numberOfLines = 1 {
    didSet { if numberOfLines != oldValue { textDidChange() } }
  }
  open var lineBreakMode = NSLineBreakMode.byTruncatingTail {
    didSet { updateTextLayer() }
  }
  /// Stored; Sheen has no highlighted text colour.
  open var highlightedTextColor: UIColor?
  open var isHighlighted = false
  open var isEnabled = true

  /// The text is laid out at the label's width in the next layout pass, not here: a reused
  /// cell's label given another item's text still has the old item's width until Auto Layout
  /// sizes it, and a layout at that width would be made (shaped) only to be thrown away.
  private func textDidChange() {
    updateTextLayer(measuring: false)
    invalidateIntrinsicContentSize()
    setNeedsLayout()
  }

  open override func layoutSubviews() {
    super.layoutSubviews()
    updateTextLayer()
  }

  private var style: TextStyle? {
    let f = font ?? .systemFont(ofSize: 17)
    let family = f.family
    guard family.primary != nil else { return nil }
    let alignment: TextAlignment
    switch textAlignment {
    case .left: alignment = .left
    case .center: alignment = .center
    case .right: alignment = .right
    case .natural, .justified: alignment = .natural
    }
    return TextStyle(
      family: family, size: Double(f.pointSize), alignment: alignment, wraps: wraps, truncation: truncation,
      wrapping: lineBreakMode == .byCharWrapping ? .characters : .words)
  }

  /// Whether the text wraps: on several lines always; on one line, to show the words (or
  /// characters) that fit.
  private var wraps: Bool {
    switch lineBreakMode {
    case .byWordWrapping, .byCharWrapping: return true
    case .byClipping, .byTruncatingHead, .byTruncatingMiddle, .byTruncatingTail: return numberOfLines != 1
    }
  }

  private var truncation: TextTruncation {
    switch lineBreakMode {
    case .byWordWrapping, .byCharWrapping, .byClipping: return .none
    case .byTruncatingHead: return .start
    case .byTruncatingMiddle: return .middle
    case .byTruncatingTail: return .end
    }
  }

  /// The height of the text's first `numberOfLines` lines (all when 0): lines in another
  /// script may be taller than the font's own (a fallback font's metrics).
  private func height(of layout: TextLayout) -> Double {
    guard numberOfLines > 0, layout.lines.count > numberOfLines else { return layout.size.height }
    let last = layout.lines[numberOfLines - 1]
    return last.origin.y + last.metrics.descent
  }

  /// Sizes and places the text layer: the text's height (at most `numberOfLines` lines and the
  /// bounds), centred vertically; the bounds' width.
  private func updateTextLayer(measuring: Bool = true) {
    let t = textLayer
    let string = text ?? ""
    t.string = string
    t.fontSize = Double((font ?? .systemFont(ofSize: 17)).pointSize)
    t.fontFamily = (font ?? .systemFont(ofSize: 17)).familyName
    t.fontWeight = (font ?? .systemFont(ofSize: 17)).fontWeight
    t.foregroundColor = (textColor ?? .label).color
    switch textAlignment {
    case .left: t.alignmentMode = .left
    case .center: t.alignmentMode = .center
    case .right: t.alignmentMode = .right
    case .natural, .justified: t.alignmentMode = .natural
    }
    let b = bounds
    guard let style, !string.isEmpty else {
      t.frame = Rect(x: 0, y: 0, width: Double(b.width), height: Double(b.height))
      return
    }
    t.isWrapped = style.wraps
    t.wrapsAtCharacters = style.wrapping == .characters
    switch style.truncation {
    case .none: t.truncationMode = .none
    case .start: t.truncationMode = .start
    case .middle: t.truncationMode = .middle
    case .end: t.truncationMode = .end
    }
    guard measuring else { return }
    // No height shows no line, whatever the text (the frame is the one the layout would give):
    // a label configured before it is laid out (text, then font, then line count) shapes
    // nothing for a size it never shows.
    guard b.height > 0 else {
      t.frame = Rect(x: 0, y: 0, width: Double(b.width), height: Double(b.height) + 0.5)
      return
    }
    var h = height(of: TextLayout.cached(string, style: style, width: Double(b.width)))
    h = min(h, Double(b.height))
    // Keep whole lines: a text layer keeps only lines that fit its height.
    t.frame = Rect(x: 0, y: (Double(b.height) - h) / 2, width: Double(b.width), height: h + 0.5)
  }

  /// The text's size within `size` (at most `numberOfLines` lines), rounded up to whole points.
  open override func sizeThatFits(_ size: CGSize) -> CGSize {
    guard let style, let string = text, !string.isEmpty else { return .zero }
    // An unbounded width (a stack asking for the text's ideal size) lays out as no width: one
    // cached layout for both.
    let bounded = size.width > 0 && size.width < .greatestFiniteMagnitude
    let width: Double? = style.wraps && numberOfLines != 1 && bounded ? Double(size.width) : nil
    let layout = TextLayout.cached(string, style: style, width: width)
    var s = layout.size
    s.height = height(of: layout)
    return CGSize(width: CGFloat(s.width.rounded(.up)), height: CGFloat(s.height.rounded(.up)))
  }

  /// The width at which a wrapping label's intrinsic height is measured under Auto Layout; 0
  /// (the default) means the width the layout gives it.
  open var preferredMaxLayoutWidth: CGFloat = 0 {
    didSet { if preferredMaxLayoutWidth != oldValue { invalidateIntrinsicContentSize() } }
  }

  /// The text on one line (or, with `preferredMaxLayoutWidth`, wrapped to it).
  open override var intrinsicContentSize: CGSize {
    intrinsicSize(forWidth: numberOfLines != 1 ? preferredMaxLayoutWidth : 0)
  }

  /// The text's size wrapped at `width` (unwrapped when 0 or less).
  func intrinsicSize(forWidth width: CGFloat) -> CGSize {
    guard text.map({ !$0.isEmpty }) ?? false else { return .zero }
    let w = width > 0 ? width : CGFloat.greatestFiniteMagnitude
    return sizeThatFits(CGSize(width: w, height: .greatestFiniteMagnitude))
  }
}
