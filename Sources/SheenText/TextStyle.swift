/// How lines sit within the layout width.
public enum TextAlignment: Hashable, Sendable {
  /// Left for a left-to-right paragraph, right for a right-to-left one (Core Animation's and
  /// UIKit's `natural`), decided per paragraph.
  case natural
  case left, center, right
}

/// What happens to text that does not fit.
public enum TextTruncation: Hashable, Sendable {
  /// Nothing: text that does not fit overflows (and the caller clips it).
  case none
  /// The end, in reading order, is replaced by an ellipsis ("…").
  case end
}

/// The font family, size and line-breaking rules of a piece of text.
public struct TextStyle: Sendable {
  /// The family: its primary face draws what it has, fontconfig's fallbacks the rest.
  public var family: FontFamily
  /// Points (the em size).
  public var size: Double
  public var alignment: TextAlignment
  /// Wrap to the layout width at UAX #14 line-break opportunities (a word longer than a line
  /// breaks between grapheme clusters). Without a width nothing wraps.
  public var wraps: Bool
  public var truncation: TextTruncation

  public init(
    family: FontFamily, size: Double, alignment: TextAlignment = .natural, wraps: Bool = false,
    truncation: TextTruncation = .none
  ) {
    self.family = family
    self.size = size
    self.alignment = alignment
    self.wraps = wraps
    self.truncation = truncation
  }

  /// A style drawn with `font` alone: characters it lacks draw its missing-glyph box (no
  /// fallback), as a font loaded from bytes should.
  public init(
    font: Font, size: Double, alignment: TextAlignment = .natural, wraps: Bool = false,
    truncation: TextTruncation = .none
  ) {
    self.init(
      family: FontFamily(font: font), size: size, alignment: alignment, wraps: wraps, truncation: truncation)
  }

  /// The primary face, when one could be loaded.
  public var font: Font? { family.primary }

  /// The primary face's vertical metrics at this size (a fallback font's may be taller).
  public var lineMetrics: LineMetrics {
    family.primary?.lineMetrics(size: size)
      ?? LineMetrics(ascent: size * 0.928, descent: size * 0.236, lineGap: 0)
  }
}
