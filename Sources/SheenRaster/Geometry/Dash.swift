/// A dash pattern (Core Graphics' `setLineDash(phase:lengths:)`): on and off lengths in user
/// space, repeated, starting `phase` into the pattern.
public struct DashPattern: Hashable, Sendable {
  public var lengths: [Double]
  public var phase: Double

  /// A pattern; nil when it would draw nothing different from a solid line or cannot be used
  /// (no lengths, a negative or non-finite length, or every length zero): Core Graphics then
  /// strokes solid.
  public init?(lengths: [Double], phase: Double) {
    guard !lengths.isEmpty, lengths.allSatisfy({ $0 >= 0 && $0.isFinite }),
      lengths.contains(where: { $0 > 0 }), phase.isFinite
    else { return nil }
    // An odd count repeats once more, so that "on" and "off" alternate (as CG and SVG).
    self.lengths = lengths.count % 2 == 1 ? lengths + lengths : lengths
    self.phase = phase
  }

  var period: Double { lengths.reduce(0, +) }
}

extension Path {
  /// The "on" pieces of the path's outline under `dash`, each an open subpath of straight
  /// segments (curves are flattened to `tolerance` user units first). Stroking the result strokes
  /// the dashes, with caps at both ends of each, as Core Graphics does. Patterns finer than
  /// `tolerance` or that would make more than `maxDashes` pieces are stroked solid.
  public func dashed(_ dash: DashPattern, tolerance: Double, maxDashes: Int = 100_000) -> Path {
    let flat = flattened(tolerance: tolerance)
    let period = dash.period
    var total = 0.0
    for c in flat.contours {
      let pts = flat.points(of: c)
      var prev = pts.first!
      for p in pts.dropFirst() {
        total += (p - prev).length
        prev = p
      }
      if c.closed { total += (pts.first! - prev).length }
    }
    guard period > tolerance, total.isFinite, total / period * Double(dash.lengths.count) < Double(maxDashes)
    else { return self }
    var out = Path()
    for c in flat.contours {
      var pts = Array(flat.points(of: c))
      if c.closed, let first = pts.first { pts.append(first) }
      // Where in the pattern the contour starts: each subpath restarts the pattern at the phase.
      var offset = dash.phase.truncatingRemainder(dividingBy: period)
      if offset < 0 { offset += period }
      var index = 0
      while offset >= dash.lengths[index] {
        offset -= dash.lengths[index]
        index = (index + 1) % dash.lengths.count
      }
      var remaining = dash.lengths[index] - offset
      var on = index % 2 == 0
      if on { out.move(to: pts[0]) }
      for i in 1..<max(1, pts.count) {
        let a = pts[i - 1]
        let b = pts[i]
        let segment = (b - a).length
        var done = 0.0
        while segment - done > remaining {
          done += remaining
          let p = a.lerp(to: b, done / segment)
          if on { out.addLine(to: p) } else { out.move(to: p) }
          on.toggle()
          index = (index + 1) % dash.lengths.count
          remaining = dash.lengths[index]
        }
        remaining -= segment - done
        if on { out.addLine(to: b) }
      }
    }
    return out
  }
}
