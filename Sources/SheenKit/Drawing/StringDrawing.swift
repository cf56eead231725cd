import Foundation
import SheenRaster
import SheenText

// UIKit's string drawing (`NSString` / `NSAttributedString` `draw(at:)`, `draw(in:)`,
// `size`, `boundingRect`) into the current context, with the attributes custom views use:
// `.font`, `.foregroundColor`, `.paragraphStyle` (alignment, line break mode) and `.kern`.
//
// A string of one style without `.kern`, wrapped at words or truncated at its tail, is one
// `TextLayout` (bidi across the whole paragraph). An attributed string of several runs (fonts,
// sizes, colours, backgrounds), kerned text, character wrapping and truncation at the head or in
// the middle go through `AttributedTextLayout`: pieces shaped per run and word, the kerning
// counted in line breaking, measuring and alignment.
//
// Unlike UIKit: an attributed string's pieces are ordered left to right (a right-to-left run
// reads correctly within each word); paragraph styles other than alignment and line break mode
// (spacing, indents, tab stops) are not read; `.underlineStyle`, `.strikethroughStyle`,
// `.shadow` and `.link` are ignored.

extension NSAttributedString.Key {
  public static let font = NSAttributedString.Key("NSFont")
  public static let foregroundColor = NSAttributedString.Key("NSColor")
  public static let backgroundColor = NSAttributedString.Key("NSBackgroundColor")
  public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
  public static let kern = NSAttributedString.Key("NSKern")
}

/// Paragraph settings for string drawing (UIKit's `NSParagraphStyle`).
open class NSParagraphStyle: @unchecked Sendable {
  public internal(set) var alignment = NSTextAlignment.natural
  public internal(set) var lineBreakMode = NSLineBreakMode.byWordWrapping
  public static let `default` = NSParagraphStyle()
  public init() {}
}

public final class NSMutableParagraphStyle: NSParagraphStyle, @unchecked Sendable {
  public override var alignment: NSTextAlignment {
    get { super.alignment }
    set { super.alignment = newValue }
  }
  public override var lineBreakMode: NSLineBreakMode {
    get { super.lineBreakMode }
    set { super.lineBreakMode = newValue }
  }
}

/// Options of `boundingRect(with:options:attributes:context:)` (UIKit's
/// `NSStringDrawingOptions`): with `.usesLineFragmentOrigin` the text wraps to the width, else
/// it is one line.
public struct NSStringDrawingOptions: OptionSet, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let usesLineFragmentOrigin = NSStringDrawingOptions(rawValue: 1 << 0)
  public static let usesFontLeading = NSStringDrawingOptions(rawValue: 1 << 1)
  public static let usesDeviceMetrics = NSStringDrawingOptions(rawValue: 1 << 3)
  public static let truncatesLastVisibleLine = NSStringDrawingOptions(rawValue: 1 << 5)
}

/// Stored; Sheen never scales text to fit.
public final class NSStringDrawingContext {
  public var minimumScaleFactor: CGFloat = 0
  public init() {}
}

/// The attributes resolved for drawing.
struct StringDrawingStyle {
  var font: UIFont
  var color: Color
  /// `.backgroundColor`: filled behind the text's line boxes.
  var background: Color?
  var alignment: NSTextAlignment
  var lineBreak: NSLineBreakMode
  var kern: Double

  init(_ attributes: [NSAttributedString.Key: Any]?) {
    let a = attributes ?? [:]
    font = a[.font] as? UIFont ?? .systemFont(ofSize: 12)
    if let c = a[.foregroundColor] as? UIColor {
      color = c.color
    } else if let c = a[.foregroundColor] as? CGColor {
      color = c.color
    } else {
      color = .black
    }
    if let c = a[.backgroundColor] as? UIColor {
      background = c.color
    } else if let c = a[.backgroundColor] as? CGColor {
      background = c.color
    }
    let p = a[.paragraphStyle] as? NSParagraphStyle
    alignment = p?.alignment ?? .natural
    lineBreak = p?.lineBreakMode ?? .byWordWrapping
    if let k = a[.kern] as? CGFloat {
      kern = Double(k)
    } else if let k = a[.kern] as? Double {
      kern = k
    } else if let k = a[.kern] as? Int {
      kern = Double(k)
    } else if let k = a[.kern] as? NSNumber {
      kern = k.doubleValue
    } else {
      kern = 0
    }
    if !kern.isFinite { kern = 0 }
  }

  /// A layout of `string`: one unwrapped line per paragraph without a width; wrapped (or
  /// truncated, per the line break mode) to `width` with one.
  /// Served from the layout cache (keyed by the font's shared family, fontconfig's fallbacks
  /// included): a redraw of the same strings shapes nothing.
  func layout(_ string: String, width: Double?, height: Double?) -> TextLayout? {
    guard font.face != nil, font.pointSize > 0, font.pointSize.isFinite else { return nil }
    let align: TextAlignment
    switch alignment {
    case .center: align = .center
    case .right: align = .right
    default: align = .left
    }
    let wraps = width != nil && (lineBreak == .byWordWrapping || lineBreak == .byCharWrapping)
    var truncation = TextTruncation.none
    if width != nil {
      switch lineBreak {
      case .byTruncatingHead: truncation = .start
      case .byTruncatingMiddle: truncation = .middle
      case .byTruncatingTail: truncation = .end
      case .byWordWrapping, .byCharWrapping, .byClipping: break
      }
    }
    let style = TextStyle(
      family: font.family, size: Double(font.pointSize), alignment: align,
      wraps: wraps || truncation != .none && height != nil, truncation: truncation,
      wrapping: lineBreak == .byCharWrapping ? .characters : .words)
    return TextLayout.cached(string, style: style, width: width, height: height)
  }

  /// The font's line metrics at its size.
  var metrics: LineMetrics {
    let size = Double(font.pointSize)
    guard size > 0, size.isFinite else { return LineMetrics(ascent: 0, descent: 0, lineGap: 0) }
    return font.face?.lineMetrics(size: size)
      ?? LineMetrics(ascent: size * 0.928, descent: size * 0.236, lineGap: 0)
  }

  /// Whether two styles draw text alike (so that their runs make one).
  func looksLike(_ o: StringDrawingStyle) -> Bool {
    font == o.font && color == o.color && background == o.background && kern == o.kern
      && alignment == o.alignment && lineBreak == o.lineBreak
  }

  /// The size of a layout as UIKit measures it: the widest line (with kerning) by one line
  /// height per line.
  func size(of layout: TextLayout) -> CGSize {
    let lineHeight = Double(font.lineHeight)
    var widest = 0.0
    for line in layout.lines { widest = max(widest, line.width + kern * Double(line.glyphs.count)) }
    return CGSize(width: CGFloat(widest), height: CGFloat(Double(layout.lines.count) * lineHeight))
  }

  /// Draws a layout with its top-left at `origin` (user space) in the current context.
  func draw(_ layout: TextLayout, at origin: Point, clip: Rect?) {
    guard let cg = UIGraphicsGetCurrentContext(), color.alpha > 0, !layout.lines.isEmpty else { return }
    let canvas = cg.canvas
    canvas.save()
    if let clip { canvas.clip(to: clip) }
    cg.painting { draw(layout, at: origin, in: canvas) }
    canvas.restore()
  }

  /// The glyphs of `layout` in the colour, `kern` points after each: their outlines filled at
  /// their exact positions, under any CTM (as Core Graphics draws text; the glyph cache's masks,
  /// at pixel and quarter-pixel positions, serve layers' text instead). Colour glyphs (emoji) are
  /// drawn as images.
  func draw(_ layout: TextLayout, at origin: Point, in canvas: Canvas) {
    var path = Path()
    for line in layout.lines {
      for (j, g) in line.glyphs.enumerated() {
        let face = layout.fonts[Int(g.font)]
        if face.hasColorBitmaps { continue }
        let s = layout.style.size / Double(face.unitsPerEm)
        let x = origin.x + line.origin.x + g.x + kern * Double(j)
        let y = origin.y + line.origin.y + g.y
        path.addPath(face.outline(of: g.id, transform: Transform(a: s, b: 0, c: 0, d: -s, tx: x, ty: y)))
      }
    }
    canvas.fill(path, paint: .solid(color))
    TextRenderer.shared.drawColorGlyphs(layout, at: origin, in: canvas)
  }
}

extension NSString {
  /// Draws the string on one line per paragraph with its top-left at `point`.
  public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
    (self as String).draw(at: point, withAttributes: attrs)
  }

  /// Draws the string wrapped (or truncated) to `rect`, clipped to it.
  public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
    (self as String).draw(in: rect, withAttributes: attrs)
  }

  public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
    (self as String).size(withAttributes: attrs)
  }

  public func boundingRect(
    with size: CGSize, options: NSStringDrawingOptions = [],
    attributes: [NSAttributedString.Key: Any]?, context: NSStringDrawingContext?
  ) -> CGRect {
    (self as String).boundingRect(with: size, options: options, attributes: attributes, context: context)
  }
}

extension String {
  public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
    StringDrawing(self, attrs).draw(at: point)
  }

  public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
    StringDrawing(self, attrs).draw(in: rect)
  }

  public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
    StringDrawing(self, attrs).size()
  }

  /// The size the string takes within `size`: wrapped to its width with
  /// `.usesLineFragmentOrigin`, else on one line.
  public func boundingRect(
    with size: CGSize, options: NSStringDrawingOptions = [],
    attributes: [NSAttributedString.Key: Any]?, context: NSStringDrawingContext?
  ) -> CGRect {
    StringDrawing(self, attributes).boundingRect(with: size, options: options)
  }
}

/// A string and its attributes, drawn and measured: through one `TextLayout` when it has one
/// style and no kerning, else through `AttributedTextLayout`.
struct StringDrawing {
  var runs: [(String, Int)]
  var styles: [StringDrawingStyle]

  init(_ string: String, _ attributes: [NSAttributedString.Key: Any]?) {
    runs = [(string, 0)]
    styles = [StringDrawingStyle(attributes)]
  }

  init(_ s: NSAttributedString) {
    runs = []
    styles = []
    let ns = s.string as NSString
    s.enumerateAttributes(in: NSRange(location: 0, length: s.length), options: []) { attrs, range, _ in
      let style = StringDrawingStyle(attrs)
      let text = ns.substring(with: range)
      if let last = styles.last, last.looksLike(style) {
        runs[runs.count - 1].0 += text
      } else {
        styles.append(style)
        runs.append((text, styles.count - 1))
      }
    }
    if styles.isEmpty {
      styles = [StringDrawingStyle(nil)]
      runs = [("", 0)]
    }
  }

  /// One style without kerning, wrapped at words or truncated at the tail: a plain `TextLayout`
  /// does (character wrapping and truncation at the head or in the middle go through
  /// `AttributedTextLayout`).
  var isPlain: Bool {
    styles.count == 1 && styles[0].kern == 0
      && ![.byCharWrapping, .byTruncatingHead, .byTruncatingMiddle].contains(styles[0].lineBreak)
  }
  var string: String { runs.map(\.0).joined() }

  func attributed(width: Double?, height: Double?) -> AttributedTextLayout {
    AttributedTextLayout(runs: runs, styles: styles, width: width, height: height)
  }

  func draw(at point: CGPoint) {
    let p = point.sheen
    guard p.isFinite else { return }
    if isPlain {
      guard let layout = styles[0].layout(string, width: nil, height: nil) else { return }
      styles[0].draw(layout, at: p, clip: nil)
    } else {
      attributed(width: nil, height: nil).draw(at: p, clip: nil)
    }
  }

  func draw(in rect: CGRect) {
    let r = rect.sheen
    guard r.origin.isFinite, r.width.isFinite, r.width > 0, r.height > 0 else { return }
    let height = r.height.isFinite ? r.height : nil
    if isPlain {
      guard let layout = styles[0].layout(string, width: r.width, height: height) else { return }
      styles[0].draw(layout, at: r.origin, clip: height != nil ? r : nil)
    } else {
      attributed(width: r.width, height: height).draw(at: r.origin, clip: height != nil ? r : nil)
    }
  }

  func size() -> CGSize {
    if isPlain {
      guard let layout = styles[0].layout(string, width: nil, height: nil) else { return .zero }
      return styles[0].size(of: layout)
    }
    return attributed(width: nil, height: nil).size
  }

  func boundingRect(with size: CGSize, options: NSStringDrawingOptions) -> CGRect {
    let w = Double(size.width)
    let width: Double? = options.contains(.usesLineFragmentOrigin) && w.isFinite && w > 0 ? w : nil
    let h = Double(size.height)
    let height: Double? =
      width != nil && h.isFinite && h > 0 && options.contains(.truncatesLastVisibleLine) ? h : nil
    if isPlain {
      guard let layout = styles[0].layout(string, width: width, height: height) else { return .zero }
      return CGRect(origin: .zero, size: styles[0].size(of: layout))
    }
    return CGRect(origin: .zero, size: attributed(width: width, height: height).size)
  }
}

extension NSAttributedString {
  /// Draws the string with each run in its own attributes, on one line per paragraph, with its
  /// top-left at `point`.
  public func draw(at point: CGPoint) { StringDrawing(self).draw(at: point) }
  /// Draws the string wrapped (or truncated) to `rect`, clipped to it.
  public func draw(in rect: CGRect) { StringDrawing(self).draw(in: rect) }
  public func size() -> CGSize { StringDrawing(self).size() }
  public func boundingRect(
    with size: CGSize, options: NSStringDrawingOptions = [], context: NSStringDrawingContext?
  ) -> CGRect {
    StringDrawing(self).boundingRect(with: size, options: options)
  }
}
