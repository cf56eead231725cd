import CWayland
import CXdgShell

#if canImport(Glibc)
  import Glibc
#endif

/// Shows named cursors over a `wl_pointer`: through `wp_cursor_shape_v1` where the compositor
/// offers it (the compositor draws its own themed cursor, at its scale), else from the user's
/// cursor theme with libwayland-cursor (`XCURSOR_THEME`, `XCURSOR_SIZE`, loaded at the window's
/// scale and shown with that buffer scale, so HiDPI cursors are sharp).
///
/// Names are the CSS / freedesktop cursor names (`default`, `pointer`, `n-resize`...).
final class WaylandCursors {
  /// How the cursor is shown.
  enum Method: String {
    case shape = "wp_cursor_shape_v1"
    case theme = "wl_cursor"
  }

  unowned let display: WaylandDisplay
  let pointer: OpaquePointer
  private var shapeDevice: OpaquePointer?
  /// The surface the themed cursor images are attached to.
  private var surface: OpaquePointer?
  /// Loaded themes by their pixel size.
  private var themes: [Int32: OpaquePointer] = [:]
  /// What was last shown, and through what (for tests and diagnostics).
  private(set) var shown: (name: String, method: Method, pixelSize: Int32)?

  init(display: WaylandDisplay, pointer: OpaquePointer) {
    self.display = display
    self.pointer = pointer
    if let manager = display.cursorShapeManager {
      shapeDevice = wp_cursor_shape_manager_v1_get_pointer(manager, pointer)
    }
  }

  deinit {
    if let shapeDevice { wp_cursor_shape_device_v1_destroy(shapeDevice) }
    if let surface { wl_surface_destroy(surface) }
    for theme in themes.values { wl_cursor_theme_destroy(theme) }
  }

  /// The pointer entered a surface (`serial` is the enter's): what was shown no longer is.
  func entered() { shown = nil }

  /// Shows the cursor `name` (a CSS name) for the pointer enter `serial`, drawn for `scale`
  /// pixels per logical unit. Does nothing if it is already shown at that scale.
  func show(_ name: String, serial: UInt32, scale: Double) {
    if let shapeDevice {
      guard shown?.name != name else { return }
      let shape = WaylandCursors.shapeNumber(name) ?? WaylandCursors.shapeNumber("default")!
      wp_cursor_shape_device_v1_set_shape(shapeDevice, serial, shape)
      shown = (name, .shape, 0)
      return
    }
    // Theme images are made for whole scales: the next one up, so they are never upscaled.
    let wholeScale = Int32(min(8, max(1, scale.rounded(.up))))
    let pixelSize = WaylandCursors.baseSize * wholeScale
    guard shown?.name != name || shown?.pixelSize != pixelSize else { return }
    guard let theme = theme(pixelSize: pixelSize) else { return }
    var cursor: UnsafeMutablePointer<wl_cursor>?
    for candidate in [name] + WaylandCursors.legacyNames(name) + ["default", "left_ptr"] {
      cursor = wl_cursor_theme_get_cursor(theme, candidate)
      if cursor != nil { break }
    }
    guard let cursor, cursor.pointee.image_count > 0, let image = cursor.pointee.images[0],
      let buffer = wl_cursor_image_get_buffer(image)
    else { return }
    if surface == nil, let compositor = display.compositor {
      surface = wl_compositor_create_surface(compositor)
    }
    guard let surface else { return }
    let i = image.pointee
    // A buffer scale must divide the image's size.
    let bufferScale =
      (Int32(i.width) % wholeScale == 0 && Int32(i.height) % wholeScale == 0) ? wholeScale : 1
    if display.compositorVersion >= 3 { wl_surface_set_buffer_scale(surface, bufferScale) }
    wl_surface_attach(surface, buffer, 0, 0)
    wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
    wl_surface_commit(surface)
    wl_pointer_set_cursor(
      pointer, serial, surface, Int32(i.hotspot_x) / bufferScale, Int32(i.hotspot_y) / bufferScale)
    shown = (name, .theme, Int32(i.width))
  }

  /// The theme at `pixelSize` (loaded once); nil when no theme can be loaded.
  private func theme(pixelSize: Int32) -> OpaquePointer? {
    if let theme = themes[pixelSize] { return theme }
    guard let shm = display.shm else { return nil }
    let name = getenv("XCURSOR_THEME").flatMap { $0.pointee == 0 ? nil : String(cString: $0) }
    guard let theme = wl_cursor_theme_load(name, pixelSize, shm) else { return nil }
    themes[pixelSize] = theme
    return theme
  }

  /// The cursor's logical size: `XCURSOR_SIZE`, 24 by default (as GTK and Qt).
  static var baseSize: Int32 {
    guard let text = getenv("XCURSOR_SIZE").map({ String(cString: $0) }), let n = Int32(text), n > 0, n <= 256
    else { return 24 }
    return n
  }

  /// `wp_cursor_shape_device_v1.shape` numbers of the names Sheen uses.
  static func shapeNumber(_ name: String) -> UInt32? {
    let shapes: [String: wp_cursor_shape_device_v1_shape] = [
      "default": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT, "pointer": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_POINTER,
      "n-resize": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_N_RESIZE,
      "s-resize": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_S_RESIZE,
      "e-resize": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_E_RESIZE,
      "w-resize": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_W_RESIZE,
      "ne-resize": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_NE_RESIZE,
      "nw-resize": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_NW_RESIZE,
      "se-resize": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_SE_RESIZE,
      "sw-resize": WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_SW_RESIZE,
    ]
    return shapes[name]?.rawValue
  }

  /// The X cursor font names themes also use for `name`.
  static func legacyNames(_ name: String) -> [String] {
    switch name {
    case "default": return ["left_ptr"]
    case "pointer": return ["hand2", "hand1"]
    case "n-resize": return ["top_side"]
    case "s-resize": return ["bottom_side"]
    case "e-resize": return ["right_side"]
    case "w-resize": return ["left_side"]
    case "ne-resize": return ["top_right_corner"]
    case "nw-resize": return ["top_left_corner"]
    case "se-resize": return ["bottom_right_corner"]
    case "sw-resize": return ["bottom_left_corner"]
    default: return []
    }
  }
}
