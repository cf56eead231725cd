import CX11
import SheenPlatform
import SheenRaster

// Translation of X11 input details into SheenPlatform's neutral types.

extension Modifiers {
  /// The modifiers in an X event's `state` (Mod1 is Alt, Mod4 is Super, as on common layouts).
  init(xState state: UInt32) {
    var m: Modifiers = []
    if state & UInt32(ShiftMask) != 0 { m.insert(.shift) }
    if state & UInt32(ControlMask) != 0 { m.insert(.control) }
    if state & UInt32(Mod1Mask) != 0 { m.insert(.alt) }
    if state & UInt32(Mod4Mask) != 0 { m.insert(.command) }
    if state & UInt32(LockMask) != 0 { m.insert(.capsLock) }
    self = m
  }
}

extension PointerButton {
  init(xButton button: UInt32) {
    switch button {
    case UInt32(Button1): self = .left
    case UInt32(Button2): self = .middle
    case UInt32(Button3): self = .right
    default: self = .other(Int(button))
    }
  }
}

/// The scroll of a wheel button (4 up, 5 down, 6 left, 7 right), in points; nil for others.
func scrollDelta(button: UInt32) -> Point? {
  let notch = PlatformEvent.scrollPointsPerNotch
  switch button {
  case 4: return Point(x: 0, y: -notch)
  case 5: return Point(x: 0, y: notch)
  case 6: return Point(x: -notch, y: 0)
  case 7: return Point(x: notch, y: 0)
  default: return nil
  }
}

extension Key {
  /// The key for an X keysym (keypad keys count as their main-block twins).
  init(keysym: KeySym) {
    switch Int32(truncatingIfNeeded: keysym) {
    case XK_Left, XK_KP_Left: self = .left
    case XK_Right, XK_KP_Right: self = .right
    case XK_Up, XK_KP_Up: self = .up
    case XK_Down, XK_KP_Down: self = .down
    case XK_Prior, XK_KP_Prior: self = .pageUp
    case XK_Next, XK_KP_Next: self = .pageDown
    case XK_Home, XK_KP_Home: self = .home
    case XK_End, XK_KP_End: self = .end
    case XK_space, XK_KP_Space: self = .space
    case XK_Escape: self = .escape
    case XK_Return, XK_KP_Enter: self = .enter
    case XK_Tab, XK_ISO_Left_Tab: self = .tab
    case XK_BackSpace: self = .backspace
    case XK_Delete, XK_KP_Delete: self = .delete
    case XK_q, XK_Q: self = .q
    default: self = .other(UInt32(truncatingIfNeeded: keysym))
    }
  }
}

/// The text a key press types: the keysym's character (Latin-1 keysyms are Unicode code points;
/// `0x01000000 + c` keysyms carry the code point `c`). Nothing for control characters, or while
/// Control or Alt is held (those are shortcuts).
func textTyped(keysym: KeySym, modifiers: Modifiers) -> String {
  if modifiers.contains(.control) || modifiers.contains(.alt) { return "" }
  let value: UInt32
  switch keysym {
  case 0x20...0x7e, 0xa0...0xff: value = UInt32(keysym)
  case 0x0100_0100...0x0110_ffff: value = UInt32(keysym - 0x0100_0000)
  default: return ""
  }
  guard let scalar = Unicode.Scalar(value) else { return "" }
  return String(Character(scalar))
}
