import CX11
import SheenPlatform
import SheenRaster
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A top-level X11 window whose pixels are a shared-memory framebuffer (or, without MIT-SHM, an
/// ordinary buffer sent with `XPutImage`). Owns the window and its GC; destroys them on
/// `close()` or deinit.
public final class X11Window: PlatformWindow {
  /// The connection (kept alive as long as the window).
  public let display: X11Display
  /// The X window id (0 after `close()`).
  public private(set) var windowID: Window
  public private(set) var size: PixelSize
  /// The smallest size the window manager should allow.
  public let minimumSize: PixelSize

  private var gc: GC?
  private var buffer: Framebuffer?
  /// True after a shared-memory put until its completion event arrives.
  private var presentInFlight = false
  /// Set once shared memory failed; later framebuffers are plain.
  private var sharedMemoryFailed = false
  private var queue: [PlatformEvent] = []
  private var hasFocus = false
  private var event = XEvent()
  /// XInput2 pointer and touch input (nil: core events only, the server has no XI 2.1).
  private var xinput: XInput?
  /// Frames through the Present extension, in step with the display (nil: MIT-SHM puts or
  /// `XPutImage`, paced by the frame loop's timer).
  private var pacer: PresentPacer?

  /// The cursor shown over the window (nil: the parent's, until `setCursor` is called).
  public private(set) var cursor: CursorShape?

  /// Creates and maps a window.
  /// - Parameters:
  ///   - display: the connection.
  ///   - title: stored as `WM_NAME` and `_NET_WM_NAME` (UTF-8).
  ///   - size: the initial size in pixels.
  ///   - minimumSize: the smallest size, given to the window manager (`WM_NORMAL_HINTS`).
  ///   - className: `WM_CLASS`, the instance and class names docks and window managers group
  ///     and name windows by.
  ///   - icons: `_NET_WM_ICON`, square images of several sizes (Sheen's icon by default).
  ///   - presentExtension: show frames through the Present extension, in step with the display,
  ///     where the server has it; false puts them with MIT-SHM at once (benchmarks measure
  ///     drawing, not the display's rate). By default true unless `SHEEN_X11_PRESENT=0`.
  ///   - xinput2: take pointer and touch input from XInput2 where the server has 2.1 or later
  ///     (smooth scrolling, touch); false keeps core events. By default true unless the
  ///     environment sets `SHEEN_CORE_INPUT=1` (as GTK's `GDK_CORE_DEVICE_EVENTS`).
  public init(
    display: X11Display, title: String, size: PixelSize,
    minimumSize: PixelSize = PixelSize(width: 64, height: 64),
    className: (instance: String, class: String) = ("sheen", "Sheen"),
    icons: [Surface]? = nil,
    presentExtension: Bool = true,
    xinput2: Bool? = nil
  ) throws {
    guard size.width > 0, size.height > 0, size.width <= 32767, size.height <= 32767 else {
      throw X11Error.framebuffer("invalid window size \(size)")
    }
    let d = display.handle
    self.display = display
    self.size = size
    self.minimumSize = minimumSize
    self.title = title

    var attributes = XSetWindowAttributes()
    attributes.background_pixmap = Pixmap(None)  // no server-side clearing: no flicker
    attributes.border_pixel = 0
    attributes.colormap = display.colormap
    attributes.bit_gravity = NorthWestGravity
    attributes.event_mask =
      ExposureMask | StructureNotifyMask | KeyPressMask | KeyReleaseMask | ButtonPressMask
      | ButtonReleaseMask | PointerMotionMask | EnterWindowMask | LeaveWindowMask | FocusChangeMask
    let mask = UInt(CWBackPixmap | CWBorderPixel | CWColormap | CWBitGravity | CWEventMask)
    windowID = XCreateWindow(
      d, display.root, 0, 0, UInt32(size.width), UInt32(size.height), 0, display.depth,
      UInt32(InputOutput), display.visual, mask, &attributes)
    gc = XCreateGC(d, windowID, 0, nil)

    var deleteWindow = display.atom("WM_DELETE_WINDOW")
    XSetWMProtocols(d, windowID, &deleteWindow, 1)
    if let hints = XAllocSizeHints() {
      hints.pointee.flags = PMinSize
      hints.pointee.min_width = Int32(minimumSize.width)
      hints.pointee.min_height = Int32(minimumSize.height)
      XSetWMNormalHints(d, windowID, hints)
      XFree(hints)
    }
    let coreOnly = getenv("SHEEN_CORE_INPUT").map { String(cString: $0) == "1" } ?? false
    if xinput2 ?? !coreOnly { xinput = XInput(display: display, window: windowID) }
    storeTitle()
    storeIdentity(className: className)
    storeIcons(try icons ?? AppIcon.standardSizes.map { try AppIcon.draw(size: $0) })
    if presentExtension { pacer = PresentPacer(display: display, window: windowID) }
    XMapWindow(d, windowID)
    XFlush(d)
  }

  deinit { close() }

  public var title: String {
    didSet { storeTitle() }
  }

  /// Whether pointer and touch input comes through XInput2 (smooth scrolling, touch).
  public var usesXInput2: Bool { xinput != nil }

  /// Whether frames go through MIT-SHM (false: `XPutImage` fallback, or no framebuffer yet).
  public var usesSharedMemory: Bool { pacer?.sharedMemoryID != nil || buffer is SharedMemoryFramebuffer }

  /// The System V id of the current shared-memory segment (already marked for removal).
  public var sharedMemoryID: Int32? { pacer?.sharedMemoryID ?? (buffer as? SharedMemoryFramebuffer)?.shmID }

  /// Whether frames are shown through the Present extension, in step with the display.
  public var usesPresent: Bool { pacer != nil }

  /// The last Present completions (serial, retrace counter, its time in µs), oldest first.
  public var presentCompletions: [(serial: UInt32, msc: UInt64, ust: UInt64)] {
    pacer?.completions.map { ($0.serial, $0.msc, $0.ust) } ?? []
  }

  public func close() {
    guard windowID != 0 else { return }
    waitForPresentCompletion()
    pacer?.finish()
    pacer = nil
    buffer = nil
    let d = display.handle
    if let gc { XFreeGC(d, gc) }
    gc = nil
    XDestroyWindow(d, windowID)
    windowID = 0
    XSync(d, False)
  }

  // MARK: - Frames

  public func framebuffer() throws -> Surface {
    if let pacer {
      do {
        return try pacer.framebuffer(size: size).surface
      } catch {
        // The server will not present (or not make pixmaps): put images as before.
        writeStandardError("sheen: \(error); presenting without the Present extension\n")
        pacer.finish()
        self.pacer = nil
      }
    }
    waitForPresentCompletion()
    if let buffer, buffer.size == size { return buffer.surface }
    buffer = nil  // free the old segment before making the new one
    let made = try makeFramebuffer()
    buffer = made
    return made.surface
  }

  public func present() {
    if let pacer, pacer.hasFrame {
      pacer.present()
      return
    }
    guard windowID != 0, let gc, let buffer else { return }
    waitForPresentCompletion()
    buffer.put(to: windowID, gc: gc)
    presentInFlight = buffer.segment != nil
    XFlush(display.handle)
  }

  /// Waits until the server has read the last presented frame (at most two seconds).
  public func waitForPresentCompletion() {
    if let pacer { pacer.waitForCompletion() }
    guard presentInFlight else { return }
    let deadline = monotonicSeconds() + 2
    while presentInFlight {
      readEvents()
      if !presentInFlight { return }
      let remaining = deadline - monotonicSeconds()
      if remaining <= 0 {
        writeStandardError("sheen: no MIT-SHM completion event after 2 s; drawing anyway\n")
        presentInFlight = false
        return
      }
      waitReadable([display.fileDescriptor], timeout: remaining)
    }
  }

  private func makeFramebuffer() throws -> Framebuffer {
    if display.hasSharedMemory && !sharedMemoryFailed {
      do {
        return try SharedMemoryFramebuffer(display: display, size: size)
      } catch X11Error.sharedMemory(let why) {
        sharedMemoryFailed = true
        announceFallback(why)
      }
    } else if !display.hasSharedMemory {
      announceFallback("the X server has no MIT-SHM extension")
    }
    return try PlainFramebuffer(display: display, size: size)
  }

  // MARK: - Events

  public func pollEvents() -> [PlatformEvent] {
    readEvents()
    if let xinput { queue += xinput.expire(now: monotonicSeconds()) }
    defer { queue.removeAll(keepingCapacity: true) }
    return queue
  }

  public func waitForEvents(timeout: Double?, wakeDescriptor: Int32?) {
    if !queue.isEmpty || windowID == 0 { return }
    if XPending(display.handle) > 0 { return }  // flushes, and reads what already arrived
    var fds = [display.fileDescriptor]
    if let wakeDescriptor { fds.append(wakeDescriptor) }
    var wait = timeout
    if let due = xinput?.nextDeadline {
      let untilDue = max(0, due - monotonicSeconds())
      wait = min(wait ?? untilDue, untilDue)
    }
    waitReadable(fds, timeout: wait)
  }

  /// Translates every event Xlib has or can read without blocking into `queue`.
  private func readEvents() {
    let d = display.handle
    while XPending(d) > 0 {
      XNextEvent(d, &event)
      translate(&event)
    }
  }

  private func translate(_ e: inout XEvent) {
    guard windowID != 0 else { return }
    let type = e.type
    if let xinput, let events = xinput.translate(&e, now: monotonicSeconds()) {
      queue += events
      return
    }
    // With XInput2 the pointer speaks through it; the core crossings still arrive too.
    if xinput != nil && [ButtonPress, ButtonRelease, MotionNotify, EnterNotify, LeaveNotify].contains(type) {
      return
    }
    if type == display.shmCompletionType {
      if sheen_shm_completion_segment(&e) == buffer?.segment { presentInFlight = false }
      return
    }
    switch type {
    case ButtonPress, ButtonRelease:
      let b = e.xbutton
      let at = Point(x: Double(b.x), y: Double(b.y))
      let mods = Modifiers(xState: b.state)
      if let delta = scrollDelta(button: b.button) {
        if type == ButtonPress { queue.append(.scroll(delta: delta, at: at, modifiers: mods)) }
        return
      }
      let button = PointerButton(xButton: b.button)
      queue.append(
        type == ButtonPress
          ? .pointerDown(at, button: button, modifiers: mods)
          : .pointerUp(at, button: button, modifiers: mods))
    case MotionNotify:
      let m = e.xmotion
      queue.append(.pointerMove(Point(x: Double(m.x), y: Double(m.y)), modifiers: Modifiers(xState: m.state)))
    case KeyPress, KeyRelease:
      var buffer = [CChar](repeating: 0, count: 16)
      var keysym: KeySym = 0
      _ = XLookupString(&e.xkey, &buffer, Int32(buffer.count), &keysym, nil)
      let mods = Modifiers(xState: e.xkey.state)
      let key = Key(keysym: keysym)
      if type == KeyPress {
        queue.append(.keyDown(key, text: textTyped(keysym: keysym, modifiers: mods), modifiers: mods))
      } else {
        queue.append(.keyUp(key, modifiers: mods))
      }
    case EnterNotify:
      queue.append(.pointerEnter(Point(x: Double(e.xcrossing.x), y: Double(e.xcrossing.y))))
    case LeaveNotify:
      queue.append(.pointerLeave)
    case FocusIn, FocusOut:
      if e.xfocus.detail == NotifyPointer { return }
      let focused = type == FocusIn
      if focused != hasFocus {
        hasFocus = focused
        queue.append(focused ? .focusIn : .focusOut)
      }
    case ConfigureNotify:
      let c = e.xconfigure
      let newSize = PixelSize(width: Int(c.width), height: Int(c.height))
      if c.window == windowID, newSize != size, newSize.width > 0, newSize.height > 0 {
        size = newSize
        queue.append(.resize(newSize))
      }
    case Expose:
      if e.xexpose.count == 0 { queue.append(.expose) }
    case ClientMessage:
      let c = e.xclient
      if c.message_type == display.atom("WM_PROTOCOLS"), c.format == 32,
        Atom(bitPattern: c.data.l.0) == display.atom("WM_DELETE_WINDOW")
      {
        queue.append(.closeRequest)
      }
    default:
      break
    }
  }

  // MARK: - Properties

  /// `WM_CLASS`, `WM_CLIENT_MACHINE`, `_NET_WM_PID` and `_NET_WM_WINDOW_TYPE` (normal): what
  /// docks, window managers and `xdotool search --pid` look windows up by.
  private func storeIdentity(className: (instance: String, class: String)) {
    let d = display.handle
    // Two NUL-terminated Latin-1 strings.
    var classBytes = Array(className.instance.utf8) + [0] + Array(className.class.utf8) + [0]
    XChangeProperty(
      d, windowID, XA_WM_CLASS, XA_STRING, 8, PropModeReplace, &classBytes, Int32(classBytes.count))
    var host = [CChar](repeating: 0, count: 256)
    if gethostname(&host, host.count - 1) == 0 {
      var bytes = host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      XChangeProperty(
        d, windowID, XA_WM_CLIENT_MACHINE, XA_STRING, 8, PropModeReplace, &bytes, Int32(bytes.count))
    }
    // Format-32 property data is an array of C longs, whatever their width.
    var pid = [Int(getpid())]
    XChangeProperty(
      d, windowID, display.atom("_NET_WM_PID"), XA_CARDINAL, 32, PropModeReplace,
      pid.withUnsafeMutableBytes { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
    var type = [Int(bitPattern: display.atom("_NET_WM_WINDOW_TYPE_NORMAL"))]
    XChangeProperty(
      d, windowID, display.atom("_NET_WM_WINDOW_TYPE"), XA_ATOM, 32, PropModeReplace,
      type.withUnsafeMutableBytes { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
  }

  /// `_NET_WM_ICON`: for each image its width, its height, then its pixels as unpremultiplied
  /// ARGB, row by row.
  private func storeIcons(_ icons: [Surface]) {
    var data = X11Window.iconProperty(icons)
    guard !data.isEmpty else { return }
    XChangeProperty(
      display.handle, windowID, display.atom("_NET_WM_ICON"), XA_CARDINAL, 32, PropModeReplace,
      data.withUnsafeMutableBytes { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, Int32(data.count))
  }

  /// The `_NET_WM_ICON` values (C longs) for `icons`.
  static func iconProperty(_ icons: [Surface]) -> [Int] {
    var data: [Int] = []
    data.reserveCapacity(icons.reduce(0) { $0 + 2 + $1.width * $1.height })
    for icon in icons {
      data.append(icon.width)
      data.append(icon.height)
      for y in 0..<icon.height {
        let row = icon.row(y)
        for x in 0..<icon.width {
          let (r, g, b, a) = Pixel.unpremultiplied(row[x])
          data.append(Int(a) << 24 | Int(r) << 16 | Int(g) << 8 | Int(b))
        }
      }
    }
    return data
  }

  /// `Xft.dpi` / 96 (see `X11Display.resourceScale`).
  public var preferredScale: Double { display.resourceScale }

  // MARK: - Cursor

  public func setCursor(_ cursor: CursorShape) {
    guard windowID != 0, cursor != self.cursor else { return }
    self.cursor = cursor
    XDefineCursor(display.handle, windowID, display.cursor(cursor))
    XFlush(display.handle)
  }

  private func storeTitle() {
    guard windowID != 0 else { return }
    let d = display.handle
    // WM_NAME is Latin-1 (STRING); _NET_WM_NAME carries the exact UTF-8.
    var latin1 = title.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") }
    XChangeProperty(d, windowID, XA_WM_NAME, XA_STRING, 8, PropModeReplace, &latin1, Int32(latin1.count))
    var utf8 = Array(title.utf8)
    XChangeProperty(
      d, windowID, display.atom("_NET_WM_NAME"), display.atom("UTF8_STRING"), 8, PropModeReplace, &utf8,
      Int32(utf8.count))
    XFlush(d)
  }
}

/// Says once per process that frames go through `XPutImage`.
private func announceFallback(_ why: String) {
  let first = fallbackAnnounced.withLock { announced -> Bool in
    defer { announced = true }
    return !announced
  }
  if first { writeStandardError("sheen: \(why); presenting with XPutImage (slower)\n") }
}

private let fallbackAnnounced = Mutex(false)

/// Waits until one of `fds` is readable (or hung up), or `timeout` seconds pass (nil: forever).
func waitReadable(_ fds: [Int32], timeout: Double?) {
  var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
  let ms: Int32 = timeout.map { Int32(min(max(0, ($0 * 1000).rounded(.up)), 1e9)) } ?? -1
  _ = poll(&pfds, nfds_t(pfds.count), ms)
}
