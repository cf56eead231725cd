import Foundation
import SheenDemo
import SheenKit
import SheenPlatform
import SheenRaster
import Testing

@Suite struct InteractionTests {
  @Test func touchDownSpringsTheButtonTo095AndTouchUpBackTo1() throws {
    let w = makeDemo()
    let card = try #require(firstVisibleCard(w))
    let b = card.button
    let p = center(of: b)
    w.dispatch(down(p), time: 1)
    w.advance(to: 1)
    #expect(b.isHighlighted)
    #expect(b.transform.a == PrimaryButton.pressedScale)  // the model value, at once
    w.advance(to: 1.03)
    let mid = shownScale(b)
    #expect(mid < 1 && mid > 0.95, "mid-animation scale \(mid)")
    #expect(w.isAnimating)
    w.advance(to: 1.5)
    #expect(abs(shownScale(b) - 0.95) < 1e-6)
    #expect(b.layer.shadowRadius < 1)  // the shadow tightened

    w.dispatch(up(p), time: 2)
    w.advance(to: 2)
    w.advance(to: 2.05)
    let back = shownScale(b)
    #expect(back > 0.95 && back < 1.05)
    w.advance(to: 2.6)
    #expect(abs(shownScale(b) - 1) < 1e-6)
    #expect(!w.isAnimating)
    #expect(card.tapCount == 1)
  }

  @Test func aDragThatStartsOnAButtonScrollsAndCancelsIt() throws {
    let w = makeDemo()
    let card = try #require(firstVisibleCard(w))
    let p = center(of: card.button)
    w.dispatch(down(p), time: 1)
    w.advance(to: 1)
    w.dispatch(move(CGPoint(x: p.x, y: p.y - 30)), time: 1.05)
    w.advance(to: 1.05)
    #expect(!card.button.isHighlighted)
    w.dispatch(move(CGPoint(x: p.x, y: p.y - 60)), time: 1.1)
    w.dispatch(up(CGPoint(x: p.x, y: p.y - 60)), time: 1.3)
    w.advance(to: 3)
    #expect(card.tapCount == 0)
    #expect(w.list.contentOffset.y > 20)
    #expect(abs(shownScale(card.button) - 1) < 1e-6)
  }

  @Test func wheelNotchesGlideByTheNotchDistance() {
    let w = makeDemo()
    let p = CGPoint(x: 210, y: 200)
    let notch = CGFloat(PlatformEvent.scrollPointsPerNotch)
    w.dispatch(wheel(notches: 1, at: p), time: 1)
    w.advance(to: 1.1)
    let y = w.list.contentOffset.y
    #expect(y > 0 && y < notch, "mid-glide offset \(y)")
    w.advance(to: 1.5)
    #expect(w.list.contentOffset.y == notch)
    // Notches in quick succession add up.
    w.dispatch(wheel(notches: 1, at: p), time: 2)
    w.dispatch(wheel(notches: 1, at: p), time: 2.05)
    w.advance(to: 2.6)
    #expect(w.list.contentOffset.y == 3 * notch)
    w.dispatch(wheel(notches: -1, at: p), time: 3)
    w.advance(to: 3.5)
    #expect(w.list.contentOffset.y == 2 * notch)
  }

  @Test func aFlingDecaysAsUIScrollViewsNormalDeceleration() {
    let w = makeDemo()
    let x: CGFloat = 30  // the left margin: no button there
    w.dispatch(down(CGPoint(x: x, y: 280)), time: 1)
    for i in 1...6 {
      w.dispatch(move(CGPoint(x: x, y: 280 - CGFloat(i) * 20)), time: 1 + Double(i) / 60)
    }
    w.dispatch(up(CGPoint(x: x, y: 160)), time: 1.1)
    let atRelease = w.list.contentOffset.y
    var samples: [Double] = []
    for k in 0...3 {
      w.advance(to: 1.1 + Double(k) * 0.1)
      samples.append(Double(w.list.contentOffset.y))
    }
    #expect(samples[1] > Double(atRelease) + 50, "the content keeps moving after the release")
    // Distances over equal intervals shrink by 0.998 per millisecond.
    let d1 = samples[2] - samples[1]
    let d2 = samples[3] - samples[2]
    #expect(abs(d2 / d1 - pow(0.998, 100)) < 0.01, "ratio \(d2 / d1)")
    w.advance(to: 8)
    #expect(!w.list.isDecelerating)
    let rest = w.list.contentOffset.y
    w.advance(to: 9)
    #expect(w.list.contentOffset.y == rest)
  }

  @Test func pullingPastTheTopRubberBandsAndSpringsBack() {
    let w = makeDemo()
    let x: CGFloat = 30
    let h = Double(w.list.bounds.height)
    w.dispatch(down(CGPoint(x: x, y: 60)), time: 1)
    w.dispatch(move(CGPoint(x: x, y: 75)), time: 1.02)  // past the pan threshold: the drag begins here
    w.dispatch(move(CGPoint(x: x, y: 275)), time: 1.2)
    w.advance(to: 1.2)
    let shown = -Double(w.list.contentOffset.y)
    // Offsets land on whole pixels (scale 1): the rubber band's value, rounded.
    #expect(abs(shown - rubberBand(200, dimension: h).rounded()) < 1e-9)
    #expect(shown < 200 * 0.55)
    w.dispatch(move(CGPoint(x: x, y: 275)), time: 1.4)
    w.dispatch(up(CGPoint(x: x, y: 275)), time: 1.5)
    w.advance(to: 1.6)
    #expect(w.list.contentOffset.y < 0)
    w.advance(to: 3)
    #expect(w.list.contentOffset.y == 0)
  }

  @Test func keysScrollAndQuit() {
    let w = makeDemo()
    var quits = 0
    w.onQuit = { quits += 1 }
    w.dispatch(key(.end), time: 1)
    w.advance(to: 1)
    w.advance(to: 2)
    let maxY = w.list.contentSize.height - w.list.bounds.height
    #expect(w.list.contentOffset.y == maxY)
    w.dispatch(key(.home), time: 3)
    w.advance(to: 3)
    w.advance(to: 4)
    #expect(w.list.contentOffset.y == 0)
    w.dispatch(key(.pageDown), time: 5)
    w.advance(to: 5)
    w.advance(to: 6)
    #expect(w.list.contentOffset.y == w.list.bounds.height - 40)
    w.dispatch(key(.down), time: 7)
    w.advance(to: 7)
    w.advance(to: 8)
    #expect(w.list.contentOffset.y == w.list.bounds.height)
    w.dispatch(key(.space, " "), time: 9)
    w.advance(to: 9)
    w.advance(to: 10)
    #expect(w.list.contentOffset.y == 2 * w.list.bounds.height - 40)
    #expect(quits == 0)
    w.dispatch(key(.escape), time: 11)
    #expect(quits == 1)
    w.dispatch(key(.q, "q"), time: 12)
    #expect(quits == 2)
    let hidden = w.overlay.isHidden
    w.dispatch(key(.other(0x66), "f"), time: 13)
    #expect(w.overlay.isHidden == !hidden)
  }

  @Test func scriptsAreDeterministic() throws {
    let script = try DemoScript("wait 2, tap-button 0, fling 1800, wait 10, wheel 2")
    func run() throws -> Surface {
      let w = makeDemo(width: 340, height: 480)
      let state = DemoScript.State()
      for n in 0..<40 {
        script.apply(to: w, frame: n, time: Double(n) / 60, state: state)
        w.advance(to: Double(n) / 60)
      }
      #expect(w.cards.tapCount(at: 0) == 1)
      return try render(w, at: 40.0 / 60)
    }
    let a = try run()
    let b = try run()
    var same = true
    for y in 0..<a.height where same {
      for x in 0..<a.width where a[x, y] != b[x, y] {
        same = false
        break
      }
    }
    #expect(same)
    #expect(throws: DemoScript.ParseError.self) { try DemoScript("jump 3") }
  }
}

extension InteractionTests {
  /// A click whose press and release arrive in one frame still springs back and counts.
  @Test func aClickWithinOneFrameSpringsBack() throws {
    let w = makeDemo()
    let card = try #require(firstVisibleCard(w))
    let p = center(of: card.button)
    w.dispatch(down(p), time: 1)
    w.dispatch(up(p), time: 1)
    w.advance(to: 1)
    w.advance(to: 2)
    #expect(abs(shownScale(card.button) - 1) < 1e-6)
    #expect(card.tapCount == 1)
  }
}

extension InteractionTests {
  /// Script numbers are finite decimals within documented maxima, and a script spans a bounded
  /// number of frames: `wait 1e9` or `wheel 100000000` would hold gigabytes of frames.
  @Test func scriptsRefuseNumbersOutOfRange() throws {
    for bad in [
      "wait nan", "wait inf", "wait 1e300", "wait -1", "wait 2.5", "wait 1e9", "wait 36001", "wheel -1e19",
      "wheel 100000000", "wheel -9223372036854775808", "tap-button nan", "tap-button -1", "fling 1e300",
      "steady -inf", "drag nan", "press 1", "press 1 nan", "move 0x10 4", "wait 5 6", "release 1", "key",
      "key home end", "wait 30000, wait 6001", String(repeating: "wait 0,", count: 600),
    ] {
      #expect(throws: DemoScript.ParseError.self, "\(bad)") { try DemoScript(bad) }
    }
    let longest = try DemoScript("wait 36000")
    #expect(longest.length == DemoScript.maxFrames)
    #expect(
      try DemoScript("wheel -1000, fling -100000, press 3.5 -2e3, steady 1e5, tap-button 10000").length > 1000
    )
    do {
      _ = try DemoScript("wait 5, wheel 1e19")
      Issue.record("accepted")
    } catch {
      #expect(error.step == "wheel 1e19")
      #expect(error.problem == "wheel takes a whole number of notches from -1000 to 1000")
    }
  }
}
