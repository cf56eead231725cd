import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// The covers filed by column (`CoverColumns`) find, for any rectangle and window of drawing
/// order, exactly the covers a walk of that window finds meeting it, in the same order: small
/// tiles, wide bars, covers across many columns, rectangles partly outside the clip.
@Suite struct CoverColumnsTests {
  /// What `meeting` must find: the walk.
  func walk(_ covers: [IntRect], _ r: IntRect, from: Int, end: Int) -> [Int32] {
    var out: [Int32] = []
    if r.isEmpty { return out }
    for k in from..<max(from, end) where !covers[k].intersection(r).isEmpty { out.append(Int32(k)) }
    return out
  }

  @Test(arguments: [0 as UInt64, 1, 2, 3])
  func columnsFindWhatTheWalkFinds(seed: UInt64) {
    var g = SplitMix(seed: seed)
    func below(_ n: Int) -> Int { Int(g.next() % UInt64(n)) }
    let clip = IntRect(x: 7 + below(50), y: 3, width: 200 + below(1800), height: 140)
    var covers: [IntRect] = []
    for _ in 0..<(50 + below(400)) {
      // Mostly small tiles, some wide bars and large panels.
      let kind = below(10)
      let w = kind < 7 ? 1 + below(90) : kind < 9 ? clip.width / 2 + below(clip.width) : 200 + below(600)
      let h = 1 + below(kind < 7 ? 90 : 30)
      let x = clip.x - 40 + below(clip.width + 40)
      let y = clip.y - 10 + below(clip.height + 10)
      let r = IntRect(x: x, y: y, width: w, height: h).intersection(clip)
      if !r.isEmpty { covers.append(r) }
    }
    var columns = CoverColumns()
    columns.index(covers, within: clip)
    for _ in 0..<2000 {
      let r = IntRect(
        x: clip.x - 30 + below(clip.width + 30), y: clip.y - 5 + below(clip.height), width: below(300),
        height: below(120))
      let from = below(covers.count + 1)
      let end = min(covers.count, from + below(80))
      columns.meeting(r, from: from, end: end, covers: covers)
      let want = walk(covers, r, from: from, end: end)
      #expect(columns.found == want, "\(r) from \(from) to \(end)")
    }
  }

  @Test func noCoversFindNothing() {
    var columns = CoverColumns()
    columns.index([], within: IntRect(x: 0, y: 0, width: 100, height: 10))
    columns.meeting(IntRect(x: 0, y: 0, width: 10, height: 10), from: 0, end: 0, covers: [])
    #expect(columns.found.isEmpty)
  }
}
