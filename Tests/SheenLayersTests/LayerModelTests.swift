import Testing

@testable import SheenLayers
@testable import SheenRaster

@Suite struct LayerModelTests {
  @Test func defaultsFollowCoreAnimation() {
    let l = Layer()
    #expect(l.shadowOffset == Size(width: 0, height: -3))
    #expect(l.shadowRadius == 3)
    #expect(l.shadowOpacity == 0)
    #expect(l.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(l.maskedCorners == .all)
    #expect(l.opacity == 1)
  }

  @Test func cornerRadiusIsClampedToHalfTheShorterSide() {
    let l = Layer()
    l.frame = Rect(x: 0, y: 0, width: 100, height: 40)
    l.cornerRadius = 50
    l.maskedCorners = [.topLeft, .bottomRight]
    let r = l.effectiveCornerRadii
    #expect(r.topLeft == 20 && r.bottomRight == 20 && r.topRight == 0 && r.bottomLeft == 0)
  }

  @Test func sublayerInsertionOrder() {
    let root = Layer()
    let a = Layer()
    let b = Layer()
    let c = Layer()
    root.addSublayer(a)
    root.insertSublayer(b, at: 0)
    root.insertSublayer(c, below: a)
    #expect(root.sublayers.map { ObjectIdentifier($0) } == [b, c, a].map { ObjectIdentifier($0) })
    let other = Layer()
    other.addSublayer(a)
    #expect(root.sublayers.count == 2 && a.superlayer === other)
  }

  @Test func transformRotatesAboutTheAnchor() {
    let l = Layer()
    l.frame = Rect(x: 10, y: 20, width: 100, height: 50)
    l.transform = LayerTransform(rotation: Double.pi / 2)
    let t = l.transformToSuperlayer
    // The centre stays put; the top-left corner swings to the top-right of the centre.
    let centre = t.apply(Point(x: 50, y: 25))
    #expect(abs(centre.x - 60) < 1e-9 && abs(centre.y - 45) < 1e-9)
    let corner = t.apply(Point(x: 0, y: 0))
    #expect(abs(corner.x - 85) < 1e-9 && abs(corner.y - (-5)) < 1e-9)
  }
}
