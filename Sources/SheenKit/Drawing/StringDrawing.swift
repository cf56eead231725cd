import Foundation
import SheenRaster
import SheenText

// UIKit's string drawing (`NSString` / `NSAttributedString` `draw(at:)`, `draw(in:)`,
// `size`, `boundingRect`) into the current context, with the attributes custom views use:
// `.font`, `.foregroundColor`, `.paragraphStyle` (alignment, line break mode) and `.kern`.
//
// Unlike UIKit:
// - an attributed string is drawn with the attributes of its first character throughout;
// - with `.kern`, lines are broken and aligned without the extra spacing (it is added when the
//   glyphs are placed and measured);
// - the font is the bundled DejaVu Sans (see UIFont).

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
  func layout(_ string: String, width: Double?, height: Double?) -> TextLayout? {
    guard let face = font.face, font.pointSize > 0, font.pointSize.isFinite else { return nil }
    let align: TextAlignment
    switch alignment {
    case .center: align = .center
    case .right: align = .right
    default: align = .left
    }
    let wraps = width != nil && (lineBreak == .byWordWrapping || lineBreak == .byCharWrapping)
    let truncates =
      width != nil && [.byTruncatingTail, .byTruncatingHead, .byTruncatingMiddle].contains(lineBreak)
    let style = TextStyle(
      font: face, size: Double(font.pointSize), alignment: align, wraps: wraps || truncates && height != nil,
      truncation: truncates ? .end : .none)
    return TextLayout(string, style: style, width: width, height: height)
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
    cg.painting {
      if kern == 0 {
        canvas.drawText(layout, at: origin, color: color)
      } else {
        // Glyph outlines placed with the extra spacing after each glyph.
        guard let face = layout.style.font else { return }
        let s = layout.style.size / Double(face.unitsPerEm)
        var path = Path()
        for line in layout.lines {
          for (j, g) in line.glyphs.enumerated() {
            let x = origin.x + line.origin.x + g.x + kern * Double(j)
            let y = origin.y + line.origin.y
            path.addPath(
              face.outline(of: g.id, transform: Transform(a: s, b: 0, c: 0, d: -s, tx: x, ty: y)))
          }
        }
        canvas.fill(path, paint: .solid(color))
      }
    }
    canvas.restore()
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
    let style = StringDrawingStyle(attrs)
    guard point.sheen.isFinite, let layout = style.layout(self, width: nil, height: nil) else { return }
    style.draw(layout, at: point.sheen, clip: nil)
  }

  public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
    let style = StringDrawingStyle(attrs)
    let r = rect.sheen
    guard r.origin.isFinite, r.width.isFinite, r.width > 0, r.height > 0,
      let layout = style.layout(self, width: r.width, height: r.height.isFinite ? r.height : nil)
    else { return }
    style.draw(layout, at: r.origin, clip: r.height.isFinite ? r : nil)
  }

  public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
    let style = StringDrawingStyle(attrs)
    guard let layout = style.layout(self, width: nil, height: nil) else { return .zero }
    return style.size(of: layout)
  }

  /// The size the string takes within `size`: wrapped to its width with
  /// `.usesLineFragmentOrigin`, else on one line.
  public func boundingRect(
    with size: CGSize, options: NSStringDrawingOptions = [],
    attributes: [NSAttributedString.Key: Any]?, context: NSStringDrawingContext?
  ) -> CGRect {
    let style = StringDrawingStyle(attributes)
    let w = Double(size.width)
    let width: Double? = options.contains(.usesLineFragmentOrigin) && w.isFinite && w > 0 ? w : nil
    let h = Double(size.height)
    let height: Double? =
      width != nil && h.isFinite && h > 0 && options.contains(.truncatesLastVisibleLine) ? h : nil
    guard let layout = style.layout(self, width: width, height: height) else { return .zero }
    return CGRect(origin: .zero, size: style.size(of: layout))
  }
}

extension NSAttributedString {
  /// The attributes of the first character (Sheen draws the whole string with them).
  var drawingAttributes: [NSAttributedString.Key: Any] {
    length > 0 ? attributes(at: 0, effectiveRange: nil) : [:]
  }

  public func draw(at point: CGPoint) { string.draw(at: point, withAttributes: drawingAttributes) }
  public func draw(in rect: CGRect) { string.draw(in: rect, withAttributes: drawingAttributes) }
  public func size() -> CGSize { string.size(withAttributes: drawingAttributes) }
  public func boundingRect(
    with size: CGSize, options: NSStringDrawingOptions = [], context: NSStringDrawingContext?
  ) -> CGRect {
    string.boundingRect(with: size, options: options, attributes: drawingAttributes, context: context)
  }
}
