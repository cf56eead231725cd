import Foundation
import SheenKit
import SheenPlatform
import SheenRaster
import Testing

@testable import SheenX11

/// XInput2 event sequences, as the X server sends them for real devices (valuator numbers,
/// increments and emulated wheel buttons as the libinput driver reports them), replayed
/// through `XInputTranslator` and, for the scroll motion, through a `UIWindow`.
@Suite struct XInputReplayTests {
  /// One recorded XI2 event.
  enum Step {
    /// XI_DeviceChanged (or the first XIQueryDevice): scroll valuators and current values.
    case classes([XInputTranslator.ScrollValuator], values: [Int: Double])
    case enter(Double, Double)
    case leave
    /// XI_Motion at a position, with the valuators it carries.
    case motion(Double, Double, [(Int, Double)])
    case button(Int, pressed: Bool, emulated: Bool)
    case touch(XInputTranslator.TouchPhase, id: Int, Double, Double)
  }

  /// The libinput driver's touchpad: horizontal valuator 2 and vertical 3, 15 units a notch.
  static let touchpadClasses = Step.classes(
    [.init(number: 2, vertical: false, increment: 15), .init(number: 3, vertical: true, increment: 15)],
    values: [0: 150, 1: 150, 2: 0, 3: 0])

  /// Replays `steps` (one every `interval` seconds from `start`) and then lets the translator's
  /// deadlines pass, polling every millisecond up to `until`; returns each event with its time.
  static func replay(
    _ steps: [Step], touchpad: Bool, start: Double = 0, interval: Double = 0.008, until: Double? = nil
  ) -> [(time: Double, event: PlatformEvent)] {
    var t = XInputTranslator()
    var out: [(Double, PlatformEvent)] = []
    var now = start
    var pointer = Point(x: 0, y: 0)
    for step in steps {
      out += t.expire(now: now).map { (now, $0) }
      let events: [PlatformEvent]
      switch step {
      case .classes(let v, let values):
        t.setScrollValuators(v, values: values)
        events = []
      case .enter(let x, let y):
        pointer = Point(x: x, y: y)
        events = t.enter(at: pointer)
      case .leave: events = t.leave(time: now)
      case .motion(let x, let y, let valuators):
        pointer = Point(x: x, y: y)
        events = t.motion(
          at: pointer, valuators: valuators.map { (number: $0.0, value: $0.1) }, touchpad: touchpad,
          modifiers: [], time: now)
      case .button(let n, let pressed, let emulated):
        events = t.button(n, pressed: pressed, emulated: emulated, at: pointer, modifiers: [])
      case .touch(let phase, let id, let x, let y):
        events = t.touch(phase, id: id, at: Point(x: x, y: y))
      }
      out += events.map { (now, $0) }
      now += interval
    }
    while let end = until, now <= end {
      out += t.expire(now: now).map { (now, $0) }
      now += 0.001
    }
    return out
  }

  /// Two fingers moving down the touchpad at a steady pace: 25 motions 8 ms apart, the vertical
  /// valuator growing 8 units each (8 points), the server emulating a wheel button 5 press and
  /// release for about every 15 units.
  static func twoFingerScroll(from y0: Double = 0) -> [Step] {
    var steps: [Step] = [touchpadClasses, .enter(150, 150)]
    var v = y0
    for k in 0..<25 {
      steps.append(.motion(150, 150, [(3, v)]))
      v += 8
      if k % 2 == 1 {
        steps.append(.button(5, pressed: true, emulated: true))
        steps.append(.button(5, pressed: false, emulated: true))
      }
    }
    return steps
  }

  @Test func touchpadScrollIsPixelPreciseAndEndsWhenItGoesQuiet() {
    let events = Self.replay(Self.twoFingerScroll(), touchpad: true, until: 1)
    let scrolls = events.compactMap { e -> Double? in
      if case .smoothScroll(let d, _, _) = e.event { return d.y }
      return nil
    }
    // The first motion after entering is a baseline: 24 deltas of 8 / 15 increments, a point a unit.
    #expect(scrolls == Array(repeating: 8 / 15 * XInputTranslator.touchpadPointsPerIncrement, count: 24))
    // No wheel notches: the emulated buttons are dropped.
    #expect(!events.contains { if case .scroll = $0.event { return true } else { return false } })
    // One end, 0.1 s after the last movement.
    let ends = events.filter { $0.event == .smoothScrollEnded(at: Point(x: 150, y: 150)) }
    #expect(ends.count == 1)
    let lastScroll = events.last { if case .smoothScroll = $0.event { return true } else { return false } }!
    #expect(abs(ends[0].time - lastScroll.time - XInputTranslator.stopDelay) < 0.0015)
  }

  @Test func replayedTouchpadScrollMovesAndFlingsAScrollView() throws {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
    let scroll = UIScrollView(frame: window.bounds)
    scroll.contentSize = CGSize(width: 300, height: 5000)
    window.addSubview(scroll)
    let surface = try Surface(width: 300, height: 300)
    window.renderFrame(into: surface, time: 0)
    // Frames at 60 Hz: each frame dispatches what arrived since the last one, at its time.
    let events = Self.replay(Self.twoFingerScroll(), touchpad: true, start: 1, until: 2)
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
    let lastMove = 1 + (26 + 24) * 0.008  // the 25th motion, after 12 emulated button pairs
    let end = offsets.first { $0.time >= lastMove + XInputTranslator.stopDelay }!
    // Until the fingers lift, the content moved exactly by the deltas: 24 x 8 points.
    let beforeEnd = offsets.last { $0.time < lastMove + XInputTranslator.stopDelay }!
    #expect(beforeEnd.y == 192)
    // Then it flings on, never backwards, and comes to rest further down.
    let after = offsets.filter { $0.time >= end.time }
    #expect(zip(after, after.dropFirst()).allSatisfy { $0.y <= $1.y })
    #expect(after[6].y > 200)
    // At rest where a fling at the fingers' speed decays to: two motions of 8 points every four
    // steps of 8 ms (an emulated button press and release between pairs), 500 points per second,
    // a glide of v / -ln(0.998^1000) = 0.4995 v. The samples are frame times, so the speed
    // measured is within 25% of that.
    let v = 16 / (4 * 0.008)
    let rest = offsets.last!.y - 192
    #expect(rest > 0.75 * 0.4995 * v && rest < 1.25 * 0.4995 * v, "the fling went \(rest) points")
    #expect(!scroll.isDecelerating)
  }

  @Test func wheelValuatorsScrollByNotchesAndHighResolutionParts() {
    // A mouse wheel through libinput: 120 units a detent; a high-resolution wheel sends parts.
    let steps: [Step] = [
      .classes([.init(number: 3, vertical: true, increment: 120)], values: [3: 600]),
      .motion(10, 10, [(3, 720)]), .button(5, pressed: true, emulated: true),
      .button(5, pressed: false, emulated: true),
      .motion(10, 10, [(3, 750)]), .motion(10, 10, [(3, 630)]),
    ]
    let events = Self.replay(steps, touchpad: false, until: 1).map(\.event)
    let at = Point(x: 10, y: 10)
    #expect(
      events == [
        .pointerMove(at, modifiers: []),
        .scroll(delta: Point(x: 0, y: 48), at: at, modifiers: []),
        .scroll(delta: Point(x: 0, y: 12), at: at, modifiers: []),
        .scroll(delta: Point(x: 0, y: -48), at: at, modifiers: []),
      ])
  }

  @Test func aSlaveSwitchOrReentryStartsNewBaselines() {
    let steps: [Step] = [
      Self.touchpadClasses, .enter(5, 5), .motion(5, 5, [(3, 30)]), .motion(5, 5, [(3, 78)]),
      // Another device takes over the master pointer: its valuator 4 runs the other way.
      .classes([.init(number: 4, vertical: true, increment: -10)], values: [4: 1000]),
      .motion(5, 5, [(4, 990)]),
      // Leaving and re-entering: the valuator moved outside; the next value is a baseline.
      .leave, .enter(6, 6), .motion(6, 6, [(4, 500)]), .motion(6, 6, [(4, 480)]),
    ]
    let deltas = Self.replay(steps, touchpad: true).compactMap { e -> Double? in
      if case .smoothScroll(let d, _, _) = e.event { return d.y }
      return nil
    }
    // 48 units (a point each: 15 points an increment of 15); then -10 and -20 units at -10 an
    // increment: 1 and 2 increments.
    #expect(deltas == [48, 15, 30])
  }

  @Test func touchesAndWheelButtonsOfDevicesWithoutValuators() {
    let steps: [Step] = [
      .enter(1, 1),
      .touch(.begin, id: 4, 10, 20), .button(1, pressed: true, emulated: true),
      .touch(.update, id: 4, 10, 60), .motion(10, 60, []), .touch(.end, id: 4, 10, 90),
      .button(1, pressed: false, emulated: true),
      // XTEST's pointer (xdotool) has no scroll valuators: its wheel buttons are real.
      .button(4, pressed: true, emulated: false), .button(4, pressed: false, emulated: false),
    ]
    let events = Self.replay(steps, touchpad: false).map(\.event)
    #expect(
      events == [
        .pointerEnter(Point(x: 1, y: 1)), .touchDown(id: 4, at: Point(x: 10, y: 20)),
        .touchMove(id: 4, at: Point(x: 10, y: 60)), .pointerMove(Point(x: 10, y: 60), modifiers: []),
        .touchUp(id: 4, at: Point(x: 10, y: 90)),
        .scroll(delta: Point(x: 0, y: -48), at: Point(x: 10, y: 60), modifiers: []),
      ])
  }
}
