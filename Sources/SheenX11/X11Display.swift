import CX11
import SheenPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// A connection to an X server, with the visual Sheen draws for. Closed on deinit.
///
/// Use from one thread. Windows keep their display alive.
public final class X11Display {
  /// The Xlib `Display *`.
  public let handle: OpaquePointer
  /// The display name used, such as `:1`.
  public let name: String
  let screen: Int32
  let root: Window
  let visual: UnsafeMutablePointer<Visual>
  let depth: Int32
  let colormap: Colormap
  private let ownsColormap: Bool
  /// Whether the server offers MIT-SHM (it may still refuse to attach, for a remote client).
  public let hasSharedMemory: Bool
  /// The event type of `XShmCompletionEvent` on this connection.
  let shmCompletionType: Int32
  private var atoms: [String: Atom] = [:]
  private var cursors: [CursorShape: Cursor] = [:]
  /// The XInputExtension's major opcode (XI2 events are cookies carrying it), or -1.
  let xiOpcode: Int32
  /// The XInput2 minor version the server agreed to (0 without XI2; 1 smooth scrolling; 2
  /// touch), up to 2.
  public let xiMinorVersion: Int32
  /// `Xft.dpi` / 96 from the server's resource database (`xrdb`), as desktops set it for
  /// HiDPI screens; 1 when unset or out of 0.5...8.
  public let resourceScale: Double
  /// Whether the server has XFixes (cursor names; a test reads the current cursor's name).
  let hasXFixes: Bool

  /// Connects to `name`, or to `$DISPLAY` when `name` is nil.
  /// - Throws: `X11Error.noDisplay`, `.cannotOpenDisplay`, `.unsupportedVisual`.
  public init(name: String? = nil) throws {
    XErrorHandling.install()
    let resolved: String
    if let name {
      resolved = name
    } else if let env = getenv("DISPLAY"), env.pointee != 0 {
      resolved = String(cString: env)
    } else {
      throw X11Error.noDisplay
    }
    guard let handle = XOpenDisplay(resolved) else { throw X11Error.cannotOpenDisplay(resolved) }
    self.handle = handle
    self.name = resolved
    screen = XDefaultScreen(handle)
    root = XRootWindow(handle, screen)

    do {
      (visual, depth, colormap, ownsColormap) = try X11Display.chooseVisual(
        handle, screen: screen, root: root)
    } catch {
      XCloseDisplay(handle)
      throw error
    }
    var fixesEvent: Int32 = 0
    var fixesError: Int32 = 0
    hasXFixes = XFixesQueryExtension(handle, &fixesEvent, &fixesError) != 0
    var opcode: Int32 = -1
    var xiMajor: Int32 = 2
    var xiMinor: Int32 = 2
    if XQueryExtension(handle, "XInputExtension", &opcode, &fixesEvent, &fixesError) != 0,
      XIQueryVersion(handle, &xiMajor, &xiMinor) == Success, xiMajor >= 2
    {
      xiOpcode = opcode
      xiMinorVersion = xiMajor > 2 ? 2 : min(xiMinor, 2)
    } else {
      xiOpcode = -1
      xiMinorVersion = 0
    }
    hasSharedMemory = XShmQueryExtension(handle) != 0
    resourceScale = X11Display.xftScale(handle)
    shmCompletionType = hasSharedMemory ? XShmGetEventBase(handle) + ShmCompletion : -1
  }

  deinit {
    for (_, c) in cursors { XFreeCursor(handle, c) }
    if ownsColormap { XFreeColormap(handle, colormap) }
    XCloseDisplay(handle)
  }

  /// The connection's file descriptor, to wait on with `poll`.
  public var fileDescriptor: Int32 { XConnectionNumber(handle) }

  /// The atom named `name`, interned once.
  func atom(_ name: String) -> Atom {
    if let a = atoms[name] { return a }
    let a = XInternAtom(handle, name, False)
    atoms[name] = a
    return a
  }

  /// The X cursor for `kind`, made once: the desktop's themed cursor (Xcursor, by its CSS
  /// name, then its older X names), else the core cursor font's shape. Named with its CSS name
  /// through XFixes, so tools (and tests) can tell which cursor shows.
  func cursor(_ kind: CursorShape) -> Cursor {
    if let c = cursors[kind] { return c }
    var made: Cursor = 0
    for name in [kind.cssName] + kind.legacyNames where made == 0 {
      made = XcursorLibraryLoadCursor(handle, name)
    }
    if made == 0 {
      made = XCreateFontCursor(handle, UInt32(kind == .pointingHand ? XC_hand2 : XC_left_ptr))
    }
    if made != 0 && hasXFixes { XFixesSetCursorName(handle, made, kind.cssName) }
    cursors[kind] = made
    return made
  }

  /// `Xft.dpi` / 96 from the resource database Xlib read when connecting, or 1.
  private static func xftScale(_ d: OpaquePointer) -> Double {
    guard let resources = XResourceManagerString(d) else { return 1 }
    XrmInitialize()
    guard let db = XrmGetStringDatabase(resources) else { return 1 }
    defer { XrmDestroyDatabase(db) }
    var type: UnsafeMutablePointer<CChar>?
    var value = XrmValue()
    guard XrmGetResource(db, "Xft.dpi", "Xft.Dpi", &type, &value) != 0, let addr = value.addr,
      let dpi = Double(String(cString: addr).trimmingCharacters(in: .whitespaces))
    else { return 1 }
    let scale = dpi / 96
    return (0.5...8).contains(scale) ? scale : 1
  }

  /// Sends requests out and waits until the server has processed them.
  public func sync() { XSync(handle, False) }

  /// The default visual if it is a depth 24/32 TrueColor visual with 8-bit masks; otherwise a
  /// depth-24 TrueColor visual with its own colormap; otherwise an error.
  private static func chooseVisual(_ d: OpaquePointer, screen: Int32, root: Window) throws -> (
    UnsafeMutablePointer<Visual>, Int32, Colormap, Bool
  ) {
    func usable(_ v: UnsafeMutablePointer<Visual>) -> Bool {
      sheen_visual_class(v) == TrueColor && v.pointee.red_mask == 0xff_0000 && v.pointee.green_mask == 0xff00
        && v.pointee.blue_mask == 0xff
    }
    let defaultDepth = XDefaultDepth(d, screen)
    if let v = XDefaultVisual(d, screen), defaultDepth == 24 || defaultDepth == 32, usable(v) {
      return (v, defaultDepth, XDefaultColormap(d, screen), false)
    }
    var info = XVisualInfo()
    if XMatchVisualInfo(d, screen, 24, TrueColor, &info) != 0, let v = info.visual, usable(v) {
      return (v, 24, XCreateColormap(d, root, v, AllocNone), true)
    }
    throw X11Error.unsupportedVisual(
      "the screen's default depth is \(defaultDepth) and it has no 24-bit TrueColor visual")
  }
}
