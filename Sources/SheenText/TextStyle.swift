/// How lines sit within the layout width.
public enum TextAlignment: Hashable, Sendable {
  /// Left for a left-to-right paragraph, right for a right-to-left one (Core Animation's and
  /// UIKit's `natural`), decided per paragraph.
  case natural
  case left, center, right
}

/// What happens to text that does not fit: which part of a line, in reading order, an ellipsis
/// ("…") replaces (UIKit's truncating line break modes, Core Animation's `truncationMode`).
public enum TextTruncation: Hashable, Sendable {
  /// Nothing: text that does not fit overflows (and the caller clips it).
  case none
  /// The start: "…" and then as much of the end as fits (the right end of a right-to-left
  /// paragraph shows the ellipsis).
  case start
  /// The middle: as much of the start and of the end as fit, around "…".
  case middle
  /// The end: as much of the start as fits, then "…".
  case end
}

/// Where wrapped lines may break.
public enum TextWrapping: Hashable, Sendable {
  /// At UAX #14 line-break opportunities (between words, between ideographs); a word longer
  /// than a line breaks between grapheme clusters.
  case words
  /// Between any two grapheme clusters (UIKit's `byCharWrapping`).
  case characters
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
  /// Where wrapped lines break (only with `wraps`).
  public var wrapping: TextWrapping

  public init(
    family: FontFamily, size: Double, alignment: TextAlignment = .natural, wraps: Bool = false,
    truncation: TextTruncation = .none, wrapping: TextWrapping = .words
  ) {
    self.family = family
    self.size = size
    self.alignment = alignment
    self.wraps = wraps
    self.truncation = truncation
    self.wrapping = wrapping
  }

  /// A style drawn with `font` alone: characters it lacks draw its missing-glyph box (no
  /// fallback), as a font loaded from bytes should. Styles made for the same font share one
  /// family, so they compare equal (and their layouts are cached).
  public init(
    font: Font, size: Double, alignment: TextAlignment = .natural, wraps: Bool = false,
    truncation: TextTruncation = .none, wrapping: TextWrapping = .words
  ) {
    self.init(
      family: FontLibrary.shared.soleFamily(for: font), size: size, alignment: alignment, wraps: wraps,
      truncation: truncation,
      wrapping: wrapping)
  }

  /// The primary face, when one could be loaded.
  public var font: Font? { family.primary }

  /// The primary face's vertical metrics at this size (a fallback font's may be taller).
  public var lineMetrics: LineMetrics {
    family.primary?.lineMetrics(size: size)
      ?? LineMetrics(ascent: size * 0.928, descent: size * 0.236, lineGap: 0)
  }
}
