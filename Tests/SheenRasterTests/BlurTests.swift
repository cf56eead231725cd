import Foundation
import Testing

@testable import SheenRaster

/// Gaussian blur of alpha masks: width (second moment), mass, profile, and edge cases.
@Suite struct BlurTests {
  /// A mask with a centred `side` x `side` square of 255, `pad` zeros on each side.
  func square(side: Int, pad: Int) throws -> AlphaMask {
    let m = try AlphaMask(width: side + 2 * pad, height: side + 2 * pad, originX: 5, originY: -3)
    for y in pad..<(pad + side) { (m.row(y) + pad).update(repeating: 255, count: side) }
    return m
  }

  /// The centroid and the variance along x and y of a mask's values.
  func moments(_ m: AlphaMask) -> (cx: Double, cy: Double, vx: Double, vy: Double) {
    var s0 = 0.0
    var sx = 0.0
    var sy = 0.0
    var sxx = 0.0
    var syy = 0.0
    for y in 0..<m.height {
      for x in 0..<m.width {
        let v = Double(m[x, y])
        s0 += v
        sx += v * Double(x)
        sy += v * Double(y)
        sxx += v * Double(x * x)
        syy += v * Double(y * y)
      }
    }
    let cx = sx / s0
    let cy = sy / s0
    return (cx, cy, sxx / s0 - cx * cx, syy / s0 - cy * cy)
  }

  /// The filter's own standard deviation (from its weights, no 8-bit rounding) is within 0.5%
  /// of the one asked for, across a dense sweep.
  @Test func planVarianceMatchesSigma() {
    var sigma = 0.5
    while sigma <= 60 {
      let plan = BlurPlan(sigma: sigma)
      let error = abs(plan.effectiveSigma / sigma - 1)
      #expect(error < 0.005, "sigma \(sigma): effective \(plan.effectiveSigma)")
      sigma += sigma < 4 ? 0.05 : 0.37
    }
  }

  /// The second moment of a blurred impulse gives back sigma within 3%, through the whole 8-bit
  /// pipeline. From sigma 1 on, a single 255 spreads into values that 8-bit rounding distorts
  /// (at sigma 2 its peak is 10 and most of its tail rounds to 0), so the impulse is a small
  /// square whose own variance, (side^2 - 1) / 12, is subtracted.
  @Test(arguments: [0.5, 1, 1.5, 2, 3, 5, 10, 20])
  func impulseSecondMomentGivesSigma(_ sigma: Double) throws {
    let side = sigma < 1 ? 1 : 2 * Int(sigma.rounded(.up)) + 1
    let src = try square(side: side, pad: 2)
    let out = try src.blurred(sigma: sigma)
    let margin = AlphaMask.blurMargin(sigma: sigma)
    #expect(out.width == src.width + 2 * margin && out.height == src.height + 2 * margin)
    #expect(out.originX == src.originX - margin && out.originY == src.originY - margin)
    let m = moments(out)
    let own = Double(side * side - 1) / 12
    let centre = Double(out.width - 1) / 2
    #expect(abs(m.cx - centre) < 0.01 && abs(m.cy - centre) < 0.01)
    for v in [m.vx, m.vy] {
      let measured = (v - own).squareRoot()
      #expect(abs(measured / sigma - 1) < 0.03, "sigma \(sigma): measured \(measured)")
    }
    // Rounding each value to 8 bits moves the total by a few units at most.
    let slack = max(0.005 * Double(src.total), 3)
    #expect(abs(Double(out.total - src.total)) <= slack, "sigma \(sigma): \(out.total) vs \(src.total)")
  }

  /// The sum of the values survives the blur (up to rounding each value).
  @Test(arguments: [0.5, 1, 1.5, 2, 3, 5, 10, 20])
  func totalIsConserved(_ sigma: Double) throws {
    // Values that spread below 1/2 round to 0: give the content enough extent for its sigma.
    let side = max(30, Int(3 * sigma))
    let src = try AlphaMask(width: side, height: side * 2 / 3)
    for y in 0..<src.height {
      for x in 0..<src.width { src[x, y] = UInt8((x * x * 7 + y * 29) % 256) }
    }
    let out = try src.blurred(sigma: sigma)
    let ratio = Double(out.total) / Double(src.total)
    #expect(abs(ratio - 1) < 0.005, "sigma \(sigma): total ratio \(ratio)")
  }

  /// Far from every other edge, a blurred half-plane follows the Gaussian's integral (erf).
  @Test func halfPlaneEdgeFollowsErf() throws {
    let sigma = 10.0
    let src = try AlphaMask(width: 160, height: 100)
    for y in 0..<src.height { src.row(y).update(repeating: 255, count: 80) }
    let out = try src.blurred(sigma: sigma)
    let margin = AlphaMask.blurMargin(sigma: sigma)
    var worst = 0.0
    for y in [margin + 45, margin + 50, margin + 55] {
      for x in (margin + 40)..<(margin + 120) {
        // Pixel x of the source holds 255 for x < 80: the blur at x sums the kernel over
        // offsets >= x - 79, which for a Gaussian is Phi((79.5 - x) / sigma).
        let d = (79.5 - Double(x - margin)) / sigma
        let expected = 255 * 0.5 * erfc(-d / 2.0.squareRoot())
        worst = max(worst, abs(Double(out[x, y]) - expected))
      }
    }
    #expect(worst <= 4, "worst difference \(worst)")
  }

  /// Blurring in place gives exactly the middle of the grown result (same arithmetic).
  @Test(arguments: [0.7, 4.5])
  func inPlaceMatchesGrownCopy(_ sigma: Double) throws {
    let m = try AlphaMask(width: 37, height: 23)
    for y in 0..<m.height {
      for x in 0..<m.width { m[x, y] = UInt8((x * 37 + y * 91 + x * y) % 256) }
    }
    let grown = try m.blurred(sigma: sigma)
    let margin = AlphaMask.blurMargin(sigma: sigma)
    m.blur(sigma: sigma)
    var same = true
    for y in 0..<m.height {
      for x in 0..<m.width where m[x, y] != grown[x + margin, y + margin] { same = false }
    }
    #expect(same)
  }

  /// A flat region stays flat; sigma 0 changes nothing.
  @Test func flatAndZero() throws {
    let m = try AlphaMask(width: 40, height: 40)
    m.clear(200)
    let copy = try m.blurred(sigma: 0)
    #expect(copy.width == 40 && copy.total == m.total)
    m.blur(sigma: 0)
    #expect(m.total == 200 * 1600)
    m.blur(sigma: 2.5)
    // Far from the edges (which see zeros beyond) the value is unchanged.
    #expect(m[20, 20] == 200)
    #expect(m[0, 0] < 200)
  }

  /// Huge or odd sigmas neither crash nor allocate without bound.
  @Test func hugeSigmaIsBounded() throws {
    let m = try square(side: 4, pad: 0)
    let out = try m.blurred(sigma: 10_000, maxMargin: 8)
    #expect(out.width == 20 && out.height == 20)
    // (Sigma 5000 spreads 4080 over 10^8 pixels: every value rounds to 0.)
    m.blur(sigma: 5_000)
    #expect(m.total == 0)
    m.blur(sigma: .nan)
    let widest = AlphaMask.blurMargin(sigma: AlphaMask.maxBlurSigma)
    #expect(AlphaMask.blurMargin(sigma: .infinity) == widest)
    #expect(widest < 200_000)
    let none = try m.blurred(sigma: -3)
    #expect(none.width == 4)
  }
}
