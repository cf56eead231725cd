import SheenRaster
import Synchronization

/// A rasterized glyph: its coverage mask, placed relative to the pen's integer device position
/// on the baseline (the mask's `originX`/`originY`).
public struct GlyphMask: Sendable {
  /// Coverage, never mutated once cached. Its origin is relative to the pen.
  public let mask: AlphaMask
}

/// Counters of the glyph cache, cumulative since the cache was made (or reset). The difference
/// between two snapshots gives, for example, glyph rasterizations per frame.
public struct GlyphCacheStatistics: Hashable, Sendable {
  /// Glyph masks rasterized (cache misses).
  public var rasterizations = 0
  /// Glyph masks found in the cache.
  public var hits = 0
  /// Glyphs drawn by filling their outlines directly (rotated, skewed or very large text).
  public var outlineFills = 0
  /// Masks held now.
  public var entries = 0
  /// Bytes of mask memory held now.
  public var bytes = 0

  public init() {}
}

/// Glyph coverage masks keyed by font, glyph, pixel size and subpixel x position (4 bins), so a
/// line of text is about one masked blit per glyph once its glyphs have been seen.
///
/// Thread-safe: look-ups and insertions take a lock; rasterizing happens outside it (two threads
/// may then rasterize the same glyph once each, and the second result is dropped).
/// When the masks exceed `byteLimit` the cache empties itself: simple, and rare in a UI that uses
/// a few sizes of one or two fonts.
public final class GlyphCache: Sendable {
  /// Subpixel positions per pixel horizontally.
  public static let subpixelBins = 4

  /// What identifies a cached mask.
  public struct Key: Hashable, Sendable {
    public var font: Int
    public var glyph: UInt16
    /// The em size in device pixels.
    public var pixelSize: Double
    /// 0..<subpixelBins: the pen's x offset in quarters of a pixel.
    public var bin: UInt8
  }

  private struct State {
    var masks: [Key: GlyphMask?] = [:]
    var statistics = GlyphCacheStatistics()
  }

  private let state = Mutex(State())
  /// The mask memory the cache may hold before it empties itself.
  public let byteLimit: Int

  public init(byteLimit: Int = 8 << 20) {
    self.byteLimit = byteLimit
  }

  /// The counters so far.
  public var statistics: GlyphCacheStatistics { state.withLock { $0.statistics } }

  /// Zeroes the rasterization, hit and outline-fill counters (entries and bytes stay).
  public func resetCounters() {
    state.withLock {
      $0.statistics.rasterizations = 0
      $0.statistics.hits = 0
      $0.statistics.outlineFills = 0
    }
  }

  /// Drops every mask.
  public func removeAll() {
    state.withLock {
      $0.masks.removeAll()
      $0.statistics.entries = 0
      $0.statistics.bytes = 0
    }
  }

  /// Counts glyphs drawn as outlines rather than through the cache.
  func noteOutlineFills(_ n: Int) {
    state.withLock { $0.statistics.outlineFills += n }
  }

  /// The mask of `glyph` at `pixelSize` with the pen `bin / subpixelBins` pixels right of an
  /// integer position, rasterizing it on a miss; nil for a glyph with no outline (a space).
  public func mask(font: Font, glyph: GlyphID, pixelSize: Double, bin: Int) -> GlyphMask? {
    let key = Key(font: font.id, glyph: glyph.rawValue, pixelSize: pixelSize, bin: UInt8(bin))
    let found: GlyphMask?? = state.withLock { s in
      guard let m = s.masks[key] else { return nil }
      s.statistics.hits += 1
      return .some(m)
    }
    if let m = found { return m }
    let made = GlyphCache.rasterize(font: font, glyph: glyph, pixelSize: pixelSize, bin: bin)
    return state.withLock { s in
      s.statistics.rasterizations += 1
      if let existing = s.masks[key] { return existing }
      let bytes = made.map { $0.mask.width * $0.mask.height } ?? 0
      if s.statistics.bytes + bytes > byteLimit {
        s.masks.removeAll()
        s.statistics.entries = 0
        s.statistics.bytes = 0
      }
      s.masks[key] = made
      s.statistics.entries += 1
      s.statistics.bytes += bytes
      return made
    }
  }

  /// Rasterizes a glyph with the pen at (`bin / subpixelBins`, 0), y down.
  static func rasterize(font: Font, glyph: GlyphID, pixelSize: Double, bin: Int) -> GlyphMask? {
    let pen = Point(x: Double(bin) / Double(subpixelBins), y: 0)
    let path = font.path(for: glyph, size: pixelSize, origin: pen)
    if path.isEmpty { return nil }
    let r = IntRect(enclosing: path.controlBounds)
    guard let mask = try? AlphaMask(width: r.width, height: r.height, originX: r.x, originY: r.y) else {
      return nil
    }
    mask.fill(path)
    return GlyphMask(mask: mask)
  }
}
