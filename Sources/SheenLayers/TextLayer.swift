import SheenRaster

/// A layer that draws text (Core Animation's `CATextLayer`) in the bundled DejaVu fonts, clipped
/// to its bounds as Core Animation draws a text layer into a bitmap of its size.
public final class TextLayer: Layer {
  public enum FontWeight: Hashable, Sendable {
    case regular
    case bold
  }

  public enum AlignmentMode: Hashable, Sendable {
    case natural, left, center, right
  }

  public enum TruncationMode: Hashable, Sendable {
    case none, end
  }

  public var string = "" { didSet { setNeedsDisplay() } }
  /// Points.
  public var fontSize: Double = 17 { didSet { setNeedsDisplay() } }
  public var fontWeight: FontWeight = .regular { didSet { setNeedsDisplay() } }
  public var foregroundColor: Color = .black { didSet { setNeedsDisplay() } }
  public var alignmentMode: AlignmentMode = .natural { didSet { setNeedsDisplay() } }
  public var isWrapped = false { didSet { setNeedsDisplay() } }
  public var truncationMode: TruncationMode = .none { didSet { setNeedsDisplay() } }

  public override init() { super.init() }

  public override var hasContent: Bool { !string.isEmpty }
}
