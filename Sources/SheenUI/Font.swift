import SheenKit

/// A font (SwiftUI's `Font`): a text style or a system font at a size, with a weight.
///
/// The text styles have Apple's sizes and weights at the default (Large) content size:
/// largeTitle 34, title 28, title2 22, title3 20, headline 17 semibold, body 17, callout 16,
/// subheadline 15, footnote 13, caption 12, caption2 11. Like SheenKit's `UIFont`, every weight
/// from semibold up draws with the bundled bold face.
public struct Font: Hashable, Sendable {
  public var size: CGFloat
  public var weight: Weight
  public var design: Design = .default

  public struct Weight: Hashable, Sendable {
    let value: CGFloat
    public static let ultraLight = Weight(value: -0.8)
    public static let thin = Weight(value: -0.6)
    public static let light = Weight(value: -0.4)
    public static let regular = Weight(value: 0)
    public static let medium = Weight(value: 0.23)
    public static let semibold = Weight(value: 0.3)
    public static let bold = Weight(value: 0.4)
    public static let heavy = Weight(value: 0.56)
    public static let black = Weight(value: 0.62)
  }

  public enum Design: Hashable, Sendable {
    case `default`, serif, rounded, monospaced
  }

  public enum TextStyle: Hashable, Sendable, CaseIterable {
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2

    /// Size and weight at the Large (default) content size.
    var metrics: (CGFloat, Weight) {
      switch self {
      case .largeTitle: return (34, .regular)
      case .title: return (28, .regular)
      case .title2: return (22, .regular)
      case .title3: return (20, .regular)
      case .headline: return (17, .semibold)
      case .subheadline: return (15, .regular)
      case .body: return (17, .regular)
      case .callout: return (16, .regular)
      case .footnote: return (13, .regular)
      case .caption: return (12, .regular)
      case .caption2: return (11, .regular)
      }
    }
  }

  init(size: CGFloat, weight: Weight, design: Design = .default) {
    self.size = size
    self.weight = weight
    self.design = design
  }

  public static func system(_ style: TextStyle, design: Design = .default, weight: Weight? = nil) -> Font {
    let (s, w) = style.metrics
    return Font(size: s, weight: weight ?? w, design: design)
  }
  public static func system(size: CGFloat, weight: Weight = .regular, design: Design = .default) -> Font {
    Font(size: size, weight: weight, design: design)
  }

  public static let largeTitle = system(.largeTitle)
  public static let title = system(.title)
  public static let title2 = system(.title2)
  public static let title3 = system(.title3)
  public static let headline = system(.headline)
  public static let subheadline = system(.subheadline)
  public static let body = system(.body)
  public static let callout = system(.callout)
  public static let footnote = system(.footnote)
  public static let caption = system(.caption)
  public static let caption2 = system(.caption2)

  public func weight(_ weight: Weight) -> Font {
    var f = self
    f.weight = weight
    return f
  }
  public func bold() -> Font { weight(.bold) }

  var uiFont: UIFont { UIFont.systemFont(ofSize: size, weight: UIFont.Weight(weight.value)) }
}
