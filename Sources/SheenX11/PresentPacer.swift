import CX11
import SheenPlatform
import SheenRaster

#if canImport(Glibc)
  import Glibc
#endif

/// Shows a window's frames through the Present extension, in step with the display: each frame
/// is an MIT-SHM pixmap presented at the next vertical retrace (never torn, never two in one
/// retrace); the next frame is drawn once the server says the last is on screen
/// (`PresentCompleteNotify`), into a pixmap the server no longer reads (`PresentIdleNotify`).
/// Xvfb has no display but a Present clock of its own, so the same pacing holds there.
final class PresentPacer {
  /// A completed presentation: the frame's serial, the retrace counter and its time (µs).
  struct Completion: Equatable {
    var serial: UInt32
    var msc: UInt64
    var ust: UInt64
  }

  let display: X11Display
  let window: Window
  private let queue: OpaquePointer
  private let eventID: UInt32
  private var buffers: [(frame: SharedMemoryFramebuffer, idle: Bool)] = []
  /// The buffer handed out by `framebuffer`, until `present`.
  private var drawing: Int?
  private var serial: UInt32 = 0
  /// The serial presented and not yet completed.
  private var awaiting: UInt32?
  /// The last completions, oldest first (at most 256).
  private(set) var completions: [Completion] = []
  /// How long a frame waits for the last one's completion before Present is given up.
  static let completionTimeout = 0.5

  /// Nil when the server lacks Present or MIT-SHM pixmaps, or `SHEEN_X11_PRESENT=0`.
  init?(display: X11Display, window: Window) {
    if let flag = getenv("SHEEN_X11_PRESENT"), String(cString: flag) == "0" { return nil }
    let d = display.handle
    guard display.hasSharedMemory, sheen_shm_pixmaps_available(d) != 0, sheen_present_available(d) != 0 else {
      return nil
    }
    var eid: UInt32 = 0
    guard let queue = sheen_present_listen(d, window, &eid) else { return nil }
    self.display = display
    self.window = window
    self.queue = queue
    eventID = eid
  }

  /// Stops listening; call before the window is destroyed. Frees the pixmaps and segments.
  func finish() {
    buffers.removeAll()
    drawing = nil
    sheen_present_unlisten(display.handle, queue, window, eventID)
    XSync(display.handle, False)
  }

  /// The System V id of the segment last handed out.
  var sharedMemoryID: Int32? { buffers.last?.frame.shmID }

  /// A buffer of `size` to draw the next frame into: waits for the last frame's completion (at
  /// most `completionTimeout`), then for a buffer the server is done with.
  /// - Throws: `X11Error.sharedMemory` when a segment or pixmap cannot be made, or when the
  ///   server never completes a presentation (the caller then presents without Present).
  func framebuffer(size: PixelSize) throws -> SharedMemoryFramebuffer {
    if let drawing, buffers[drawing].frame.size == size { return buffers[drawing].frame }
    drawing = nil
    if awaiting != nil && !wait(until: { awaiting == nil }, timeout: PresentPacer.completionTimeout) {
      throw X11Error.sharedMemory("no Present completion within \(PresentPacer.completionTimeout) s")
    }
    buffers.removeAll { $0.idle && $0.frame.size != size }
    func idle() -> Int? { buffers.firstIndex { $0.idle && $0.frame.size == size } }
    var index = idle()
    if index == nil && buffers.filter({ $0.frame.size == size }).count >= 2 {
      wait(until: { idle() != nil }, timeout: PresentPacer.completionTimeout)
      index = idle()
    }
    if index == nil {
      buffers.append((try SharedMemoryFramebuffer(display: display, size: size, pixmapFor: window), true))
      index = buffers.count - 1
    }
    drawing = index
    return buffers[index!].frame
  }

  /// Whether a frame was handed out and not yet presented.
  var hasFrame: Bool { drawing != nil }

  /// Presents the frame drawn since `framebuffer` at the next retrace.
  func present() {
    guard let index = drawing, let pixmap = buffers[index].frame.pixmap else { return }
    drawing = nil
    serial &+= 1
    buffers[index].idle = false
    awaiting = serial
    XFlush(display.handle)
    sheen_present_pixmap(display.handle, window, pixmap, serial, 0)
  }

  /// Waits (at most `timeout` seconds) until the last presented frame is on screen.
  @discardableResult
  func waitForCompletion(timeout: Double = 2) -> Bool {
    awaiting == nil || wait(until: { awaiting == nil }, timeout: timeout)
  }

  /// Takes every Present event already read or readable now.
  func readEvents() {
    var e = sheen_present_event()
    while sheen_present_poll(display.handle, queue, &e) != 0 {
      switch e.kind {
      case 1:
        if e.serial == awaiting { awaiting = nil }
        completions.append(Completion(serial: e.serial, msc: e.msc, ust: e.ust))
        if completions.count > 256 { completions.removeFirst(completions.count - 256) }
      case 2:
        if let i = buffers.firstIndex(where: { $0.frame.pixmap == Pixmap(e.pixmap) }) {
          buffers[i].idle = true
        }
      default:
        break
      }
    }
  }

  /// Reads Present events until `done` or `timeout` seconds pass; returns `done()`.
  @discardableResult
  private func wait(until done: () -> Bool, timeout: Double) -> Bool {
    let deadline = monotonicSeconds() + timeout
    while true {
      readEvents()
      if done() { return true }
      let remaining = deadline - monotonicSeconds()
      if remaining <= 0 { return false }
      waitReadable([display.fileDescriptor], timeout: min(remaining, 0.05))
    }
  }
}
