import Foundation
import Testing

@testable import SheenKit

@Suite struct AnimationTests {
  /// Closed-form progress of an under-damped spring from 0 to 1 at rest, with SheenKit's stated
  /// frequency `ω₀ = ln(1000) / (ζ·D)`, computed here independently of `SpringCurve`.
  private func springProgress(_ t: Double, damping z: Double, duration d: Double) -> Double {
    let w0 = log(1000.0) / (z * d)
    let wd = w0 * (1 - z * z).squareRoot()
    return 1 - exp(-z * w0 * t) * (cos(wd * t) + z * w0 / wd * sin(wd * t))
  }

  @Test func reanimatingToTheValueOnScreenStopsTheRunningAnimation() throws {
    let (window, surface) = try makeWindow()
    let button = UIView(frame: CGRect(x: 50, y: 50, width: 100, height: 40))
    window.addSubview(button)
    window.renderFrame(into: surface, time: 0)
    // A press and a release in the same frame: shrink, then grow back before anything moved.
    UIView.animate(withDuration: 0.4) { button.transform = CGAffineTransform(scaleX: 0.95, y: 0.95) }
    UIView.animate(withDuration: 0.4) { button.transform = .identity }
    for i in 1...60 { window.advance(to: Double(i) / 60) }
    #expect(button.transform == .identity)
    #expect(button.layer.sheenLayer.transform.scaleX == 1)
  }

  @Test func springScaleOvershootsAndSettles() throws {
    let (window, surface) = try makeWindow()
    let button = UIView(frame: CGRect(x: 50, y: 50, width: 100, height: 40))
    window.addSubview(button)
    window.renderFrame(into: surface, time: 0)
    var finished: Bool?
    UIView.animate(
      withDuration: 0.4, delay: 0, usingSpringWithDamping: 0.5, initialSpringVelocity: 0, options: [],
      animations: { button.transform = CGAffineTransform(scaleX: 0.95, y: 0.95) },
      completion: { finished = $0 })
    // The model changes at once; the screen starts from where it was.
    #expect(button.transform == CGAffineTransform(scaleX: 0.95, y: 0.95))
    #expect(button.layer.sheenLayer.transform.scaleX == 1)
    let start = 1.0
    window.advance(to: start)  // the first frame begins the animation
    var lowest = 1.0
    for i in 1...39 {
      let t = Double(i) / 100
      window.advance(to: start + t)
      let shown = button.layer.sheenLayer.transform.scaleX
      let expected = 1 + (0.95 - 1) * springProgress(t, damping: 0.5, duration: 0.4)
      #expect(close(shown, expected, 1e-9), "t=\(t)")
      #expect(close(button.layer.sheenLayer.transform.scaleY, expected, 1e-9))
      lowest = min(lowest, shown)
    }
    // It overshoots past 0.95 (a damping ratio of 0.5 overshoots by e^(-π·0.5/√0.75) ≈ 16%).
    #expect(lowest < 0.95 - 0.05 * 0.15)
    #expect(finished == nil)
    window.advance(to: start + 0.4)
    #expect(button.layer.sheenLayer.transform.scaleX == 0.95)
    #expect(finished == true)
    #expect(!window.isAnimating)
  }

  @Test func easeInEaseOutIsCoreAnimationsBezier() {
    let c = CubicTimingCurve.easeInEaseOut
    #expect(close(c.value(at: 0.5), 0.5, 1e-9))
    // Points on the curve computed from its parametric form.
    for s in [0.1, 0.25, 0.4, 0.7, 0.9] {
      let u = 1 - s
      let x = 3 * u * u * s * 0.42 + 3 * u * s * s * 0.58 + s * s * s
      let y = 3 * u * s * s + s * s * s
      #expect(close(c.value(at: x), y, 1e-9), "s=\(s)")
    }
    #expect(c.value(at: 0) == 0 && c.value(at: 1) == 1)
  }

  @Test func blockAnimationInterpolatesOnTheFrameClock() throws {
    let (window, surface) = try makeWindow()
    let v = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
    v.backgroundColor = .black
    window.addSubview(v)
    window.renderFrame(into: surface, time: 0)
    UIView.animate(
      withDuration: 1, delay: 0, options: [],
      animations: {
        v.alpha = 0
        v.frame = CGRect(x: 100, y: 0, width: 50, height: 50)
        v.backgroundColor = .white
        v.layer.shadowOpacity = 1
      })
    #expect(v.alpha == 0 && v.frame.minX == 100 && v.layer.shadowOpacity == 1)
    window.renderFrame(into: surface, time: 2)
    #expect(v.layer.sheenLayer.opacity == 1)
    window.renderFrame(into: surface, time: 2.5)
    #expect(close(v.layer.sheenLayer.opacity, 0.5))
    #expect(close(v.layer.sheenLayer.frame.minX, 50))
    #expect(close(v.layer.sheenLayer.shadowOpacity, 0.5))
    #expect(close(v.layer.sheenLayer.backgroundColor!.red, 0.5))
    #expect(window.isAnimating)
    window.renderFrame(into: surface, time: 3)
    #expect(v.layer.sheenLayer.opacity == 0 && v.layer.sheenLayer.frame.minX == 100)
    #expect(!window.isAnimating)
  }

  @Test func delayAndCurveOptions() throws {
    let (window, _) = try makeWindow()
    let v = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    window.addSubview(v)
    UIView.animate(withDuration: 1, delay: 0.5, options: [.curveLinear], animations: { v.alpha = 0 })
    window.advance(to: 10)
    window.advance(to: 10.4)
    #expect(v.layer.sheenLayer.opacity == 1)
    window.advance(to: 10.75)
    #expect(close(v.layer.sheenLayer.opacity, 0.75))
  }

  @Test func zeroDurationAppliesAtOnceAndCompletes() {
    let v = UIView(frame: .zero)
    var done = false
    UIView.animate(withDuration: 0, animations: { v.alpha = 0.3 }, completion: { done = $0 })
    #expect(done && v.layer.sheenLayer.opacity == 0.3)
  }
}
