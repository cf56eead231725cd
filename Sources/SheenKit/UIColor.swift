import Foundation
import SheenRaster

/// A colour (UIKit's `UIColor`) in sRGB with straight alpha.
///
/// Unlike UIKit, colours are not dynamic: the system colours have their light-mode values.
public final class UIColor: Hashable, Sendable, CustomStringConvertible {
  /// The colour SheenRaster draws with.
  public let color: Color

  public init(_ color: Color) { self.color = color }

  public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.init(Color(red: clamp01(red), green: clamp01(green), blue: clamp01(blue), alpha: clamp01(alpha)))
  }

  public convenience init(white: CGFloat, alpha: CGFloat) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  /// Hue, saturation and brightness in 0...1 (HSB, also called HSV).
  public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
    let h = Double(hue) - Double(hue).rounded(.down)
    let s = clamp01(saturation)
    let v = clamp01(brightness)
    let sector = h * 6
    let i = Int(sector.rounded(.down)) % 6
    let f = sector - sector.rounded(.down)
    let p = v * (1 - s)
    let q = v * (1 - s * f)
    let t = v * (1 - s * (1 - f))
    let (r, g, b): (Double, Double, Double)
    switch i {
    case 0: (r, g, b) = (v, t, p)
    case 1: (r, g, b) = (q, v, p)
    case 2: (r, g, b) = (p, v, t)
    case 3: (r, g, b) = (p, q, v)
    case 4: (r, g, b) = (t, p, v)
    default: (r, g, b) = (v, p, q)
    }
    self.init(Color(red: r, green: g, blue: b, alpha: clamp01(alpha)))
  }

  public convenience init(cgColor: CGColor) { self.init(cgColor.color) }

  /// 8-bit sRGB components, as design tools give them.
  convenience init(_ r: Int, _ g: Int, _ b: Int, _ a: Double = 1) {
    self.init(Color(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: a))
  }

  public var cgColor: CGColor { CGColor(color) }

  public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
    var c = color
    c.alpha = clamp01(alpha)
    return UIColor(c)
  }

  /// Writes the components; returns true as UIKit does for RGB-compatible colours.
  @discardableResult
  public func getRed(
    _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
    blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
  ) -> Bool {
    red?.pointee = CGFloat(color.red)
    green?.pointee = CGFloat(color.green)
    blue?.pointee = CGFloat(color.blue)
    alpha?.pointee = CGFloat(color.alpha)
    return true
  }

  public static func == (a: UIColor, b: UIColor) -> Bool { a.color == b.color }
  public func hash(into h: inout Hasher) { h.combine(color) }
  public var description: String {
    "UIColor(red: \(color.red), green: \(color.green), blue: \(color.blue), alpha: \(color.alpha))"
  }

  // MARK: Fixed colours

  public static let black = UIColor(white: 0, alpha: 1)
  public static let darkGray = UIColor(white: 1.0 / 3.0, alpha: 1)
  public static let lightGray = UIColor(white: 2.0 / 3.0, alpha: 1)
  public static let white = UIColor(white: 1, alpha: 1)
  public static let gray = UIColor(white: 0.5, alpha: 1)
  public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
  public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
  public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
  public static let cyan = UIColor(red: 0, green: 1, blue: 1, alpha: 1)
  public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
  public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
  public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
  public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
  public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
  public static let clear = UIColor(white: 0, alpha: 0)

  // MARK: System colours (light mode)

  public static let systemBlue = UIColor(0, 122, 255)
  public static let systemRed = UIColor(255, 59, 48)
  public static let systemGreen = UIColor(52, 199, 89)
  public static let systemOrange = UIColor(255, 149, 0)
  public static let systemYellow = UIColor(255, 204, 0)
  public static let systemPink = UIColor(255, 45, 85)
  public static let systemPurple = UIColor(175, 82, 222)
  public static let systemTeal = UIColor(48, 176, 199)
  public static let systemIndigo = UIColor(88, 86, 214)
  public static let systemBrown = UIColor(162, 132, 94)
  public static let systemMint = UIColor(0, 199, 190)
  public static let systemCyan = UIColor(50, 173, 230)
  public static let systemGray = UIColor(142, 142, 147)
  public static let systemGray2 = UIColor(174, 174, 178)
  public static let systemGray3 = UIColor(199, 199, 204)
  public static let systemGray4 = UIColor(209, 209, 214)
  public static let systemGray5 = UIColor(229, 229, 234)
  public static let systemGray6 = UIColor(242, 242, 247)
  public static let label = UIColor(0, 0, 0)
  public static let secondaryLabel = UIColor(60, 60, 67, 0.6)
  public static let tertiaryLabel = UIColor(60, 60, 67, 0.3)
  public static let separator = UIColor(60, 60, 67, 0.29)
  public static let systemBackground = UIColor(255, 255, 255)
  public static let secondarySystemBackground = UIColor(242, 242, 247)
  public static let systemGroupedBackground = UIColor(242, 242, 247)
  public static let tintColor = systemBlue
}

@inline(__always) func clamp01(_ v: CGFloat) -> Double { min(1, max(0, Double(v))) }
