import Testing

@testable import SheenRaster

/// `Canvas.clear(_:skipping:)`: the clip cleared everywhere but inside the holes (which opaque
/// colour covers next), against a clear pixel by pixel.
@Suite struct ClearSkippingTests {
  @Test func everyPixelOutsideTheHolesIsClearedAndNoneInside() throws {
    // Overlapping; past the clip's edges; empty; a small one inside a row of others.
    let holes = [
      IntRect(x: 10, y: 5, width: 20, height: 10), IntRect(x: 25, y: 8, width: 20, height: 30),
      IntRect(x: -5, y: 40, width: 12, height: 7), IntRect(x: 50, y: 0, width: 30, height: 60),
      IntRect(x: 3, y: 3, width: 0, height: 9), IntRect(x: 12, y: 20, width: 3, height: 3),
    ]
    let clip = IntRect(x: 2, y: 1, width: 60, height: 50)
    let s = try Surface(width: 70, height: 60)
    let canvas = Canvas(surface: s)
    canvas.clear(Color(red: 0, green: 0, blue: 1))
    canvas.clip(to: Rect(clip))
    let skipped = canvas.clear(Color(red: 1, green: 0, blue: 0), skipping: holes)
    let red = Color(red: 1, green: 0, blue: 0).premultiplied
    let blue = Color(red: 0, green: 0, blue: 1).premultiplied
    var inside = 0
    var wrong = 0
    for y in 0..<s.height {
      for x in 0..<s.width {
        let inClip = x >= clip.x && x < clip.maxX && y >= clip.y && y < clip.maxY
        let inHole = holes.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
        if inClip && inHole { inside += 1 }
        let want = inClip && !inHole ? red : blue
        if s[x, y] != want { wrong += 1 }
      }
    }
    #expect(wrong == 0)
    #expect(skipped == inside)
    #expect(inside > 1000)
  }

  @Test func underASoftClipEverythingIsCleared() throws {
    let s = try Surface(width: 40, height: 40)
    let canvas = Canvas(surface: s)
    canvas.clip(to: Path(ellipseIn: Rect(x: 0, y: 0, width: 40, height: 40)))
    let skipped = canvas.clear(.white, skipping: [IntRect(x: 10, y: 10, width: 20, height: 20)])
    #expect(skipped == 0)
    #expect(s[20, 20] == Color.white.premultiplied)
  }
}
