import Foundation
import SheenLayers
import SheenRaster
import Synchronization

/// Core Animation's line-join names.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
  public static let round = CAShapeLayerLineJoin(rawValue: "round")
  public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}

/// Core Animation's line-cap names.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let butt = CAShapeLayerLineCap(rawValue: "butt")
  public static let round = CAShapeLayerLineCap(rawValue: "round")
  public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// Core Animation's fill-rule names.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
  public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// A layer that fills and strokes a path (Core Animation's `CAShapeLayer`).
open class CAShapeLayer: CALayer {
  private var shape: ShapeLayer { unsafeDowncast(sheenLayer, to: ShapeLayer.self) }

  open override class func makeSheenLayer() -> Layer { ShapeLayer() }

  open var path: CGPath? {
    get { shape.path.map(CGPath.init) }
    set { shape.path = newValue?.path }
  }
  /// Black by default; nil for no fill.
  open var fillColor: CGColor? {
    get { shape.fillColor.map(CGColor.init) }
    set { shape.fillColor = newValue?.color }
  }
  /// Nil (no stroke) by default.
  open var strokeColor: CGColor? {
    get { shape.strokeColor.map(CGColor.init) }
    set { shape.strokeColor = newValue?.color }
  }
  open var lineWidth: CGFloat {
    get { CGFloat(shape.lineWidth) }
    set { shape.lineWidth = Double(newValue) }
  }
  open var miterLimit: CGFloat {
    get { CGFloat(shape.miterLimit) }
    set { shape.miterLimit = Double(newValue) }
  }
  open var lineJoin: CAShapeLayerLineJoin {
    get {
      switch shape.lineJoin {
      case .miter: return .miter
      case .round: return .round
      case .bevel: return .bevel
      }
    }
    set { shape.lineJoin = newValue == .round ? .round : newValue == .bevel ? .bevel : .miter }
  }
  open var lineCap: CAShapeLayerLineCap {
    get {
      switch shape.lineCap {
      case .butt: return .butt
      case .round: return .round
      case .square: return .square
      }
    }
    set { shape.lineCap = newValue == .round ? .round : newValue == .square ? .square : .butt }
  }
  open var fillRule: CAShapeLayerFillRule {
    get { shape.fillRule == .evenOdd ? .evenOdd : .nonZero }
    set { shape.fillRule = newValue == .evenOdd ? .evenOdd : .nonZero }
  }
}

/// Core Animation's gradient type names.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let axial = CAGradientLayerType(rawValue: "axial")
  public static let radial = CAGradientLayerType(rawValue: "radial")
  /// Unlike Core Animation, drawn as `axial`: SheenRaster has no conic gradient.
  public static let conic = CAGradientLayerType(rawValue: "conic")
}

/// A layer filled with a gradient (Core Animation's `CAGradientLayer`).
open class CAGradientLayer: CALayer {
  private var gradient: GradientLayer { unsafeDowncast(sheenLayer, to: GradientLayer.self) }

  open override class func makeSheenLayer() -> Layer { GradientLayer() }

  /// `CGColor`s (a `UIColor` is accepted too; anything else is skipped).
  open var colors: [Any]? {
    get { gradient.colors.isEmpty ? nil : gradient.colors.map(CGColor.init) }
    set { gradient.colors = CAGradientLayer.colorList(newValue ?? []) }
  }

  private static func color(of value: Any) -> Color? {
    if let c = value as? CGColor { return c.color }
    if let c = value as? UIColor { return c.color }
    return nil
  }

  /// Colour lists given recently, by a hash of their colours.
  private static let colorLists = Mutex(ClockCache<Int, [Color]>(capacity: 2048))

  /// The colours of `values` as a list: one given recently when it holds the same colours (a
  /// reused cell given back colours it showed before makes no array), else a new one.
  private static func colorList(_ values: [Any]) -> [Color] {
    var h = Hasher()
    var n = 0
    for v in values {
      if let c = color(of: v) {
        h.combine(c)
        n += 1
      }
    }
    let key = h.finalize()
    if let kept = colorLists.withLock({ $0.value(for: key) }), kept.count == n {
      var i = 0
      var same = true
      for v in values {
        guard let c = color(of: v) else { continue }
        if kept[i] != c {
          same = false
          break
        }
        i += 1
      }
      if same { return kept }
    }
    let made = values.compactMap(color(of:))
    colorLists.withLock { $0.insert(made, for: key) }
    return made
  }
  /// Stops in 0...1, one per colour; nil spaces the colours evenly.
  open var locations: [NSNumber]? {
    get { gradient.locations?.map { NSNumber(value: $0) } }
    set { gradient.locations = newValue?.map(\.doubleValue) }
  }
  /// Unit coordinates of the bounds; (0.5, 0) by default.
  open var startPoint: CGPoint {
    get { CGPoint(gradient.startPoint) }
    set { gradient.startPoint = newValue.sheen }
  }
  /// Unit coordinates of the bounds; (0.5, 1) by default.
  open var endPoint: CGPoint {
    get { CGPoint(gradient.endPoint) }
    set { gradient.endPoint = newValue.sheen }
  }
  open var type: CAGradientLayerType {
    get { gradient.type == .radial ? .radial : .axial }
    set { gradient.type = newValue == .radial ? .radial : .axial }
  }
}

/// Core Animation's text alignment names.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
  public static let left = CATextLayerAlignmentMode(rawValue: "left")
  public static let right = CATextLayerAlignmentMode(rawValue: "right")
  public static let center = CATextLayerAlignmentMode(rawValue: "center")
  /// Unlike Core Animation, drawn as `natural`.
  public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

/// Core Animation's truncation names.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let none = CATextLayerTruncationMode(rawValue: "none")
  public static let start = CATextLayerTruncationMode(rawValue: "start")
  public static let middle = CATextLayerTruncationMode(rawValue: "middle")
  public static let end = CATextLayerTruncationMode(rawValue: "end")
}

/// A layer that draws a string (Core Animation's `CATextLayer`) in the bundled DejaVu fonts.
open class CATextLayer: CALayer {
  private var text: TextLayer { unsafeDowncast(sheenLayer, to: TextLayer.self) }

  /// Core Animation's defaults: 36-point white text.
  open override class func makeSheenLayer() -> Layer {
    let l = TextLayer()
    l.fontSize = 36
    l.foregroundColor = .white
    return l
  }

  /// A `String` or an `NSAttributedString` (drawn without its attributes).
  open var string: Any? {
    get { text.string.isEmpty ? nil : text.string }
    set {
      if let s = newValue as? String {
        text.string = s
      } else if let s = newValue as? NSAttributedString {
        text.string = s.string
      } else {
        text.string = newValue.map { "\($0)" } ?? ""
      }
    }
  }
  /// A `UIFont`, or a font name (`UIFont(name:size:)`'s names); its size is ignored, as Core
  /// Animation does: `fontSize` sets the size. A name nobody has leaves the font as it was.
  open var font: Any? {
    get { UIFont(name: text.fontFamily, size: 17)?.withWeight(text.fontWeight).fontName ?? text.fontFamily }
    set {
      if let f = newValue as? UIFont {
        text.fontFamily = f.familyName
        text.fontWeight = f.fontWeight
      } else if let name = newValue as? String, let f = UIFont(name: name, size: CGFloat(text.fontSize)) {
        text.fontFamily = f.familyName
        text.fontWeight = f.fontWeight
      }
    }
  }
  open var fontSize: CGFloat {
    get { CGFloat(text.fontSize) }
    set { text.fontSize = Double(newValue) }
  }
  /// White by default, as Core Animation.
  open var foregroundColor: CGColor? {
    get { CGColor(text.foregroundColor) }
    set { text.foregroundColor = newValue?.color ?? .clear }
  }
  open var alignmentMode: CATextLayerAlignmentMode {
    get {
      switch text.alignmentMode {
      case .natural: return .natural
      case .left: return .left
      case .center: return .center
      case .right: return .right
      }
    }
    set {
      switch newValue {
      case .left: text.alignmentMode = .left
      case .center: text.alignmentMode = .center
      case .right: text.alignmentMode = .right
      default: text.alignmentMode = .natural
      }
    }
  }
  open var isWrapped: Bool {
    get { text.isWrapped }
    set { text.isWrapped = newValue }
  }
  open var truncationMode: CATextLayerTruncationMode {
    get {
      switch text.truncationMode {
      case .none: return .none
      case .start: return .start
      case .middle: return .middle
      case .end: return .end
      }
    }
    set {
      switch newValue {
      case .start: text.truncationMode = .start
      case .middle: text.truncationMode = .middle
      case .end: text.truncationMode = .end
      default: text.truncationMode = .none
      }
    }
  }
}
