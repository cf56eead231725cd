// SheenWayland: a `PlatformWindow` over libwayland-client, with wl_shm buffers and xdg-shell.
//
// Design note. Each Wayland object has one Swift owner that destroys it: `WaylandDisplay` (the
// connection and the globals: compositor, shm, xdg_wm_base, seat), `WaylandInput` (pointer,
// keyboard and the xkbcommon keymap), `WaylandWindow` (wl_surface, xdg_surface, xdg_toplevel,
// the pending frame callback) and `ShmBuffer` (a memfd mapping and its wl_buffer). Listeners
// are C structs of function pointers: closures that capture nothing, allocated once for the
// life of the process, reaching their Swift object through the `data` pointer (unretained: each
// owner destroys its proxies before it goes away, so no event can arrive for a dead object).
//
// Pixels are never converted: a premultiplied `0xAARRGGBB` `Surface` is exactly
// `WL_SHM_FORMAT_ARGB8888` (little-endian). The window keeps up to three buffers and never
// draws into one the compositor holds (`wl_buffer.release`); frame callbacks pace drawing. As
// with X11, a lost connection cannot be recovered: it prints a message and exits with status 3
// (tests may replace that with `WaylandDisplay.onConnectionLost`).

/// Errors connecting to the compositor, creating the window or its buffers.
public enum WaylandError: Error, Equatable, CustomStringConvertible {
  /// `$WAYLAND_DISPLAY` is not set (and no display name was given).
  case noDisplay
  /// The compositor's socket could not be reached.
  case cannotConnect(String)
  /// The display name is relative (`wayland-0`) and `$XDG_RUNTIME_DIR`, where it is looked
  /// for, is not set or not an absolute path.
  case noRuntimeDirectory(String)
  /// The compositor lacks a global Sheen needs (wl_compositor, wl_shm, xdg_wm_base).
  case missingGlobal(String)
  /// The connection failed while setting up.
  case connectionFailed(String)
  /// The compositor never sent the first configure of the window.
  case noConfigure
  /// A buffer could not be created.
  case framebuffer(String)
  /// Every buffer stayed held by the compositor for too long.
  case buffersBusy

  public var description: String {
    switch self {
    case .noDisplay:
      return "no Wayland display: the WAYLAND_DISPLAY environment variable is not set"
    case .cannotConnect(let name):
      return "cannot connect to the Wayland compositor at '\(name)': is a compositor running there?"
    case .noRuntimeDirectory(let name):
      return "cannot find the Wayland compositor at '\(name)': the XDG_RUNTIME_DIR environment variable"
        + " is not set to an absolute path"
    case .missingGlobal(let name):
      return "the Wayland compositor does not offer \(name)"
    case .connectionFailed(let detail):
      return "the Wayland connection failed: \(detail)"
    case .noConfigure:
      return "the Wayland compositor never configured the window"
    case .framebuffer(let detail):
      return "cannot create the Wayland buffer: \(detail)"
    case .buffersBusy:
      return "the Wayland compositor kept every buffer for more than 2 s"
    }
  }
}
