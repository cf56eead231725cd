import SheenRaster
import SheenText

/// A layer that draws text (Core Animation's `CATextLayer`) in the bundled DejaVu fonts, clipped
/// to its bounds as Core Animation draws a text layer into a bitmap of its size.
public final class TextLayer: Layer {
  public enum FontWeight: Hashable, Sendable {
    case regular
    case bold
  }

  public enum AlignmentMode: Hashable, Sendable {
    case natural, left, center, right
  }

  public enum TruncationMode: Hashable, Sendable {
    case none, end
  }

  public var string = "" { didSet { if string != oldValue { setNeedsDisplay() } } }
  /// Points.
  public var fontSize: Double = 17 { didSet { if fontSize != oldValue { setNeedsDisplay() } } }
  public var fontWeight: FontWeight = .regular { didSet { if fontWeight != oldValue { setNeedsDisplay() } } }
  public var foregroundColor: Color = .black {
    didSet { if foregroundColor != oldValue { setNeedsDisplay() } }
  }
  public var alignmentMode: AlignmentMode = .natural {
    didSet { if alignmentMode != oldValue { setNeedsDisplay() } }
  }
  public var isWrapped = false { didSet { if isWrapped != oldValue { setNeedsDisplay() } } }
  public var truncationMode: TruncationMode = .none {
    didSet { if truncationMode != oldValue { setNeedsDisplay() } }
  }

  public override init() { super.init() }

  public override var hasContent: Bool { !string.isEmpty }

  /// The laid-out text, kept until something that changes it changes.
  private var cachedLayout: (version: UInt64, layout: TextLayout)?

  /// The text laid out in the layer's bounds (wrapped and truncated as configured), or nil when
  /// the bundled fonts cannot be loaded. Kept by `prepareForDrawing`, so that drawing on several
  /// threads only reads the layer.
  public var layout: TextLayout? {
    if let c = cachedLayout, c.version == contentVersion { return c.layout }
    return makeLayout()
  }

  private func makeLayout() -> TextLayout? {
    guard let font = try? Font.bundled(fontWeight == .bold ? .bold : .regular) else { return nil }
    let alignment: TextAlignment
    switch alignmentMode {
    case .natural, .left: alignment = .left
    case .center: alignment = .center
    case .right: alignment = .right
    }
    let style = TextStyle(
      font: font, size: fontSize, alignment: alignment, wraps: isWrapped,
      truncation: truncationMode == .end ? .end : .none)
    return TextLayout(string, style: style, width: frame.width, height: frame.height)
  }

  public override func prepareForDrawing() {
    if let c = cachedLayout, c.version == contentVersion { return }
    if let l = makeLayout() { cachedLayout = (contentVersion, l) }
  }

  public override func drawContent(in canvas: Canvas, context: RenderContext) {
    guard let layout, foregroundColor.alpha > 0 else { return }
    // Core Animation draws a text layer into a bitmap of its size: clip to the bounds.
    canvas.clip(to: bounds)
    // Drawn again, the text is one fill of its recorded coverage rather than a glyph look-up
    // and blit per glyph (and the bands of a frame do not contend for the glyph cache's lock).
    let renderer = context.textRenderer
    let filled = context.coverageCache.fill(of: self, .text, paint: .solid(foregroundColor), in: canvas) {
      renderer.coverage(of: layout, at: .zero, transform: $0)
    }
    if !filled { canvas.drawText(layout, at: .zero, color: foregroundColor, renderer: renderer) }
  }
}
