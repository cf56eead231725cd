import Foundation
import SheenPlatform
import SheenRaster
import Testing

@testable import SheenKit

/// Touchpad scrolling (`smoothScroll`) and touch screens (`touch*`) through `UIWindow`.
@Suite struct TouchpadAndTouchTests {
  private func setUp() throws -> (UIWindow, UIScrollView, UIButton) {
    let (window, surface) = try makeWindow()
    let scroll = UIScrollView(frame: window.bounds)
    scroll.contentSize = CGSize(width: 200, height: 4000)
    let button = UIButton(frame: CGRect(x: 20, y: 20, width: 80, height: 40))
    scroll.addSubview(button)
    window.addSubview(scroll)
    window.renderFrame(into: surface, time: 0)
    return (window, scroll, button)
  }

  private func smooth(_ dy: Double) -> PlatformEvent {
    .smoothScroll(delta: Point(x: 0, y: dy), at: Point(x: 150, y: 150), modifiers: [])
  }

  @Test func touchpadScrollFollowsTheFingersExactlyThenFlings() throws {
    let (window, scroll, _) = try setUp()
    // 30 events 10 ms apart, 6 points each: 600 points per second.
    for k in 1...30 { window.dispatch(smooth(6), time: Double(k) / 100) }
    #expect(scroll.contentOffset.y == 180)
    #expect(scroll.isDragging && !scroll.isDecelerating)
    // The fingers lift: (X11 says so 0.1 s after the last movement).
    window.dispatch(.smoothScrollEnded(at: Point(x: 150, y: 150)), time: 0.4)
    #expect(scroll.isDecelerating && !scroll.isDragging)
    // The fling starts at the velocity of the last 0.1 s (600 pt/s) and decays as UIScrollView's.
    let k = 1000 * log(0.998)
    window.advance(to: 0.6)
    #expect(close(scroll.contentOffset.y, (180 + 600 * (pow(0.998, 200) - 1) / k).rounded()))
    window.advance(to: 10)
    #expect(!scroll.isDecelerating)
    #expect(close(scroll.contentOffset.y, 180 - 600 / k, 0.5))
  }

  @Test func restingFingersDoNotFlingAndTheEndsRubberBand() throws {
    let (window, scroll, _) = try setUp()
    for k in 1...10 { window.dispatch(smooth(5), time: Double(k) / 100) }
    // Lifted half a second after the last movement: the content stays.
    window.dispatch(.smoothScrollEnded(at: Point(x: 150, y: 150)), time: 0.6)
    #expect(scroll.contentOffset.y == 50)
    #expect(!scroll.isDecelerating)
    // Past the top, the content follows with the rubber band and springs back when lifted.
    for k in 1...10 { window.dispatch(smooth(-15), time: 1 + Double(k) / 100) }
    let d = 200.0
    #expect(close(scroll.contentOffset.y, (-(1 - 1 / (100 * 0.55 / d + 1)) * d).rounded()))
    window.dispatch(.smoothScrollEnded(at: Point(x: 150, y: 150)), time: 1.2)
    window.advance(to: 4)
    #expect(scroll.contentOffset.y == 0)
    // The scroll indicator fades for 0.65 s after the bounce ends.
    window.advance(to: 5)
    #expect(!window.isAnimating)
  }

  @Test func aTouchScreenDragsFlingsAndTapsButtons() throws {
    let (window, scroll, button) = try setUp()
    var taps = 0
    _ = button.addAction(for: .touchUpInside) { taps += 1 }
    // A tap on the button, by finger 7.
    window.dispatch(.touchDown(id: 7, at: Point(x: 50, y: 40)), time: 0)
    window.dispatch(.touchUp(id: 7, at: Point(x: 51, y: 41)), time: 0.08)
    #expect(taps == 1)
    // A second finger while the first is down is not a second touch.
    window.dispatch(.touchDown(id: 1, at: Point(x: 150, y: 190)), time: 1)
    window.dispatch(.touchDown(id: 2, at: Point(x: 10, y: 10)), time: 1.01)
    for k in 1...6 {
      window.dispatch(.touchMove(id: 1, at: Point(x: 150, y: 190 - 10 * Double(k))), time: 1 + Double(k) / 60)
    }
    window.dispatch(.touchMove(id: 2, at: Point(x: 10, y: 100)), time: 1.11)  // ignored
    window.dispatch(.touchUp(id: 2, at: Point(x: 10, y: 100)), time: 1.11)  // ignored
    #expect(scroll.contentOffset.y == 40)
    window.dispatch(.touchUp(id: 1, at: Point(x: 150, y: 130)), time: 1.1)
    #expect(scroll.isDecelerating)
    window.advance(to: 10)
    #expect(scroll.contentOffset.y > 300)
    #expect(taps == 1)
    // A cancelled touch undoes the press: no action.
    scroll.setContentOffset(.zero, animated: false)
    window.dispatch(.touchDown(id: 3, at: Point(x: 50, y: 40)), time: 11)
    #expect(button.isHighlighted)
    window.dispatch(.touchCancel(id: 3), time: 11.05)
    #expect(!button.isHighlighted)
    window.dispatch(.touchUp(id: 3, at: Point(x: 50, y: 40)), time: 11.1)
    #expect(taps == 1)
  }
}

@Suite struct PlatformScaleTests {
  @Test func aScaleChangeKeepsThePixelsUntilTheResizeThatFollows() throws {
    let (window, _) = try makeWindow(width: 200, height: 100)
    window.dispatch(.scaleChange(2), time: 0)
    #expect(window.scale == 2 && window.bounds.size == CGSize(width: 100, height: 50))
    window.dispatch(.resize(PixelSize(width: 400, height: 200)), time: 0)
    #expect(window.bounds.size == CGSize(width: 200, height: 100))
    // A scale the user chose stays.
    window.followsPlatformScale = false
    window.dispatch(.scaleChange(1), time: 0)
    #expect(window.scale == 2)
    // Nonsense is ignored.
    window.followsPlatformScale = true
    window.dispatch(.scaleChange(0), time: 0)
    window.dispatch(.scaleChange(.nan), time: 0)
    #expect(window.scale == 2)
  }
}
