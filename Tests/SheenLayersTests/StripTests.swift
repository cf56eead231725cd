import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// A band drawn a strip of rows at a time (Compositor+Strips.swift) draws the pixels it draws
/// whole, on one thread and on two, whatever the strips' height.
@Suite struct StripTests {
  @Test func stripsAreAboutAMegabyteAndAtLeastSixteenRows() {
    #expect(Compositor.stripCount(rows: 1080, width: 1920, pixels: 1 << 18) == 8)
    #expect(Compositor.stripCount(rows: 136, width: 1920, pixels: 1 << 18) == 1)
    #expect(Compositor.stripCount(rows: 137, width: 1920, pixels: 1 << 18) == 2)
    #expect(Compositor.stripCount(rows: 1080, width: 1920, pixels: 0) == 1)
    // A very wide band still gets strips of 16 rows, not of one.
    #expect(Compositor.stripCount(rows: 160, width: 100_000, pixels: 1 << 18) == 10)
    #expect(Compositor.stripCount(rows: 0, width: 1920, pixels: 1 << 18) == 1)
  }

  /// Every scene file (the gallery, the seed stories): the same pixels drawn whole and in strips
  /// (the gallery's 1920 x 1080 in the default 8 strips, and on two threads in 16; the seeds in
  /// strips of 16 rows, on one thread and two).
  @Test func sceneFilesAreTheSameInStripsAndWhole() throws {
    let files = try galleryAndTestSceneFiles()
    #expect(files.count >= 10)
    var moreDrawn = 0
    for path in files {
      let scene = try Scene.decode(contentsOfFile: path)
      let t = Transform(scaleX: scene.scale, y: scene.scale)
      var frames: [[UInt32]] = []
      var drawn: [Int] = []
      let small = scene.pixelWidth * scene.pixelHeight < 1 << 20
      let cases =
        small ? [(1, 0), (1, 1), (2, 1)] : [(1, 0), (1, Compositor.defaultStripPixels), (2, 1 << 17)]
      for (threads, strip) in cases {
        let r = FrameRenderer(threads: threads)
        r.stripPixels = strip
        let s = try Surface(width: scene.pixelWidth, height: scene.pixelHeight)
        r.render(scene.layers, into: s, transform: t, background: scene.background ?? .clear)
        frames.append(s.pixels)
        drawn.append(r.context.statistics.layersDrawn)
      }
      for k in 1..<frames.count {
        let same = frames[0] == frames[k]
        #expect(same, "\(path), case \(k)")
      }
      // Strips draw the layers that cross their borders once per strip.
      if drawn[1] > drawn[0] { moreDrawn += 1 }
    }
    #expect(moreDrawn == files.count)
  }
}
