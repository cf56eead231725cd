// SheenText: fonts read by HarfBuzz, text shaped by HarfBuzz, ordered by FriBidi, broken into
// lines at libunibreak's opportunities, and drawn through SheenRaster's coverage rasterizer, so
// text is anti-aliased exactly like every other shape.
//
// Design:
// - `Font` is one face of a font file (TrueType, OpenType CFF/CFF2, a face of a collection, or a
//   colour bitmap font such as Noto Color Emoji), read by HarfBuzz. HarfBuzz is the one source
//   of truth for everything the file holds: character map, metrics, the glyph outlines (through
//   `hb_font_get_glyph_shape`, HarfBuzz 6's name for `hb_font_draw_glyph`, which reads glyf, CFF and CFF2) and colour bitmaps (CBDT). The
//   hand-written TrueType parser Sheen started with is gone: it read glyf only (no CJK, whose
//   Noto faces are CFF collections), and shaping reads the same tables through HarfBuzz anyway,
//   so keeping it would have meant two readings of one file that could disagree. HarfBuzz
//   validates ("sanitizes") every table it reads, and Sheen's font fuzzer runs it under
//   AddressSanitizer. A `Font` is immutable after loading and shared freely between threads.
// - `FontLibrary` finds fonts through fontconfig: a family and weight, and the fonts that fall
//   back for characters the family lacks, in fontconfig's order (what Pango and Qt do).
// - `TextLayout` shapes a string with HarfBuzz run by run (font, script, direction), orders each
//   paragraph by the Unicode bidirectional algorithm (FriBidi), breaks lines at UAX #14
//   opportunities (libunibreak) and truncates in reading order.
// - `TextRenderer` draws a layout on a `Canvas`. Under a translate + uniform scale transform it
//   blits cached glyph masks (`GlyphCache`, keyed by font, glyph, pixel size and one of four
//   subpixel x positions) and cached colour glyph images; under any other transform it fills the
//   outlines as paths.
import CHarfBuzz
import Foundation
import SheenRaster
import Synchronization

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

  public init(ascent: Double, descent: Double, lineGap: Double) {
    self.ascent = ascent
    self.descent = descent
    self.lineGap = lineGap
  }
}

/// One face of a font file, read by HarfBuzz: character map, metrics, outlines, colour bitmaps.
///
/// A `Font` is immutable after loading and safe to share between threads.
public final class Font: Sendable, CustomStringConvertible {
  /// Font units per em (the design grid; 2048 for DejaVu).
  public let unitsPerEm: Int
  /// The ascender in font units (positive, above the baseline), as HarfBuzz reports it (`hhea`,
  /// or `OS/2` typographic metrics when the font asks for them), as Pango uses it.
  public let ascender: Int
  /// The descender in font units (negative, below the baseline).
  public let descender: Int
  /// The line gap in font units.
  public let lineGap: Int
  /// The number of glyphs.
  public let glyphCount: Int
  /// A short label for messages (the file name, when loaded from a file).
  public let name: String
  /// The family name from the font's `name` table (empty when it has none).
  public let familyName: String
  /// Whether the glyphs are colour bitmaps (PNG in `CBDT` or `sbix`), drawn as images.
  public let hasColorBitmaps: Bool

  /// Distinguishes fonts in glyph-cache keys for the life of the process.
  let id: Int
  /// HarfBuzz's font at a scale of `unitsPerEm` (positions come back in font units); immutable.
  nonisolated(unsafe) let hbFont: OpaquePointer

  private static let nextID = Atomic<Int>(1)

  /// Reads face `index` of the font held in `blob` (HarfBuzz takes its own reference).
  private init(blob: OpaquePointer, index: Int, name: String) throws {
    guard hb_blob_get_length(blob) > 0 else {
      throw FontError.malformed(table: "table directory", reason: "the file is empty")
    }
    let face = hb_face_create(blob, UInt32(clamping: index))!
    defer { hb_face_destroy(face) }
    let glyphs = Int(hb_face_get_glyph_count(face))
    guard glyphs > 0 else {
      throw FontError.malformed(
        table: "table directory", reason: "not a font HarfBuzz can read (face \(index) has no glyphs)")
    }
    let cmapTag: hb_tag_t = 0x636D_6170  // 'cmap'
    let cmap = hb_face_reference_table(face, cmapTag)
    defer { hb_blob_destroy(cmap) }
    guard hb_blob_get_length(cmap) > 0 else { throw FontError.missingTable("cmap") }
    let font = hb_font_create(face)!
    hb_font_make_immutable(font)
    hbFont = font
    unitsPerEm = Int(hb_face_get_upem(face))
    glyphCount = glyphs
    var extents = hb_font_extents_t()
    hb_font_get_h_extents(font, &extents)
    ascender = Int(extents.ascender)
    descender = Int(extents.descender)
    lineGap = Int(extents.line_gap)
    self.name = name
    familyName = Font.nameString(face, 1)  // HB_OT_NAME_ID_FONT_FAMILY
    hasColorBitmaps = hb_ot_color_has_png(face) != 0
    id = Font.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  deinit { hb_font_destroy(hbFont) }

  /// Reads a font from its bytes (face `index` of a collection).
  /// - Throws: `FontError` when HarfBuzz finds no face with glyphs, or the face has no `cmap`.
  public convenience init(bytes: [UInt8], index: Int = 0, name: String = "font") throws {
    let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
    bytes.withUnsafeBytes {
      copy.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(copy), byteCount: $0.count)
    }
    let blob = hb_blob_create(
      copy.assumingMemoryBound(to: CChar.self), UInt32(clamping: bytes.count), HB_MEMORY_MODE_READONLY, copy,
      { $0?.deallocate() })!
    defer { hb_blob_destroy(blob) }
    try self.init(blob: blob, index: index, name: name)
  }

  /// Reads a font held in `data`.
  public convenience init(data: Data, index: Int = 0, name: String = "font") throws {
    try self.init(bytes: [UInt8](data), index: index, name: name)
  }

  /// Loads face `index` of a font file (mapped, not copied).
  /// - Throws: `FontError.unreadable` when the file cannot be read, else as `init(bytes:)`.
  public convenience init(contentsOfFile path: String, index: Int = 0) throws {
    guard let blob = FontFileMapping.blob(path: path) else {
      throw FontError.unreadable(path: path, reason: "no such file or not readable")
    }
    defer { hb_blob_destroy(blob) }
    try self.init(blob: blob, index: index, name: (path as NSString).lastPathComponent)
  }

  public var description: String { "Font(\(name), \(glyphCount) glyphs)" }

  private static func nameString(_ face: OpaquePointer, _ id: hb_ot_name_id_t) -> String {
    var length: UInt32 = 128
    var buffer = [CChar](repeating: 0, count: 129)
    _ = hb_ot_name_get_utf8(face, id, hb_language_from_string("en", -1), &length, &buffer)
    return String(cString: buffer)
  }

  // MARK: Characters and metrics

  /// The glyph for a Unicode scalar, or `.notdef` when the font has none.
  public func glyphIndex(for scalar: Unicode.Scalar) -> GlyphID {
    var g: hb_codepoint_t = 0
    guard hb_font_get_nominal_glyph(hbFont, scalar.value, &g) != 0, g <= 0xFFFF else { return .notdef }
    return GlyphID(UInt16(g))
  }

  /// Whether the font maps `scalar` to a glyph.
  public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
    var g: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(hbFont, scalar.value, &g) != 0
  }

  /// The advance width of a glyph in font units (`hmtx`); 0 for an index out of range.
  public func advance(of glyph: GlyphID) -> Int {
    Int(hb_font_get_glyph_h_advance(hbFont, hb_codepoint_t(glyph.rawValue)))
  }

  /// The font's vertical metrics at `size` points.
  public func lineMetrics(size: Double) -> LineMetrics {
    let s = size / Double(unitsPerEm)
    return LineMetrics(
      ascent: Double(ascender) * s, descent: Double(-descender) * s, lineGap: Double(lineGap) * s)
  }

  // MARK: Outlines

  /// The glyph's ink bounding box in font units (y up), or nil for a glyph with no ink.
  public func boundingBox(of glyph: GlyphID) -> GlyphBox? {
    var e = hb_glyph_extents_t()
    guard hb_font_get_glyph_extents(hbFont, hb_codepoint_t(glyph.rawValue), &e) != 0,
      e.width != 0 || e.height != 0
    else { return nil }
    return GlyphBox(
      xMin: Int(e.x_bearing), yMin: Int(e.y_bearing + e.height), xMax: Int(e.x_bearing + e.width),
      yMax: Int(e.y_bearing))
  }

  /// The glyph's outline mapped by `transform` from font units (y up): lines, quadratic curves
  /// (glyf) and cubic curves (CFF), as HarfBuzz draws them. Empty for a glyph with no outline
  /// (a space, a colour bitmap).
  public func outline(of glyph: GlyphID, transform: Transform = .identity) -> Path {
    var sink = OutlineSink(transform: transform)
    withUnsafeMutablePointer(to: &sink) { p in
      hb_font_get_glyph_shape(hbFont, hb_codepoint_t(glyph.rawValue), OutlineSink.funcs, p)
    }
    return sink.path
  }

  /// The glyph's outline as a path at `size` points, y down, with the pen (on the baseline)
  /// at `origin`.
  public func path(for glyph: GlyphID, size: Double, origin: Point = .zero) -> Path {
    let s = size / Double(unitsPerEm)
    return outline(of: glyph, transform: Transform(a: s, b: 0, c: 0, d: -s, tx: origin.x, ty: origin.y))
  }

  /// The PNG bytes of a colour bitmap glyph (the font's largest strike), or nil.
  public func colorPNG(of glyph: GlyphID) -> [UInt8]? {
    guard hasColorBitmaps, let blob = hb_ot_color_glyph_reference_png(hbFont, hb_codepoint_t(glyph.rawValue))
    else { return nil }
    defer { hb_blob_destroy(blob) }
    var length: UInt32 = 0
    guard let data = hb_blob_get_data(blob, &length), length > 0 else { return nil }
    return [UInt8](UnsafeRawBufferPointer(start: data, count: Int(length)))
  }
}

/// Collects HarfBuzz's drawing calls into a path.
private struct OutlineSink {
  var transform: Transform
  var path = Path()

  func point(_ x: Float, _ y: Float) -> Point { transform.apply(Point(x: Double(x), y: Double(y))) }

  /// The callbacks, made once and shared (HarfBuzz objects are thread-safe once immutable).
  nonisolated(unsafe) static let funcs: OpaquePointer = {
    let f = hb_draw_funcs_create()!
    hb_draw_funcs_set_move_to_func(
      f,
      { _, data, _, x, y, _ in
        let s = data!.assumingMemoryBound(to: OutlineSink.self)
        s.pointee.path.move(to: s.pointee.point(x, y))
      }, nil, nil)
    hb_draw_funcs_set_line_to_func(
      f,
      { _, data, _, x, y, _ in
        let s = data!.assumingMemoryBound(to: OutlineSink.self)
        s.pointee.path.addLine(to: s.pointee.point(x, y))
      }, nil, nil)
    hb_draw_funcs_set_quadratic_to_func(
      f,
      { _, data, _, cx, cy, x, y, _ in
        let s = data!.assumingMemoryBound(to: OutlineSink.self)
        s.pointee.path.addQuadCurve(to: s.pointee.point(x, y), control: s.pointee.point(cx, cy))
      }, nil, nil)
    hb_draw_funcs_set_cubic_to_func(
      f,
      { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
        let s = data!.assumingMemoryBound(to: OutlineSink.self)
        s.pointee.path.addCurve(
          to: s.pointee.point(x, y), control1: s.pointee.point(c1x, c1y), control2: s.pointee.point(c2x, c2y))
      }, nil, nil)
    hb_draw_funcs_set_close_path_func(
      f,
      { _, data, _, _ in
        data!.assumingMemoryBound(to: OutlineSink.self).pointee.path.closeSubpath()
      }, nil, nil)
    hb_draw_funcs_make_immutable(f)
    return f
  }()
}
