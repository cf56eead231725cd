import Foundation
import Testing

@testable import SheenKit

@Suite struct ScrollViewTests {
  private func setUp() throws -> (UIWindow, UIScrollView, UIView) {
    let (window, surface) = try makeWindow()
    let scroll = UIScrollView(frame: window.bounds)
    scroll.contentSize = CGSize(width: 200, height: 2000)
    let content = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 2000))
    scroll.addSubview(content)
    window.addSubview(scroll)
    window.renderFrame(into: surface, time: 0)
    return (window, scroll, content)
  }

  @Test func flingDecaysByPointNineNineEightPerMillisecond() throws {
    let (window, scroll, _) = try setUp()
    // Drag up at 600 points per second: 10 points every 1/60 s.
    window.dispatch(down(100, 150), time: 0)
    for k in 1...6 { window.dispatch(move(100, 150 - 10 * Double(k)), time: Double(k) / 60) }
    window.dispatch(up(100, 90), time: 0.1)
    // The pan began after 20 points (past the 10-point threshold), so the offset is 40.
    #expect(scroll.contentOffset.y == 40)
    #expect(scroll.isDecelerating)
    let k = 1000 * log(0.998)
    for dt in [0.2, 0.5] {
      window.advance(to: 0.1 + dt)
      let expected = 40 + 600 * (pow(0.998, 1000 * dt) - 1) / k
      // As in UIKit, the offset shown is the physics' value rounded to whole pixels (scale 1).
      #expect(close(scroll.contentOffset.y, expected.rounded()), "dt=\(dt)")
    }
    // At rest after about 40 + 600 · 0.4995 ≈ 339.7 points.
    window.advance(to: 10)
    #expect(!scroll.isDecelerating)
    #expect(close(scroll.contentOffset.y, 40 - 600 / k, 0.5))
  }

  @Test func dragPastTheTopRubberBandsAndSpringsBack() throws {
    let (window, scroll, content) = try setUp()
    window.dispatch(down(100, 50), time: 0)
    window.dispatch(move(100, 70), time: 0.05)  // the pan begins here
    window.dispatch(move(100, 170), time: 0.1)  // 100 points past the top
    let d = 200.0
    let expected = -(1 - 1 / (100 * 0.55 / d + 1)) * d
    #expect(close(scroll.contentOffset.y, expected.rounded()))
    // The content moved without a new layout: its frame is unchanged, its layer shifted.
    #expect(content.frame.minY == 0)
    #expect(close(scroll.contentLayer.frame.minY, -expected.rounded()))
    // Released after holding still: no velocity, straight back.
    window.dispatch(up(100, 170), time: 0.3)
    #expect(scroll.isDecelerating)
    window.advance(to: 0.4)
    let y = Double(scroll.contentOffset.y)
    #expect(y < 0)
    #expect(y > expected)
    window.advance(to: 3)
    #expect(scroll.contentOffset.y == 0)
    // The scroll indicator fades for 0.65 s after the bounce ends.
    window.advance(to: 4)
    #expect(!window.isAnimating)
  }

  @Test func offsetsAreRoundedToWholePixelsOfTheWindowScale() throws {
    let (window, scroll, content) = try setUp()
    scroll.contentOffset = CGPoint(x: 0, y: 10.3)
    #expect(scroll.contentOffset.y == 10)
    window.scale = 2
    scroll.contentOffset = CGPoint(x: 0.2, y: 10.3)
    #expect(scroll.contentOffset == CGPoint(x: 0, y: 10.5))
    window.scale = 3
    scroll.contentOffset = CGPoint(x: 0, y: 10.3)
    #expect(close(scroll.contentOffset.y, 31.0 / 3, 1e-12))
    // The content's layer lands on the pixel grid: device y = -10.333… · 3 = -31.
    #expect(close(scroll.contentLayer.frame.minY * 3, -31, 1e-9))
    #expect(content.frame.minY == 0)
  }

  @Test func rubberBandFormula() {
    #expect(close(rubberBand(100, dimension: 200), (1 - 1 / (100 * 0.55 / 200 + 1)) * 200))
    #expect(close(inverseRubberBand(rubberBand(37, dimension: 300), dimension: 300), 37, 1e-9))
  }

  @Test func wheelNotchGlidesByItsDistance() throws {
    let (window, scroll, _) = try setUp()
    window.dispatch(.scroll(delta: .init(0, 48), at: .init(100, 100), modifiers: []), time: 1)
    window.advance(to: 1.1)
    let half = 48 * CubicTimingCurve.easeOut.value(at: 0.5)
    #expect(close(scroll.contentOffset.y, half.rounded()))
    window.advance(to: 1.3)
    #expect(scroll.contentOffset.y == 48)
    // Two quick notches add up; the wheel never passes the end.
    window.dispatch(.scroll(delta: .init(0, 48), at: .init(100, 100), modifiers: []), time: 2)
    window.dispatch(.scroll(delta: .init(0, 48), at: .init(100, 100), modifiers: []), time: 2.05)
    window.advance(to: 3)
    #expect(scroll.contentOffset.y == 144)
    window.dispatch(.scroll(delta: .init(0, -480), at: .init(100, 100), modifiers: []), time: 4)
    window.advance(to: 5)
    #expect(scroll.contentOffset.y == 0)
  }

  @Test func keysAndAnimatedOffsets() throws {
    let (window, scroll, _) = try setUp()
    window.keyboardScrollView = scroll
    window.dispatch(.keyDown(.end, text: "", modifiers: []), time: 1)
    window.advance(to: 1)
    window.advance(to: 2)
    #expect(scroll.contentOffset.y == 1800)
    scroll.setContentOffset(CGPoint(x: 0, y: 100), animated: false)
    #expect(scroll.contentOffset.y == 100)
  }

  @Test func layerSublayersListOnlyTheContent() throws {
    let (_, scroll, content) = try setUp()
    let subs = try #require(scroll.layer.sublayers)
    #expect(subs.count == 1 && subs[0] === content.layer)
    #expect(content.layer.superlayer === scroll.layer)
  }
}
