/// Why a font could not be loaded or found.
///
/// Every parsing failure names the table it was found in, so that a truncated or inconsistent
/// file is reported as, for example, `loca: offset of glyph 12 lies beyond the glyf table`.
public enum FontError: Error, Equatable, CustomStringConvertible {
  /// A table the renderer needs is absent.
  case missingTable(String)
  /// A table is truncated or inconsistent.
  case malformed(table: String, reason: String)
  /// A table uses a format this parser does not read (for example a font with only CFF outlines).
  case unsupported(table: String, reason: String)
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The bundled fonts were not found in any of the places searched.
  case assetsNotFound(searched: [String])

  /// The table the error is about, if any (`"table directory"` for the file header).
  public var table: String? {
    switch self {
    case .missingTable(let t): return t
    case .malformed(let t, _), .unsupported(let t, _): return t
    case .unreadable, .assetsNotFound: return nil
    }
  }

  public var description: String {
    switch self {
    case .missingTable(let t): return "\(t): required table is missing"
    case .malformed(let t, let r): return "\(t): \(r)"
    case .unsupported(let t, let r): return "\(t): unsupported: \(r)"
    case .unreadable(let p, let r): return "cannot read font \(p): \(r)"
    case .assetsNotFound(let s):
      return "bundled fonts not found (set SHEEN_ASSETS to the Assets directory); searched: "
        + s.joined(separator: ", ")
    }
  }
}
