import SheenKit
import SheenPlatform
import SheenRaster
import Testing

@testable import SheenWayland

/// `wl_touch` sequences, as a touch screen sends them through a compositor, replayed through
/// `WaylandTouchTranslator` and on into a `UIWindow`: a drag scrolls and flings, a tap presses
/// a button, a cancel ends the touch, a second finger goes to the surface it touched.
@Suite struct TouchReplayTests {
  enum Step {
    case down(id: Int32, surface: Int, Double, Double)
    case motion(id: Int32, Double, Double)
    case up(id: Int32)
    case cancel
  }

  /// Replays `steps`, one every `interval` seconds from `start`.
  static func replay(_ steps: [Step], start: Double = 0, interval: Double = 0.008) -> [(
    time: Double, surface: Int, event: PlatformEvent
  )] {
    var t = WaylandTouchTranslator<Int>()
    var out: [(Double, Int, PlatformEvent)] = []
    var now = start
    for step in steps {
      switch step {
      case .down(let id, let s, let x, let y):
        let (surface, event) = t.down(id: id, surface: s, at: Point(x: x, y: y))
        out.append((now, surface, event))
      case .motion(let id, let x, let y):
        if let (surface, event) = t.motion(id: id, at: Point(x: x, y: y)) {
          out.append((now, surface, event))
        }
      case .up(let id):
        if let (surface, event) = t.up(id: id) { out.append((now, surface, event)) }
      case .cancel:
        out += t.cancel().map { (now, $0.0, $0.1) }
      }
      now += interval
    }
    return out
  }

  /// A finger drags up the screen 10 points every 8 ms (1250 points per second) and lifts.
  static let drag: [Step] =
    [.down(id: 3, surface: 1, 150, 260)] + (1...16).map { .motion(id: 3, 150, 260 - Double($0) * 10) }
    + [.up(id: 3)]

  @Test func upEndsWhereTheTouchLastWasAndEventsGoToTheirSurfaces() {
    let steps: [Step] = [
      .down(id: 0, surface: 1, 10, 20), .down(id: 1, surface: 2, 5, 5), .motion(id: 0, 12, 30),
      .motion(id: 7, 1, 1),  // unknown touch: nothing
      .up(id: 0), .up(id: 0),  // a second up: nothing
      .motion(id: 1, 6, 9), .cancel, .up(id: 1),
    ]
    let events = Self.replay(steps).map { "\($0.surface) \($0.event)" }
    #expect(
      events == [
        "1 \(PlatformEvent.touchDown(id: 0, at: Point(x: 10, y: 20)))",
        "2 \(PlatformEvent.touchDown(id: 1, at: Point(x: 5, y: 5)))",
        "1 \(PlatformEvent.touchMove(id: 0, at: Point(x: 12, y: 30)))",
        "1 \(PlatformEvent.touchUp(id: 0, at: Point(x: 12, y: 30)))",
        "2 \(PlatformEvent.touchMove(id: 1, at: Point(x: 6, y: 9)))",
        "2 \(PlatformEvent.touchCancel(id: 1))",
      ])
  }

  /// Replays `events` into `window`, rendering 60 frames a second from 1 s to `until`; returns
  /// the scroll view's offsets per frame.
  static func run(
    _ events: [(time: Double, surface: Int, event: PlatformEvent)], in window: UIWindow,
    scroll: UIScrollView?,
    until: Double
  ) throws -> [(time: Double, y: Double)] {
    let surface = try Surface(width: 300, height: 300)
    window.renderFrame(into: surface, time: 0)
    var offsets: [(time: Double, y: Double)] = []
    var next = 0
    var frame = 1.0
    while frame < until {
      while next < events.count && events[next].time <= frame {
        window.dispatch(events[next].event, time: frame)
        next += 1
      }
      window.renderFrame(into: surface, time: frame)
      offsets.append((frame, Double(scroll?.contentOffset.y ?? 0)))
      frame += 1.0 / 60
    }
    return offsets
  }

  @Test func aDragScrollsWithTheFingerThenFlings() throws {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
    let scroll = UIScrollView(frame: window.bounds)
    scroll.contentSize = CGSize(width: 300, height: 8000)
    window.addSubview(scroll)
    let events = Self.replay(Self.drag, start: 1)
    let offsets = try Self.run(events, in: window, scroll: scroll, until: 6)
    let liftTime = events.last!.time
    // While the finger is down the content follows it, from where the drag passed the pan
    // threshold (10 points: the second motion, 20 points down the drag).
    let atLift = offsets.last { $0.time < liftTime }!.y
    let frameBeforeLift = offsets.last { $0.time < liftTime }!.time
    let travelled = 10 * Double(events.filter { $0.time <= frameBeforeLift }.count - 1)
    #expect(travelled >= 140 && atLift == travelled - 20, "moved \(atLift) points, the finger \(travelled)")
    // Then it flings on, never backwards, and settles about 0.4995 v further (v = 1250/s).
    let after = offsets.filter { $0.time >= liftTime }
    #expect(zip(after, after.dropFirst()).allSatisfy { $0.y <= $1.y })
    let rest = offsets.last!.y - atLift
    #expect(rest > 0.6 * 0.4995 * 1250 && rest < 1.25 * 0.4995 * 1250, "the fling went \(rest) points")
    #expect(!scroll.isDecelerating)
  }

  @Test func aTapPressesAButtonAndACancelDoesNot() throws {
    for cancelled in [false, true] {
      let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
      let button = UIButton(frame: CGRect(x: 100, y: 100, width: 120, height: 44))
      window.addSubview(button)
      var taps = 0
      button.addAction(for: .touchUpInside) { taps += 1 }
      let steps: [Step] =
        [.down(id: 9, surface: 1, 150, 120), .motion(id: 9, 152, 121)] + [cancelled ? .cancel : .up(id: 9)]
      _ = try Self.run(Self.replay(steps, start: 1), in: window, scroll: nil, until: 1.2)
      #expect(taps == (cancelled ? 0 : 1))
    }
  }
}
