import Foundation
import SheenText

/// A font (UIKit's `UIFont`): a family at a size and weight. The system font is DejaVu Sans (the
/// bundled faces for regular to black, fontconfig's DejaVu Sans ExtraLight for the lighter
/// weights when it is installed); `UIFont(name:size:)` takes any family fontconfig knows.
/// Characters a family lacks are drawn by fontconfig's fallback fonts, as on a desktop.
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

    /// The nine named weights in order, as `FontWeight`'s cases.
    static let named: [(Weight, FontWeight)] = [
      (.ultraLight, .ultraLight), (.thin, .thin), (.light, .light), (.regular, .regular), (.medium, .medium),
      (.semibold, .semibold), (.bold, .bold), (.heavy, .heavy), (.black, .black),
    ]

    /// The named weight nearest this value.
    var fontWeight: FontWeight {
      Weight.named.min { abs($0.0.rawValue - rawValue) < abs($1.0.rawValue - rawValue) }!.1
    }
  }

  public let pointSize: CGFloat
  public let weight: Weight
  /// The family as asked for (fontconfig's name).
  public let familyName: String

  public init(size: CGFloat, weight: Weight) {
    self.pointSize = size
    self.weight = weight
    familyName = FontFamily.defaultName
  }

  private init(family: String, size: CGFloat, weight: Weight) {
    self.pointSize = size
    self.weight = weight
    familyName = family
  }

  /// A font of the family `fontName` names, as fontconfig knows it (`"Noto Sans Arabic"`,
  /// `"DejaVu Serif"`), or a PostScript-style name with a weight after a hyphen
  /// (`"DejaVuSans-Bold"`, `"NotoSans-Light"`); nil when fontconfig has no such family, as
  /// UIKit answers for a name it does not know.
  public convenience init?(name fontName: String, size fontSize: CGFloat) {
    let trimmed = fontName.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return nil }
    var family = trimmed
    var weight = Weight.regular
    if let dash = trimmed.lastIndex(of: "-") {
      let suffix = trimmed[trimmed.index(after: dash)...].lowercased()
      let styles: [String: Weight] = [
        "ultralight": .ultraLight, "extralight": .ultraLight, "thin": .thin, "light": .light,
        "regular": .regular, "book": .regular, "medium": .medium, "semibold": .semibold,
        "demibold": .semibold,
        "bold": .bold, "heavy": .heavy, "extrabold": .heavy, "black": .black,
      ]
      if let w = styles[suffix] {
        weight = w
        family = String(trimmed[..<dash])
      }
    }
    guard let found = UIFont.knownFamily(family, weight: weight.fontWeight) else { return nil }
    self.init(family: found, size: fontSize, weight: weight)
  }

  /// The family name fontconfig matched for `name` (compared without case or spaces), or nil.
  private static func knownFamily(_ name: String, weight: FontWeight) -> String? {
    func squash(_ s: String) -> String { s.lowercased().filter { !$0.isWhitespace } }
    if squash(name) == squash(FontFamily.defaultName) { return FontFamily.defaultName }
    let spaced = name.contains(" ") ? name : spacedOut(name)
    for candidate in [name, spaced] {
      let f = FontLibrary.shared.family(candidate, weight: weight)
      if let p = f.primary, squash(p.familyName) == squash(name) { return p.familyName }
    }
    return nil
  }

  /// "NotoSansArabic" -> "Noto Sans Arabic": PostScript names drop the spaces.
  private static func spacedOut(_ s: String) -> String {
    var out = ""
    var previous: Character? = nil
    for c in s {
      if c.isUppercase, let p = previous, p.isLowercase { out.append(" ") }
      out.append(c)
      previous = c
    }
    return out
  }

  public static func systemFont(ofSize size: CGFloat, weight: Weight) -> UIFont {
    UIFont(size: size, weight: weight)
  }
  public static func systemFont(ofSize size: CGFloat) -> UIFont { UIFont(size: size, weight: .regular) }
  public static func boldSystemFont(ofSize size: CGFloat) -> UIFont { UIFont(size: size, weight: .bold) }
  public static var systemFontSize: CGFloat { 17 }
  public static var labelFontSize: CGFloat { 17 }
  public static var buttonFontSize: CGFloat { 18 }

  /// This family at another named weight.
  func withWeight(_ w: FontWeight) -> UIFont {
    UIFont(family: familyName, size: pointSize, weight: Weight.named.first { $0.1 == w }!.0)
  }

  public func withSize(_ size: CGFloat) -> UIFont { UIFont(family: familyName, size: size, weight: weight) }

  /// Whether this font's weight is semibold or heavier.
  public var isBold: Bool { weight.rawValue >= Weight.semibold.rawValue }
  /// The named weight nearest `weight`, as text layers take it.
  public var fontWeight: FontWeight { weight.fontWeight }
  public var fontName: String {
    let family = familyName.filter { !$0.isWhitespace }
    return fontWeight == .regular
      ? family
      : family + "-" + fontWeight.rawValue.prefix(1).uppercased()
        + fontWeight.rawValue.dropFirst()
  }

  /// The family at this weight, with its fallbacks.
  public var family: FontFamily { FontLibrary.shared.family(familyName, weight: fontWeight) }

  /// The primary face, or nil when no font can be loaded.
  var face: Font? { family.primary }

  public var ascender: CGFloat {
    CGFloat(face?.lineMetrics(size: Double(pointSize)).ascent ?? Double(pointSize) * 0.93)
  }
  public var descender: CGFloat {
    -CGFloat(face?.lineMetrics(size: Double(pointSize)).descent ?? Double(pointSize) * 0.24)
  }
  public var lineHeight: CGFloat {
    CGFloat(face?.lineMetrics(size: Double(pointSize)).lineHeight ?? Double(pointSize) * 1.17)
  }

  public static func == (a: UIFont, b: UIFont) -> Bool {
    a.pointSize == b.pointSize && a.weight == b.weight && a.familyName == b.familyName
  }
  public func hash(into h: inout Hasher) {
    h.combine(pointSize)
    h.combine(weight)
    h.combine(familyName)
  }
}
