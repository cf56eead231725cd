import Foundation
import SheenText

/// A font (UIKit's `UIFont`): the system font at a size and weight, drawn with the bundled
/// DejaVu Sans.
///
/// Unlike UIKit, there are only two faces: weights from `.semibold` up use DejaVu Sans Bold, the
/// lighter ones DejaVu Sans.
public final class UIFont: Hashable, Sendable {
  /// UIKit's weight scale (-1...1).
  public struct Weight: RawRepresentable, Hashable, Sendable {
    public let rawValue: CGFloat
    public init(rawValue: CGFloat) { self.rawValue = rawValue }
    public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

    public static let ultraLight = Weight(-0.8)
    public static let thin = Weight(-0.6)
    public static let light = Weight(-0.4)
    public static let regular = Weight(0)
    public static let medium = Weight(0.23)
    public static let semibold = Weight(0.3)
    public static let bold = Weight(0.4)
    public static let heavy = Weight(0.56)
    public static let black = Weight(0.62)
  }

  public let pointSize: CGFloat
  public let weight: Weight

  public init(size: CGFloat, weight: Weight) {
    self.pointSize = size
    self.weight = weight
  }

  public static func systemFont(ofSize size: CGFloat, weight: Weight) -> UIFont {
    UIFont(size: size, weight: weight)
  }
  public static func systemFont(ofSize size: CGFloat) -> UIFont { UIFont(size: size, weight: .regular) }
  public static func boldSystemFont(ofSize size: CGFloat) -> UIFont { UIFont(size: size, weight: .bold) }
  public static var systemFontSize: CGFloat { 17 }
  public static var labelFontSize: CGFloat { 17 }
  public static var buttonFontSize: CGFloat { 18 }

  public func withSize(_ size: CGFloat) -> UIFont { UIFont(size: size, weight: weight) }

  /// Whether this font draws with the bold face.
  public var isBold: Bool { weight.rawValue >= Weight.semibold.rawValue }
  public var fontName: String { isBold ? "DejaVuSans-Bold" : "DejaVuSans" }
  public var familyName: String { "DejaVu Sans" }

  /// The bundled face, or nil when the fonts cannot be loaded.
  var face: Font? { try? Font.bundled(isBold ? .bold : .regular) }

  public var ascender: CGFloat {
    CGFloat(face?.lineMetrics(size: Double(pointSize)).ascent ?? Double(pointSize) * 0.93)
  }
  public var descender: CGFloat {
    -CGFloat(face?.lineMetrics(size: Double(pointSize)).descent ?? Double(pointSize) * 0.24)
  }
  public var lineHeight: CGFloat {
    CGFloat(face?.lineMetrics(size: Double(pointSize)).lineHeight ?? Double(pointSize) * 1.17)
  }

  public static func == (a: UIFont, b: UIFont) -> Bool { a.pointSize == b.pointSize && a.weight == b.weight }
  public func hash(into h: inout Hasher) {
    h.combine(pointSize)
    h.combine(weight)
  }
}
