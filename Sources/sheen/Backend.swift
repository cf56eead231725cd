// Choosing the windowing system for `sheen demo`: `--backend wayland|x11`, or by default Wayland
// when $WAYLAND_DISPLAY names a reachable compositor, else X11.
import Foundation
import SheenPlatform
import SheenWayland
import SheenX11

/// A windowing system `sheen demo` can draw on.
enum Backend: String, CaseIterable {
  case wayland
  case x11
}

/// A window opened by `openWindow`, with the little the demo needs beyond `PlatformWindow`.
struct OpenedWindow {
  let window: PlatformWindow
  let backend: Backend
  /// Waits (boundedly) until the last presented frame is on screen.
  let waitUntilShown: () -> Void
  /// The `key=value` fields of the demo's "ready" line.
  let readyFields: () -> String
}

/// Why no window could be opened: the message says what was tried. Exit status 3.
struct BackendError: Error, CustomStringConvertible {
  var description: String
}

/// Opens a window on `backend`, or when nil on Wayland if `$WAYLAND_DISPLAY` is set and its
/// compositor answers, else on X11.
/// - Throws: `BackendError` naming each backend tried and why it failed.
/// `paced`: frames in step with the display where the platform offers it (X11 Present); a
/// benchmark passes false to measure drawing and presenting, not the display's rate.
func openWindow(backend: Backend?, title: String, size: PixelSize, paced: Bool = true) throws -> OpenedWindow
{
  switch backend {
  case .wayland:
    do { return try openWayland(title: title, size: size) } catch {
      throw BackendError(description: "\(error)")
    }
  case .x11:
    do { return try openX11(title: title, size: size, paced: paced) } catch {
      throw BackendError(description: "\(error)")
    }
  case nil:
    var waylandFailure: String?
    if let name = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"], !name.isEmpty {
      do { return try openWayland(title: title, size: size) } catch {
        waylandFailure = "\(error)"
      }
    }
    do { return try openX11(title: title, size: size, paced: paced) } catch {
      let wayland = waylandFailure ?? WaylandError.noDisplay.description
      throw BackendError(
        description: "no display to open a window on:\n  Wayland: \(wayland)\n  X11: \(error)\n"
          + "  (start a Wayland compositor or an X server, or choose one with --backend wayland|x11)")
    }
  }
}

private func openWayland(title: String, size: PixelSize) throws -> OpenedWindow {
  let display = try WaylandDisplay()
  let window = try WaylandWindow(display: display, title: title, size: size, appID: "sheen")
  return OpenedWindow(
    window: window, backend: .wayland,
    waitUntilShown: { window.waitForPresentCompletion() },
    readyFields: {
      "backend=wayland display=\(display.name) size=\(window.size) buffers=\(window.bufferCount)"
        + " pointer=\(display.hasPointer) keyboard=\(display.hasKeyboard)"
    })
}

private func openX11(title: String, size: PixelSize, paced: Bool) throws -> OpenedWindow {
  let display = try X11Display()
  let window = try X11Window(display: display, title: title, size: size, presentExtension: paced)
  return OpenedWindow(
    window: window, backend: .x11,
    waitUntilShown: { window.waitForPresentCompletion() },
    readyFields: {
      let shm = window.sharedMemoryID.map(String.init) ?? "none"
      return "window=0x\(String(window.windowID, radix: 16)) shm=\(shm) size=\(window.size)"
    })
}
