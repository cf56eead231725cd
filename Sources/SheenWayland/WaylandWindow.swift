import CWayland
import CXdgShell
import SheenPlatform
import SheenRaster

#if canImport(Glibc)
  import Glibc
#endif

/// An xdg-shell toplevel window whose pixels are memfd-backed `wl_shm` buffers. Owns the
/// `wl_surface`, `xdg_surface`, `xdg_toplevel`, its buffers and its pending frame callback, and
/// destroys them on `close()` or deinit.
///
/// Sizes and event positions are in buffer pixels: the surface's size in the compositor's
/// logical units times its buffer scale, the largest scale of the outputs it is on
/// (`wl_output.scale`; HiDPI screens report 2). When that scale changes, a `scaleChange` and a
/// `resize` follow, and the next buffer has the new size. (Fractional scales are not offered:
/// the buffer scale is a whole number.)
public final class WaylandWindow: PlatformWindow {
  /// The connection (kept alive as long as the window).
  public let display: WaylandDisplay
  /// The application id given to the compositor (`xdg_toplevel.set_app_id`).
  public let appID: String
  public private(set) var size: PixelSize
  /// The smallest size, given to the compositor (`xdg_toplevel.set_min_size`).
  public let minimumSize: PixelSize
  /// Whether the compositor shows the window fullscreen / maximized (from the last configure).
  public private(set) var isFullscreen = false
  public private(set) var isMaximized = false
  /// The sizes of the buffers created so far, in order (for tests and diagnostics).
  public private(set) var createdBufferSizes: [PixelSize] = []

  private var surface: OpaquePointer?
  private var xdgSurface: OpaquePointer?
  private var toplevel: OpaquePointer?
  private var buffers: [ShmBuffer] = []
  /// The buffer `framebuffer()` handed out, until `present()`.
  private var drawing: ShmBuffer?
  private var frameCallback: OpaquePointer?
  private var queue: [PlatformEvent] = []
  private var configured = false
  /// From `xdg_toplevel.configure`, applied on `xdg_surface.configure`.
  private var pendingSize: PixelSize?
  private var pendingStates = (fullscreen: false, maximized: false)
  /// The size to return to when the compositor leaves the choice to us (after fullscreen).
  private var floatingSize: PixelSize
  /// The size in the compositor's logical units (`size` is this times `bufferScale`).
  private var logicalSize: PixelSize
  /// Pixels per logical unit, set on the surface with the next buffer.
  public private(set) var bufferScale: Int32 = 1
  /// The outputs the surface is on (`wl_surface.enter`).
  private var outputs: Set<UnsafeMutableRawPointer> = []

  /// How long `framebuffer()` waits for a frame callback or a released buffer.
  static let frameWait = 1.0
  static let bufferWait = 2.0
  /// Buffers of one size kept at most (two suffice unless the compositor holds on to them).
  static let maximumBuffers = 3

  /// Creates a toplevel and waits (at most 5 s) for the compositor's first configure, so the
  /// window can draw when this returns.
  /// - Parameters:
  ///   - title: `xdg_toplevel.set_title`.
  ///   - size: the initial size, used unless the compositor asks for another.
  ///   - appID: `xdg_toplevel.set_app_id` (desktop files and compositor rules match on it).
  /// - Throws: `WaylandError.framebuffer` for an invalid size, `.noConfigure`, `.connectionFailed`.
  public init(
    display: WaylandDisplay, title: String, size: PixelSize, appID: String = "sheen",
    minimumSize: PixelSize = PixelSize(width: 64, height: 64)
  ) throws {
    guard size.width > 0, size.height > 0, size.width <= 32767, size.height <= 32767 else {
      throw WaylandError.framebuffer("invalid window size \(size)")
    }
    self.display = display
    self.appID = appID
    self.size = size
    self.minimumSize = minimumSize
    self.title = title
    floatingSize = size
    logicalSize = size
    guard !display.isLost, let compositor = display.compositor, let wmBase = display.wmBase,
      let surface = wl_compositor_create_surface(compositor)
    else { throw WaylandError.connectionFailed("the display is not usable") }
    self.surface = surface
    let me = Unmanaged.passUnretained(self).toOpaque()
    xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
    xdg_surface_add_listener(xdgSurface, xdgSurfaceListener, me)
    toplevel = xdg_surface_get_toplevel(xdgSurface)
    xdg_toplevel_add_listener(toplevel, toplevelListener, me)
    xdg_toplevel_set_title(toplevel, title)
    xdg_toplevel_set_app_id(toplevel, appID)
    xdg_toplevel_set_min_size(toplevel, Int32(minimumSize.width), Int32(minimumSize.height))
    wl_surface_add_listener(surface, surfaceListener, me)
    display.register(self, surface: surface)
    // The first commit carries no buffer: it asks for the first configure.
    wl_surface_commit(surface)
    // A throw from here on still runs deinit, which closes the window.
    display.dispatch(until: { configured || display.isLost }, timeout: 5)
    if display.isLost { throw WaylandError.connectionFailed("the compositor went away") }
    if !configured { throw WaylandError.noConfigure }
  }

  deinit { close() }

  public var title: String {
    didSet {
      guard let toplevel, !display.isLost else { return }
      xdg_toplevel_set_title(toplevel, title)
      wl_display_flush(display.handle)
    }
  }

  /// Whether the buffer handed out by `framebuffer()` is held by the compositor (always false:
  /// for tests).
  var drawingBufferIsHeld: Bool { drawing?.isBusy ?? false }

  /// Number of buffers alive (for tests: never more than `maximumBuffers` of the current size).
  public var bufferCount: Int { buffers.count }

  public func close() {
    guard let surface else { return }
    display.unregister(surface: surface)
    if let frameCallback { wl_callback_destroy(frameCallback) }
    frameCallback = nil
    if let toplevel { xdg_toplevel_destroy(toplevel) }
    if let xdgSurface { xdg_surface_destroy(xdgSurface) }
    wl_surface_destroy(surface)
    toplevel = nil
    xdgSurface = nil
    self.surface = nil
    drawing = nil
    buffers.removeAll()
    if !display.isLost { wl_display_flush(display.handle) }
  }

  /// Asks the compositor to show the window fullscreen (or to stop). The answer arrives as a
  /// configure: a `resize` event follows when the size changes.
  public func setFullscreen(_ on: Bool) {
    guard let toplevel, !display.isLost else { return }
    if on { xdg_toplevel_set_fullscreen(toplevel, nil) } else { xdg_toplevel_unset_fullscreen(toplevel) }
    wl_display_flush(display.handle)
  }

  /// Asks the compositor to maximize the window (or to stop).
  public func setMaximized(_ on: Bool) {
    guard let toplevel, !display.isLost else { return }
    if on { xdg_toplevel_set_maximized(toplevel) } else { xdg_toplevel_unset_maximized(toplevel) }
    wl_display_flush(display.handle)
  }

  // MARK: - Frames

  /// A buffer of the current size the compositor does not hold. Waits first for the frame
  /// callback of the last commit (at most `frameWait` seconds), which paces drawing to what
  /// the compositor shows; then, if every buffer is held, for a release (at most `bufferWait`).
  public func framebuffer() throws -> Surface {
    guard surface != nil, !display.isLost else {
      throw WaylandError.connectionFailed("the window is closed or the compositor went away")
    }
    if let drawing, drawing.size == size { return drawing.surface }
    drawing = nil
    if frameCallback != nil {
      display.dispatch(until: { frameCallback == nil }, timeout: WaylandWindow.frameWait)
    }
    let buffer = try freeBuffer()
    drawing = buffer
    return buffer.surface
  }

  private func freeBuffer() throws -> ShmBuffer {
    // Buffers of an old size go as soon as the compositor lets go of them.
    buffers.removeAll { !$0.isBusy && $0.size != size }
    func free() -> ShmBuffer? { buffers.first { !$0.isBusy && $0.size == size } }
    if let buffer = free() { return buffer }
    var sameSize = buffers.count { $0.size == size }
    if sameSize >= 2 {
      display.dispatch(until: { free() != nil || display.isLost }, timeout: WaylandWindow.bufferWait)
      if let buffer = free() { return buffer }
      if display.isLost { throw WaylandError.connectionFailed("the compositor went away") }
      sameSize = buffers.count { $0.size == size }
      if sameSize >= WaylandWindow.maximumBuffers { throw WaylandError.buffersBusy }
    }
    guard let shm = display.shm else { throw WaylandError.missingGlobal("wl_shm") }
    let buffer = try ShmBuffer(shm: shm, size: size)
    buffer.scale = bufferScale
    buffers.append(buffer)
    createdBufferSizes.append(size)
    return buffer
  }

  /// Attaches the buffer drawn since `framebuffer()`, damages all of it, asks for a frame
  /// callback and commits.
  public func present() {
    guard let surface, let buffer = drawing, !display.isLost else { return }
    drawing = nil
    // A buffer drawn before a scale change is shown at the scale it was made for.
    if display.compositorVersion >= 3 { wl_surface_set_buffer_scale(surface, buffer.scale) }
    wl_surface_attach(surface, buffer.buffer, 0, 0)
    if display.compositorVersion >= 4 {
      wl_surface_damage_buffer(surface, 0, 0, Int32.max, Int32.max)
    } else {
      wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
    }
    if let frameCallback { wl_callback_destroy(frameCallback) }
    frameCallback = wl_surface_frame(surface)
    wl_callback_add_listener(frameCallback, frameListener, Unmanaged.passUnretained(self).toOpaque())
    wl_surface_commit(surface)
    buffer.isBusy = true
    display.dispatch(timeout: 0)  // flushes, and notices a lost connection now
  }

  /// Waits (at most `timeout` seconds) until the compositor says the last presented frame is
  /// on screen (its frame callback); false on timeout.
  @discardableResult
  public func waitForPresentCompletion(timeout: Double = 2) -> Bool {
    guard frameCallback != nil else { return true }
    return display.dispatch(until: { frameCallback == nil || display.isLost }, timeout: timeout)
      && frameCallback == nil
  }

  // MARK: - Events

  /// Queues an event from the seat, its positions turned from logical units into pixels.
  func enqueue(_ event: PlatformEvent) {
    guard surface != nil else { return }
    queue.append(bufferScale == 1 ? event : event.scaled(by: Double(bufferScale)))
  }

  /// Which outputs the surface is on changed, or an output's scale did: takes the largest scale
  /// of those outputs (the current one while it is on none).
  func outputsChanged() {
    guard surface != nil, display.compositorVersion >= 3 else { return }
    let scales = outputs.compactMap { display.outputScale(of: $0) }
    guard let wanted = scales.max(), wanted >= 1, wanted <= 8, wanted != bufferScale else { return }
    bufferScale = wanted
    queue.append(.scaleChange(Double(wanted)))
    let scaled = PixelSize(width: logicalSize.width * Int(wanted), height: logicalSize.height * Int(wanted))
    if scaled != size {
      size = scaled
      queue.append(.resize(scaled))
    }
  }

  fileprivate func surfaceEnter(_ output: OpaquePointer?) {
    guard let output else { return }
    outputs.insert(UnsafeMutableRawPointer(output))
    outputsChanged()
  }

  fileprivate func surfaceLeave(_ output: OpaquePointer?) {
    guard let output else { return }
    outputs.remove(UnsafeMutableRawPointer(output))
    outputsChanged()
  }

  /// The output is gone.
  func forget(output: UnsafeMutableRawPointer) {
    outputs.remove(output)
  }

  /// The desktop's scale for this window: `bufferScale`.
  public var preferredScale: Double { Double(bufferScale) }

  public func pollEvents() -> [PlatformEvent] {
    display.dispatch(timeout: 0)
    display.input?.deliverKeyRepeats(now: monotonicSeconds())
    defer { queue.removeAll(keepingCapacity: true) }
    return queue
  }

  public func waitForEvents(timeout: Double?, wakeDescriptor: Int32?) {
    if !queue.isEmpty || surface == nil || display.isLost { return }
    var wait = timeout
    if let repeatDue = display.input?.nextRepeat {
      let untilRepeat = max(0, repeatDue - monotonicSeconds())
      wait = min(wait ?? untilRepeat, untilRepeat)
    }
    display.dispatch(timeout: wait, wakeDescriptor: wakeDescriptor)
  }

  // MARK: - xdg-shell events

  fileprivate func toplevelConfigure(width: Int32, height: Int32, states: UnsafeMutablePointer<wl_array>?) {
    pendingSize = width > 0 && height > 0 ? PixelSize(width: Int(width), height: Int(height)) : nil
    pendingStates = (false, false)
    if let states, let data = states.pointee.data {
      let count = states.pointee.size / MemoryLayout<UInt32>.stride
      for state in UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count) {
        if state == XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue { pendingStates.fullscreen = true }
        if state == XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue { pendingStates.maximized = true }
      }
    }
  }

  fileprivate func surfaceConfigure(serial: UInt32) {
    guard let xdgSurface else { return }
    xdg_surface_ack_configure(xdgSurface, serial)
    isFullscreen = pendingStates.fullscreen
    isMaximized = pendingStates.maximized
    var newSize = pendingSize ?? floatingSize
    newSize.width = max(newSize.width, minimumSize.width)
    newSize.height = max(newSize.height, minimumSize.height)
    if pendingSize != nil && !isFullscreen && !isMaximized { floatingSize = newSize }
    let first = !configured
    configured = true
    logicalSize = newSize
    let scaled = PixelSize(width: newSize.width * Int(bufferScale), height: newSize.height * Int(bufferScale))
    if scaled != size {
      size = scaled
      queue.append(.resize(scaled))
    } else if !first {
      // The compositor applies a new state with the next commit: draw one.
      queue.append(.expose)
    }
  }

  fileprivate func toplevelClose() { queue.append(.closeRequest) }

  fileprivate func frameDone() {
    if let frameCallback { wl_callback_destroy(frameCallback) }
    frameCallback = nil
  }
}

// MARK: - Listeners (C function pointers: no captures; the Swift object is `data`)

private func window(_ data: UnsafeMutableRawPointer?) -> WaylandWindow {
  Unmanaged<WaylandWindow>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private let xdgSurfaceListener: UnsafeMutablePointer<xdg_surface_listener> = {
  let p = UnsafeMutablePointer<xdg_surface_listener>.allocate(capacity: 1)
  p.initialize(
    to: xdg_surface_listener(configure: { data, _, serial in window(data).surfaceConfigure(serial: serial) }))
  return p
}()

nonisolated(unsafe) private let toplevelListener: UnsafeMutablePointer<xdg_toplevel_listener> = {
  let p = UnsafeMutablePointer<xdg_toplevel_listener>.allocate(capacity: 1)
  p.initialize(
    to: xdg_toplevel_listener(
      configure: { data, _, width, height, states in
        window(data).toplevelConfigure(width: width, height: height, states: states)
      },
      close: { data, _ in window(data).toplevelClose() },
      configure_bounds: { _, _, _, _ in },
      wm_capabilities: { _, _, _ in }))
  return p
}()

nonisolated(unsafe) private let surfaceListener: UnsafeMutablePointer<wl_surface_listener> = {
  let p = UnsafeMutablePointer<wl_surface_listener>.allocate(capacity: 1)
  p.initialize(
    to: wl_surface_listener(
      enter: { data, _, output in window(data).surfaceEnter(output) },
      leave: { data, _, output in window(data).surfaceLeave(output) }))
  return p
}()

extension PlatformEvent {
  /// The event with its window positions multiplied by `s` (scroll deltas are in points: kept).
  func scaled(by s: Double) -> PlatformEvent {
    func p(_ q: Point) -> Point { Point(x: q.x * s, y: q.y * s) }
    switch self {
    case .pointerDown(let q, let b, let m): return .pointerDown(p(q), button: b, modifiers: m)
    case .pointerMove(let q, let m): return .pointerMove(p(q), modifiers: m)
    case .pointerUp(let q, let b, let m): return .pointerUp(p(q), button: b, modifiers: m)
    case .pointerEnter(let q): return .pointerEnter(p(q))
    case .scroll(let d, let q, let m): return .scroll(delta: d, at: p(q), modifiers: m)
    case .smoothScroll(let d, let q, let m): return .smoothScroll(delta: d, at: p(q), modifiers: m)
    case .smoothScrollEnded(let q): return .smoothScrollEnded(at: p(q))
    case .touchDown(let id, let q): return .touchDown(id: id, at: p(q))
    case .touchMove(let id, let q): return .touchMove(id: id, at: p(q))
    case .touchUp(let id, let q): return .touchUp(id: id, at: p(q))
    default: return self
    }
  }
}

nonisolated(unsafe) private let frameListener: UnsafeMutablePointer<wl_callback_listener> = {
  let p = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
  p.initialize(to: wl_callback_listener(done: { data, _, _ in window(data).frameDone() }))
  return p
}()
