/// The index of a glyph in a font; glyph 0 is the font's missing-glyph box (`.notdef`).
public struct GlyphID: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var rawValue: UInt16

  @inlinable public init(_ rawValue: UInt16) { self.rawValue = rawValue }

  /// The missing-glyph box, drawn for scalars no font has.
  public static let notdef = GlyphID(0)

  @inlinable public static func < (a: GlyphID, b: GlyphID) -> Bool { a.rawValue < b.rawValue }

  public var description: String { "glyph \(rawValue)" }
}

/// A glyph's ink bounding box, in font units (y grows upwards).
public struct GlyphBox: Hashable, Sendable {
  public var xMin: Int, yMin: Int, xMax: Int, yMax: Int

  @inlinable public init(xMin: Int, yMin: Int, xMax: Int, yMax: Int) {
    self.xMin = xMin
    self.yMin = yMin
    self.xMax = xMax
    self.yMax = yMax
  }
}
