import Foundation
import SheenPlatform
import SheenRaster
import Testing

@testable import SheenKit

/// Scroll indicators: where they are (worked out by hand from the rule in
/// `verticalScrollIndicatorFrame`'s documentation: 3-point pills 3 points inside the edges and
/// the indicator insets, the track times the visible fraction, at least 36 points, shrinking past
/// the ends), when they show and how they fade, and what they draw.
@Suite struct ScrollIndicatorTests {
  /// A 200 × 200 window filled by a scroll view over white content of `content` points.
  private func setUp(content: CGSize = CGSize(width: 200, height: 2000)) throws -> (
    UIWindow, UIScrollView, Surface
  ) {
    let (window, surface) = try makeWindow()
    let scroll = UIScrollView(frame: window.bounds)
    scroll.contentSize = content
    let view = UIView(frame: CGRect(origin: .zero, size: content))
    view.backgroundColor = .white
    scroll.addSubview(view)
    window.addSubview(scroll)
    window.renderFrame(into: surface, time: 0)
    return (window, scroll, surface)
  }

  @Test func lengthAndPositionFollowTheContent() throws {
    let (_, scroll, _) = try setUp()
    // Track 3...197 (194 points); 200 of 2000 points show: 19.4, so the 36-point minimum.
    #expect(scroll.verticalScrollIndicatorFrame == CGRect(x: 194, y: 3, width: 3, height: 36))
    #expect(scroll.horizontalScrollIndicatorFrame == nil, "the content fits across")
    // Halfway along the 1800-point range: halfway along the 158 points of travel.
    scroll.contentOffset = CGPoint(x: 0, y: 900)
    #expect(scroll.verticalScrollIndicatorFrame == CGRect(x: 194, y: 82, width: 3, height: 36))
    scroll.contentOffset = CGPoint(x: 0, y: 1800)
    #expect(scroll.verticalScrollIndicatorFrame == CGRect(x: 194, y: 161, width: 3, height: 36))
    // A shorter content: 194 · 200 / 400 = 97 points; a quarter of the 200-point range down.
    scroll.contentSize = CGSize(width: 200, height: 400)
    scroll.contentOffset = CGPoint(x: 0, y: 50)
    #expect(scroll.verticalScrollIndicatorFrame == CGRect(x: 194, y: 3 + 24, width: 3, height: 97))
    // Content that fits shows no indicator; nor does one turned off.
    scroll.contentSize = CGSize(width: 200, height: 200)
    #expect(scroll.verticalScrollIndicatorFrame == nil)
    scroll.contentSize = CGSize(width: 200, height: 400)
    scroll.showsVerticalScrollIndicator = false
    #expect(scroll.verticalScrollIndicatorFrame == nil)
  }

  @Test func pastTheEndsItShrinksAgainstThem() throws {
    let (_, scroll, _) = try setUp()
    scroll.contentOffset = CGPoint(x: 0, y: -20)
    #expect(scroll.verticalScrollIndicatorFrame == CGRect(x: 194, y: 3, width: 3, height: 16))
    scroll.contentOffset = CGPoint(x: 0, y: -100)
    #expect(scroll.verticalScrollIndicatorFrame == CGRect(x: 194, y: 3, width: 3, height: 6))
    scroll.contentOffset = CGPoint(x: 0, y: 1810)
    #expect(scroll.verticalScrollIndicatorFrame == CGRect(x: 194, y: 197 - 26, width: 3, height: 26))
  }

  @Test func insetsContentInsetsBothAxesAndPixels() throws {
    let (window, scroll, _) = try setUp(content: CGSize(width: 1000, height: 2000))
    // Both scroll: each stops 6 points short of the corner; the horizontal one runs along the
    // bottom, 194 points down.
    #expect(scroll.verticalScrollIndicatorFrame == CGRect(x: 194, y: 3, width: 3, height: 36))
    // Across: track 3...191 (188); 200 of 1000 shows: 37.6 points, on whole pixels 38.
    #expect(scroll.horizontalScrollIndicatorFrame == CGRect(x: 3, y: 194, width: 38, height: 3))
    scroll.horizontalScrollIndicatorInsets = UIEdgeInsets(top: 0, left: 10, bottom: 8, right: 0)
    #expect(scroll.horizontalScrollIndicatorFrame?.origin == CGPoint(x: 13, y: 186))
    // The indicator insets move the track; the old name sets both.
    scroll.scrollIndicatorInsets = UIEdgeInsets(top: 10, left: 0, bottom: 20, right: 5)
    #expect(scroll.horizontalScrollIndicatorInsets == scroll.verticalScrollIndicatorInsets)
    // Track 13...(200 - 20 - 3 - 6 = 171): 158 points; x = 200 - 5 - 3 - 3.
    #expect(scroll.verticalScrollIndicatorFrame == CGRect(x: 189, y: 13, width: 3, height: 36))
    // A content inset adds to the range: at -50 (the top of the inset) the indicator is at the
    // top of its track, at 975 (halfway along -50...2000) halfway.
    scroll.contentSize = CGSize(width: 200, height: 2000)
    scroll.scrollIndicatorInsets = .zero
    scroll.contentInset = UIEdgeInsets(top: 50, left: 0, bottom: 0, right: 0)
    scroll.contentOffset = CGPoint(x: 0, y: -50)
    #expect(scroll.verticalScrollIndicatorFrame?.minY == 3)
    scroll.contentOffset = CGPoint(x: 0, y: 875)
    #expect(scroll.verticalScrollIndicatorFrame?.minY == 82)
    // Edges on whole pixels of the window's scale: 1 point down moves it 158/1850 of a point,
    // which is 0 pixels at scale 1 and at scale 2, and a pixel at 1/0.0854… ≈ 6 points.
    scroll.contentOffset = CGPoint(x: 0, y: -49)
    #expect(scroll.verticalScrollIndicatorFrame?.minY == 3)
    window.scale = 2
    scroll.contentOffset = CGPoint(x: 0, y: -47)
    #expect(scroll.verticalScrollIndicatorFrame?.minY == 3.5)
    #expect(scroll.verticalScrollIndicatorFrame?.height == 36)
  }

  @Test func aDragShowsThemAndTheyFadeAfterItStops() throws {
    let (window, scroll, surface) = try setUp()
    // Code moving the offset shows nothing, as in UIKit.
    scroll.contentOffset = CGPoint(x: 0, y: 100)
    window.renderFrame(into: surface, time: 0.1)
    #expect(scroll.scrollIndicatorVisibility == 0 && scroll.indicators.vertical.isHidden)
    // A drag: shown as soon as the content moves.
    window.dispatch(down(100, 150), time: 1)
    window.dispatch(move(100, 130), time: 1.05)
    window.dispatch(move(100, 100), time: 1.1)
    #expect(scroll.isDragging)
    #expect(scroll.scrollIndicatorVisibility == 1 && !scroll.indicators.vertical.isHidden)
    let f = try #require(scroll.verticalScrollIndicatorFrame)
    #expect(scroll.indicators.vertical.frame == Rect(x: f.minX, y: f.minY, width: f.width, height: f.height))
    #expect(scroll.indicators.vertical.cornerRadius == 1.5)
    // Holding still: still shown, and no frames are asked for.
    window.renderFrame(into: surface, time: 2)
    #expect(scroll.scrollIndicatorVisibility == 1 && !window.isAnimating)
    // Lifted after resting (no fling) at 3: held for 0.35 s, then 0.3 s of fade.
    window.dispatch(up(100, 100), time: 3)
    #expect(!scroll.isDecelerating && window.isAnimating)
    window.renderFrame(into: surface, time: 3.3)
    #expect(scroll.scrollIndicatorVisibility == 1)
    window.renderFrame(into: surface, time: 3.5)
    #expect(close(scroll.scrollIndicatorVisibility, 0.5, 1e-9))
    #expect(scroll.indicators.vertical.backgroundColor.map { close($0.alpha, 0.175, 1e-9) } == true)
    // A new drag during the fade shows them fully again.
    window.dispatch(down(100, 150), time: 3.52)
    window.dispatch(move(100, 170), time: 3.55)
    window.dispatch(move(100, 180), time: 3.56)
    #expect(scroll.scrollIndicatorVisibility == 1)
    window.dispatch(up(100, 180), time: 4)
    window.renderFrame(into: surface, time: 4.6)
    #expect(scroll.scrollIndicatorVisibility > 0)
    window.renderFrame(into: surface, time: 4.66)
    // Gone: hidden layers, nothing moving, frames no longer asked for.
    #expect(scroll.scrollIndicatorVisibility == 0 && scroll.indicators.vertical.isHidden)
    #expect(!window.isAnimating)
  }

  @Test func aFlingKeepsThemUntilItStopsAndWheelsAndFlashShowThem() throws {
    let (window, scroll, surface) = try setUp()
    window.dispatch(down(100, 150), time: 0)
    for k in 1...6 { window.dispatch(move(100, 150 - 10 * Double(k)), time: Double(k) / 60) }
    window.dispatch(up(100, 90), time: 0.1)
    #expect(scroll.isDecelerating)
    var t = 0.1
    while scroll.isDecelerating && t < 10 {
      #expect(scroll.scrollIndicatorVisibility == 1)
      t += 1.0 / 60
      window.renderFrame(into: surface, time: t)
    }
    // The fling ended at t: the hold starts there.
    window.renderFrame(into: surface, time: t + 0.34)
    #expect(scroll.scrollIndicatorVisibility == 1)
    window.renderFrame(into: surface, time: t + 0.5)
    #expect(close(scroll.scrollIndicatorVisibility, 0.5, 1e-6))
    window.renderFrame(into: surface, time: t + 0.7)
    #expect(scroll.scrollIndicatorVisibility == 0 && !window.isAnimating)
    // A wheel notch glides for 0.2 s: shown, then held and faded from the glide's end (frames
    // at 60 Hz from 20 s).
    window.dispatch(.scroll(delta: Point(x: 0, y: 40), at: Point(x: 100, y: 100), modifiers: []), time: 20)
    var visibility: [Int: Double] = [:]
    for frame in 1...60 {
      window.renderFrame(into: surface, time: 20 + Double(frame) / 60)
      visibility[frame] = scroll.scrollIndicatorVisibility
    }
    // Frames 1-12 glide, the glide ends at frame 12 or 13; the fade runs from 0.35 s later.
    #expect((1...33).allSatisfy { visibility[$0] == 1 }, "\(visibility.sorted { $0.key < $1.key })")
    #expect(visibility[42].map { $0 > 0 && $0 < 1 } == true)
    #expect(visibility[60] == 0)
    // flashScrollIndicators: shown now, faded as after a scroll, from the next frame's time.
    scroll.flashScrollIndicators()
    #expect(scroll.scrollIndicatorVisibility == 1 && window.isAnimating)
    window.renderFrame(into: surface, time: 30)
    window.renderFrame(into: surface, time: 30.5)
    #expect(close(scroll.scrollIndicatorVisibility, 0.5, 1e-9))
    window.renderFrame(into: surface, time: 30.75)
    #expect(scroll.scrollIndicatorVisibility == 0)
  }

  /// The pixels: a pill of black at 35% over the white content (255 · 0.65 ≈ 166), with
  /// anti-aliased round ends, at the frame the geometry gives; half as dark halfway through the
  /// fade; white again once faded. The white style draws nothing visible on white.
  @Test func whatTheyDraw() throws {
    let (window, scroll, surface) = try setUp()
    window.dispatch(down(100, 150), time: 0)
    window.dispatch(move(100, 130), time: 0.05)
    window.dispatch(move(100, 100), time: 0.1)
    window.renderFrame(into: surface, time: 0.1)
    let f = try #require(scroll.verticalScrollIndicatorFrame)
    func red(_ x: Int, _ y: Int) -> Int { Int((surface[x, y] >> 16) & 0xFF) }
    let x = Int(f.midX)
    let mid = Int(f.midY)
    #expect(abs(red(x, mid) - 166) <= 1, "\(red(x, mid))")
    #expect(red(x - 2, mid) == 255 && red(x + 2, mid) == 255, "one point beside the pill: content")
    #expect(red(x, Int(f.minY) - 1) == 255 && red(x, Int(f.maxY)) == 255)
    // Round ends: the end pixel row is lighter than the middle.
    #expect(red(x, Int(f.minY)) > red(x, mid))
    window.dispatch(up(100, 100), time: 1)
    window.renderFrame(into: surface, time: 1.5)
    // 35% · 0.5 of black: 255 · 0.825 ≈ 210.
    #expect(abs(red(x, mid) - 210) <= 1, "\(red(x, mid))")
    window.renderFrame(into: surface, time: 2)
    #expect(red(x, mid) == 255)
    scroll.indicatorStyle = .white
    scroll.flashScrollIndicators()
    window.renderFrame(into: surface, time: 3)
    #expect(!scroll.indicators.vertical.isHidden && red(x, mid) == 255)
  }
}
