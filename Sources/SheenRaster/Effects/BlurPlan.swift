import Foundation

// The design of a Gaussian blur as a short list of 1-D passes, applied along each axis.
//
// A box filter costs O(1) per pixel whatever its width (a running sum), and three box passes in
// a row look like a Gaussian. Their variances add, so the blur is as wide as asked exactly when
// the three variances sum to sigma^2. Integer box widths only reach a few variances (Skia's choice
// of one width lands within -13%/+9%), so each pass here is an "extended" box: 2r+1 taps of
// weight 1 and one more tap of weight alpha at each end, alpha in 0..<1, which makes the variance
// a continuous function of alpha and lets it match sigma^2 / 3 exactly.
//
// Below sigma 2 three boxes of one or two taps look nothing like a Gaussian, so small blurs use
// one pass of a sampled Gaussian kernel instead (at most 13 taps). A sampled Gaussian's variance
// is not its parameter's square (at sigma 0.5 it is 7% narrow), so the sampling parameter is
// solved for: the kernel, truncated and normalized as it is used, has variance sigma^2.

/// One 1-D pass of a blur.
@usableFromInline enum BlurPass: Equatable, Sendable {
  /// An extended box: taps of weight 1 at offsets -radius...radius, `endWeight` (0..<1) at
  /// offsets +-(radius + 1), normalized.
  case box(radius: Int, endWeight: Double)
  /// A symmetric kernel: `weights[k]` at offsets +-k, in units of 1/`BlurPlan.kernelOne`; the
  /// weights over all offsets sum to exactly `kernelOne`.
  case kernel(weights: [Int32])

  /// How far the pass reads from an output position.
  var reach: Int {
    switch self {
    case .box(let r, _): return r + 1
    case .kernel(let w): return w.count - 1
    }
  }

  /// The variance of the pass's weights, as the integer arithmetic applies them.
  var variance: Double {
    switch self {
    case .box(let r, let a):
      let rr = Double(r)
      return (rr * (rr + 1) * (2 * rr + 1) / 3 + 2 * a * (rr + 1) * (rr + 1)) / (2 * rr + 1 + 2 * a)
    case .kernel(let w):
      var m2 = 0.0
      for k in 1..<w.count { m2 += 2 * Double(w[k]) * Double(k * k) }
      return m2 / Double(BlurPlan.kernelOne)
    }
  }
}

/// The passes that blur one axis with a Gaussian of standard deviation `sigma`.
@usableFromInline struct BlurPlan: Sendable {
  /// Kernel weights are fixed-point with this many fraction bits.
  static let kernelBits = 14
  static let kernelOne: Int32 = 1 << kernelBits
  /// Below this sigma one sampled-Gaussian pass is used, at and above it three extended boxes.
  static let boxThreshold = 2.0
  /// Larger sigmas are treated as this one. A mask holds at most `Surface.maxPixels` values of
  /// 255; spread by a Gaussian this wide, none of them reaches 1.
  static let maxSigma = 65536.0
  /// Smaller sigmas blur nothing (see `init`).
  static let minSigma = 0.1

  /// The sigma asked for, after clamping (0 for no blur).
  let sigma: Double
  /// The passes, in order; empty for no blur.
  let passes: [BlurPass]
  /// Bits below the 8-bit value kept between passes and between the two axes (at most 8, so an
  /// intermediate value fits a `UInt16`; fewer only for huge sigmas, so running sums fit `Int32`).
  let fractionBits: Int

  /// The largest sigma `init(sigma:exact:)` blurs with one sampled Gaussian when asked to be
  /// exact (beyond it, three boxes: a kernel that wide costs too much per pixel).
  static let maxExactSigma = 128.0

  /// With `exact`, one pass of a sampled Gaussian reaching 4 sigma at any sigma up to
  /// `maxExactSigma`: within a level of the true Gaussian however small the shape, where three
  /// boxes (a flatter peak) lose up to a tenth of a small shape's shadow at its middle. It costs
  /// a multiply per tap, 8 sigma taps a pixel: for blurs made once and kept.
  init(sigma requested: Double, exact: Bool) {
    if exact, let radius = BlurPlan.exactRadius(sigma: requested) {
      self.init(
        sigma: requested,
        passes: [.kernel(weights: BlurPlan.gaussianWeights(sigma: requested, radius: radius))],
        fractionBits: 8)
    } else {
      self.init(sigma: requested)
    }
  }

  /// The radius of the one-pass kernel `init(sigma:exact:)` makes when exact, if it makes one:
  /// what it reaches, worked out without making the kernel.
  static func exactRadius(sigma: Double) -> Int? {
    guard sigma >= BlurPlan.boxThreshold, sigma <= BlurPlan.maxExactSigma else { return nil }
    return Swift.max(1, Int((4 * sigma).rounded(.up)))
  }

  private init(sigma: Double, passes: [BlurPass], fractionBits: Int) {
    self.sigma = sigma
    self.passes = passes
    self.fractionBits = fractionBits
  }

  init(sigma requested: Double) {
    var s = requested.isNaN ? 0 : Swift.min(Swift.max(requested, 0), BlurPlan.maxSigma)
    // Below minSigma the sampled kernel's weight at offset 1 (exp(-50) at most) rounds to 0: no
    // blur, exactly. Solving for the kernel of a subnormal sigma would divide by zero.
    if s < BlurPlan.minSigma { s = 0 }
    sigma = s
    if s == 0 {
      passes = []
    } else if s < BlurPlan.boxThreshold {
      passes = [.kernel(weights: BlurPlan.gaussianWeights(sigma: s))]
    } else {
      let pass = BlurPlan.extendedBox(variance: s * s / 3)
      passes = [pass, pass, pass]
    }
    var bits = 8
    if case .box(let r, _)? = passes.first {
      // A running sum adds 2r+1 values below 256 << bits (plus rounding slack).
      while bits > 0, (255 << bits + 4) * (2 * r + 1) >= Int(Int32.max) { bits -= 1 }
    }
    fractionBits = bits
  }

  /// How far the blur spreads a value along one axis: its output is zero farther away.
  var reach: Int { passes.reduce(0) { $0 + $1.reach } }

  /// The standard deviation the passes actually have along one axis.
  var effectiveSigma: Double { passes.reduce(0) { $0 + $1.variance }.squareRoot() }

  /// The extended box with the given variance.
  static func extendedBox(variance v: Double) -> BlurPass {
    // A plain box of 2r+1 taps has variance r(r+1)/3: take the widest one not above v.
    var r = Int(((1 + 12 * v).squareRoot() - 1) / 2)
    while Double((r + 1) * (r + 2)) / 3 <= v { r += 1 }
    while r > 0, Double(r * (r + 1)) / 3 > v { r -= 1 }
    let rr = Double(r)
    // Solve variance(r, a) = v for the end weight a (linear in a).
    let a = (2 * rr + 1) * (v - rr * (rr + 1) / 3) / (2 * ((rr + 1) * (rr + 1) - v))
    return .box(radius: r, endWeight: Swift.min(Swift.max(a, 0), 1))
  }

  /// A sampled Gaussian of radius `ceil(3 sigma)` (or `radius`) whose normalized weights have variance
  /// `sigma^2`, as fixed-point halves (index k is the weight at offsets +-k).
  static func gaussianWeights(sigma: Double, radius given: Int? = nil) -> [Int32] {
    let radius = given ?? Swift.max(1, Int((3 * sigma).rounded(.up)))
    func weights(_ s: Double) -> [Double] {
      (0...radius).map { k in
        let x = Double(k) / s
        return exp(-0.5 * x * x)
      }
    }
    func variance(_ w: [Double]) -> Double {
      var m0 = w[0]
      var m2 = 0.0
      for k in 1..<w.count {
        m0 += 2 * w[k]
        m2 += 2 * w[k] * Double(k * k)
      }
      return m2 / m0
    }
    // The variance grows with the sampling parameter, from 0 to that of a flat kernel, which
    // exceeds sigma^2 (the radius is at least 3 sigma): bisect.
    let target = sigma * sigma
    var lo = 0.0
    var hi = sigma
    while variance(weights(hi)) < target { hi *= 2 }
    for _ in 0..<60 {
      let mid = (lo + hi) / 2
      if variance(weights(mid)) < target { lo = mid } else { hi = mid }
    }
    let w = weights((lo + hi) / 2)
    let total = w[0] + 2 * w[1...].reduce(0, +)
    var q = w.map { Int32(($0 / total * Double(kernelOne)).rounded()) }
    // Give the rounding remainder to the centre so the weights sum to exactly one.
    q[0] = kernelOne - 2 * q[1...].reduce(0, +)
    return q
  }
}
