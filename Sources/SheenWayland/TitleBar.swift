import SheenRaster
import SheenText

/// The title bar Sheen draws above a window when the compositor leaves decorations to clients
/// (no `xdg-decoration`, or it answers client-side): the title, centred, and a close button.
/// Dragging the bar moves the window, double-clicking it maximizes, its top edge and the
/// window's other edges resize. Geometry is in the compositor's logical units, the whole window
/// (bar and content) having its origin at the bar's top-left corner.
public enum TitleBar {
  /// The bar's height.
  public static let height = 32
  /// How far from the window's edges a press resizes instead of reaching the content.
  public static let resizeMargin = 6.0
  /// Along an edge, how far from a corner a press takes both edges.
  public static let cornerReach = 16.0

  static let background = Color(r8: 0xEB, g8: 0xEB, b8: 0xEF)
  static let inactiveBackground = Color(r8: 0xF6, g8: 0xF6, b8: 0xF8)
  static let separator = Color(r8: 0xC8, g8: 0xC8, b8: 0xCE)
  static let titleColor = Color(r8: 0x22, g8: 0x22, b8: 0x26)
  static let closeHover = Color(r8: 0xE0, g8: 0x3E, b8: 0x3E)

  /// The close button's circle (logical units, bar coordinates) for a bar `width` wide.
  public static func closeButton(width: Int) -> Rect {
    let d = 20.0
    return Rect(x: Double(width) - 6 - d, y: (Double(height) - d) / 2, width: d, height: d)
  }

  /// `xdg_toplevel.resize_edge` bits.
  public struct Edges: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let top = Edges(rawValue: 1)
    public static let bottom = Edges(rawValue: 2)
    public static let left = Edges(rawValue: 4)
    public static let right = Edges(rawValue: 8)

    /// The CSS cursor that shows this resize (`n-resize`, `se-resize`...), nil for none.
    public var cursorName: String? {
      var name = ""
      if contains(.top) { name += "n" }
      if contains(.bottom) { name += "s" }
      if contains(.right) { name += "e" }
      if contains(.left) { name += "w" }
      return name.isEmpty ? nil : name + "-resize"
    }
  }

  /// The edges a press at `p` resizes, in a window `size` big (bar included); empty inside.
  public static func edges(at p: Point, windowSize size: Size) -> Edges {
    var e: Edges = []
    let nearTop = p.y < resizeMargin
    let nearBottom = p.y >= size.height - resizeMargin
    let nearLeft = p.x < resizeMargin
    let nearRight = p.x >= size.width - resizeMargin
    if nearTop || nearBottom {
      e.insert(nearTop ? .top : .bottom)
      if p.x < cornerReach { e.insert(.left) } else if p.x >= size.width - cornerReach { e.insert(.right) }
    }
    if nearLeft || nearRight {
      e.insert(nearLeft ? .left : .right)
      if p.y < cornerReach { e.insert(.top) } else if p.y >= size.height - cornerReach { e.insert(.bottom) }
    }
    return e
  }

  /// Draws the bar into `surface` (the bar's buffer, `scale` pixels per logical unit).
  public static func draw(
    into surface: Surface, scale: Double, title: String, active: Bool = true, closeHovered: Bool = false
  ) {
    let canvas = Canvas(surface: surface)
    canvas.fill(
      Rect(x: 0, y: 0, width: Double(surface.width), height: Double(surface.height)),
      paint: .solid(active ? background : inactiveBackground))
    canvas.scaleBy(x: scale, y: scale)
    let width = Int((Double(surface.width) / scale).rounded())
    let h = Double(height)
    canvas.fill(Rect(x: 0, y: h - 1, width: Double(width), height: 1), paint: .solid(separator))
    let close = closeButton(width: width)
    if closeHovered { canvas.fill(Path(ellipseIn: close), paint: .solid(closeHover)) }
    // The cross: two strokes 8 units long.
    let c = Point(x: close.midX, y: close.midY)
    var cross = Path()
    cross.move(to: Point(x: c.x - 4, y: c.y - 4))
    cross.addLine(to: Point(x: c.x + 4, y: c.y + 4))
    cross.move(to: Point(x: c.x + 4, y: c.y - 4))
    cross.addLine(to: Point(x: c.x - 4, y: c.y + 4))
    canvas.stroke(
      cross, style: StrokeStyle(width: 1.5, cap: .round),
      paint: .solid(closeHovered ? Color(red: 1, green: 1, blue: 1, alpha: 1) : titleColor))
    // The title, centred on the bar (kept clear of the close button), cut with an ellipsis.
    guard !title.isEmpty, let font = try? Font.bundled(.regular) else { return }
    let room = max(0, Double(width) - 2 * (close.width + 16))
    let style = TextStyle(font: font, size: 13, alignment: .center, truncation: .end)
    let layout = TextLayout(title, style: style, width: room)
    let metrics = style.lineMetrics
    let top = ((h - (metrics.ascent + metrics.descent)) / 2).rounded()
    TextRenderer.shared.draw(
      layout, at: Point(x: (Double(width) - room) / 2, y: top), color: active ? titleColor : separator,
      in: canvas)
  }
}
