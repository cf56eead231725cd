import SheenRaster
import Synchronization

/// A string laid out in lines of positioned glyphs, with its measured size.
///
/// Coordinates are points, y down, relative to the top-left of the layout box. Each line's
/// baseline sits at the ascent of the tallest font on it below the line's top; a line is that
/// font's ascent + descent + line gap high (an empty line: the primary face's).
///
/// Text is laid out as a desktop does it (`ParagraphShaper`): characters the family lacks come
/// from fontconfig's fallbacks; each run of one font, script and direction is shaped by
/// HarfBuzz; each paragraph is ordered by the Unicode bidirectional algorithm (FriBidi), its
/// direction taken from its first strong character; lines break at UAX #14 opportunities
/// (libunibreak).
///
/// Line breaking: `\n` (also `\r\n`, `\r`, U+2028, U+2029) always breaks; a break at the very end
/// adds no empty line. With `style.wraps` and a width, lines break at the line-break
/// opportunities of UAX #14 (after spaces and hyphens, between ideographs), and a word longer
/// than a line breaks between grapheme clusters. Trailing spaces hang: they neither count
/// towards a line's width nor move it when aligned.
///
/// Truncation (`.start`, `.middle`, `.end`): unwrapped, in each line wider than the width "…"
/// replaces its start, middle or end in reading order; wrapped with a height, the lines that
/// fit the height are kept (at least one) and the last one shows the rest of its paragraph
/// truncated the same way. Reading order: the end of a right-to-left paragraph is its left end.
/// With `wrapping: .characters` wrapped lines break between any two grapheme clusters.
public struct TextLayout: Sendable {
  /// A glyph and its pen position on its line's baseline.
  ///
  /// 16 bytes (`GlyphLayoutTests`): the x offset in 64 bits, the y offset in 32 (a mark's few
  /// points off the baseline, to a millionth of a point), the glyph and font indices in 16 each.
  /// A cached layout's glyphs are most of its memory; the fields in their declared order with
  /// `y` in 64 bits took 32.
  public struct Glyph: Hashable, Sendable {
    /// The pen's x offset from the line's origin, in points (HarfBuzz's offset included).
    public var x: Double
    @usableFromInline var storedY: Float
    public var id: GlyphID
    /// The index of the glyph's font in the layout's `fonts`.
    public var font: UInt16

    /// The offset from the baseline, in points, y down (marks placed above or below).
    @inlinable public var y: Double {
      get { Double(storedY) }
      set { storedY = Float(newValue) }
    }

    @inlinable public init(id: GlyphID, x: Double, y: Double = 0, font: UInt16 = 0) {
      self.id = id
      self.x = x
      self.storedY = Float(y)
      self.font = font
    }
  }

  /// One line of glyphs, in visual order (left to right).
  public struct Line: Sendable {
    public var glyphs: [Glyph]
    /// The start of the baseline, relative to the layout's top-left, alignment applied.
    public var origin: Point
    /// The advance width without trailing spaces, in points.
    public var width: Double
    /// The offsets in the string's `unicodeScalars` that this line shows.
    public var scalarRange: Range<Int>
    /// Whether the line ends in an ellipsis that replaced text.
    public var isTruncated: Bool
    /// Whether the line's paragraph reads right to left.
    public var isRightToLeft: Bool
    /// The tallest font's metrics on this line.
    public var metrics: LineMetrics
  }

  public let style: TextStyle
  public let lines: [Line]
  /// The fonts the glyphs use (`Glyph.font` indexes this).
  public let fonts: [Font]
  /// The size the text occupies: the widest line, and from the top of the first line to the
  /// bottom (descent) of the last. Zero for an empty string.
  public let size: Size
  /// The width the lines were wrapped, truncated and aligned to, if any.
  public let width: Double?
  /// The height lines were kept to, if any (only with wrapping and `.end` truncation).
  public let height: Double?

  /// Whether any text was replaced by an ellipsis or dropped.
  public var isTruncated: Bool { lines.contains { $0.isTruncated } }

  /// The number of glyphs drawn.
  public var glyphCount: Int { lines.reduce(0) { $0 + $1.glyphs.count } }

  /// Whether some glyph is a colour bitmap (an emoji), drawn as an image.
  public var hasColorGlyphs: Bool { fonts.contains { $0.hasColorBitmaps } }

  /// Lays out `string`.
  /// - Parameters:
  ///   - width: the box width: lines wrap (`style.wraps`) or truncate to it, and align within
  ///     it. Nil: unbounded, and lines align within the widest one.
  ///   - height: the box height; with wrapping and `.end` truncation, only the lines that fit are
  ///     kept. Otherwise it does not affect the layout (the caller clips).
  /// - Complexity: O(n) in the number of scalars, plus O(n) per truncated line.
  public init(_ string: String, style: TextStyle, width: Double? = nil, height: Double? = nil) {
    self.style = style
    let w = width.flatMap { $0.isFinite ? max(0, $0) : nil }
    let h = height.flatMap { $0.isFinite ? max(0, $0) : nil }
    self.width = w
    self.height = h
    var builder = LayoutBuilder(style: style)
    var placed = builder.layout(string, width: w, height: h)
    fonts = builder.fonts
    let widest = placed.reduce(0) { max($0, $1.width) }
    let box = w ?? widest
    var top = 0.0
    for i in placed.indices {
      let m = placed[i].metrics
      let dx: Double
      switch style.alignment {
      case .left: dx = 0
      case .center: dx = (box - placed[i].width) / 2
      case .right: dx = box - placed[i].width
      case .natural: dx = placed[i].isRightToLeft ? box - placed[i].width : 0
      }
      placed[i].origin = Point(x: dx, y: top + m.ascent)
      if i == placed.count - 1 {
        top += m.ascent + m.descent
      } else {
        top += m.lineHeight
      }
    }
    lines = placed
    size = placed.isEmpty ? .zero : Size(width: widest, height: top)
  }

  /// The size `string` occupies, without keeping the glyphs.
  public static func measure(_ string: String, style: TextStyle, width: Double? = nil) -> Size {
    cached(string, style: style, width: width).size
  }

  // MARK: The layout cache

  struct CacheKey: Hashable {
    var string: String
    /// The family itself (not its identifier, which a freed family's successor could reuse).
    var family: FontFamily
    var size: Double
    var alignment: TextAlignment
    var wraps: Bool
    var truncation: TextTruncation
    var wrapping: TextWrapping
    var width: Double?
    var height: Double?
  }

  private static let shapings = Atomic<Int>(0)

  /// Paragraphs shaped (by HarfBuzz, with bidi and line breaks) since the process started: the
  /// difference between two readings is the shaping done in between (none in a steady frame).
  public static var shapingCount: Int { shapings.load(ordering: .relaxed) }

  static func countShaping() {
    shapings.wrappingAdd(1, ordering: .relaxed)
    ShapingTally.current?.add()
  }

  /// The most scalars of one grapheme cluster HarfBuzz shapes together: a longer cluster (100,000
  /// combining marks on one letter) is shaped in pieces of this many, so that shaping takes time
  /// in proportion to the text's length.
  public static let maxShapedCluster = 32

  private static let longestCluster = Atomic<Int>(0)

  /// The most scalars of one grapheme cluster HarfBuzz has shaped in one go since the process
  /// started (at most `maxShapedCluster`: longer clusters are shaped in pieces).
  public static var longestShapedCluster: Int { longestCluster.load(ordering: .relaxed) }

  static func noteShapedCluster(_ n: Int) {
    var seen = longestCluster.load(ordering: .relaxed)
    while n > seen {
      let (exchanged, now) = longestCluster.compareExchange(expected: seen, desired: n, ordering: .relaxed)
      if exchanged { break }
      seen = now
    }
  }

  /// The most layouts `cached` keeps. When full, each new layout replaces one not used since
  /// the cache's clock hand last passed it (`ClockCache`): a UI's working set (the demo's 208
  /// cards at 1080p need 938 layouts) stays cached, and a list of millions of different strings
  /// costs at most this many layouts.
  public static let cacheLimit = 8192

  /// The most bytes the cached layouts may hold (`cachedBytes`: their glyphs, lines and
  /// strings): 4 MiB. Past it, layouts not used since the clock hand last passed them go until
  /// the new one fits, so long texts cannot fill memory a few thousand layouts at a time; a
  /// layout over the limit by itself is made each time it is asked for. The demo's 938 layouts
  /// hold about 1.4 MB.
  public static let cacheByteLimit = 4 << 20

  private static let cache = Mutex(
    ClockCache<CacheKey, TextLayout>(capacity: cacheLimit, byteLimit: cacheByteLimit))

  /// The layouts cached now, and how many were evicted to make room since the process started.
  public static var cacheStatistics: (count: Int, evictions: Int) {
    cache.withLock { ($0.count, $0.evictions) }
  }

  /// The bytes the cached layouts hold now, as `cachedBytes` counts them.
  public static var cacheBytes: Int { cache.withLock { $0.bytes } }

  /// What this layout holds in the cache with `string` as its key: its glyphs (16 bytes each),
  /// lines, font references and the string's UTF-8, with the arrays' and objects' headers.
  public func cachedBytes(for string: String) -> Int {
    var n = 256 + string.utf8.count + fonts.count * 8 + lines.count * MemoryLayout<Line>.stride
    for line in lines { n += 32 + line.glyphs.capacity * MemoryLayout<Glyph>.stride }
    return n
  }

  /// The layout of `string`, shaped and broken once per (string, family, size, width, height,
  /// rules) and then served from a process-wide cache: measuring a label and then drawing it,
  /// or building the same card again, shapes nothing.
  public static func cached(
    _ string: String, style: TextStyle, width: Double? = nil, height: Double? = nil
  ) -> TextLayout {
    let key = CacheKey(
      string: string, family: style.family, size: style.size, alignment: style.alignment,
      wraps: style.wraps, truncation: style.truncation, wrapping: style.wrapping, width: width,
      height: height)
    if let l = cache.withLock({ $0.value(for: key) }) { return l }
    let made = TextLayout(string, style: style, width: width, height: height)
    let bytes = made.cachedBytes(for: string)
    cache.withLock { $0.insert(made, for: key, bytes: bytes) }
    return made
  }

  /// Empties the layout cache (for tests and benchmarks of cold layout).
  public static func removeCachedLayouts() { cache.withLock { $0.removeAll() } }
}
