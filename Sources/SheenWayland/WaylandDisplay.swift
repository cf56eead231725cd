import CWayland
import CXdgShell
import SheenPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// A connection to a Wayland compositor and the globals Sheen uses. Disconnects on deinit.
///
/// Use from one thread. Windows keep their display alive.
public final class WaylandDisplay {
  /// The libwayland `wl_display *`.
  public let handle: OpaquePointer
  /// The socket name used, such as `wayland-0`.
  public let name: String
  /// Called once when the connection to the compositor is lost (a read, flush or dispatch
  /// failed). The default prints a message and exits with status 3, as the X11 backend does;
  /// after a replacement returns, the display and its windows do nothing more.
  public var onConnectionLost: (String) -> Void = { message in
    writeStandardError("sheen: \(message); exiting\n")
    exit(3)
  }
  /// True once the connection is lost.
  public private(set) var isLost = false

  private var registry: OpaquePointer?
  private(set) var compositor: OpaquePointer?
  private(set) var compositorVersion: UInt32 = 0
  private(set) var shm: OpaquePointer?
  private(set) var wmBase: OpaquePointer?
  /// Optional globals: subsurfaces (the title bar drawn when the compositor leaves decorations
  /// to clients), viewports and fractional scales (HiDPI at 125 %, 150 %...), server-side
  /// decorations and named cursor shapes. Nil when the compositor does not offer them.
  private(set) var subcompositor: OpaquePointer?
  private(set) var viewporter: OpaquePointer?
  private(set) var fractionalScaleManager: OpaquePointer?
  private(set) var decorationManager: OpaquePointer?
  private(set) var cursorShapeManager: OpaquePointer?
  /// Seat, pointer and keyboard, once a seat is announced.
  private(set) var input: WaylandInput?
  private var seatGlobalName: UInt32?
  /// The pixel formats `wl_shm` announced.
  private(set) var shmFormats: Set<UInt32> = []
  /// Each `wl_output` with its registry name and scale.
  private var outputs: [UnsafeMutableRawPointer: (name: UInt32, scale: Int32)] = [:]
  /// Live windows by their `wl_surface`, to route input.
  private var windows: [UnsafeMutableRawPointer: Unmanaged<WaylandWindow>] = [:]

  /// Connects to `name`, or to `$WAYLAND_DISPLAY` when `name` is nil, and reads the globals.
  /// - Throws: `WaylandError.noDisplay`, `.cannotConnect`, `.missingGlobal`, `.connectionFailed`.
  public init(name: String? = nil) throws {
    let resolved: String
    if let name {
      resolved = name
    } else if let env = getenv("WAYLAND_DISPLAY"), env.pointee != 0 {
      resolved = String(cString: env)
    } else {
      throw WaylandError.noDisplay
    }
    // libwayland finds a relative socket name in $XDG_RUNTIME_DIR and, when that is unset or not
    // an absolute path, prints its own "error:" line before failing: say why in our one line
    // instead (an inherited $WAYLAND_SOCKET or an absolute name needs no runtime directory).
    if !resolved.hasPrefix("/"), getenv("WAYLAND_SOCKET") == nil {
      let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
      guard let runtime, runtime.hasPrefix("/") else { throw WaylandError.noRuntimeDirectory(resolved) }
    }
    guard let handle = wl_display_connect(resolved) else { throw WaylandError.cannotConnect(resolved) }
    self.handle = handle
    self.name = resolved
    // Until setup succeeds, a failure is thrown rather than fatal.
    var setupFailure: String?
    onConnectionLost = { setupFailure = $0 }
    defer {
      onConnectionLost = { message in
        writeStandardError("sheen: \(message); exiting\n")
        exit(3)
      }
    }

    registry = wl_display_get_registry(handle)
    let me = Unmanaged.passUnretained(self).toOpaque()
    wl_registry_add_listener(registry, registryListener, me)
    // Two round trips: the globals, then the events of what was bound (shm formats, seat
    // capabilities, the keymap).
    for _ in 0..<2 where setupFailure == nil {
      if !roundTrip(timeout: 5) && setupFailure == nil { setupFailure = "no reply within 5 s" }
    }
    // A throw from here on still runs deinit, which tears everything down.
    if let setupFailure {
      throw WaylandError.connectionFailed(setupFailure)
    }
    for (object, interface) in [(compositor, "wl_compositor"), (shm, "wl_shm"), (wmBase, "xdg_wm_base")]
    where object == nil {
      throw WaylandError.missingGlobal(interface)
    }
    if !shmFormats.contains(WL_SHM_FORMAT_ARGB8888.rawValue) {
      throw WaylandError.missingGlobal("the ARGB8888 wl_shm format")
    }
  }

  deinit { teardown() }

  /// Destroys every proxy, then disconnects (the reverse order crashes).
  private func teardown() {
    input = nil
    for output in outputs.keys { wl_output_destroy(OpaquePointer(output)) }
    outputs.removeAll()
    if let cursorShapeManager { wp_cursor_shape_manager_v1_destroy(cursorShapeManager) }
    if let decorationManager { zxdg_decoration_manager_v1_destroy(decorationManager) }
    if let fractionalScaleManager { wp_fractional_scale_manager_v1_destroy(fractionalScaleManager) }
    if let viewporter { wp_viewporter_destroy(viewporter) }
    if let subcompositor { wl_subcompositor_destroy(subcompositor) }
    cursorShapeManager = nil
    decorationManager = nil
    fractionalScaleManager = nil
    viewporter = nil
    subcompositor = nil
    if let wmBase { xdg_wm_base_destroy(wmBase) }
    if let shm { wl_shm_destroy(shm) }
    if let compositor { wl_compositor_destroy(compositor) }
    if let registry { wl_registry_destroy(registry) }
    wmBase = nil
    shm = nil
    compositor = nil
    registry = nil
    if !isLost { wl_display_flush(handle) }
    wl_display_disconnect(handle)
  }

  /// The connection's file descriptor.
  public var fileDescriptor: Int32 { wl_display_get_fd(handle) }

  /// The optional protocols the compositor offers that Sheen uses (for diagnostics and tests):
  /// `wl_subcompositor`, `wp_viewporter`, `wp_fractional_scale_manager_v1`,
  /// `zxdg_decoration_manager_v1`, `wp_cursor_shape_manager_v1`.
  public var optionalProtocols: [String] {
    [
      (subcompositor, "wl_subcompositor"), (viewporter, "wp_viewporter"),
      (fractionalScaleManager, "wp_fractional_scale_manager_v1"),
      (decorationManager, "zxdg_decoration_manager_v1"), (cursorShapeManager, "wp_cursor_shape_manager_v1"),
    ].compactMap { $0.0 == nil ? nil : $0.1 }
  }

  /// Whether the seat has a pointer / keyboard (for tests and diagnostics).
  public var hasPointer: Bool { input?.pointer != nil }
  public var hasKeyboard: Bool { input?.keyboard != nil }

  // MARK: - Windows

  func register(_ window: WaylandWindow, surface: OpaquePointer) {
    windows[UnsafeMutableRawPointer(surface)] = Unmanaged.passUnretained(window)
  }

  func unregister(surface: OpaquePointer) {
    windows[UnsafeMutableRawPointer(surface)] = nil
    input?.forget(surface: surface)
  }

  /// The live window whose `wl_surface` is `surface`.
  func window(for surface: OpaquePointer?) -> WaylandWindow? {
    guard let surface else { return nil }
    return windows[UnsafeMutableRawPointer(surface)]?.takeUnretainedValue()
  }

  // MARK: - Reading events

  /// Sends what is queued, waits up to `timeout` seconds (nil: no limit; 0: no wait) until the
  /// connection or `wakeDescriptor` is readable, reads and dispatches every event that arrived.
  func dispatch(timeout: Double?, wakeDescriptor: Int32? = nil) {
    guard !isLost else { return }
    let d = handle
    var alreadyDispatched = false
    while wl_display_prepare_read(d) != 0 {
      let n = wl_display_dispatch_pending(d)
      if n < 0 { return connectionLost("dispatching events failed") }
      if n > 0 { alreadyDispatched = true }
    }
    if wl_display_flush(d) < 0 && errno != EAGAIN {
      let e = errno
      wl_display_cancel_read(d)
      return connectionLost("sending requests failed: \(String(cString: strerror(e)))")
    }
    var fds = [pollfd(fd: wl_display_get_fd(d), events: Int16(POLLIN), revents: 0)]
    if let wakeDescriptor { fds.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
    let wait = alreadyDispatched ? 0 : timeout
    let ms: Int32 = wait.map { Int32(min(max(0, ($0 * 1000).rounded(.up)), 1e9)) } ?? -1
    if poll(&fds, nfds_t(fds.count), ms) > 0 && fds[0].revents != 0 {
      if wl_display_read_events(d) < 0 {
        return connectionLost("reading events failed: \(String(cString: strerror(errno)))")
      }
    } else {
      wl_display_cancel_read(d)
    }
    if wl_display_dispatch_pending(d) < 0 { return connectionLost("dispatching events failed") }
  }

  /// Dispatches events until `done()` is true or `timeout` seconds pass; returns `done()`.
  @discardableResult
  func dispatch(until done: () -> Bool, timeout: Double) -> Bool {
    let deadline = monotonicSeconds() + timeout
    while !done() && !isLost {
      let remaining = deadline - monotonicSeconds()
      if remaining <= 0 { break }
      dispatch(timeout: remaining)
    }
    return done()
  }

  /// Waits until the compositor has handled every request sent so far (`wl_display.sync`), at
  /// most `timeout` seconds; false on timeout or a lost connection.
  @discardableResult
  public func roundTrip(timeout: Double = 5) -> Bool {
    guard !isLost, let callback = wl_display_sync(handle) else { return false }
    let token = DoneToken()
    wl_callback_add_listener(callback, doneListener, Unmanaged.passUnretained(token).toOpaque())
    dispatch(until: { token.done }, timeout: timeout)
    wl_callback_destroy(callback)
    return token.done
  }

  private func connectionLost(_ what: String) {
    guard !isLost else { return }
    isLost = true
    var detail = what
    let code = wl_display_get_error(handle)
    if code == EPROTO {
      var interface: UnsafePointer<wl_interface>?
      var id: UInt32 = 0
      let error = wl_display_get_protocol_error(handle, &interface, &id)
      let iname = interface.flatMap { $0.pointee.name.map { String(cString: $0) } } ?? "?"
      detail = "protocol error \(error) on \(iname)@\(id)"
    } else if code != 0 {
      detail = "\(what): \(String(cString: strerror(code)))"
    }
    onConnectionLost("lost the connection to the Wayland compositor at '\(name)' (\(detail))")
  }

  // MARK: - Registry

  fileprivate func global(name id: UInt32, interface: String, version: UInt32) {
    guard let registry else { return }
    func bind(_ iface: UnsafePointer<wl_interface>, upTo maximum: UInt32) -> (OpaquePointer?, UInt32) {
      let v = min(version, maximum, UInt32(iface.pointee.version))
      return (OpaquePointer(wl_registry_bind(registry, id, iface, v)), v)
    }
    let me = Unmanaged.passUnretained(self).toOpaque()
    switch interface {
    case "wl_compositor" where compositor == nil:
      // Version 4 has wl_surface.damage_buffer.
      (compositor, compositorVersion) = bind(sheen_wl_compositor_interface(), upTo: 4)
    case "wl_shm" where shm == nil:
      shm = bind(sheen_wl_shm_interface(), upTo: 1).0
      wl_shm_add_listener(shm, shmListener, me)
    case "xdg_wm_base" where wmBase == nil:
      wmBase = bind(sheen_xdg_wm_base_interface(), upTo: 5).0
      xdg_wm_base_add_listener(wmBase, wmBaseListener, me)
    case "wl_subcompositor" where subcompositor == nil:
      subcompositor = bind(sheen_wl_subcompositor_interface(), upTo: 1).0
    case "wp_viewporter" where viewporter == nil:
      viewporter = bind(sheen_wp_viewporter_interface(), upTo: 1).0
    case "wp_fractional_scale_manager_v1" where fractionalScaleManager == nil:
      fractionalScaleManager = bind(sheen_wp_fractional_scale_manager_v1_interface(), upTo: 1).0
    case "zxdg_decoration_manager_v1" where decorationManager == nil:
      decorationManager = bind(sheen_zxdg_decoration_manager_v1_interface(), upTo: 1).0
    case "wp_cursor_shape_manager_v1" where cursorShapeManager == nil:
      cursorShapeManager = bind(sheen_wp_cursor_shape_manager_v1_interface(), upTo: 1).0
    case "wl_output":
      // Version 2 has the scale.
      if let output = bind(sheen_wl_output_interface(), upTo: 2).0 {
        outputs[UnsafeMutableRawPointer(output)] = (id, 1)
        wl_output_add_listener(output, outputListener, me)
      }
    case "wl_seat" where input == nil:
      // Version 5 has wl_pointer.frame, axis_source, axis_stop and axis_discrete; 8 has
      // axis_value120 in place of axis_discrete.
      let (seat, v) = bind(sheen_wl_seat_interface(), upTo: 8)
      if let seat {
        input = WaylandInput(display: self, seat: seat, version: v)
        seatGlobalName = id
      }
    default:
      break
    }
  }

  /// The scale of `output` (a `wl_output` proxy), or nil if it is not one of ours.
  func outputScale(of output: UnsafeMutableRawPointer) -> Int32? { outputs[output]?.scale }

  fileprivate func outputScale(_ output: OpaquePointer?, _ factor: Int32) {
    guard let output, outputs[UnsafeMutableRawPointer(output)] != nil else { return }
    outputs[UnsafeMutableRawPointer(output)]?.scale = factor
  }

  /// The output's properties are complete (`wl_output.done`): windows on it look again.
  fileprivate func outputDone() {
    for w in windows.values { w.takeUnretainedValue().outputsChanged() }
  }

  fileprivate func globalRemoved(name id: UInt32) {
    if let (output, _) = outputs.first(where: { $0.value.name == id }) {
      outputs[output] = nil
      for w in windows.values {
        w.takeUnretainedValue().forget(output: output)
        w.takeUnretainedValue().outputsChanged()
      }
      wl_output_destroy(OpaquePointer(output))
    }
    if id == seatGlobalName {
      input = nil
      seatGlobalName = nil
    }
  }

  fileprivate func shmFormat(_ format: UInt32) { shmFormats.insert(format) }

  fileprivate func ping(_ serial: UInt32) {
    if let wmBase { xdg_wm_base_pong(wmBase, serial) }
    wl_display_flush(handle)
  }
}

/// Set by a `wl_callback.done`.
final class DoneToken {
  var done = false
}

// MARK: - Listeners (C function pointers: no captures; the Swift object is `data`)

private func display(_ data: UnsafeMutableRawPointer?) -> WaylandDisplay {
  Unmanaged<WaylandDisplay>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
  let p = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
  p.initialize(
    to: wl_registry_listener(
      global: { data, _, id, interface, version in
        guard let interface else { return }
        display(data).global(name: id, interface: String(cString: interface), version: version)
      },
      global_remove: { data, _, id in display(data).globalRemoved(name: id) }))
  return p
}()

nonisolated(unsafe) private let shmListener: UnsafeMutablePointer<wl_shm_listener> = {
  let p = UnsafeMutablePointer<wl_shm_listener>.allocate(capacity: 1)
  p.initialize(to: wl_shm_listener(format: { data, _, format in display(data).shmFormat(format) }))
  return p
}()

nonisolated(unsafe) private let outputListener: UnsafeMutablePointer<wl_output_listener> = {
  let p = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
  p.initialize(
    to: wl_output_listener(
      geometry: { _, _, _, _, _, _, _, _, _, _ in },
      mode: { _, _, _, _, _, _ in },
      done: { data, _ in display(data).outputDone() },
      scale: { data, output, factor in display(data).outputScale(output, factor) },
      name: { _, _, _ in },
      description: { _, _, _ in }))
  return p
}()

nonisolated(unsafe) private let wmBaseListener: UnsafeMutablePointer<xdg_wm_base_listener> = {
  let p = UnsafeMutablePointer<xdg_wm_base_listener>.allocate(capacity: 1)
  p.initialize(to: xdg_wm_base_listener(ping: { data, _, serial in display(data).ping(serial) }))
  return p
}()

/// Sets the `DoneToken` in `data`.
nonisolated(unsafe) let doneListener: UnsafeMutablePointer<wl_callback_listener> = {
  let p = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
  p.initialize(
    to: wl_callback_listener(done: { data, _, _ in
      Unmanaged<DoneToken>.fromOpaque(data!).takeUnretainedValue().done = true
    }))
  return p
}()

/// Writes to file descriptor 2 without touching the C `stderr` global.
func writeStandardError(_ text: String) {
  let bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let n = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
    if n <= 0 { break }
    offset += n
  }
}
