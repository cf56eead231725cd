import Testing

@testable import SheenLayers
@testable import SheenRaster

/// Where a layer's image goes (gravity, scale, contentsRect) and the nine parts, against
/// rectangles worked out by hand.
@Suite struct ImageGeometryTests {
  static func layer(_ w: Int, _ h: Int, frame: Rect) -> Layer {
    let l = Layer()
    l.frame = frame
    l.contents = RasterImage(surface: try! Surface(width: w, height: h))
    return l
  }

  @Test func gravities() {
    // A 200 x 100 image in a 100 x 100 layer.
    let l = ImageGeometryTests.layer(200, 100, frame: Rect(x: 0, y: 0, width: 100, height: 100))
    func dst(_ g: ContentsGravity, scale: Double = 1) -> Rect {
      l.contentsGravity = g
      l.contentsScale = scale
      return l.contentsGeometry!.destination
    }
    #expect(dst(.resize) == Rect(x: 0, y: 0, width: 100, height: 100))
    #expect(dst(.resizeAspect) == Rect(x: 0, y: 25, width: 100, height: 50))
    #expect(dst(.resizeAspectFill) == Rect(x: -50, y: 0, width: 200, height: 100))
    #expect(dst(.center, scale: 4) == Rect(x: 25, y: 37.5, width: 50, height: 25))
    #expect(dst(.top, scale: 4) == Rect(x: 25, y: 0, width: 50, height: 25))
    #expect(dst(.bottom, scale: 4) == Rect(x: 25, y: 75, width: 50, height: 25))
    #expect(dst(.left, scale: 4) == Rect(x: 0, y: 37.5, width: 50, height: 25))
    #expect(dst(.right, scale: 4) == Rect(x: 50, y: 37.5, width: 50, height: 25))
    #expect(dst(.topLeft, scale: 4) == Rect(x: 0, y: 0, width: 50, height: 25))
    #expect(dst(.bottomRight, scale: 4) == Rect(x: 50, y: 75, width: 50, height: 25))
    // contentsRect picks a part (clamped to the image): the right half, 100 x 100 pixels.
    l.contentsRect = Rect(x: 0.5, y: 0, width: 0.75, height: 1)
    l.contentsGravity = .resize
    #expect(l.contentsGeometry!.source == Rect(x: 100, y: 0, width: 100, height: 100))
    // A frame that grows spills the aspect-fill image into the layer's extent.
    l.contentsRect = Rect(x: 0, y: 0, width: 1, height: 1)
    l.contentsGravity = .resizeAspectFill
    Layer.prepareForDrawingTree([l])
    #expect(l.localBodyExtent == Rect(x: -50, y: 0, width: 200, height: 100))
  }

  @Test func nineParts() {
    // A 30 x 30 image, centre [1/3, 1/3, 1/3, 1/3]: corners of 10 x 10 pixels, at contentsScale 2
    // 5 x 5 points, in a 100 x 40 layer.
    let l = ImageGeometryTests.layer(30, 30, frame: Rect(x: 0, y: 0, width: 100, height: 40))
    l.contentsScale = 2
    l.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
    let parts = l.contentsParts
    #expect(parts.count == 9)
    func near(_ a: Rect, _ b: Rect) -> Bool {
      abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9 && abs(a.width - b.width) < 1e-9
        && abs(a.height - b.height) < 1e-9
    }
    #expect(near(parts[0].source, Rect(x: 0, y: 0, width: 10, height: 10)))
    #expect(near(parts[0].destination, Rect(x: 0, y: 0, width: 5, height: 5)))
    #expect(near(parts[4].source, Rect(x: 10, y: 10, width: 10, height: 10)))
    #expect(near(parts[4].destination, Rect(x: 5, y: 5, width: 90, height: 30)))
    #expect(near(parts[8].destination, Rect(x: 95, y: 35, width: 5, height: 5)))
    #expect(near(parts[5].destination, Rect(x: 95, y: 5, width: 5, height: 30)))
    // Smaller than two corners (6 points tall): the corners shrink in proportion, 3 + 3, and the
    // middle row (nothing left for it) is left out.
    l.frame = Rect(x: 0, y: 0, width: 100, height: 6)
    let small = l.contentsParts
    #expect(small.count == 6)
    #expect(near(small[0].destination, Rect(x: 0, y: 0, width: 5, height: 3)))
    #expect(near(small[5].destination, Rect(x: 95, y: 3, width: 5, height: 3)))
    // Any gravity but resize ignores contentsCenter.
    l.contentsGravity = .center
    #expect(l.contentsParts.count == 1)
  }
}
