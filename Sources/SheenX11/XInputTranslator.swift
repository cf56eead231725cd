import SheenPlatform
import SheenRaster

/// Turns XInput2 pointer and touch events, already decoded from Xlib's structures, into
/// `PlatformEvent`s. Pure: no X calls and no clock reads (times are passed in), so recorded
/// event sequences can be replayed through it.
///
/// Smooth scrolling (XI 2.1): a device reports scrolling as valuators that grow by `increment`
/// per wheel notch. Deltas between successive values are scroll distances: from a touchpad
/// they become `smoothScroll` (pixel-precise, the content follows the fingers) and, since X
/// says nothing when the fingers lift, a `smoothScrollEnded` once no scroll came for
/// `stopDelay` seconds; from other devices (wheels, high-resolution wheels) they become `scroll`
/// of the same distance, which glides. The wheel buttons the server emulates from those
/// valuators (flagged `XIPointerEmulated`) are dropped; real wheel buttons (from a device
/// without scroll valuators, such as XTEST's) still scroll a notch.
///
/// Touch (XI 2.2): touch begin, update and end become `touchDown`, `touchMove`, `touchUp`; the
/// pointer events the server emulates from touches are dropped.
struct XInputTranslator {
  /// Seconds without a touchpad scroll that count as the fingers lifting (X has no event for
  /// it). Touchpads report at 60-140 Hz while the fingers move.
  static let stopDelay = 0.1
  /// Points one scroll increment of a touchpad is worth. The libinput driver reports 15 units of
  /// (accelerated) finger travel per increment, its scroll distance: 15 points make the content
  /// follow the fingers, as touchpad scrolling does on Wayland, where the compositor reports the
  /// travel itself.
  static let touchpadPointsPerIncrement = 15.0

  /// One scroll valuator of the pointer's current source device.
  struct ScrollValuator: Equatable {
    var number: Int
    var vertical: Bool
    /// Valuator units per wheel notch (negative: the axis runs the other way).
    var increment: Double
  }

  /// The scroll valuators of the pointer's current source device, by valuator number.
  private(set) var scrollValuators: [Int: ScrollValuator] = [:]
  /// The last value of each scroll valuator (nil: unknown, the next value is a baseline).
  private var lastValues: [Int: Double] = [:]
  /// Where the pointer is, in window pixels.
  private(set) var pointer = Point(x: 0, y: 0)
  /// When a touchpad scroll in progress counts as ended (nil: none in progress).
  private(set) var smoothScrollDeadline: Double?

  /// The source device changed (a slave switch) or was first seen: its scroll valuators and
  /// their current values (values missing are learnt from the next motion).
  mutating func setScrollValuators(_ valuators: [ScrollValuator], values: [Int: Double]) {
    scrollValuators = Dictionary(valuators.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
    lastValues = values.filter { scrollValuators[$0.key] != nil }
  }

  /// The pointer entered the window: scroll valuators may have moved outside, so their next
  /// values are baselines.
  mutating func enter(at p: Point) -> [PlatformEvent] {
    pointer = p
    lastValues.removeAll()
    return [.pointerEnter(p)]
  }

  /// The pointer left the window; a touchpad scroll in progress ends first.
  mutating func leave(time: Double) -> [PlatformEvent] {
    var out = endSmoothScroll()
    lastValues.removeAll()
    out.append(.pointerLeave)
    return out
  }

  /// A motion event: the position, and the valuators it carries as (number, value) pairs.
  /// `touchpad` says whether the source device is a touchpad.
  mutating func motion(
    at p: Point, valuators: [(number: Int, value: Double)], touchpad: Bool, modifiers: Modifiers, time: Double
  ) -> [PlatformEvent] {
    var out: [PlatformEvent] = []
    if p != pointer {
      pointer = p
      out.append(.pointerMove(p, modifiers: modifiers))
    }
    var notches = Point(x: 0, y: 0)
    for (number, value) in valuators {
      guard let axis = scrollValuators[number] else { continue }
      defer { lastValues[number] = value }
      guard let last = lastValues[number], axis.increment != 0, value.isFinite else { continue }
      let steps = (value - last) / axis.increment
      if axis.vertical { notches.y += steps } else { notches.x += steps }
    }
    guard notches.x != 0 || notches.y != 0 else { return out }
    if touchpad {
      let n = XInputTranslator.touchpadPointsPerIncrement
      out.append(.smoothScroll(delta: Point(x: notches.x * n, y: notches.y * n), at: p, modifiers: modifiers))
      smoothScrollDeadline = time + XInputTranslator.stopDelay
    } else {
      out += endSmoothScroll()
      let n = PlatformEvent.scrollPointsPerNotch
      out.append(.scroll(delta: Point(x: notches.x * n, y: notches.y * n), at: p, modifiers: modifiers))
    }
    return out
  }

  /// A button press or release. Wheel buttons the server emulated from scroll valuators are
  /// dropped (the valuators already scrolled), as are buttons emulated from a touch.
  mutating func button(
    _ number: Int, pressed: Bool, emulated: Bool, at p: Point, modifiers: Modifiers
  ) -> [PlatformEvent] {
    if emulated { return [] }
    pointer = p
    if let delta = scrollDelta(button: UInt32(truncatingIfNeeded: number)) {
      return pressed ? [.scroll(delta: delta, at: p, modifiers: modifiers)] : []
    }
    let button = PointerButton(xButton: UInt32(truncatingIfNeeded: number))
    var out = endSmoothScroll()
    out.append(
      pressed
        ? .pointerDown(p, button: button, modifiers: modifiers)
        : .pointerUp(p, button: button, modifiers: modifiers))
    return out
  }

  /// The phases of a touch.
  enum TouchPhase { case begin, update, end }

  /// A touch event of touch `id` at `p`.
  mutating func touch(_ phase: TouchPhase, id: Int, at p: Point) -> [PlatformEvent] {
    switch phase {
    case .begin: return endSmoothScroll() + [.touchDown(id: id, at: p)]
    case .update: return [.touchMove(id: id, at: p)]
    case .end: return [.touchUp(id: id, at: p)]
    }
  }

  /// The events due by `now`: the end of a touchpad scroll that has gone quiet.
  mutating func expire(now: Double) -> [PlatformEvent] {
    guard let deadline = smoothScrollDeadline, now >= deadline else { return [] }
    return endSmoothScroll()
  }

  private mutating func endSmoothScroll() -> [PlatformEvent] {
    guard smoothScrollDeadline != nil else { return [] }
    smoothScrollDeadline = nil
    return [.smoothScrollEnded(at: pointer)]
  }
}
