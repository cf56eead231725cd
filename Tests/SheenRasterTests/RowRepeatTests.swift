import Testing

@testable import SheenRaster

/// Rows of a recording that repeat the row above (the straight middle of a rounded rectangle or
/// of a shadow's sides) are found when it is made, and a replay hands each of their runs to its
/// sink once for all of them: the pixels are those of the mask drawn pixel row by pixel row,
/// through holes that start and end inside such rows, a clip that cuts them, the inlined blend,
/// the table blend over the cleared colour and the paint sink.
@Suite struct RowRepeatTests {
  /// A blurred rounded rectangle: rows 0-10ish differ, the middle repeats, and so on.
  func card() throws -> AlphaMask {
    let m = try AlphaMask(width: 90, height: 120, originX: 4, originY: 3)
    m.fill(Path(roundedRect: Rect(x: 6, y: 5, width: 78, height: 108), cornerRadius: 12))
    m.blur(sigma: 2)
    return m
  }

  @Test func repeatedRowsAreFound() throws {
    let m = try card()
    let c = Coverage(mask: m, solidRun: 8)
    #expect(c.repeatEnd.count == c.bounds.height)
    // Each row's end is the first row below it that differs, worked out here byte by byte.
    func rowBytes(_ y: Int) -> [UInt8] { (0..<m.width).map { m[$0, y] } }
    var blocks = 0
    var y = 0
    while y < m.height {
      var e = y + 1
      while e < m.height && rowBytes(e) == rowBytes(y) { e += 1 }
      let row = y + m.originY - c.bounds.y
      if row >= 0 && row < c.bounds.height {
        #expect(Int(c.repeatEnd[row]) == row + (e - y), "row \(y)")
      }
      blocks += 1
      y = e
    }
    // The straight middle is one block of many rows.
    #expect(c.repeatEnd.enumerated().contains { Int($0.element) - $0.offset > 60 })
    #expect(blocks < m.height / 2)
  }

  @Test(arguments: [0, 1, 2])
  func replayedRowsAreTheMaskDrawnRowByRow(sink: Int) throws {
    let m = try card()
    let runs = Coverage(mask: m, solidRun: 8)
    let holes = [
      // Inside the straight middle, across its sides, reaching past the clip, empty.
      IntRect(x: 20, y: 40, width: 30, height: 10), IntRect(x: 0, y: 70, width: 120, height: 3),
      IntRect(x: 80, y: 90, width: 40, height: 60), IntRect(x: 30, y: 60, width: 0, height: 9),
    ]
    let background = Color(red: 0.95, green: 0.95, blue: 0.97)
    let paint = Color(red: 0.1, green: 0.2, blue: 0.5, alpha: 0.6)
    let w = 110
    let h = 140
    let clip = Rect(x: 2, y: 2, width: 100, height: 97)
    func draw(replay: Bool) throws -> Surface {
      let s = try Surface(width: w, height: h)
      let c = Canvas(surface: s)
      // The table blend needs the canvas cleared to a known colour.
      if sink == 1 {
        c.clear(background)
      } else {
        c.fill(Rect(x: 0, y: 0, width: Double(w), height: Double(h)), paint: .solid(background))
      }
      c.clip(to: clip)
      if sink == 2 { c.clip(to: Path(ellipseIn: Rect(x: -30, y: -20, width: 170, height: 180))) }
      if replay {
        c.fill(runs, offsetX: 2, offsetY: 1, paint: .solid(paint), skipping: holes)
      } else {
        c.draw(mask: m, color: paint, offsetX: 2, offsetY: 1)
      }
      return s
    }
    let got = try draw(replay: true)
    let want = try draw(replay: false)
    let bare = try Surface(width: w, height: h)
    Canvas(surface: bare).fill(
      Rect(x: 0, y: 0, width: Double(w), height: Double(h)), paint: .solid(background))
    var differing = 0
    for y in 0..<h {
      for x in 0..<w {
        let inHole = holes.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
        let expected = inHole ? bare[x, y] : want[x, y]
        if got[x, y] != expected {
          if differing < 5 { Issue.record("pixel (\(x), \(y)): \(got[x, y]), want \(expected)") }
          differing += 1
        }
      }
    }
    #expect(differing == 0)
  }
}
