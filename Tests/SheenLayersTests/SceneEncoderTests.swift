import Foundation
import SheenTestSupport
import Testing

@testable import SheenLayers
@testable import SheenRaster

/// A layer tree written as a scene file (`Scene.encoded`) reads back to a tree that draws the
/// same pixels.
@Suite struct SceneEncoderTests {
  /// Renders a scene the way `sheen render` does.
  func draw(_ scene: Scene) throws -> Surface {
    let s = try Surface(width: scene.pixelWidth, height: scene.pixelHeight)
    let c = Canvas(surface: s)
    c.clear(scene.background ?? .clear)
    Compositor().render(scene.layers, in: c, transform: Transform(scaleX: scene.scale, y: scene.scale))
    return s
  }

  func roundTrip(_ scene: Scene, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let text = scene.encoded()
    let back = try Scene.decode(Array(text.utf8))
    #expect(back.width == scene.width && back.height == scene.height && back.scale == scene.scale)
    #expect(try draw(back).pixels == draw(scene).pixels, sourceLocation: sourceLocation)
  }

  @Test func seedScenesRoundTrip() throws {
    let dir = ReferenceImage.packageRoot.appendingPathComponent("Tests/Scenes")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
    #expect(files.count >= 5)
    for f in files {
      try roundTrip(Scene.decode(contentsOfFile: dir.appendingPathComponent(f).path))
    }
  }

  /// Every key SCENE.md has, with values away from their defaults.
  @Test func everyPropertyRoundTrips() throws {
    let card = Layer()
    card.frame = Rect(x: 10.25, y: 8, width: 120, height: 70)
    // Colours are bytes in a file: values that are whole bytes read back exactly.
    card.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 230.0 / 255)
    card.cornerRadius = 12
    card.maskedCorners = [.topLeft, .bottomRight]
    card.borderWidth = 2
    card.borderColor = .testBlue
    card.shadowOpacity = 0.5
    card.shadowRadius = 4
    card.shadowOffset = Size(width: 2, height: 3)
    card.shadowColor = .testRed
    card.shadowPath = Path(roundedRect: card.bounds, cornerRadius: 12)
    card.opacity = 0.8
    card.transform = LayerTransform(
      scaleX: 0.9, scaleY: 1.1, rotation: 0.1, translationX: 3, translationY: -2)
    card.anchorPoint = Point(x: 0.3, y: 0.6)
    let shape = ShapeLayer()
    shape.frame = Rect(x: 5, y: 5, width: 50, height: 40)
    var star = Path()
    star.move(to: Point(x: 25, y: 0))
    star.addLine(to: Point(x: 50, y: 40))
    star.addQuadCurve(to: Point(x: 0, y: 40), control: Point(x: 25, y: 30))
    star.addCurve(to: Point(x: 25, y: 0), control1: Point(x: 0, y: 20), control2: Point(x: 10, y: 5))
    star.closeSubpath()
    shape.path = star
    shape.fillColor = .testRed
    shape.fillRule = .evenOdd
    shape.strokeColor = .testBlue
    shape.lineWidth = 3
    shape.lineJoin = .round
    shape.lineCap = .square
    let gradient = GradientLayer()
    gradient.frame = Rect(x: 60, y: 5, width: 50, height: 30)
    gradient.colors = [.testRed, .testBlue, Color(red: 0, green: 1, blue: 0, alpha: 128.0 / 255)]
    gradient.locations = [0, 0.3, 1]
    gradient.type = .radial
    gradient.startPoint = Point(x: 0.5, y: 0.5)
    gradient.endPoint = Point(x: 1, y: 1)
    gradient.cornerRadius = 6
    let text = TextLayer()
    text.frame = Rect(x: 5, y: 48, width: 110, height: 20)
    text.string = "Quote \" and \\ and ünïcode…"
    text.fontSize = 11
    text.fontWeight = .bold
    text.foregroundColor = .testBlue
    text.alignmentMode = .center
    text.isWrapped = true
    text.truncationMode = .end
    let hidden = Layer()
    hidden.frame = Rect(x: 0, y: 0, width: 10, height: 10)
    hidden.backgroundColor = .testRed
    hidden.isHidden = true
    let mask = ShapeLayer()
    mask.frame = card.bounds
    mask.path = Path(ellipseIn: Rect(x: 0, y: 0, width: 120, height: 70))
    for l in [shape, gradient, text, hidden] { card.addSublayer(l) }
    card.mask = mask
    try roundTrip(Scene(width: 150, height: 100, scale: 2, background: .white, layers: [card]))
  }

  @Test func visibleOnlyLeavesOutWhatDoesNotShow() throws {
    let inside = Layer()
    inside.frame = Rect(x: 10, y: 10, width: 20, height: 20)
    inside.backgroundColor = .testRed
    let outside = Layer()
    outside.frame = Rect(x: 10, y: 500, width: 20, height: 20)
    outside.backgroundColor = .testBlue
    // Below the canvas, but its shadow reaches into it.
    let shadowed = Layer()
    shadowed.frame = Rect(x: 40, y: 102, width: 20, height: 20)
    shadowed.backgroundColor = .testBlue
    shadowed.shadowOpacity = 1
    shadowed.shadowRadius = 4
    shadowed.shadowOffset = Size(width: 0, height: -6)
    let scene = Scene(width: 100, height: 100, layers: [inside, outside, shadowed])
    let text = scene.encoded(visibleOnly: true)
    let back = try Scene.decode(Array(text.utf8))
    #expect(back.layers.count == 2)
    #expect(try draw(back).pixels == draw(scene).pixels)
  }
}
