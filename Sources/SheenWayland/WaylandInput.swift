import CWayland
import SheenPlatform
import SheenRaster

#if canImport(Glibc)
  import Glibc
#endif

/// A `wl_seat` with its pointer and keyboard: turns their events into `PlatformEvent`s for the
/// window under the pointer or holding the keyboard focus. Owns the seat, the input proxies and
/// the xkbcommon context, keymap and state.
final class WaylandInput {
  unowned let display: WaylandDisplay
  let seat: OpaquePointer
  let version: UInt32
  private(set) var pointer: OpaquePointer?
  private(set) var keyboard: OpaquePointer?

  // Pointer state.
  private(set) var pointerSurface: OpaquePointer?
  private var pointerPosition = Point(x: 0, y: 0)
  /// The serial of the last pointer enter (cursors are set with it) and of the last button or
  /// touch down (an interactive move or resize starts with it).
  private(set) var enterSerial: UInt32 = 0
  private(set) var lastPressSerial: UInt32 = 0
  /// The pointer's cursor.
  private(set) var cursors: WaylandCursors?
  /// Scroll gathered until `wl_pointer.frame`.
  private var scroll = WaylandScrollTranslator()
  private(set) var touch: OpaquePointer?
  /// Touch points and the surfaces they went down on.
  private var touches = WaylandTouchTranslator<UnsafeMutableRawPointer>()

  // Keyboard state.
  private let xkbContext: OpaquePointer?
  private var keymap: OpaquePointer?
  private var xkbState: OpaquePointer?
  private var keyboardSurface: OpaquePointer?
  /// Key repeat: characters per second (0: none) and the delay before the first, in seconds.
  private var repeatRate = 25.0
  private var repeatDelay = 0.6
  private var repeatingKey: UInt32?
  private(set) var nextRepeat: Double?

  init(display: WaylandDisplay, seat: OpaquePointer, version: UInt32) {
    self.display = display
    self.seat = seat
    self.version = version
    xkbContext = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
    wl_seat_add_listener(seat, seatListener, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    releasePointer()
    releaseTouch()
    releaseKeyboard()
    if version >= 5 { wl_seat_release(seat) } else { wl_seat_destroy(seat) }
    if let xkbContext { xkb_context_unref(xkbContext) }
  }

  private func releasePointer() {
    guard let pointer else { return }
    cursors = nil
    if version >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
    self.pointer = nil
    pointerSurface = nil
  }

  private func releaseTouch() {
    guard let touch else { return }
    if version >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) }
    self.touch = nil
    touches = WaylandTouchTranslator()
  }

  private func releaseKeyboard() {
    guard let keyboard else { return }
    if version >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) }
    self.keyboard = nil
    keyboardSurface = nil
    repeatingKey = nil
    nextRepeat = nil
    if let xkbState { xkb_state_unref(xkbState) }
    if let keymap { xkb_keymap_unref(keymap) }
    xkbState = nil
    keymap = nil
  }

  /// Drops references to a surface being destroyed.
  func forget(surface: OpaquePointer) {
    if pointerSurface == surface { pointerSurface = nil }
    touches.forget(UnsafeMutableRawPointer(surface))
    if keyboardSurface == surface {
      keyboardSurface = nil
      repeatingKey = nil
      nextRepeat = nil
    }
  }

  /// The modifiers the keyboard holds (none without a keyboard).
  var modifiers: Modifiers {
    guard let xkbState else { return [] }
    func active(_ name: String) -> Bool {
      xkb_state_mod_name_is_active(xkbState, name, XKB_STATE_MODS_EFFECTIVE) > 0
    }
    var m: Modifiers = []
    if active(XKB_MOD_NAME_SHIFT) { m.insert(.shift) }
    if active(XKB_MOD_NAME_CTRL) { m.insert(.control) }
    if active(XKB_MOD_NAME_ALT) { m.insert(.alt) }
    if active(XKB_MOD_NAME_LOGO) { m.insert(.command) }
    if active(XKB_MOD_NAME_CAPS) { m.insert(.capsLock) }
    return m
  }

  private func send(_ event: PlatformEvent, to surface: OpaquePointer?) {
    display.window(for: surface)?.enqueue(event, from: surface)
  }

  /// Shows the cursor `name` if the pointer is over one of `window`'s surfaces.
  func showCursor(_ name: String, scale: Double) {
    cursors?.show(name, serial: enterSerial, scale: scale)
  }

  // MARK: - Seat

  fileprivate func capabilities(_ caps: UInt32) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
    let hasKeyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
    if hasPointer && pointer == nil {
      pointer = wl_seat_get_pointer(seat)
      wl_pointer_add_listener(pointer, pointerListener, me)
      if let pointer { cursors = WaylandCursors(display: display, pointer: pointer) }
    } else if !hasPointer {
      releasePointer()
    }
    let hasTouch = caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
    if hasTouch && touch == nil {
      touch = wl_seat_get_touch(seat)
      wl_touch_add_listener(touch, touchListener, me)
    } else if !hasTouch {
      releaseTouch()
    }
    if hasKeyboard && keyboard == nil {
      keyboard = wl_seat_get_keyboard(seat)
      wl_keyboard_add_listener(keyboard, keyboardListener, me)
    } else if !hasKeyboard {
      releaseKeyboard()
    }
  }

  // MARK: - Pointer

  fileprivate func pointerEnter(_ surface: OpaquePointer?, serial: UInt32, _ x: wl_fixed_t, _ y: wl_fixed_t) {
    pointerSurface = surface
    enterSerial = serial
    cursors?.entered()
    pointerPosition = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    send(.pointerEnter(pointerPosition), to: surface)
  }

  fileprivate func pointerLeave(_ surface: OpaquePointer?) {
    for event in scroll.end(at: pointerPosition) { send(event, to: surface ?? pointerSurface) }
    send(.pointerLeave, to: surface ?? pointerSurface)
    pointerSurface = nil
  }

  fileprivate func pointerMotion(_ x: wl_fixed_t, _ y: wl_fixed_t) {
    pointerPosition = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    send(.pointerMove(pointerPosition, modifiers: modifiers), to: pointerSurface)
  }

  fileprivate func pointerButton(_ code: UInt32, serial: UInt32, pressed: Bool) {
    if pressed { lastPressSerial = serial }
    for event in scroll.end(at: pointerPosition) { send(event, to: pointerSurface) }
    let button = PointerButton(linuxButton: code)
    send(
      pressed
        ? .pointerDown(pointerPosition, button: button, modifiers: modifiers)
        : .pointerUp(pointerPosition, button: button, modifiers: modifiers),
      to: pointerSurface)
  }

  fileprivate func pointerAxis(_ axis: UInt32, value: wl_fixed_t) {
    scroll.axis(
      horizontal: axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue, value: wl_fixed_to_double(value))
    // Before version 5 there is no frame event: every axis event stands alone.
    if version < 5 { pointerFrame() }
  }

  fileprivate func pointerAxisSource(_ source: UInt32) { scroll.axisSource(source) }

  fileprivate func pointerAxisStop(_ axis: UInt32) {
    scroll.axisStop(horizontal: axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue)
  }

  fileprivate func pointerAxisDiscrete(_ axis: UInt32, steps: Int32) {
    scroll.axisDiscrete(horizontal: axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue, steps: steps)
  }

  fileprivate func pointerAxisValue120(_ axis: UInt32, value120: Int32) {
    scroll.axisValue120(horizontal: axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue, value120: value120)
  }

  fileprivate func pointerFrame() {
    for event in scroll.frame(at: pointerPosition, modifiers: modifiers) { send(event, to: pointerSurface) }
  }

  // MARK: - Touch

  fileprivate func touchDown(
    _ surface: OpaquePointer?, serial: UInt32, id: Int32, _ x: wl_fixed_t, _ y: wl_fixed_t
  ) {
    guard let surface else { return }
    lastPressSerial = serial
    let p = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    let (_, event) = touches.down(id: id, surface: UnsafeMutableRawPointer(surface), at: p)
    send(event, to: surface)
  }

  fileprivate func touchMotion(id: Int32, _ x: wl_fixed_t, _ y: wl_fixed_t) {
    let p = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    if let (surface, event) = touches.motion(id: id, at: p) { send(event, to: OpaquePointer(surface)) }
  }

  fileprivate func touchUp(id: Int32) {
    if let (surface, event) = touches.up(id: id) { send(event, to: OpaquePointer(surface)) }
  }

  fileprivate func touchCancel() {
    for (surface, event) in touches.cancel() { send(event, to: OpaquePointer(surface)) }
  }

  // MARK: - Keyboard

  fileprivate func keymap(format: UInt32, fd: Int32, size: UInt32) {
    defer { Glibc.close(fd) }
    guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, let xkbContext, size > 0 else { return }
    // Private mapping: the compositor may share one read-only file with every client.
    guard let text = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), text != MAP_FAILED else { return }
    defer { munmap(text, Int(size)) }
    guard
      let newKeymap = xkb_keymap_new_from_string(
        xkbContext, text.assumingMemoryBound(to: CChar.self), XKB_KEYMAP_FORMAT_TEXT_V1,
        XKB_KEYMAP_COMPILE_NO_FLAGS)
    else {
      writeStandardError("sheen: the Wayland compositor sent a keymap xkbcommon cannot compile\n")
      return
    }
    guard let newState = xkb_state_new(newKeymap) else {
      xkb_keymap_unref(newKeymap)
      return
    }
    if let xkbState { xkb_state_unref(xkbState) }
    if let keymap { xkb_keymap_unref(keymap) }
    keymap = newKeymap
    xkbState = newState
  }

  fileprivate func keyboardEnter(_ surface: OpaquePointer?) {
    keyboardSurface = surface
    send(.focusIn, to: surface)
  }

  fileprivate func keyboardLeave(_ surface: OpaquePointer?) {
    send(.focusOut, to: surface ?? keyboardSurface)
    keyboardSurface = nil
    repeatingKey = nil
    nextRepeat = nil
  }

  fileprivate func key(_ evdevCode: UInt32, pressed: Bool) {
    guard let xkbState, let keymap else { return }
    // xkbcommon numbers keys as X does: the evdev code plus 8.
    let code = evdevCode + 8
    let sym = xkb_state_key_get_one_sym(xkbState, code)
    let mods = modifiers
    let key = Key(xkbKeysym: sym)
    if pressed {
      send(
        .keyDown(key, text: textTyped(xkbKeysym: sym, modifiers: mods), modifiers: mods), to: keyboardSurface)
      if repeatRate > 0 && xkb_keymap_key_repeats(keymap, code) != 0 {
        repeatingKey = code
        nextRepeat = monotonicSeconds() + repeatDelay
      }
    } else {
      send(.keyUp(key, modifiers: mods), to: keyboardSurface)
      if repeatingKey == code {
        repeatingKey = nil
        nextRepeat = nil
      }
    }
  }

  fileprivate func keyModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
    guard let xkbState else { return }
    xkb_state_update_mask(xkbState, depressed, latched, locked, 0, 0, group)
  }

  fileprivate func repeatInfo(rate: Int32, delay: Int32) {
    repeatRate = Double(max(0, rate))
    repeatDelay = Double(max(0, delay)) / 1000
    if repeatRate == 0 {
      repeatingKey = nil
      nextRepeat = nil
    }
  }

  /// Wayland leaves key repeat to clients: sends a `keyDown` for every repeat that is due.
  func deliverKeyRepeats(now: Double) {
    guard let code = repeatingKey, var due = nextRepeat, let xkbState, repeatRate > 0 else { return }
    let sym = xkb_state_key_get_one_sym(xkbState, code)
    let mods = modifiers
    var count = 0
    while due <= now && count < 8 {
      send(
        .keyDown(Key(xkbKeysym: sym), text: textTyped(xkbKeysym: sym, modifiers: mods), modifiers: mods),
        to: keyboardSurface)
      due += 1 / repeatRate
      count += 1
    }
    // Never try to catch up after a stall.
    nextRepeat = max(due, now + 1 / repeatRate * 0.5)
  }
}

/// Scroll points for one axis of one pointer frame: `scrollPointsPerNotch` per discrete wheel
/// step, or for smooth scrolling the continuous value scaled so that the value of one wheel
/// notch (10 in Wayland's surface units, as weston and libinput report it) is one notch.
func scrollPoints(steps: Int32, value: Double) -> Double {
  let notch = PlatformEvent.scrollPointsPerNotch
  if steps != 0 { return Double(steps) * notch }
  return value / 10 * notch
}

// MARK: - Listeners (C function pointers: no captures; the Swift object is `data`)

private func input(_ data: UnsafeMutableRawPointer?) -> WaylandInput {
  Unmanaged<WaylandInput>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private let seatListener: UnsafeMutablePointer<wl_seat_listener> = {
  let p = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
  p.initialize(
    to: wl_seat_listener(
      capabilities: { data, _, caps in input(data).capabilities(caps) },
      name: { _, _, _ in }))
  return p
}()

nonisolated(unsafe) private let pointerListener: UnsafeMutablePointer<wl_pointer_listener> = {
  let p = UnsafeMutablePointer<wl_pointer_listener>.allocate(capacity: 1)
  p.initialize(
    to: wl_pointer_listener(
      enter: { data, _, serial, surface, x, y in input(data).pointerEnter(surface, serial: serial, x, y) },
      leave: { data, _, _, surface in input(data).pointerLeave(surface) },
      motion: { data, _, _, x, y in input(data).pointerMotion(x, y) },
      button: { data, _, serial, _, button, state in
        input(data).pointerButton(
          button, serial: serial, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
      },
      axis: { data, _, _, axis, value in input(data).pointerAxis(axis, value: value) },
      frame: { data, _ in input(data).pointerFrame() },
      axis_source: { data, _, source in input(data).pointerAxisSource(source) },
      axis_stop: { data, _, _, axis in input(data).pointerAxisStop(axis) },
      axis_discrete: { data, _, axis, steps in input(data).pointerAxisDiscrete(axis, steps: steps) },
      axis_value120: { data, _, axis, value in input(data).pointerAxisValue120(axis, value120: value) }))
  return p
}()

nonisolated(unsafe) private let touchListener: UnsafeMutablePointer<wl_touch_listener> = {
  let p = UnsafeMutablePointer<wl_touch_listener>.allocate(capacity: 1)
  p.initialize(
    to: wl_touch_listener(
      down: { data, _, serial, _, surface, id, x, y in
        input(data).touchDown(surface, serial: serial, id: id, x, y)
      },
      up: { data, _, _, _, id in input(data).touchUp(id: id) },
      motion: { data, _, _, id, x, y in
        input(data).touchMotion(id: id, x, y)
      },
      frame: { _, _ in },
      cancel: { data, _ in input(data).touchCancel() },
      shape: { _, _, _, _, _ in },
      orientation: { _, _, _, _ in }))
  return p
}()

nonisolated(unsafe) private let keyboardListener: UnsafeMutablePointer<wl_keyboard_listener> = {
  let p = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
  p.initialize(
    to: wl_keyboard_listener(
      keymap: { data, _, format, fd, size in input(data).keymap(format: format, fd: fd, size: size) },
      enter: { data, _, _, surface, _ in input(data).keyboardEnter(surface) },
      leave: { data, _, _, surface in input(data).keyboardLeave(surface) },
      key: { data, _, _, _, key, state in
        input(data).key(key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
      },
      modifiers: { data, _, _, depressed, latched, locked, group in
        input(data).keyModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
      },
      repeat_info: { data, _, rate, delay in input(data).repeatInfo(rate: rate, delay: delay) }))
  return p
}()
