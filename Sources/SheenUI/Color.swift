import SheenKit

/// A colour, and a view that fills the space offered with it (SwiftUI's `Color`). Components are
/// sRGB in 0...1; the system colours have Apple's published light-mode values.
public struct Color: Hashable, Sendable, View {
  public var red: Double
  public var green: Double
  public var blue: Double
  public var alpha: Double
  /// Whether this is `.primary`/`.secondary`: the label colours.
  public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = opacity
  }

  public init(white: Double, opacity: Double = 1) {
    self.init(red: white, green: white, blue: white, opacity: opacity)
  }

  /// Hue, saturation and brightness in 0...1, as UIKit's `UIColor(hue:saturation:brightness:alpha:)`.
  public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
    let c = UIColor(
      hue: CGFloat(hue), saturation: CGFloat(saturation), brightness: CGFloat(brightness), alpha: 1)
    self.init(uiColor: c.withAlphaComponent(CGFloat(opacity)))
  }

  public init(uiColor: UIColor) {
    var r: CGFloat = 0
    var g: CGFloat = 0
    var b: CGFloat = 0
    var a: CGFloat = 0
    _ = uiColor.getRed(&r, green: &g, blue: &b, alpha: &a)
    self.init(red: Double(r), green: Double(g), blue: Double(b), opacity: Double(a))
  }

  /// From 0-255 components, as Apple publishes the system colours.
  init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
    self.init(red: r / 255, green: g / 255, blue: b / 255, opacity: a)
  }

  /// This colour with its opacity multiplied by `opacity`.
  public func opacity(_ opacity: Double) -> Color {
    var c = self
    c.alpha *= max(0, min(1, opacity))
    return c
  }

  var uiColor: UIColor {
    UIColor(red: CGFloat(red), green: CGFloat(green), blue: CGFloat(blue), alpha: CGFloat(alpha))
  }
  var cgColor: CGColor { uiColor.cgColor }

  public static let black = Color(0, 0, 0)
  public static let white = Color(255, 255, 255)
  public static let clear = Color(0, 0, 0, 0)
  public static let red = Color(255, 59, 48)
  public static let orange = Color(255, 149, 0)
  public static let yellow = Color(255, 204, 0)
  public static let green = Color(52, 199, 89)
  public static let mint = Color(0, 199, 190)
  public static let teal = Color(48, 176, 199)
  public static let cyan = Color(50, 173, 230)
  public static let blue = Color(0, 122, 255)
  public static let indigo = Color(88, 86, 214)
  public static let purple = Color(175, 82, 222)
  public static let pink = Color(255, 45, 85)
  public static let brown = Color(162, 132, 94)
  public static let gray = Color(142, 142, 147)
  /// The label colour: black in light mode.
  public static let primary = Color(0, 0, 0)
  /// The secondary label colour: #3C3C43 at 60%.
  public static let secondary = Color(60, 60, 67, 0.6)
  public static let accentColor = blue

  public typealias Body = Never
  public var body: Never { fatalError("Color has no body") }
}

extension Color: ShapeStyle {}

extension UIColor {
  /// The UIKit colour of a SheenUI colour.
  public convenience init(_ color: Color) {
    self.init(
      red: CGFloat(color.red), green: CGFloat(color.green), blue: CGFloat(color.blue),
      alpha: CGFloat(color.alpha))
  }
}
