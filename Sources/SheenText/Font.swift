// SheenText: TrueType fonts parsed in Swift and drawn through SheenRaster's coverage
// rasterizer, so text is anti-aliased exactly like every other shape.
//
// Design:
// - `Font` parses a TrueType file once (`head`, `hhea`, `maxp`, `cmap` 4/12, `loca`, `glyf`,
//   `hmtx`, `kern` format 0, GPOS pair adjustment) and validates every table and every glyph
//   then, so a truncated or inconsistent file is refused at load with an error that names the
//   table. Afterwards a `Font` is immutable and shared freely between threads.
// - `TextLayout` turns a string and a `TextStyle` into lines of positioned glyphs (advances
//   plus pair kerning; no ligatures or other shaping) and measures them without drawing.
// - `TextRenderer` draws a layout on a `Canvas`. Under a translate + uniform scale transform it
//   blits cached glyph masks (`GlyphCache`, keyed by font, glyph, pixel size and one of four
//   subpixel x positions); under any other transform it fills the outlines as paths.
import Foundation
import SheenRaster
import Synchronization

/// Where a font's pair kerning comes from.
public enum KerningSource: Hashable, Sendable {
  /// GPOS pair adjustment of the `kern` feature (preferred when present, as HarfBuzz does).
  case gpos
  /// The legacy `kern` table, format 0.
  case kernTable
  /// The font has no pair kerning.
  case none
}

/// Vertical metrics of a font at a size, in points; y grows downwards from the top of a line.
public struct LineMetrics: Hashable, Sendable {
  /// Distance from the top of a line to its baseline.
  public var ascent: Double
  /// Distance from the baseline to the bottom of a line (positive).
  public var descent: Double
  /// Extra space between lines.
  public var lineGap: Double
  /// Baseline-to-baseline distance: `ascent + descent + lineGap`.
  public var lineHeight: Double { ascent + descent + lineGap }
}

/// A TrueType font: glyph outlines, metrics and kerning, parsed from the file's bytes.
///
/// A `Font` is immutable after loading and safe to share between threads.
public final class Font: Sendable, CustomStringConvertible {
  /// Font units per em (the design grid; 2048 for DejaVu).
  public let unitsPerEm: Int
  /// `hhea` ascender in font units (positive, above the baseline).
  public let ascender: Int
  /// `hhea` descender in font units (negative, below the baseline).
  public let descender: Int
  /// `hhea` line gap in font units.
  public let lineGap: Int
  /// The number of glyphs (`maxp`).
  public let glyphCount: Int
  /// A short label for messages (the file name, when loaded from a file).
  public let name: String

  /// Distinguishes fonts in glyph-cache keys for the life of the process.
  let id: Int
  let advances: [UInt16]
  let cmap: CharacterMap
  let glyphs: GlyphTable
  let kernPairs: [UInt32: Int16]
  let pairPositioning: PairPositioning

  private static let nextID = Atomic<Int>(1)

  /// Parses and validates a TrueType font.
  /// - Throws: `FontError` naming the table that is missing, truncated or inconsistent.
  /// - Complexity: O(size of the file): every glyph is decoded once to validate it.
  public init(bytes: [UInt8], name: String = "font") throws {
    let dir = try TableDirectory(bytes: bytes)
    let header = try HeaderTables(dir)
    unitsPerEm = header.unitsPerEm
    ascender = header.ascent
    descender = header.descent
    lineGap = header.lineGap
    glyphCount = header.numGlyphs
    self.name = name
    advances = try HorizontalMetrics.advances(dir, header: header)
    cmap = try CharacterMap(dir, numGlyphs: header.numGlyphs)
    glyphs = try GlyphTable(dir, header: header)
    kernPairs = try KernTable.pairs(dir)
    pairPositioning = try PairPositioning(dir, numGlyphs: header.numGlyphs)
    id = Font.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    for g in 0..<header.numGlyphs {
      _ = try glyphs.box(g)
      _ = try glyphs.outline(g)
    }
  }

  /// Parses and validates a TrueType font held in `data`.
  public convenience init(data: Data, name: String = "font") throws {
    try self.init(bytes: [UInt8](data), name: name)
  }

  /// Loads a TrueType font file.
  /// - Throws: `FontError.unreadable` when the file cannot be read, else as `init(bytes:)`.
  public convenience init(contentsOfFile path: String) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FontError.unreadable(path: path, reason: "no such file or not readable")
    }
    try self.init(data: data, name: (path as NSString).lastPathComponent)
  }

  public var description: String { "Font(\(name), \(glyphCount) glyphs)" }

  // MARK: Characters and metrics

  /// The glyph for a Unicode scalar, or `.notdef` when the font has none.
  @inline(__always) public func glyphIndex(for scalar: Unicode.Scalar) -> GlyphID {
    GlyphID(cmap.glyph(for: scalar.value))
  }

  /// Whether the font maps `scalar` to a glyph.
  public func hasGlyph(for scalar: Unicode.Scalar) -> Bool { glyphIndex(for: scalar) != .notdef }

  /// The advance width of a glyph in font units (`hmtx`); 0 for an index out of range.
  @inline(__always) public func advance(of glyph: GlyphID) -> Int {
    let i = Int(glyph.rawValue)
    return i < advances.count ? Int(advances[i]) : 0
  }

  /// Where the pair kerning comes from: GPOS when it has `kern` pair lookups, else `kern`.
  public var kerningSource: KerningSource {
    if !pairPositioning.isEmpty { return .gpos }
    return kernPairs.isEmpty ? .none : .kernTable
  }

  /// The pair kerning between two glyphs in font units (negative pulls them together).
  public func kerning(_ left: GlyphID, _ right: GlyphID) -> Int {
    switch kerningSource {
    case .gpos: return gposKerning(left, right)
    case .kernTable: return kernTableKerning(left, right)
    case .none: return 0
    }
  }

  /// The pair adjustment of the GPOS `kern` feature alone.
  public func gposKerning(_ left: GlyphID, _ right: GlyphID) -> Int {
    pairPositioning.adjustment(left.rawValue, right.rawValue)
  }

  /// The pair adjustment of the `kern` table alone.
  public func kernTableKerning(_ left: GlyphID, _ right: GlyphID) -> Int {
    Int(kernPairs[UInt32(left.rawValue) << 16 | UInt32(right.rawValue)] ?? 0)
  }

  /// The font's vertical metrics at `size` points (`hhea` values scaled).
  public func lineMetrics(size: Double) -> LineMetrics {
    let s = size / Double(unitsPerEm)
    return LineMetrics(
      ascent: Double(ascender) * s, descent: Double(-descender) * s, lineGap: Double(lineGap) * s)
  }

  // MARK: Outlines

  /// The bounding box from the glyph's `glyf` header, or nil for a glyph with no outline.
  public func boundingBox(of glyph: GlyphID) -> GlyphBox? {
    (try? glyphs.box(Int(glyph.rawValue))) ?? nil
  }

  /// The glyph's outline in font units, composite glyphs resolved into their parts.
  /// Every glyph was decoded when the font loaded, so this does not fail for a valid index;
  /// an index out of range gives an empty outline.
  public func outline(of glyph: GlyphID) -> GlyphOutline {
    (try? glyphs.outline(Int(glyph.rawValue))) ?? GlyphOutline()
  }

  /// The glyph's outline as a path at `size` points, y down, with the pen (on the baseline)
  /// at `origin`.
  public func path(for glyph: GlyphID, size: Double, origin: Point = .zero) -> Path {
    let s = size / Double(unitsPerEm)
    return outline(of: glyph).path(transform: Transform(a: s, b: 0, c: 0, d: -s, tx: origin.x, ty: origin.y))
  }
}
