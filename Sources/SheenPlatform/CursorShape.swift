import SheenRaster

/// The pointer's shape over a window, by what it means rather than how it looks: each backend
/// shows its desktop's themed cursor of that name (Xcursor on X11; `wp_cursor_shape_v1` or a
/// `wl_cursor` theme on Wayland).
public enum CursorShape: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// The default arrow.
  case arrow
  /// A pointing hand: something here acts when clicked (a button, a link).
  case pointingHand

  /// The CSS / freedesktop cursor-spec name, which cursor themes, XFixes and
  /// `wp_cursor_shape_v1` use: `default`, `pointer`.
  public var cssName: String {
    switch self {
    case .arrow: return "default"
    case .pointingHand: return "pointer"
    }
  }

  /// Older names of the same shape in X cursor themes, tried after `cssName`.
  public var legacyNames: [String] {
    switch self {
    case .arrow: return ["left_ptr", "arrow"]
    case .pointingHand: return ["hand2", "hand1", "hand"]
    }
  }

  public var description: String { cssName }
}
