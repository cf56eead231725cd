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
    /// Masks of the other subpixel bins, made along with a requested one (`rasterizeBins`) and
    /// moved into `masks` when asked for; at most `spareLimit` bytes.
    var spares: [Key: GlyphMask?] = [:]
    var spareBytes = 0
    var colorGlyphs: [Key: ColorGlyph?] = [:]
    var bitmaps: [Key: ColorBitmap?] = [:]
    var statistics = GlyphCacheStatistics()
  }

  private let state = Mutex(State())
  /// The mask memory the cache may hold before it empties itself.
  public let byteLimit: Int

  /// The bytes of masks made for bins not yet asked for that the cache keeps aside.
  public var spareLimit: Int { max(64 << 10, byteLimit / 16) }

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
      $0.spares.removeAll()
      $0.spareBytes = 0
      $0.masks.removeAll()
      $0.colorGlyphs.removeAll()
      $0.bitmaps.removeAll()
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
  ///
  /// A miss rasterizes the glyph once for every bin (`rasterizeBins`): the bins not asked for
  /// wait aside (up to `spareLimit` bytes), so the glyph met again at another position costs
  /// no rasterization.
  public func mask(font: Font, glyph: GlyphID, pixelSize: Double, bin: Int) -> GlyphMask? {
    let key = Key(font: font.id, glyph: glyph.rawValue, pixelSize: pixelSize, bin: UInt8(bin))
    let found: GlyphMask?? = state.withLock { s in
      if let m = s.masks[key] {
        s.statistics.hits += 1
        return .some(m)
      }
      guard let spare = s.spares.removeValue(forKey: key) else { return nil }
      let bytes = spare.map { $0.mask.width * $0.mask.height } ?? 0
      s.spareBytes -= bytes
      insertLocked(&s, key, spare, bytes: bytes)
      return .some(spare)
    }
    if let m = found { return m }
    let made = GlyphCache.rasterizeBins(font: font, glyph: glyph, pixelSize: pixelSize)
    return state.withLock { s in
      s.statistics.rasterizations += 1
      if let existing = s.masks[key] { return existing }
      let mine = made[bin]
      insertLocked(&s, key, mine, bytes: mine.map { $0.mask.width * $0.mask.height } ?? 0)
      for other in 0..<GlyphCache.subpixelBins where other != bin {
        var k = key
        k.bin = UInt8(other)
        if s.masks[k] != nil || s.spares[k] != nil { continue }
        let bytes = made[other].map { $0.mask.width * $0.mask.height } ?? 0
        if s.spareBytes + bytes > spareLimit {
          s.spares.removeAll(keepingCapacity: true)
          s.spareBytes = 0
        }
        s.spares[k] = made[other]
        s.spareBytes += bytes
      }
      return mine
    }
  }

  /// Adds a mask, emptying the cache first when it would exceed `byteLimit`.
  private func insertLocked(_ s: inout State, _ key: Key, _ mask: GlyphMask?, bytes: Int) {
    if s.statistics.bytes + bytes > byteLimit {
      s.masks.removeAll()
      s.colorGlyphs.removeAll()
      s.bitmaps.removeAll()
      s.statistics.entries = 0
      s.statistics.bytes = 0
    }
    s.masks[key] = mask
    s.statistics.entries += 1
    s.statistics.bytes += bytes
  }

  /// A colour glyph (an emoji bitmap) scaled to `pixelSize`, made on a miss; nil when the glyph
  /// has no bitmap or it cannot be decoded.
  public func colorGlyph(font: Font, glyph: GlyphID, pixelSize: Double) -> ColorGlyph? {
    let key = Key(font: font.id, glyph: glyph.rawValue, pixelSize: pixelSize, bin: 0)
    let found: ColorGlyph?? = state.withLock { s in
      guard let m = s.colorGlyphs[key] else { return nil }
      s.statistics.hits += 1
      return .some(m)
    }
    if let m = found { return m }
    // The font's bitmap is decoded for this and let go (kept, it held as much again as the
    // scaled glyphs: the demo's eight emoji, 136 × 128 pixels each, 0.56 MB); only drawing
    // under a rotation or skew keeps it (`colorBitmap`).
    let made = GlyphCache.decodeColorBitmap(font: font, glyph: glyph).flatMap {
      $0.scaled(pixelSize / Double(font.unitsPerEm))
    }
    return state.withLock { s in
      s.statistics.rasterizations += 1
      if let existing = s.colorGlyphs[key] { return existing }
      let bytes = made.map { $0.image.width * $0.image.height * 4 } ?? 0
      if s.statistics.bytes + bytes > byteLimit {
        s.masks.removeAll()
        s.colorGlyphs.removeAll()
        s.bitmaps.removeAll()
        s.statistics.entries = 0
        s.statistics.bytes = 0
      }
      s.colorGlyphs[key] = made
      s.statistics.entries += 1
      s.statistics.bytes += bytes
      return made
    }
  }

  /// A colour glyph's bitmap as the font holds it (PNG decoded with libpng), and the box it
  /// covers in font units; decoded once.
  public func colorBitmap(font: Font, glyph: GlyphID) -> ColorBitmap? {
    let key = Key(font: font.id, glyph: glyph.rawValue, pixelSize: 0, bin: 0)
    if let m = state.withLock({ $0.bitmaps[key] }) { return m }
    let made = GlyphCache.decodeColorBitmap(font: font, glyph: glyph)
    return state.withLock { s in
      if let existing = s.bitmaps[key] { return existing }
      let bytes = made.map { $0.image.width * $0.image.height * 4 } ?? 0
      s.bitmaps[key] = made
      s.statistics.entries += 1
      s.statistics.bytes += bytes
      return made
    }
  }

  /// A colour glyph's bitmap decoded from the font (PNG, with libpng), and its box in font units.
  static func decodeColorBitmap(font: Font, glyph: GlyphID) -> ColorBitmap? {
    guard let png = font.colorPNG(of: glyph), let image = try? Surface(pngData: png),
      let box = font.boundingBox(of: glyph), image.width > 0, image.height > 0
    else { return nil }
    // y down: the box's top is -yMax.
    return ColorBitmap(
      image: image,
      box: Rect(
        x: Double(box.xMin), y: Double(-box.yMax), width: Double(box.xMax - box.xMin),
        height: Double(box.yMax - box.yMin)))
  }

  /// The glyph's masks at every subpixel bin, from one rasterization at `subpixelBins` times the
  /// horizontal resolution: a pixel's coverage with the pen `b` quarters right is the sum of
  /// the four quarter-pixel cells it spans, which is what rasterizing it there gives (exact
  /// area coverage either way), to a level of rounding. One outline read and one scan instead
  /// of four.
  static func rasterizeBins(font: Font, glyph: GlyphID, pixelSize: Double) -> [GlyphMask?] {
    let bins = subpixelBins
    let none = [GlyphMask?](repeating: nil, count: bins)
    let path = font.path(for: glyph, size: pixelSize)
    if path.isEmpty { return none }
    let b = path.controlBounds
    let fine = IntRect(
      enclosing: Rect(x: b.minX * Double(bins), y: b.minY, width: b.width * Double(bins), height: b.height))
    guard fine.width > 0, fine.height > 0,
      let fineMask = try? AlphaMask(width: fine.width, height: fine.height, originX: fine.x, originY: fine.y)
    else { return none }
    fineMask.fill(path, transform: Transform(a: Double(bins), b: 0, c: 0, d: 1, tx: 0, ty: 0))
    var out = none
    for bin in 0..<bins {
      // Pixel x (pen `bin` quarters right) spans fine cells bins * x - bin ..< bins * x - bin + bins.
      let x0 = Int((Double(fine.x + bin) / Double(bins)).rounded(.down))
      let x1 = Int((Double(fine.x + fine.width + bin) / Double(bins)).rounded(.up))
      guard x1 > x0,
        let m = try? AlphaMask(width: x1 - x0, height: fine.height, originX: x0, originY: fine.y)
      else { continue }
      for y in 0..<fine.height {
        let src = fineMask.row(y)
        let dst = m.row(y)
        for x in x0..<x1 {
          var sum = 0
          let first = bins * x - bin - fine.x
          let lo = max(0, first)
          let hi = min(fine.width, first + bins)
          if lo < hi { for k in lo..<hi { sum += Int(src[k]) } }
          dst[x - x0] = UInt8((sum + bins / 2) / bins)
        }
      }
      out[bin] = GlyphMask(mask: m)
    }
    return out
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

/// A colour glyph's bitmap as its font holds it, and the box (font units, y down, relative to
/// the pen on the baseline) it covers.
public struct ColorBitmap: Sendable {
  public let image: Surface
  public let box: Rect

  /// The bitmap resampled onto whole pixels at `scale` device pixels per font unit (each pixel
  /// the average of the bitmap's pixels under it), placed relative to the pen.
  func scaled(_ scale: Double) -> ColorGlyph? {
    let x0 = box.minX * scale
    let y0 = box.minY * scale
    let x1 = (box.minX + box.width) * scale
    let y1 = (box.minY + box.height) * scale
    let ox = Int(x0.rounded(.down))
    let oy = Int(y0.rounded(.down))
    let w = Int(x1.rounded(.up)) - ox
    let h = Int(y1.rounded(.up)) - oy
    guard w > 0, h > 0, w <= 4096, h <= 4096, let out = try? Surface(width: w, height: h) else { return nil }
    // Source pixels per destination pixel, and where the box starts within the first pixel.
    let sx = Double(image.width) / (x1 - x0)
    let sy = Double(image.height) / (y1 - y0)
    for j in 0..<h {
      // The destination row's extent in source rows.
      let top = (Double(oy + j) - y0) * sy
      let bottom = top + sy
      let r0 = max(0, Int(top.rounded(.down)))
      let r1 = min(image.height, Int(bottom.rounded(.up)))
      let row = out.row(j)
      for i in 0..<w {
        let left = (Double(ox + i) - x0) * sx
        let right = left + sx
        let c0 = max(0, Int(left.rounded(.down)))
        let c1 = min(image.width, Int(right.rounded(.up)))
        var acc: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var total = 0.0
        if r0 < r1 && c0 < c1 {
          for y in r0..<r1 {
            let wy = min(bottom, Double(y + 1)) - max(top, Double(y))
            let src = image.row(y)
            for x in c0..<c1 {
              let wx = min(right, Double(x + 1)) - max(left, Double(x))
              let wgt = wx * wy
              let p = src[x]
              acc.0 += Double(p & 0xFF) * wgt
              acc.1 += Double((p >> 8) & 0xFF) * wgt
              acc.2 += Double((p >> 16) & 0xFF) * wgt
              acc.3 += Double(p >> 24) * wgt
            }
          }
        }
        // Divided by the destination pixel's whole area: pixels the box only partly covers are
        // partly transparent.
        total = sx * sy
        func c(_ v: Double) -> UInt32 { UInt32(min(255, max(0, (v / total).rounded()))) }
        row[i] = c(acc.0) | c(acc.1) << 8 | c(acc.2) << 16 | c(acc.3) << 24
      }
    }
    return ColorGlyph(image: out, originX: ox, originY: oy)
  }
}

/// A colour glyph scaled to a pixel size: a premultiplied image placed at `originX`, `originY`
/// relative to the pen's whole-pixel position on the baseline.
public struct ColorGlyph: Sendable {
  public let image: Surface
  public let originX: Int
  public let originY: Int
}
