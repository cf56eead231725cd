// SheenX11: a `PlatformWindow` over Xlib with an MIT-SHM framebuffer.
//
// Design note. Each X resource has exactly one Swift owner that frees it in `deinit`:
// `X11Display` (the connection, a created colormap), `X11Window` (the window and its GC),
// `SharedMemoryFramebuffer` (the XImage, the shm segment, the server's attachment) and
// `PlainFramebuffer` (the XImage over an ordinary `Surface`, used when MIT-SHM is missing or
// attaching fails). Pixels are never converted: a premultiplied `0xAARRGGBB` `Surface` is
// exactly a 32-bit-per-pixel LSBFirst ZPixmap of a depth-24/32 TrueColor visual, so the only
// visuals accepted are those. A lost connection is fatal by X's design (an IO error handler
// must not return): it prints a message and exits with status 3.

/// Errors opening the display, creating the window or its framebuffer.
public enum X11Error: Error, Equatable, CustomStringConvertible {
  /// `$DISPLAY` is not set (and no display name was given).
  case noDisplay
  /// The server named by the display could not be reached.
  case cannotOpenDisplay(String)
  /// No depth 24 or 32 TrueColor visual with 8-bit RGB masks.
  case unsupportedVisual(String)
  /// The server's image format is not 32 bits per pixel, least significant byte first.
  case unsupportedImageFormat(String)
  /// A framebuffer could not be created.
  case framebuffer(String)
  /// A shared-memory step failed (the caller falls back to `XPutImage`).
  case sharedMemory(String)

  public var description: String {
    switch self {
    case .noDisplay:
      return "no X display: the DISPLAY environment variable is not set"
    case .cannotOpenDisplay(let name):
      return "cannot open X display '\(name)': is an X server running there and are you allowed to use it?"
    case .unsupportedVisual(let detail):
      return "unsupported X visual: \(detail); Sheen needs a depth 24 or 32 TrueColor visual"
    case .unsupportedImageFormat(let detail):
      return "unsupported X image format: \(detail); Sheen needs 32 bits per pixel, LSB first"
    case .framebuffer(let detail):
      return "cannot create the framebuffer: \(detail)"
    case .sharedMemory(let detail):
      return "MIT-SHM: \(detail)"
    }
  }
}
