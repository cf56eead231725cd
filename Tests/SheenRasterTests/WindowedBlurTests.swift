import Testing

@testable import SheenRaster

/// `AlphaMask.blurred(sigma:within:)`: the values of the whole blur within a window, made from
/// the window alone; `magnified(by:within:)`: a coarse mask read back bilinearly.
@Suite struct WindowedBlurTests {
  /// A mask of arbitrary values (some zero, some full) at an odd origin.
  func pattern() throws -> AlphaMask {
    let m = try AlphaMask(width: 37, height: 29, originX: 11, originY: -7)
    for y in 0..<m.height {
      for x in 0..<m.width {
        let v = (x * 37 + y * 91 + x * y * 13) % 300
        m.row(y)[x] = UInt8(min(255, v))
      }
    }
    return m
  }

  @Test(arguments: [0.3, 0.8, 1.5, 3, 7.5, 20])
  func aWindowHoldsTheWholeBlursValues(_ sigma: Double) throws {
    let m = try pattern()
    let whole = try m.blurred(sigma: sigma)
    let b = IntRect(x: whole.originX, y: whole.originY, width: whole.width, height: whole.height)
    // Inside, across the edges, a sliver, one pixel, beyond the blur's reach.
    let windows = [
      IntRect(x: 20, y: 0, width: 10, height: 12), IntRect(x: b.x - 5, y: b.y - 3, width: 30, height: 50),
      IntRect(x: b.x + 3, y: 5, width: 70, height: 1), IntRect(x: 30, y: 10, width: 1, height: 1),
      IntRect(x: b.maxX - 4, y: b.maxY - 2, width: 40, height: 40),
    ]
    for w in windows {
      let part = try #require(try m.blurred(sigma: sigma, within: w))
      let shown = w.intersection(b)
      #expect(part.originX == shown.x && part.originY == shown.y)
      #expect(part.width == shown.width && part.height == shown.height)
      var differ = 0
      for y in shown.y..<shown.maxY {
        for x in shown.x..<shown.maxX
        where part[x - part.originX, y - part.originY] != whole[x - b.x, y - b.y] {
          differ += 1
        }
      }
      #expect(differ == 0, "σ \(sigma), window \(w)")
    }
    #expect(try m.blurred(sigma: sigma, within: IntRect(x: b.maxX + 1, y: 0, width: 10, height: 10)) == nil)
  }

  @Test func aCoarseMaskIsReadBackBilinearly() throws {
    // Coarse values 0, 100, 200 in a row, on a grid 4 pixels wide: device pixel x has its centre
    // at coarse position (x + 0.5) / 4 - 0.5.
    let m = try AlphaMask(width: 3, height: 1, originX: 0, originY: 0)
    m.row(0)[0] = 0
    m.row(0)[1] = 100
    m.row(0)[2] = 200
    let out = try #require(try m.magnified(by: 4, within: IntRect(x: 0, y: 1, width: 12, height: 1)))
    // Row 1 is coarse row 1/4 + ... = (1.5 / 4 - 0.5) = -0.125: 7/8 of row 0, 1/8 of nothing.
    for x in 0..<12 {
      let u = max(0, min(2, (Double(x) + 0.5) / 4 - 0.5))
      var v = 100 * u
      if (Double(x) + 0.5) / 4 - 0.5 < 0 { v = 0 }
      if (Double(x) + 0.5) / 4 - 0.5 > 2 { v = 200 * (1 - ((Double(x) + 0.5) / 4 - 0.5 - 2)) }
      let want = v * 0.875
      #expect(abs(Double(out[x, 0]) - want) <= 0.51, "x \(x): \(out[x, 0]) against \(want)")
    }
  }
}
