/// How lines sit within the layout width.
public enum TextAlignment: Hashable, Sendable {
  case left, center, right

  /// Core Animation's `natural`: left, for the left-to-right text Sheen lays out.
  public static let natural = TextAlignment.left
}

/// What happens to text that does not fit.
public enum TextTruncation: Hashable, Sendable {
  /// Nothing: text that does not fit overflows (and the caller clips it).
  case none
  /// The end is replaced by an ellipsis ("…").
  case end
}

/// The font, size and line-breaking rules of a piece of text.
public struct TextStyle: Sendable {
  public var font: Font
  /// Points (the em size).
  public var size: Double
  public var alignment: TextAlignment
  /// Wrap at word boundaries to the layout width (a word longer than a line breaks between
  /// characters). Without a width nothing wraps.
  public var wraps: Bool
  public var truncation: TextTruncation

  public init(
    font: Font, size: Double, alignment: TextAlignment = .left, wraps: Bool = false,
    truncation: TextTruncation = .none
  ) {
    self.font = font
    self.size = size
    self.alignment = alignment
    self.wraps = wraps
    self.truncation = truncation
  }

  /// The font's vertical metrics at this size.
  public var lineMetrics: LineMetrics { font.lineMetrics(size: size) }
}
