import SheenRaster
import SheenText

/// A layer that draws text (Core Animation's `CATextLayer`) in any script: a fontconfig family
/// (the bundled DejaVu Sans by default) with fontconfig's fallbacks, shaped, ordered and broken
/// into lines as a desktop does it (`TextLayout`), clipped to its bounds as Core Animation draws
/// a text layer into a bitmap of its size.
public final class TextLayer: Layer {
  /// UIFont.Weight's nine names.
  public typealias FontWeight = SheenText.FontWeight

  /// The longest `fontFamily` accepted (fontconfig's own names are far shorter).
  public static let maxFamilyLength = 256

  public enum AlignmentMode: Hashable, Sendable {
    case natural, left, center, right
  }

  /// Which part of a line that does not fit "…" replaces, in reading order (with wrapping and
  /// a height: of the last line that fits, which shows the rest of its paragraph).
  public enum TruncationMode: Hashable, Sendable {
    case none, start, middle, end
  }

  public var string = "" { didSet { if string != oldValue { setNeedsDisplay() } } }
  /// Points.
  public var fontSize: Double = 17 { didSet { if fontSize != oldValue { setNeedsDisplay() } } }
  public var fontWeight: FontWeight = .regular { didSet { if fontWeight != oldValue { setNeedsDisplay() } } }
  /// A family name as fontconfig knows it; characters it lacks fall back through fontconfig, and a
  /// family nobody has is fontconfig's default.
  public var fontFamily: String = FontFamily.defaultName {
    didSet { if fontFamily != oldValue { setNeedsDisplay() } }
  }
  public var foregroundColor: Color = .black {
    didSet { if foregroundColor != oldValue { setNeedsDisplay() } }
  }
  public var alignmentMode: AlignmentMode = .natural {
    didSet { if alignmentMode != oldValue { setNeedsDisplay() } }
  }
  public var isWrapped = false { didSet { if isWrapped != oldValue { setNeedsDisplay() } } }
  /// Wrapped lines break between any two characters (grapheme clusters) rather than only at
  /// UAX #14's opportunities (UIKit's `byCharWrapping`; Core Animation has no such mode).
  public var wrapsAtCharacters = false {
    didSet { if wrapsAtCharacters != oldValue { setNeedsDisplay() } }
  }
  public var truncationMode: TruncationMode = .none {
    didSet { if truncationMode != oldValue { setNeedsDisplay() } }
  }

  public override init() { super.init() }

  public override var hasContent: Bool { !string.isEmpty }

  /// The laid-out text, kept until something that changes it changes.
  private var cachedLayout: (version: UInt64, layout: TextLayout)?

  /// The text laid out in the layer's bounds (wrapped and truncated as configured), or nil when
  /// no font can be loaded. Kept by `prepareForDrawing`, so that drawing on several
  /// threads only reads the layer.
  public var layout: TextLayout? {
    if let c = cachedLayout, c.version == contentVersion { return c.layout }
    return makeLayout()
  }

  private func makeLayout() -> TextLayout? {
    let family = FontLibrary.shared.family(fontFamily, weight: fontWeight)
    guard family.primary != nil else { return nil }
    let alignment: TextAlignment
    switch alignmentMode {
    case .natural: alignment = .natural
    case .left: alignment = .left
    case .center: alignment = .center
    case .right: alignment = .right
    }
    let truncation: TextTruncation
    switch truncationMode {
    case .none: truncation = .none
    case .start: truncation = .start
    case .middle: truncation = .middle
    case .end: truncation = .end
    }
    let style = TextStyle(
      family: family, size: fontSize, alignment: alignment, wraps: isWrapped, truncation: truncation,
      wrapping: wrapsAtCharacters ? .characters : .words)
    return TextLayout.cached(string, style: style, width: frame.width, height: frame.height)
  }

  /// The inputs of the layout (`makeLayout`): the glyphs' coverage depends on nothing else.
  public override func hashShapeInputs(into hasher: inout Hasher) -> Bool {
    hasher.combine(string)
    hasher.combine(fontSize)
    hasher.combine(fontWeight)
    hasher.combine(fontFamily)
    hasher.combine(alignmentMode)
    hasher.combine(isWrapped)
    hasher.combine(truncationMode)
    hasher.combine(frame.size)
    return true
  }

  public override func prepareForDrawing() {
    if let c = cachedLayout, c.version == contentVersion { return }
    if let l = makeLayout() { cachedLayout = (contentVersion, l) }
  }

  public override func displayContent() -> LayerContent? {
    guard let layout, foregroundColor.alpha > 0 else { return nil }
    return .text(layout, color: foregroundColor, clip: bounds)
  }
}
