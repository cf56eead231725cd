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
/// logical units times its scale. Where the compositor offers `wp_fractional_scale_v1` and
/// `wp_viewporter`, the scale is the one it prefers for the surface (1.25, 1.5...): buffers are
/// drawn at that many pixels per unit (the logical size times the scale, rounded half away from
/// zero) and shown through a viewport whose destination is the logical size, so the compositor
/// never upscales. Elsewhere it is the largest `wl_output.scale` of the outputs the surface is on
/// (HiDPI screens report 2), set as the buffer scale. When the scale changes, a `scaleChange`
/// and a `resize` follow, and the next buffer has the new size.
///
/// Decorations: server-side where the compositor offers `xdg-decoration` and agrees, else a
/// title bar drawn by Sheen (`TitleBar`) in a subsurface above the content, which moves,
/// maximizes and closes the window; the window's edges resize it. `size` is the content's.
public final class WaylandWindow: PlatformWindow {
  /// Who decorates the window.
  public enum Decorations: String, Sendable {
    /// The compositor where it offers `xdg-decoration` and agrees, else Sheen's title bar.
    case automatic
    /// Sheen's title bar even where the compositor could decorate.
    case client
    /// None (the window is bare unless the compositor decorates it anyway).
    case none

    /// `SHEEN_DECORATIONS` (`client`, `none`), else `automatic`.
    public static var fromEnvironment: Decorations {
      getenv("SHEEN_DECORATIONS").flatMap { Decorations(rawValue: String(cString: $0)) } ?? .automatic
    }
  }

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
  private var pendingActivated = true
  /// The size to return to when the compositor leaves the choice to us (after fullscreen).
  private var floatingSize: PixelSize
  /// The size in the compositor's logical units (`size` is this times `bufferScale`).
  private var logicalSize: PixelSize
  /// The largest `wl_output.scale` of the outputs the surface is on.
  public private(set) var bufferScale: Int32 = 1
  /// The compositor's preferred fractional scale (`wp_fractional_scale_v1.preferred_scale` /
  /// 120), once it said one.
  public private(set) var fractionalScale: Double?
  /// Pixels per logical unit now: the fractional scale where the compositor offers one, else
  /// `bufferScale`.
  public private(set) var scale: Double = 1
  private var fractionalScaleObject: OpaquePointer?
  private var viewport: OpaquePointer?
  /// Whether buffers are shown through a viewport (fractional scaling).
  public var usesViewport: Bool { viewport != nil }

  // Decorations.
  public let decorations: Decorations
  private var decoration: OpaquePointer?
  /// The mode the compositor chose (`zxdg_toplevel_decoration_v1.configure`): true for
  /// server-side.
  public private(set) var serverDecorated = false
  private var barSurface: OpaquePointer?
  private var barSubsurface: OpaquePointer?
  private var barViewport: OpaquePointer?
  private var barBuffers: [ShmBuffer] = []
  /// What the bar shows (redrawn when it changes).
  private var barShown: (width: Int, scale: Double, title: String, hovered: Bool, active: Bool)?
  private var closeHovered = false
  private var pressedOnClose = false
  private var lastBarPress = -1.0
  private var isActivated = true
  /// The window geometry last set (logical units, relative to the content).
  private var geometry: (x: Int, y: Int, width: Int, height: Int)?
  /// Where the pointer is and over which of the window's surfaces (logical units).
  private var pointerOnBar = false
  private var pointerLogical: Point?
  private var pressingEdges = false
  /// The cursor the client asked for.
  public private(set) var cursor: CursorShape?
  /// The cursor shown for the pointer's place (the client's, or a resize arrow at an edge).
  public private(set) var shownCursorName: String?
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
    minimumSize: PixelSize = PixelSize(width: 64, height: 64), decorations: Decorations = .fromEnvironment
  ) throws {
    guard size.width > 0, size.height > 0, size.width <= 32767, size.height <= 32767 else {
      throw WaylandError.framebuffer("invalid window size \(size)")
    }
    self.display = display
    self.appID = appID
    self.size = size
    self.minimumSize = minimumSize
    self.title = title
    self.decorations = decorations
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
    wl_surface_add_listener(surface, surfaceListener, me)
    display.register(self, surface: surface)
    if let manager = display.fractionalScaleManager, let viewporter = display.viewporter {
      fractionalScaleObject = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
      wp_fractional_scale_v1_add_listener(fractionalScaleObject, fractionalScaleListener, me)
      viewport = wp_viewporter_get_viewport(viewporter, surface)
    }
    if decorations != .none, let manager = display.decorationManager {
      decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
      zxdg_toplevel_decoration_v1_add_listener(decoration, decorationListener, me)
      zxdg_toplevel_decoration_v1_set_mode(
        decoration,
        decorations == .client
          ? ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue
          : ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
    }
    if decorations != .none, let subcompositor = display.subcompositor,
      let bar = wl_compositor_create_surface(compositor)
    {
      barSurface = bar
      barSubsurface = wl_subcompositor_get_subsurface(subcompositor, bar, surface)
      // The bar's buffers are applied with the content's commit: a resize shows both at once.
      wl_subsurface_set_sync(barSubsurface)
      wl_subsurface_set_position(barSubsurface, 0, -Int32(TitleBar.height))
      if let viewporter = display.viewporter, fractionalScaleObject != nil {
        barViewport = wp_viewporter_get_viewport(viewporter, bar)
      }
      display.register(self, surface: bar)
    }
    updateMinimumSize()
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
      if hasTitleBar { queue.append(.expose) }
    }
  }

  /// Whether Sheen draws the title bar now: decorations are the client's (no `xdg-decoration`,
  /// or the compositor chose client-side) and the window is not fullscreen.
  public var hasTitleBar: Bool { barSurface != nil && !serverDecorated && !isFullscreen }

  /// The height the bar adds above the content, in logical units.
  private var barHeight: Int { hasTitleBar ? TitleBar.height : 0 }

  /// Whether a press at the window's edges resizes it.
  private var resizableByEdges: Bool { hasTitleBar && !isMaximized }

  private func updateMinimumSize() {
    guard let toplevel else { return }
    xdg_toplevel_set_min_size(
      toplevel, Int32(minimumSize.width), Int32(minimumSize.height + barHeight))
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
    if let barSurface { display.unregister(surface: barSurface) }
    barBuffers.removeAll()
    if let barViewport { wp_viewport_destroy(barViewport) }
    if let barSubsurface { wl_subsurface_destroy(barSubsurface) }
    if let barSurface { wl_surface_destroy(barSurface) }
    barViewport = nil
    barSubsurface = nil
    barSurface = nil
    if let viewport { wp_viewport_destroy(viewport) }
    if let fractionalScaleObject { wp_fractional_scale_v1_destroy(fractionalScaleObject) }
    viewport = nil
    fractionalScaleObject = nil
    if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
    decoration = nil
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
    buffer.scale = bufferScale
    buffer.logicalSize = logicalSize
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
    if let viewport {
      wl_surface_set_buffer_scale(surface, 1)
      wp_viewport_set_destination(
        viewport, Int32(buffer.logicalSize.width), Int32(buffer.logicalSize.height))
    } else if display.compositorVersion >= 3 {
      wl_surface_set_buffer_scale(surface, buffer.scale)
    }
    presentDecorations(for: buffer.logicalSize)
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

  /// Queues an event from the seat that arrived on `from` (the content or the title bar), its
  /// positions turned from logical units into pixels. The bar's events, and presses at the
  /// edges that resize, stay here.
  func enqueue(_ event: PlatformEvent, from: OpaquePointer? = nil) {
    guard surface != nil else { return }
    if let from, from == barSurface {
      barEvent(event)
      return
    }
    if contentEvent(event) { return }
    queue.append(scale == 1 ? event : event.scaled(by: scale))
  }

  /// The pixel size of `logical` at the current scale: rounded half away from zero for a
  /// fractional scale, as `wp_fractional_scale_v1` asks.
  func pixels(_ logical: PixelSize) -> PixelSize {
    if viewport != nil {
      return PixelSize(
        width: Int((Double(logical.width) * scale).rounded()),
        height: Int((Double(logical.height) * scale).rounded()))
    }
    return PixelSize(width: logical.width * Int(bufferScale), height: logical.height * Int(bufferScale))
  }

  /// Which outputs the surface is on changed, or an output's scale did: takes the largest scale
  /// of those outputs (the current one while it is on none).
  func outputsChanged() {
    guard surface != nil, display.compositorVersion >= 3 else { return }
    let scales = outputs.compactMap { display.outputScale(of: $0) }
    guard let wanted = scales.max(), wanted >= 1, wanted <= 8, wanted != bufferScale else { return }
    bufferScale = wanted
    rescale()
  }

  /// The compositor's preferred scale in 120ths.
  fileprivate func preferredFractionalScale(_ scale120: UInt32) {
    guard scale120 >= 30, scale120 <= 120 * 8 else { return }
    let wanted = Double(scale120) / 120
    guard wanted != fractionalScale else { return }
    fractionalScale = wanted
    rescale()
  }

  /// Takes the scale in force (fractional where offered, else the outputs'), and sends
  /// `scaleChange` and `resize` when they change.
  private func rescale() {
    let wanted = viewport != nil ? (fractionalScale ?? Double(bufferScale)) : Double(bufferScale)
    guard wanted != scale else { return }
    scale = wanted
    queue.append(.scaleChange(wanted))
    let scaled = pixels(logicalSize)
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

  /// The desktop's scale for this window: `scale`.
  public var preferredScale: Double { scale }

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
    pendingActivated = false
    if let states, let data = states.pointee.data {
      let count = states.pointee.size / MemoryLayout<UInt32>.stride
      for state in UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count) {
        if state == XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue { pendingStates.fullscreen = true }
        if state == XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue { pendingStates.maximized = true }
        if state == XDG_TOPLEVEL_STATE_ACTIVATED.rawValue { pendingActivated = true }
      }
    }
  }

  fileprivate func surfaceConfigure(serial: UInt32) {
    guard let xdgSurface else { return }
    xdg_surface_ack_configure(xdgSurface, serial)
    let hadBar = hasTitleBar
    isFullscreen = pendingStates.fullscreen
    isMaximized = pendingStates.maximized
    isActivated = pendingActivated
    if hasTitleBar != hadBar { updateMinimumSize() }
    // The compositor's size is the window geometry's: the bar's height is not the content's.
    var newSize =
      pendingSize.map { PixelSize(width: $0.width, height: $0.height - barHeight) } ?? floatingSize
    newSize.width = max(newSize.width, minimumSize.width)
    newSize.height = max(newSize.height, minimumSize.height)
    if pendingSize != nil && !isFullscreen && !isMaximized { floatingSize = newSize }
    let first = !configured
    configured = true
    logicalSize = newSize
    let scaled = pixels(newSize)
    if scaled != size {
      size = scaled
      queue.append(.resize(scaled))
    } else if !first {
      // The compositor applies a new state with the next commit: draw one.
      queue.append(.expose)
    }
  }

  fileprivate func toplevelClose() { queue.append(.closeRequest) }

  fileprivate func decorationConfigure(mode: UInt32) {
    let hadBar = hasTitleBar
    serverDecorated = mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue
    if hasTitleBar != hadBar { updateMinimumSize() }
  }

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

nonisolated(unsafe) private let fractionalScaleListener:
  UnsafeMutablePointer<wp_fractional_scale_v1_listener> = {
    let p = UnsafeMutablePointer<wp_fractional_scale_v1_listener>.allocate(capacity: 1)
    p.initialize(
      to: wp_fractional_scale_v1_listener(preferred_scale: { data, _, scale in
        window(data).preferredFractionalScale(scale)
      }))
    return p
  }()

nonisolated(unsafe) private let decorationListener:
  UnsafeMutablePointer<zxdg_toplevel_decoration_v1_listener> = {
    let p = UnsafeMutablePointer<zxdg_toplevel_decoration_v1_listener>.allocate(capacity: 1)
    p.initialize(
      to: zxdg_toplevel_decoration_v1_listener(configure: { data, _, mode in
        window(data).decorationConfigure(mode: mode)
      }))
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

// MARK: - Title bar, edges and cursors

extension WaylandWindow {
  /// Before the content's commit: the window geometry, and the title bar's buffer for content
  /// `logical` big (cached in the synchronized subsurface until the content commits, so both
  /// change in the same frame).
  fileprivate func presentDecorations(for logical: PixelSize) {
    guard let xdgSurface else { return }
    let bar = barHeight
    let wanted = (x: 0, y: -bar, width: logical.width, height: logical.height + bar)
    if geometry.map({ $0 != wanted }) ?? true {
      geometry = wanted
      xdg_surface_set_window_geometry(
        xdgSurface, Int32(wanted.x), Int32(wanted.y), Int32(wanted.width), Int32(wanted.height))
    }
    guard let barSurface else { return }
    guard hasTitleBar else {
      if barShown != nil {
        barShown = nil
        wl_surface_attach(barSurface, nil, 0, 0)
        wl_surface_commit(barSurface)
      }
      return
    }
    let shown = (
      width: logical.width, scale: scale, title: title, hovered: closeHovered, active: isActivated
    )
    if let old = barShown, old == shown { return }
    let barLogical = PixelSize(width: logical.width, height: TitleBar.height)
    let pixelSize =
      barViewport != nil
      ? pixels(barLogical)
      : PixelSize(width: barLogical.width * Int(bufferScale), height: barLogical.height * Int(bufferScale))
    barBuffers.removeAll { !$0.isBusy && $0.size != pixelSize }
    var buffer = barBuffers.first { !$0.isBusy && $0.size == pixelSize }
    if buffer == nil, barBuffers.count < 4, let shm = display.shm {
      buffer = try? ShmBuffer(shm: shm, size: pixelSize)
      buffer.map { barBuffers.append($0) }
    }
    // Every bar buffer still held: keep the old bar for this frame and draw it next time.
    guard let buffer else { return }
    barShown = shown
    TitleBar.draw(
      into: buffer.surface, scale: Double(pixelSize.width) / Double(max(1, barLogical.width)), title: title,
      active: isActivated, closeHovered: closeHovered)
    if let barViewport {
      wl_surface_set_buffer_scale(barSurface, 1)
      wp_viewport_set_destination(barViewport, Int32(barLogical.width), Int32(barLogical.height))
    } else if display.compositorVersion >= 3 {
      wl_surface_set_buffer_scale(barSurface, bufferScale)
    }
    wl_surface_attach(barSurface, buffer.buffer, 0, 0)
    wl_surface_damage(barSurface, 0, 0, Int32.max, Int32.max)
    wl_surface_commit(barSurface)
    buffer.isBusy = true
  }

  /// The window's size in logical units, bar included.
  private var windowLogicalSize: Size {
    Size(width: Double(logicalSize.width), height: Double(logicalSize.height + barHeight))
  }

  /// An event on the title bar (logical units, the bar's top-left at the origin).
  fileprivate func barEvent(_ event: PlatformEvent) {
    guard let toplevel, let input = display.input else { return }
    let close = TitleBar.closeButton(width: logicalSize.width)
    func hover(_ p: Point?) {
      pointerLogical = p
      let over = p.map { close.contains($0) } ?? false
      if over != closeHovered {
        closeHovered = over
        queue.append(.expose)
      }
    }
    switch event {
    case .pointerEnter(let p):
      pointerOnBar = true
      hover(p)
      updateShownCursor()
    case .pointerMove(let p, _):
      hover(p)
      updateShownCursor()
    case .pointerLeave:
      pointerOnBar = false
      hover(nil)
      pressedOnClose = false
    case .pointerDown(let p, let button, _):
      if button == .right {
        xdg_toplevel_show_window_menu(
          toplevel, input.seat, input.lastPressSerial, Int32(p.x), Int32(p.y) - 32)
        return
      }
      guard button == .left else { return }
      let edges = TitleBar.edges(at: p, windowSize: windowLogicalSize)
      if resizableByEdges && !edges.isEmpty {
        xdg_toplevel_resize(toplevel, input.seat, input.lastPressSerial, edges.rawValue)
      } else if close.contains(p) {
        pressedOnClose = true
      } else if monotonicSeconds() - lastBarPress < 0.4 {
        lastBarPress = -1
        setMaximized(!isMaximized)
      } else {
        lastBarPress = monotonicSeconds()
        xdg_toplevel_move(toplevel, input.seat, input.lastPressSerial)
      }
      wl_display_flush(display.handle)
    case .pointerUp(let p, let button, _):
      if button == .left && pressedOnClose && close.contains(p) { queue.append(.closeRequest) }
      pressedOnClose = false
    case .focusIn, .focusOut, .keyDown, .keyUp:
      // Some compositors give the keyboard focus to the subsurface clicked.
      queue.append(event)
    case .touchDown(_, let p):
      if close.contains(p) {
        queue.append(.closeRequest)
      } else {
        xdg_toplevel_move(toplevel, input.seat, input.lastPressSerial)
        wl_display_flush(display.handle)
      }
    default:
      break
    }
  }

  /// A pointer event on the content (logical units) that resizes at the window's edges: true
  /// when it was used up here.
  fileprivate func contentEvent(_ event: PlatformEvent) -> Bool {
    let bar = Double(barHeight)
    switch event {
    case .pointerEnter(let p), .pointerMove(let p, _):
      pointerOnBar = false
      pointerLogical = Point(x: p.x, y: p.y + bar)
      updateShownCursor()
      return false
    case .pointerLeave:
      pointerLogical = nil
      return false
    case .pointerDown(let p, let button, _):
      let edges = TitleBar.edges(at: Point(x: p.x, y: p.y + bar), windowSize: windowLogicalSize)
      guard button == .left, resizableByEdges, !edges.isEmpty, let toplevel, let input = display.input else {
        return false
      }
      xdg_toplevel_resize(toplevel, input.seat, input.lastPressSerial, edges.rawValue)
      wl_display_flush(display.handle)
      pressingEdges = true
      return true
    case .pointerUp:
      // The compositor takes the pointer for the resize: its release may still arrive.
      if pressingEdges {
        pressingEdges = false
        return true
      }
      return false
    default:
      return false
    }
  }

  /// Shows the cursor for where the pointer is: a resize arrow at an edge that resizes, the
  /// arrow on the bar, the client's cursor on the content.
  fileprivate func updateShownCursor() {
    guard let p = pointerLogical else { return }
    var name = pointerOnBar ? "default" : (cursor ?? .arrow).cssName
    if resizableByEdges, let edgeName = TitleBar.edges(at: p, windowSize: windowLogicalSize).cursorName {
      name = edgeName
    }
    shownCursorName = name
    display.input?.showCursor(name, scale: scale)
    wl_display_flush(display.handle)
  }

  public func setCursor(_ cursor: CursorShape) {
    guard surface != nil, cursor != self.cursor else { return }
    self.cursor = cursor
    updateShownCursor()
  }
}
