import CWayland
import SheenKit
import SheenPlatform
import SheenRaster
import Testing

@testable import SheenWayland

/// `wl_pointer` axis sequences, as libinput-based compositors send them (weston, sway),
/// replayed through `WaylandScrollTranslator` and, for the scroll motion, through a `UIWindow`.
@Suite struct ScrollReplayTests {
  /// One recorded `wl_pointer` event.
  enum Step {
    case source(WaylandScrollTranslator.Source)
    case axis(vertical: Bool, Double)
    case discrete(vertical: Bool, Int32)
    case value120(vertical: Bool, Int32)
    case stop(vertical: Bool)
    case frame
  }

  static let at = Point(x: 100, y: 120)

  /// Replays `steps`, one every `interval` seconds from `start`; returns the events and times.
  static func replay(_ steps: [Step], start: Double = 0, interval: Double = 0.008) -> [(
    time: Double, event: PlatformEvent
  )] {
    var t = WaylandScrollTranslator()
    var out: [(Double, PlatformEvent)] = []
    var now = start
    for step in steps {
      switch step {
      case .source(let s): t.axisSource(s.rawValue)
      case .axis(let vertical, let v): t.axis(horizontal: !vertical, value: v)
      case .discrete(let vertical, let n): t.axisDiscrete(horizontal: !vertical, steps: n)
      case .value120(let vertical, let n): t.axisValue120(horizontal: !vertical, value120: n)
      case .stop(let vertical): t.axisStop(horizontal: !vertical)
      case .frame:
        out += t.frame(at: at, modifiers: []).map { (now, $0) }
        now += interval
      }
    }
    return out
  }

  /// Two fingers on a touchpad: 20 frames of 6 units down (one frame every 8 ms: 750 units per
  /// second), a diagonal frame, then the fingers lift: a frame with `axis_stop` on both axes.
  static let fingerScroll: [Step] =
    Array(repeating: [.source(.finger), .axis(vertical: true, 6), .frame], count: 20).flatMap { $0 }
    + [.source(.finger), .axis(vertical: false, 1.5), .axis(vertical: true, 6), .frame]
    + [.source(.finger), .stop(vertical: false), .stop(vertical: true), .frame]

  @Test func fingersScrollPixelPreciselyAndTheirStopEndsTheScroll() {
    let events = Self.replay(Self.fingerScroll).map(\.event)
    let down = PlatformEvent.smoothScroll(delta: Point(x: 0, y: 6), at: Self.at, modifiers: [])
    #expect(
      events == Array(repeating: down, count: 20) + [
        .smoothScroll(delta: Point(x: 1.5, y: 6), at: Self.at, modifiers: []),
        .smoothScrollEnded(at: Self.at),
      ])
  }

  @Test func wheelsScrollByNotchesOrTheirParts() {
    let steps: [Step] = [
      // wl_seat 8: a notch in 120ths, with its value.
      .source(.wheel), .value120(vertical: true, 120), .axis(vertical: true, 15), .frame,
      // A high-resolution wheel: a quarter notch.
      .source(.wheel), .value120(vertical: true, -30), .axis(vertical: true, -3.75), .frame,
      // wl_seat 5-7: discrete steps.
      .source(.wheel), .discrete(vertical: false, 2), .axis(vertical: false, 20), .frame,
      // A trackpoint (continuous): by value, 10 units a notch.
      .source(.continuous), .axis(vertical: true, 5), .frame,
      // No source at all (older compositors): by value.
      .axis(vertical: true, -10), .frame,
      // A stop from a wheel is no end of a touchpad scroll.
      .source(.wheel), .stop(vertical: true), .frame,
    ]
    let events = Self.replay(steps).map(\.event)
    func s(_ x: Double, _ y: Double) -> PlatformEvent {
      .scroll(delta: Point(x: x, y: y), at: Self.at, modifiers: [])
    }
    #expect(events == [s(0, 48), s(0, -12), s(96, 0), s(0, 24), s(0, -48)])
  }

  @Test func aWheelTurnEndsAFingerScrollInProgress() {
    let steps: [Step] = [
      .source(.finger), .axis(vertical: true, 4), .frame,
      .source(.wheel), .discrete(vertical: true, 1), .axis(vertical: true, 10), .frame,
    ]
    let events = Self.replay(steps).map(\.event)
    #expect(
      events == [
        .smoothScroll(delta: Point(x: 0, y: 4), at: Self.at, modifiers: []), .smoothScrollEnded(at: Self.at),
        .scroll(delta: Point(x: 0, y: 48), at: Self.at, modifiers: []),
      ])
  }

  @Test func replayedFingerScrollMovesThenFlingsAScrollView() throws {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
    let scroll = UIScrollView(frame: window.bounds)
    scroll.contentSize = CGSize(width: 300, height: 5000)
    window.addSubview(scroll)
    let surface = try Surface(width: 300, height: 300)
    window.renderFrame(into: surface, time: 0)
    let events = Self.replay(Self.fingerScroll, start: 1)
    var offsets: [(time: Double, y: Double)] = []
    var next = 0
    var frame = 1.0
    while frame < 6 {
      while next < events.count && events[next].time <= frame {
        window.dispatch(events[next].event, time: frame)
        next += 1
      }
      window.renderFrame(into: surface, time: frame)
      offsets.append((frame, Double(scroll.contentOffset.y)))
      frame += 1.0 / 60
    }
    // Until the stop, the content moved exactly by the values: 21 x 6 points.
    let stopTime = events.last!.time
    #expect(offsets.last { $0.time < stopTime }!.y == 126)
    // Then it flings on at the fingers' speed (750 points per second) and settles 0.4995 v on.
    let after = offsets.filter { $0.time >= stopTime }
    #expect(zip(after, after.dropFirst()).allSatisfy { $0.y <= $1.y })
    let rest = offsets.last!.y - 126
    #expect(rest > 0.75 * 0.4995 * 750 && rest < 1.25 * 0.4995 * 750, "the fling went \(rest) points")
    #expect(!scroll.isDecelerating)
  }
}
