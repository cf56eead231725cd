import SheenKit
import Synchronization

/// The colours a card derives from a hue (its header, picture, tags and button), made once per
/// hue and kept, as an app keeps its theme's colours: a reused cell shown another card picks
/// them here instead of making `UIColor` and `CGColor` objects every time a row comes into view.
/// The demo's hues are a few hundred at most. Views are made on one thread per window, as UIKit's,
/// but windows (tests) may run on several: the table is locked; a palette never changes once made.
final class HuePalette: @unchecked Sendable {
  let header: UIColor
  /// The generated picture's diagonal gradient (`CGColor`s).
  let picture: [Any]
  let tagFill: CGColor
  let tagStroke: CGColor
  let tagText: UIColor
  /// The primary button's border gradient, and its background at rest and pressed.
  let buttonBorder: [Any]
  let buttonBackground: [Any]
  let buttonBackgroundPressed: [Any]

  private init(hue: CGFloat) {
    func color(_ h: CGFloat, _ s: CGFloat, _ b: CGFloat) -> UIColor {
      UIColor(hue: h, saturation: s, brightness: b, alpha: 1)
    }
    header = color(hue, 0.55, 0.92)
    picture = [color(hue, 0.65, 0.95).cgColor, color(hue + 0.12, 0.75, 0.70).cgColor]
    tagFill = color(hue, 0.12, 1).cgColor
    tagStroke = color(hue, 0.55, 0.75).cgColor
    tagText = color(hue, 0.7, 0.45)
    buttonBorder = [color(hue, 0.59, 0.90).cgColor, color(hue, 0.82, 0.90).cgColor]
    buttonBackground = [color(hue, 0.58, 0.97).cgColor, color(hue, 0.80, 0.96).cgColor]
    buttonBackgroundPressed = [color(hue, 0.58, 0.97 * 0.78).cgColor, color(hue, 0.80, 0.96 * 0.78).cgColor]
  }

  private static let palettes = Mutex<[CGFloat: HuePalette]>([:])

  /// The palette of `hue` (made the first time it is asked for).
  static func of(_ hue: CGFloat) -> HuePalette {
    if let p = palettes.withLock({ $0[hue] }) { return p }
    let p = HuePalette(hue: hue)
    return palettes.withLock { table in
      if let made = table[hue] { return made }
      table[hue] = p
      return p
    }
  }
}
