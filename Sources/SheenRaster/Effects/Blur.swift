// Gaussian blur of an alpha mask: the passes of a `BlurPlan` along rows, then along columns.
//
// Both axes run the same code on 16 lines side by side: a buffer holds, for each position along
// the lines, one `SIMD16<Int32>` with the 16 lines' values, so every step of a running sum is one
// vector add whatever the direction. Rows are transposed into that layout as they are loaded;
// columns come in it naturally (16 neighbouring values of a row). Between the axes the image is
// kept with 8 extra bits (`UInt16`), so only the final result is rounded to 8 bits.
//
// Values outside the mask are zero. Each pass is computed over the range the next passes read,
// which is wider than the mask, so the result is that of the whole infinite zero-padded image.

/// Lines blurred at once (one vector of `Int32`).
private let laneCount = 16
private typealias Lanes = SIMD16<Int32>
private let laneBytes = MemoryLayout<Lanes>.stride

extension AlphaMask {
  /// The largest standard deviation a blur honours; larger ones act as this one. (A mask holds at
  /// most `Surface.maxPixels` values; spread this wide, none of them would reach 1.)
  public static var maxBlurSigma: Double { BlurPlan.maxSigma }

  /// How far a blur of standard deviation `sigma` spreads a value: `blurred(sigma:)` grows the
  /// mask by this on each side. It is about `3 * sigma` (between `ceil(3 sigma) - 2` and
  /// `ceil(3 sigma) + 1`; with `exact`, `ceil(4 sigma)`); beyond it the blurred values are
  /// exactly zero.
  public static func blurMargin(sigma: Double, exact: Bool = false) -> Int {
    // Without making the kernel: a drawing asks for this every frame.
    if exact, let r = BlurPlan.exactRadius(sigma: sigma) { return r }
    if sigma >= BlurPlan.minSigma && sigma < BlurPlan.boxThreshold {
      return Swift.max(1, Int((3 * sigma).rounded(.up)))  // the one sampled kernel's radius
    }
    return BlurPlan(sigma: sigma).reach
  }

  /// A Gaussian-blurred copy, grown so that nothing is cut off.
  ///
  /// The result is `blurMargin(sigma:)` larger on each side, with its origin moved so that it
  /// stays in place in device space. Its values sum to this mask's sum, up to rounding of each
  /// value. The standard deviation is within 0.5% of `sigma` for any `sigma >= 0.5`.
  ///
  /// - Parameters:
  ///   - sigma: The standard deviation in pixels; 0 (or less) makes a plain copy.
  ///   - maxMargin: At most this many pixels are added on each side. The margin is also limited
  ///     so that the result is a valid mask (`Surface.maxDimension`, `Surface.maxPixels`); values
  ///     that would land beyond the margin are lost.
  /// - Complexity: a constant number of operations per pixel of the result, whatever `sigma` is.
  /// - Throws: `RasterError.invalidSize` if the grown mask cannot be made.
  public func blurred(sigma: Double, maxMargin: Int = .max) throws -> AlphaMask {
    let plan = BlurPlan(sigma: sigma)
    let margin = grownMargin(plan.reach, limit: maxMargin)
    let out = try AlphaMask(
      width: width + 2 * margin, height: height + 2 * margin,
      originX: originX - margin, originY: originY - margin)
    if plan.passes.isEmpty {
      for y in 0..<height { (out.row(y + margin) + margin).update(from: row(y), count: width) }
    } else {
      blur(plan, margin: margin, into: out)
    }
    return out
  }

  /// Blurs the mask in place with a Gaussian of standard deviation `sigma` pixels, as if the
  /// values outside it were zero: what spreads beyond its edges is lost.
  /// - Complexity: a constant number of operations per pixel of the mask grown by
  ///   `blurMargin(sigma:)` (the blur computes what spreads beyond the edges, then drops it);
  ///   with `exact` (a sampled Gaussian however wide, for blurs made once and kept: see
  ///   `BlurPlan.init(sigma:exact:)`), about 8 sigma operations per pixel.
  public func blur(sigma: Double, exact: Bool = false) {
    let plan = BlurPlan(sigma: sigma, exact: exact)
    if plan.passes.isEmpty { return }
    blur(plan, margin: 0, into: self)
  }

  /// The margin to grow by: `wanted`, limited by `limit` and by the largest valid mask.
  private func grownMargin(_ wanted: Int, limit: Int) -> Int {
    var m = Swift.min(wanted, Swift.max(0, limit))
    m = Swift.min(m, (Surface.maxDimension - width) / 2, (Surface.maxDimension - height) / 2)
    if (width + 2 * m) * (height + 2 * m) > Surface.maxPixels {
      // Largest m with (w + 2m)(h + 2m) <= maxPixels.
      let w = Double(width)
      let h = Double(height)
      let disc = (w + h) * (w + h) - 4 * (w * h - Double(Surface.maxPixels))
      m = Swift.max(0, Int(((disc.squareRoot() - (w + h)) / 4).rounded(.down)))
      while m > 0, (width + 2 * m) * (height + 2 * m) > Surface.maxPixels { m -= 1 }
    }
    return Swift.max(0, m)
  }

  /// Blurs this mask into `out`, which is `margin` larger on each side (it may be `self`).
  private func blur(_ plan: BlurPlan, margin: Int, into out: AlphaMask) {
    blur(plan, columns: -margin..<(width + margin), rows: -margin..<(height + margin), into: out)
  }

  /// Blurs this mask into `out`, which holds the blurred values at columns `columns` and rows
  /// `rows` of this mask (relative to its origin; beyond its edges is allowed): only those are
  /// worked out, from the input they read.
  private func blur(_ plan: BlurPlan, columns: Range<Int>, rows: Range<Int>, into out: AlphaMask) {
    let lines = BlurLines(plan: plan, capacity: Swift.max(columns.count, rows.count))
    // The row-blurred image: `height` rows of the output's width, rounded up to whole lanes.
    let stride = (out.width + laneCount - 1) / laneCount * laneCount
    let inter = UnsafeMutablePointer<UInt16>.allocate(capacity: stride * height)
    defer { inter.deallocate() }
    inter.initialize(repeating: 0, count: stride * height)
    for y0 in Swift.stride(from: 0, to: height, by: laneCount) {
      lines.blurRows(
        y0..<Swift.min(y0 + laneCount, height), of: self, positions: columns, into: inter, stride: stride)
    }
    for x0 in Swift.stride(from: 0, to: out.width, by: laneCount) {
      lines.blurColumns(from: x0, of: inter, stride: stride, rows: height, positions: rows, into: out)
    }
  }

  /// The part within `window` (device pixels) of this mask blurred by a Gaussian of `sigma`
  /// pixels, values outside the mask being zero: the same values `blurred(sigma:)` has there,
  /// worked out without the rest. Its work and memory follow the window and the mask, not how
  /// far the blur spreads (a huge blur seen through a small canvas). Nil when nothing of the
  /// blur reaches the window. With `exact`, the blur is one sampled Gaussian (as
  /// `blur(sigma:exact:)` makes it: within a level of the true Gaussian, 8σ taps a pixel).
  public func blurred(sigma: Double, within window: IntRect, exact: Bool = false) throws -> AlphaMask? {
    let plan = BlurPlan(sigma: sigma, exact: exact)
    let r = plan.reach
    let spread = IntRect(x: originX - r, y: originY - r, width: width + 2 * r, height: height + 2 * r)
    let w = window.intersection(spread)
    if w.isEmpty || width == 0 || height == 0 { return nil }
    let out = try AlphaMask(width: w.width, height: w.height, originX: w.x, originY: w.y)
    let columns = (w.x - originX)..<(w.maxX - originX)
    let rows = (w.y - originY)..<(w.maxY - originY)
    if plan.passes.isEmpty {
      for y in Swift.max(0, rows.lowerBound)..<Swift.min(height, rows.upperBound) {
        let x0 = Swift.max(0, columns.lowerBound)
        let x1 = Swift.min(width, columns.upperBound)
        if x1 > x0 {
          (out.row(y - rows.lowerBound) + (x0 - columns.lowerBound)).update(from: row(y) + x0, count: x1 - x0)
        }
      }
      return out
    }
    blur(plan, columns: columns, rows: rows, into: out)
    return out
  }
}

/// Blurs 16 lines at a time: two buffers of lane vectors that the passes ping-pong between.
///
/// A call works out the blurred values at positions `lo..<hi` of its lines (relative to the
/// input's first position; they may lie beyond the input on either side). The buffers hold
/// positions `lo - reach ..< hi + reach` (what the passes read), at `pad + position`.
private final class BlurLines {
  let plan: BlurPlan
  /// The positions a buffer holds: the widest output asked for and what the passes read beyond it.
  let capacity: Int
  let a: UnsafeMutableRawPointer
  let b: UnsafeMutableRawPointer

  init(plan: BlurPlan, capacity outputs: Int) {
    self.plan = plan
    capacity = outputs + 2 * plan.reach
    let bytes = capacity * laneBytes
    a = .allocate(byteCount: bytes, alignment: laneBytes)
    b = .allocate(byteCount: bytes, alignment: laneBytes)
    a.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    b.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
  }

  deinit {
    a.deallocate()
    b.deallocate()
  }

  /// Blurs rows `rows` of `mask` (at most 16) along x into `inter`, with the plan's extra bits:
  /// the values at columns `positions` (relative to the mask's first column).
  func blurRows(
    _ rows: Range<Int>, of mask: AlphaMask, positions: Range<Int>, into inter: UnsafeMutablePointer<UInt16>,
    stride: Int
  ) {
    let n = mask.width
    let bits = plan.fractionBits
    let (pad, first, last) = clearOutside(count: n, positions: positions)
    // Transpose: lane l of position x holds pixel x of row l.
    for lane in 0..<laneCount {
      let dst = a + pad * laneBytes + lane * 4
      if lane < rows.count {
        let src = mask.row(rows.lowerBound + lane)
        for x in first..<last {
          dst.storeBytes(of: Int32(src[x]) << bits, toByteOffset: x * laneBytes, as: Int32.self)
        }
      } else {
        for x in first..<last { dst.storeBytes(of: 0, toByteOffset: x * laneBytes, as: Int32.self) }
      }
    }
    let result = run(pad: pad, positions: positions, finalShift: 0)
    for lane in 0..<rows.count {
      let src = result + lane * 4
      let dst = inter + (rows.lowerBound + lane) * stride
      for x in 0..<positions.count {
        dst[x] = UInt16(clamping: src.load(fromByteOffset: x * laneBytes, as: Int32.self))
      }
    }
  }

  /// Blurs the 16 columns from `x0` of the row-blurred image `inter` along y, into `out` as
  /// 8-bit values: the values at rows `positions` (columns beyond `out.width` are dropped).
  func blurColumns(
    from x0: Int, of inter: UnsafeMutablePointer<UInt16>, stride: Int, rows n: Int, positions: Range<Int>,
    into out: AlphaMask
  ) {
    let (pad, first, last) = clearOutside(count: n, positions: positions)
    for y in first..<last {
      let v = UnsafeRawPointer(inter + y * stride + x0).loadUnaligned(as: SIMD16<UInt16>.self)
      store(a, pad + y, Lanes(truncatingIfNeeded: v))
    }
    let result = run(pad: pad, positions: positions, finalShift: plan.fractionBits)
    let columns = Swift.min(laneCount, out.width - x0)
    for y in 0..<Swift.min(out.height, positions.count) {
      let v = SIMD16<UInt8>(clamping: load(result, y))
      let dst = out.row(y) + x0
      if columns == laneCount {
        UnsafeMutableRawPointer(dst).storeBytes(of: v, as: SIMD16<UInt8>.self)
      } else {
        for c in 0..<columns { dst[c] = v[c] }
      }
    }
  }

  /// For `n` input positions and outputs at `positions`: where position 0 lies in the buffers
  /// (`pad`), and the input positions the passes read (`first..<last`); zeros buffer `a` at the
  /// positions read that lie outside the input (earlier lines leave values there).
  private func clearOutside(count n: Int, positions: Range<Int>) -> (pad: Int, first: Int, last: Int) {
    let reach = plan.reach
    let pad = reach - positions.lowerBound
    let lo = positions.lowerBound - reach
    let hi = positions.upperBound + reach
    let first = Swift.min(Swift.max(0, lo), hi)
    let last = Swift.max(Swift.min(n, hi), first)
    // Positions lo..<first and last..<hi are zeros.
    (a + (pad + lo) * laneBytes).initializeMemory(
      as: UInt8.self, repeating: 0, count: (first - lo) * laneBytes)
    (a + (pad + last) * laneBytes).initializeMemory(
      as: UInt8.self, repeating: 0, count: (hi - last) * laneBytes)
    return (pad, first, last)
  }

  /// Runs the passes over the positions held in `a`. Returns where the result for `positions`
  /// starts. The last pass also divides by `2^finalShift`.
  private func run(pad: Int, positions: Range<Int>, finalShift: Int) -> UnsafeMutableRawPointer {
    var src = a
    var dst = b
    // Each pass produces what the passes after it read: its output extends that much further.
    var extent = plan.reach
    for (i, pass) in plan.passes.enumerated() {
      extent -= pass.reach
      let shift = i == plan.passes.count - 1 ? finalShift : 0
      let range = (pad + positions.lowerBound - extent)..<(pad + positions.upperBound + extent)
      switch pass {
      case .box(let r, let endWeight):
        boxPass(src, dst, range, radius: r, endWeight: endWeight, shift: shift)
      case .kernel(let weights):
        kernelPass(src, dst, range, weights: weights, shift: shift)
      }
      swap(&src, &dst)
    }
    return src + (pad + positions.lowerBound) * laneBytes
  }
}

@inline(__always) private func load(_ p: UnsafeMutableRawPointer, _ i: Int) -> Lanes {
  p.load(fromByteOffset: i &* laneBytes, as: Lanes.self)
}

@inline(__always) private func store(_ p: UnsafeMutableRawPointer, _ i: Int, _ v: Lanes) {
  p.storeBytes(of: v, toByteOffset: i &* laneBytes, as: Lanes.self)
}

/// An extended box over positions `range`: a running sum of the 2r+1 middle taps plus the two
/// end taps weighted `endWeight`, divided by the total weight and by `2^shift`, rounded.
private func boxPass(
  _ src: UnsafeMutableRawPointer, _ dst: UnsafeMutableRawPointer, _ range: Range<Int>,
  radius r: Int, endWeight: Double, shift: Int
) {
  let scale = 1 / ((Double(2 * r + 1) + 2 * endWeight) * Double(1 << shift))
  let middle = SIMD16<Float>(repeating: Float(scale))
  let ends = SIMD16<Float>(repeating: Float(endWeight * scale))
  // Adding 1.5 * 2^23 leaves a float's integer part, rounded to nearest (ties to even, so no
  // bias), in the low bits of its representation: a rounding conversion that vectorizes (the
  // checked `Int32(Float)` does not). Valid for |x| < 2^22; values here stay below 2^17.
  let magic = SIMD16<Float>(repeating: 12_582_912)
  let magicBits = unsafeBitCast(magic, to: Lanes.self)
  // The window sum for the position before the first.
  var sum = Lanes()
  for j in (range.lowerBound - r - 1)..<(range.lowerBound + r) { sum &+= load(src, j) }
  for i in range {
    let leaving = load(src, i &- r &- 1)
    sum &+= load(src, i &+ r) &- leaving
    let outer = leaving &+ load(src, i &+ r &+ 1)
    let v = SIMD16<Float>(sum) * middle + SIMD16<Float>(outer) * ends + magic
    store(dst, i, unsafeBitCast(v, to: Lanes.self) &- magicBits)
  }
}

/// A symmetric fixed-point kernel over positions `range`, divided by `2^shift`, rounded.
private func kernelPass(
  _ src: UnsafeMutableRawPointer, _ dst: UnsafeMutableRawPointer, _ range: Range<Int>,
  weights: [Int32], shift: Int
) {
  let bits = Int32(BlurPlan.kernelBits + shift)
  let bias = Lanes(repeating: 1 << (bits - 1))
  weights.withUnsafeBufferPointer { w in
    let k = w.count - 1
    let w0 = Lanes(repeating: w[0])
    for i in range {
      var acc = bias &+ load(src, i) &* w0
      for j in 1...k {
        acc &+= (load(src, i &- j) &+ load(src, i &+ j)) &* Lanes(repeating: w[j])
      }
      store(dst, i, acc &>> bits)
    }
  }
}
