import SheenRaster

/// A size in window pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  public var description: String { "\(width)x\(height)" }
}

/// Keyboard modifiers held during an event.
public struct Modifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let shift = Modifiers(rawValue: 1 << 0)
  public static let control = Modifiers(rawValue: 1 << 1)
  /// Alt (X11 Mod1).
  public static let alt = Modifiers(rawValue: 1 << 2)
  /// The Super/Windows/Command key (X11 Mod4).
  public static let command = Modifiers(rawValue: 1 << 3)
  public static let capsLock = Modifiers(rawValue: 1 << 4)

  /// Names joined by `+`, or `none`.
  public var description: String {
    let names: [(Modifiers, String)] = [
      (.shift, "shift"), (.control, "control"), (.alt, "alt"), (.command, "command"), (.capsLock, "capslock"),
    ]
    let held = names.filter { contains($0.0) }.map(\.1)
    return held.isEmpty ? "none" : held.joined(separator: "+")
  }
}

/// A pointer button. Wheel "buttons" are never reported as buttons: they become `.scroll`.
public enum PointerButton: Hashable, Sendable, CustomStringConvertible {
  case left, middle, right
  /// Any other button, by its platform number (X11: 8 = back, 9 = forward).
  case other(Int)

  public var description: String {
    switch self {
    case .left: return "left"
    case .middle: return "middle"
    case .right: return "right"
    case .other(let n): return "button\(n)"
    }
  }
}

/// A platform-neutral key. Keys the UI does not name arrive as `.other` with the platform's code
/// (an X11 keysym); their characters, if any, are in the event's `text`.
public enum Key: Hashable, Sendable, CustomStringConvertible {
  case left, right, up, down
  case pageUp, pageDown, home, end
  case space, escape, enter, tab, backspace, delete
  case q
  case other(UInt32)

  public var description: String {
    switch self {
    case .left: return "left"
    case .right: return "right"
    case .up: return "up"
    case .down: return "down"
    case .pageUp: return "pageUp"
    case .pageDown: return "pageDown"
    case .home: return "home"
    case .end: return "end"
    case .space: return "space"
    case .escape: return "escape"
    case .enter: return "enter"
    case .tab: return "tab"
    case .backspace: return "backspace"
    case .delete: return "delete"
    case .q: return "q"
    case .other(let code): return "other(0x\(String(code, radix: 16)))"
    }
  }
}

/// One input or window event, in window pixels (origin top-left, y down).
public enum PlatformEvent: Hashable, Sendable, CustomStringConvertible {
  /// Scroll distance of one wheel notch, in points: three lines of 16 points.
  public static let scrollPointsPerNotch: Double = 48

  case pointerDown(Point, button: PointerButton, modifiers: Modifiers)
  case pointerMove(Point, modifiers: Modifiers)
  case pointerUp(Point, button: PointerButton, modifiers: Modifiers)
  /// A scroll of `delta` points (`scrollPointsPerNotch` per wheel notch) at `at`. Positive `y`
  /// moves towards the end of the content (wheel turned towards the user, X11 button 5);
  /// positive `x` towards the right (button 7).
  case scroll(delta: Point, at: Point, modifiers: Modifiers)
  /// A pixel-precise scroll by fingers on a touchpad, in points: the content follows the fingers
  /// (no glide). Same directions as `scroll`. A `smoothScrollEnded` follows when they lift.
  case smoothScroll(delta: Point, at: Point, modifiers: Modifiers)
  /// The fingers of a `smoothScroll` lifted (Wayland's `axis_stop`; on X11, no scroll for
  /// `XInputTranslator.stopDelay`): the content may fling on with the last deltas' velocity.
  case smoothScrollEnded(at: Point)
  /// A finger touched a touch screen. `id` tells the fingers of one gesture apart.
  case touchDown(id: Int, at: Point)
  case touchMove(id: Int, at: Point)
  case touchUp(id: Int, at: Point)
  /// The touch was taken away (by a gesture of the compositor): undo what it began.
  case touchCancel(id: Int)
  /// A key press; `text` is what it types (empty for keys that type nothing).
  case keyDown(Key, text: String, modifiers: Modifiers)
  case keyUp(Key, modifiers: Modifiers)
  case focusIn
  case focusOut
  case pointerEnter(Point)
  case pointerLeave
  /// The window's preferred scale (pixels per point) changed, as when it moved to a screen of
  /// another density; a `resize` to its new size in pixels follows.
  case scaleChange(Double)
  /// The window's size changed; the next framebuffer has this size.
  case resize(PixelSize)
  /// Part of the window was uncovered: its pixels must be presented again.
  case expose
  /// The user (through the window manager) asked to close the window.
  case closeRequest

  /// Whether this is pointer motion, which `compressingMotion` merges.
  public var isPointerMove: Bool {
    if case .pointerMove = self { return true }
    return false
  }

  /// Whether this and `other` are moves of the same touch.
  func isTouchMove(sameAs other: PlatformEvent) -> Bool {
    if case .touchMove(let a, _) = self, case .touchMove(let b, _) = other { return a == b }
    return false
  }

  /// One line, stable for tests: `pointerDown x=10 y=20 button=left mods=none`.
  public var description: String {
    func xy(_ p: Point) -> String { "x=\(fmt(p.x)) y=\(fmt(p.y))" }
    switch self {
    case .pointerDown(let p, let b, let m): return "pointerDown \(xy(p)) button=\(b) mods=\(m)"
    case .pointerMove(let p, let m): return "pointerMove \(xy(p)) mods=\(m)"
    case .pointerUp(let p, let b, let m): return "pointerUp \(xy(p)) button=\(b) mods=\(m)"
    case .scroll(let d, let p, let m): return "scroll dx=\(fmt(d.x)) dy=\(fmt(d.y)) \(xy(p)) mods=\(m)"
    case .smoothScroll(let d, let p, let m):
      return "smoothScroll dx=\(fmt(d.x)) dy=\(fmt(d.y)) \(xy(p)) mods=\(m)"
    case .smoothScrollEnded(let p): return "smoothScrollEnded \(xy(p))"
    case .touchDown(let id, let p): return "touchDown id=\(id) \(xy(p))"
    case .touchMove(let id, let p): return "touchMove id=\(id) \(xy(p))"
    case .touchUp(let id, let p): return "touchUp id=\(id) \(xy(p))"
    case .touchCancel(let id): return "touchCancel id=\(id)"
    case .keyDown(let k, let t, let m):
      let escaped = t.unicodeScalars.map {
        $0.properties.isWhitespace || $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : String($0)
      }.joined()
      return "keyDown key=\(k) text=\"\(escaped)\" mods=\(m)"
    case .keyUp(let k, let m): return "keyUp key=\(k) mods=\(m)"
    case .focusIn: return "focusIn"
    case .focusOut: return "focusOut"
    case .pointerEnter(let p): return "pointerEnter \(xy(p))"
    case .pointerLeave: return "pointerLeave"
    case .scaleChange(let s): return "scaleChange \(fmt(s))"
    case .resize(let s): return "resize \(s)"
    case .expose: return "expose"
    case .closeRequest: return "closeRequest"
    }
  }

  /// Motion compression: every run of consecutive `pointerMove`s becomes its last one, as does
  /// every run of consecutive moves of one touch, and every run of consecutive `resize`s. Runs separated by other events (a button press
  /// in the middle of a drag) are kept apart, so the press still sees where it happened.
  public static func compressingMotion(_ events: [PlatformEvent]) -> [PlatformEvent] {
    var out: [PlatformEvent] = []
    out.reserveCapacity(events.count)
    for e in events {
      if let last = out.last {
        if (last.isPointerMove && e.isPointerMove) || last.isTouchMove(sameAs: e) {
          out[out.count - 1] = e
          continue
        }
        if case .resize = last, case .resize = e {
          out[out.count - 1] = e
          continue
        }
      }
      out.append(e)
    }
    return out
  }
}

private func fmt(_ v: Double) -> String {
  v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
