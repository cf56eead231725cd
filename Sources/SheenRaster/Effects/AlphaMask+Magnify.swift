// A mask on a coarser grid brought back to device pixels (bilinear), for blurs worked out at a
// reduced resolution (Compositor+WideShadow.swift).

extension AlphaMask {
  /// The device pixels within `window` of this mask read as lying on a grid `step` times
  /// coarser than the device's (its value (i, j) the average of device pixels
  /// `(originX + i) * step ..< (originX + i + 1) * step` across and the same down), sampled
  /// bilinearly at each device pixel's centre; zero beyond the mask. Nil for an empty window.
  public func magnified(by step: Int, within window: IntRect) throws -> AlphaMask? {
    if window.isEmpty || step < 1 { return nil }
    let out = try AlphaMask(width: window.width, height: window.height, originX: window.x, originY: window.y)
    if width == 0 || height == 0 { return out }
    let k = Double(step)
    // For each output column: the coarse column to its left (relative to the mask) and the
    // weight of the one to its right.
    var columns = [Int](repeating: 0, count: window.width)
    var weights = [Float](repeating: 0, count: window.width)
    for x in 0..<window.width {
      let u = (Double(window.x + x) + 0.5) / k - 0.5 - Double(originX)
      let i = u.rounded(.down)
      columns[x] = Int(i)
      weights[x] = Float(u - i)
    }
    let w = width
    @inline(__always) func value(_ row: UnsafeMutablePointer<UInt8>?, _ i: Int) -> Float {
      guard let row, i >= 0, i < w else { return 0 }
      return Float(row[i])
    }
    for y in 0..<window.height {
      let v = (Double(window.y + y) + 0.5) / k - 0.5 - Double(originY)
      let j = Int(v.rounded(.down))
      let fy = Float(v - v.rounded(.down))
      let top = j >= 0 && j < height ? row(j) : nil
      let bottom = j + 1 >= 0 && j + 1 < height ? row(j + 1) : nil
      if top == nil && bottom == nil { continue }
      let dst = out.row(y)
      for x in 0..<window.width {
        let i = columns[x]
        let fx = weights[x]
        let t = value(top, i) + (value(top, i + 1) - value(top, i)) * fx
        let b = value(bottom, i) + (value(bottom, i + 1) - value(bottom, i)) * fx
        dst[x] = UInt8(min(255, max(0, t + (b - t) * fy + 0.5)))
      }
    }
    return out
  }
}
