import CWayland
import SheenPlatform

// Translation of Wayland input details into SheenPlatform's neutral types. xkbcommon keysyms
// are X11 keysyms, so keys map exactly as in the X11 backend.

extension Key {
  /// The key for an xkbcommon keysym (keypad keys count as their main-block twins).
  init(xkbKeysym sym: xkb_keysym_t) {
    switch Int32(truncatingIfNeeded: sym) {
    case XKB_KEY_Left, XKB_KEY_KP_Left: self = .left
    case XKB_KEY_Right, XKB_KEY_KP_Right: self = .right
    case XKB_KEY_Up, XKB_KEY_KP_Up: self = .up
    case XKB_KEY_Down, XKB_KEY_KP_Down: self = .down
    case XKB_KEY_Prior, XKB_KEY_KP_Prior: self = .pageUp
    case XKB_KEY_Next, XKB_KEY_KP_Next: self = .pageDown
    case XKB_KEY_Home, XKB_KEY_KP_Home: self = .home
    case XKB_KEY_End, XKB_KEY_KP_End: self = .end
    case XKB_KEY_space, XKB_KEY_KP_Space: self = .space
    case XKB_KEY_Escape: self = .escape
    case XKB_KEY_Return, XKB_KEY_KP_Enter: self = .enter
    case XKB_KEY_Tab, XKB_KEY_ISO_Left_Tab: self = .tab
    case XKB_KEY_BackSpace: self = .backspace
    case XKB_KEY_Delete, XKB_KEY_KP_Delete: self = .delete
    case XKB_KEY_q, XKB_KEY_Q: self = .q
    default: self = .other(sym)
    }
  }
}

/// The text a key press types, by the X11 backend's rule: the keysym's character (Latin-1
/// keysyms are code points; `0x01000000 + c` keysyms carry the code point `c`); nothing for
/// control characters, or while Control or Alt is held (those are shortcuts).
func textTyped(xkbKeysym sym: xkb_keysym_t, modifiers: Modifiers) -> String {
  if modifiers.contains(.control) || modifiers.contains(.alt) { return "" }
  let value: UInt32
  switch sym {
  case 0x20...0x7e, 0xa0...0xff: value = sym
  case 0x0100_0100...0x0110_ffff: value = sym - 0x0100_0000
  default: return ""
  }
  guard let scalar = Unicode.Scalar(value) else { return "" }
  return String(Character(scalar))
}

extension PointerButton {
  /// The button for a Linux input event code (`BTN_LEFT` = 0x110 ...). Back and forward
  /// (`BTN_SIDE`, `BTN_EXTRA`) become X11's buttons 8 and 9, as the X11 backend reports them.
  init(linuxButton code: UInt32) {
    switch code {
    case 0x110: self = .left
    case 0x111: self = .right
    case 0x112: self = .middle
    case 0x113: self = .other(8)
    case 0x114: self = .other(9)
    default: self = .other(Int(code))
    }
  }
}
