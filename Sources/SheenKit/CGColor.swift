import Foundation
import SheenRaster

/// An immutable colour in device RGB (Core Graphics' `CGColor`), straight alpha.
public final class CGColor: Hashable, Sendable, CustomStringConvertible {
  /// The colour SheenRaster draws with.
  public let color: Color

  public init(_ color: Color) { self.color = color }

  /// Components in 0...1.
  public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.init(Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha)))
  }

  public convenience init(gray: CGFloat, alpha: CGFloat) {
    self.init(red: gray, green: gray, blue: gray, alpha: alpha)
  }

  /// Red, green, blue and alpha.
  public var components: [CGFloat]? {
    [CGFloat(color.red), CGFloat(color.green), CGFloat(color.blue), CGFloat(color.alpha)]
  }
  public var numberOfComponents: Int { 4 }
  public var alpha: CGFloat { CGFloat(color.alpha) }

  /// The same colour with another alpha.
  public func copy(alpha: CGFloat) -> CGColor? {
    var c = color
    c.alpha = Double(alpha)
    return CGColor(c)
  }

  public static func == (a: CGColor, b: CGColor) -> Bool { a.color == b.color }
  public func hash(into h: inout Hasher) { h.combine(color) }
  public var description: String {
    "CGColor(r: \(color.red), g: \(color.green), b: \(color.blue), a: \(color.alpha))"
  }

  public static let black = CGColor(.black)
  public static let white = CGColor(.white)
  public static let clear = CGColor(.clear)
}
