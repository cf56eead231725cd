import SheenPlatform
import SheenRaster

/// Turns one `wl_pointer.frame`'s worth of axis events into `PlatformEvent`s. Pure: recorded
/// event sequences can be replayed through it.
///
/// By the frame's `axis_source`: fingers on a touchpad scroll pixel-precisely (`smoothScroll`,
/// the axis values in surface units, which follow the fingers) and their `axis_stop` ends the
/// scroll (`smoothScrollEnded`: the content may fling); wheels scroll by notches
/// (`axis_value120` in 120ths of a notch, else `axis_discrete` steps, else the value with 10
/// units a notch, as weston and libinput report it); continuous sources (a trackpoint) and
/// compositors that name no source scroll by the value, gliding as a wheel does.
struct WaylandScrollTranslator {
  /// `wl_pointer.axis_source` values.
  enum Source: UInt32 {
    case wheel = 0
    case finger = 1
    case continuous = 2
    case wheelTilt = 3
  }

  /// One axis's events within a frame.
  private struct Axis {
    var value = 0.0
    var hasValue = false
    var steps: Int32 = 0
    var value120: Int32 = 0
    var stopped = false
  }

  private var source: Source?
  private var x = Axis()
  private var y = Axis()
  /// Whether a finger scroll is in progress (its end not yet seen).
  private(set) var fingerScrolling = false

  mutating func axis(horizontal: Bool, value: Double) {
    update(horizontal) {
      $0.value += value
      $0.hasValue = true
    }
  }

  mutating func axisSource(_ raw: UInt32) { source = Source(rawValue: raw) }

  mutating func axisStop(horizontal: Bool) { update(horizontal) { $0.stopped = true } }

  mutating func axisDiscrete(horizontal: Bool, steps: Int32) { update(horizontal) { $0.steps &+= steps } }

  mutating func axisValue120(horizontal: Bool, value120: Int32) {
    update(horizontal) { $0.value120 &+= value120 }
  }

  private mutating func update(_ horizontal: Bool, _ body: (inout Axis) -> Void) {
    if horizontal { body(&x) } else { body(&y) }
  }

  /// The events of the frame that just ended, with the pointer at `p`.
  mutating func frame(at p: Point, modifiers: Modifiers) -> [PlatformEvent] {
    defer {
      source = nil
      x = Axis()
      y = Axis()
    }
    var out: [PlatformEvent] = []
    if source == .finger {
      if x.hasValue || y.hasValue {
        let delta = Point(x: x.value, y: y.value)
        if delta.x != 0 || delta.y != 0 {
          out.append(.smoothScroll(delta: delta, at: p, modifiers: modifiers))
          fingerScrolling = true
        }
      }
      if (x.stopped || y.stopped) && fingerScrolling {
        fingerScrolling = false
        out.append(.smoothScrollEnded(at: p))
      }
      return out
    }
    guard x.hasValue || y.hasValue || x.value120 != 0 || y.value120 != 0 else { return out }
    out += end(at: p)
    let delta = Point(x: WaylandScrollTranslator.points(x), y: WaylandScrollTranslator.points(y))
    if delta.x != 0 || delta.y != 0 { out.append(.scroll(delta: delta, at: p, modifiers: modifiers)) }
    return out
  }

  /// Ends a finger scroll in progress (the pointer left, or a button was pressed).
  mutating func end(at p: Point) -> [PlatformEvent] {
    guard fingerScrolling else { return [] }
    fingerScrolling = false
    return [.smoothScrollEnded(at: p)]
  }

  /// Scroll points for one axis of a wheel or continuous frame.
  private static func points(_ a: Axis) -> Double {
    let notch = PlatformEvent.scrollPointsPerNotch
    if a.value120 != 0 { return Double(a.value120) / 120 * notch }
    return scrollPoints(steps: a.steps, value: a.value)
  }
}
