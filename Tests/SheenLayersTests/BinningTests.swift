import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// A frame's display list is binned into its bands once (`DisplayBins`), and each band replays
/// only its bin: the nodes its rows can show, with the clips above them, and whole subtrees drawn
/// offscreen (an alpha shadow's body, a mask) wherever their top node is.
@Suite struct BinningTests {
  static func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ c: Color = .testRed) -> Layer {
    let l = Layer()
    l.frame = Rect(x: x, y: y, width: w, height: h)
    l.backgroundColor = c
    return l
  }

  /// Nodes, in drawing order: 0 a (top), 1 b (bottom), 2 c (across the border) with 3 c1 (its
  /// top) and 4 c2 (its bottom), 5 d (a clip over the top half) with 6 d1 (reaching below the
  /// clip), 7 e (a shadow of its alpha across the border) with 8 e1 (top) and 9 e2 (bottom),
  /// 10 h (hidden).
  static func tree() -> [Layer] {
    let a = box(10, 10, 80, 30)
    let b = box(10, 150, 80, 30, .testBlue)
    let c = box(10, 80, 80, 40, Color(red: 0, green: 0.6, blue: 0))
    c.addSublayer(box(0, 0, 80, 10))
    c.addSublayer(box(0, 30, 80, 10, .testBlue))
    let d = Layer()
    d.frame = Rect(x: 100, y: 0, width: 20, height: 90)
    d.masksToBounds = true
    d.addSublayer(box(0, 50, 20, 60, .testBlue))
    let e = Layer()
    e.frame = Rect(x: 130, y: 60, width: 60, height: 80)
    e.shadowOpacity = 0.5
    e.shadowRadius = 3
    let star = ShapeLayer()
    star.frame = Rect(x: 0, y: 0, width: 20, height: 20)
    var tri = Path()
    tri.move(to: Point(x: 10, y: 0))
    tri.addLine(to: Point(x: 20, y: 20))
    tri.addLine(to: Point(x: 0, y: 20))
    tri.closeSubpath()
    star.path = tri
    star.fillColor = .testRed
    e.addSublayer(star)
    e.addSublayer(box(0, 60, 20, 20, Color(red: 0, green: 0.6, blue: 0)))
    let h = box(0, 0, 200, 200)
    h.isHidden = true
    return [a, b, c, d, e, h]
  }

  @Test func eachBandHoldsTheNodesItsRowsCanShow() throws {
    var list = DisplayList()
    list.build(Self.tree(), transform: .identity, cull: IntRect(x: 0, y: 0, width: 200, height: 200))
    #expect(list.count == 11)
    var bins = DisplayBins()
    bins.make(list, rows: [0..<100, 100..<200], width: 200)
    // d's extent ends with its clip, above the border, as d1 does within it. e1 and e2 are in
    // both bins: e's body is drawn offscreen whole for its shadow.
    #expect(bins.members(ofBand: 0) == [0, 2, 3, 5, 6, 7, 8, 9])
    #expect(bins.members(ofBand: 1) == [1, 2, 4, 7, 8, 9])
    // The links: the roots, then each node's first member child and next member sibling.
    #expect(bins.roots == [0, 1])
    let n = list.count
    #expect(bins.next[0 * n + 0] == 2 && bins.next[0 * n + 2] == 5 && bins.next[0 * n + 7] == n)
    #expect(bins.next[1 * n + 1] == 2 && bins.next[1 * n + 2] == 7)
    #expect(bins.child[0 * n + 2] == 3 && bins.next[0 * n + 3] == n)
    #expect(bins.child[1 * n + 2] == 4 && bins.child[1 * n + 7] == 8 && bins.next[1 * n + 8] == 9)
    // Three bands: the middle one (rows 60..<130) holds c and both its children, and a band past
    // everything drawn holds nothing.
    bins.make(list, rows: [0..<60, 60..<130, 130..<200], width: 200)
    #expect(bins.members(ofBand: 1) == [2, 3, 4, 5, 6, 7, 8, 9])
    bins.make(list, rows: [0..<195, 195..<200], width: 200)
    #expect(bins.members(ofBand: 1).isEmpty)
    #expect(bins.roots[1] == n)
  }

  @Test func aScaledTreeIsBinnedInDevicePixels() throws {
    var list = DisplayList()
    list.build(
      Self.tree(), transform: Transform(scaleX: 2, y: 2), cull: IntRect(x: 0, y: 0, width: 400, height: 400))
    var bins = DisplayBins()
    bins.make(list, rows: [0..<200, 200..<400], width: 400)
    #expect(bins.members(ofBand: 0) == [0, 2, 3, 5, 6, 7, 8, 9])
    #expect(bins.members(ofBand: 1) == [1, 2, 4, 7, 8, 9])
  }

  /// Bands replaying their bins draw what one band replaying the whole list draws, frame after
  /// frame while the borders move.
  @Test func binnedBandsDrawTheWholeListsPixels() throws {
    for scale in [1.0, 1.5, 2.0] {
      let w = Int(200 * scale)
      let one = try Surface(width: w, height: w)
      FrameRenderer(threads: 1).render(
        Self.tree(), into: one, transform: Transform(scaleX: scale, y: scale), background: .white)
      for threads in [2] {
        let s = try Surface(width: w, height: w)
        let r = FrameRenderer(threads: threads)
        let layers = Self.tree()
        for _ in 0..<4 {
          r.render(layers, into: s, transform: Transform(scaleX: scale, y: scale), background: .white)
          let same = s.pixels == one.pixels
          #expect(same, "\(threads) threads at \(scale)x, bands \(r.bandRows)")
        }
      }
    }
  }

  /// A band whose bin leaves a node out does not visit it: rows drawn on two threads are culled
  /// by no band (every band walking the list culled the other band's rows).
  @Test func aBandVisitsOnlyItsBin() throws {
    let rows = Layer()
    rows.frame = Rect(x: 0, y: 0, width: 100, height: 400)
    for i in 0..<40 {
      rows.addSublayer(Self.box(0, Double(i) * 10, 100, 10, i % 2 == 0 ? .testRed : .testBlue))
    }
    let s = try Surface(width: 100, height: 400)
    let r = FrameRenderer(threads: 2)
    r.render([rows], into: s, background: .white)
    let stats = r.context.statistics
    // Each row reaches one band, or two at the border (a row's extent has two pixels of margin).
    #expect(stats.layersCulled == 0)
    #expect(stats.layersDrawn <= 2 + 40 + 2)
    let one = try Surface(width: 100, height: 400)
    FrameRenderer(threads: 1).render([rows], into: one, background: .white)
    let same = s.pixels == one.pixels
    #expect(same)
  }
}
