import SheenRaster

/// A window whose pixels are a CPU `Surface`, and the source of its events.
///
/// All calls are made from one thread (the thread that created the window).
public protocol PlatformWindow: AnyObject {
  /// The title shown by the window manager.
  var title: String { get set }
  /// The current size in pixels (updated as `resize` events are read).
  var size: PixelSize { get }

  /// The surface to draw the next frame into, of the current `size`. Waits until the previous
  /// `present()` has finished reading it. The surface is valid until the next call of
  /// `framebuffer()` or `close()`; do not keep it longer.
  func framebuffer() throws -> Surface
  /// Shows the framebuffer's pixels in the window (asynchronously where the platform allows).
  func present()

  /// Every event that has already arrived, in order, without waiting.
  func pollEvents() -> [PlatformEvent]
  /// Waits until an event may be ready, `timeout` seconds pass (`nil`: no limit), or
  /// `wakeDescriptor` (if any) becomes readable.
  func waitForEvents(timeout: Double?, wakeDescriptor: Int32?)

  /// Destroys the window and releases its framebuffer now. Idempotent; also done on deinit.
  func close()

  /// Shows `cursor` while the pointer is over the window. `FrameLoop` calls it when the client's
  /// `cursor(at:)` changes; the default does nothing (a backend without cursors).
  func setCursor(_ cursor: CursorShape)

  /// The pixels per point the desktop asks for (X11: `Xft.dpi` / 96; Wayland: the scale of the
  /// outputs the window is on). Changes arrive as `scaleChange` events. The default is 1.
  var preferredScale: Double { get }
}

extension PlatformWindow {
  public func setCursor(_ cursor: CursorShape) {}
  public var preferredScale: Double { 1 }
}
