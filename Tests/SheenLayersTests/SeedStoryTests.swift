import Testing

@testable import SheenLayers
@testable import SheenRaster

/// The seed articles' stories, stated in numbers.
@Suite struct SeedStoryTests {
  /// Seed 000: a view with cornerRadius 20, masksToBounds and a shadow (the classic mistake).
  func clippedShadowView() -> Layer {
    let v = Layer()
    v.frame = Rect(x: 30, y: 30, width: 100, height: 60)
    v.backgroundColor = .testBlue
    v.cornerRadius = 20
    v.masksToBounds = true
    v.shadowColor = Color(red: 0.33, green: 0.33, blue: 0.33)
    v.shadowOffset = Size(width: 2, height: 2)
    v.shadowOpacity = 0.4
    v.shadowRadius = 4
    return v
  }

  @Test func seed000MasksToBoundsClipsTheShadowAway() throws {
    let s = try render([clippedShadowView()], width: 160, height: 120)
    for y in 0..<120 {
      for x in 0..<160 where x < 29 || x > 131 || y < 29 || y > 91 {
        #expect(s[x, y] == 0xFFFF_FFFF, "shadow pixel at \(x),\(y)")
      }
    }
  }

  /// The fix: a shape layer at index 0, filled with the view's colour, with the rounded path as
  /// its shadowPath, casts the shadow.
  @Test func seed000ShadowLayerFixCastsARoundedShadow() throws {
    let v = clippedShadowView()
    v.masksToBounds = false
    v.shadowOpacity = 0
    let shadowLayer = ShapeLayer()
    shadowLayer.path = Path(roundedRect: v.bounds, cornerRadius: 20)
    shadowLayer.fillColor = v.backgroundColor
    shadowLayer.shadowPath = shadowLayer.path
    shadowLayer.shadowColor = Color(red: 0.33, green: 0.33, blue: 0.33)
    shadowLayer.shadowOffset = Size(width: 2, height: 2)
    shadowLayer.shadowOpacity = 0.4
    shadowLayer.shadowRadius = 4
    v.insertSublayer(shadowLayer, at: 0)
    let s = try render([v], width: 160, height: 120)
    // Below the view the shadow darkens the white background.
    #expect(luminance(s[80, 93]) < 245)
    // The view's top-left corner is round: the corner pixel shows the (faint) shadow, not blue.
    #expect(rgba(s[30, 30]).b < 200 || rgba(s[30, 30]).r > 100)
    #expect(s[80, 60] == Color.testBlue.premultiplied)
  }

  /// Seed 001: a clear container of rounded, clipped cells casts one shadow that follows them.
  func container(cellBackground: Color?) -> Layer {
    let container = Layer()
    container.frame = Rect(x: 20, y: 20, width: 120, height: 80)
    container.shadowOpacity = 0.5
    container.shadowRadius = 3
    container.shadowOffset = Size(width: 0, height: 0)
    let cell = Layer()
    cell.frame = container.bounds
    cell.backgroundColor = cellBackground
    let content = Layer()
    content.frame = cell.bounds
    content.cornerRadius = 16
    content.masksToBounds = true
    content.backgroundColor = Color(red: 0.95, green: 0.95, blue: 0.95)
    let header = Layer()
    header.frame = Rect(x: 0, y: 0, width: 120, height: 30)
    header.backgroundColor = .testRed
    content.addSublayer(header)
    cell.addSublayer(content)
    container.addSublayer(cell)
    return container
  }

  @Test func seed001ContainerShadowFollowsRoundedCards() throws {
    let s = try render([container(cellBackground: nil)], width: 160, height: 120)
    // Just outside the rounded top-left corner (inside the frame's corner square) the shadow
    // darkens the background, and the red header is clipped round: no red there.
    let p = s[22, 22]
    #expect(luminance(p) < 250)
    #expect(!(rgba(p).r > 200 && rgba(p).g < 80))
    // Inside, the header is red.
    #expect(s[70, 25] == Color.testRed.premultiplied)
    // Outside the card's edge, shadow.
    #expect(luminance(s[80, 101]) < 245)
  }

  @Test func seed001WhiteCellsMakeTheShadowRectangular() throws {
    let s = try render([container(cellBackground: .white)], width: 160, height: 120)
    // The white cell fills the frame's corner: no shadow inside it, and the shadow outside the
    // corner is as dark as along the edges (a rectangle's shadow).
    #expect(s[21, 21] == 0xFFFF_FFFF)
    #expect(luminance(s[18, 18]) < 252)
  }

  /// Seed 003: a cell whose shadowPath follows a change of its size.
  @Test func seed003ShadowPathFollowsSizeChange() throws {
    let cell = Layer()
    cell.frame = Rect(x: 10, y: 10, width: 60, height: 40)
    cell.shadowOpacity = 0.6
    cell.shadowRadius = 2
    cell.shadowOffset = Size(width: 0, height: 0)
    cell.shadowPath = Path(roundedRect: cell.bounds, cornerRadius: 10)
    let compositor = Compositor()
    let before = try render([cell], width: 140, height: 80, compositor: compositor)
    #expect(before[100, 30] == 0xFFFF_FFFF)
    // As in the article's layoutSubviews: a new size brings a new shadowPath.
    cell.frame = Rect(x: 10, y: 10, width: 110, height: 40)
    cell.shadowPath = Path(roundedRect: cell.bounds, cornerRadius: 10)
    let after = try render([cell], width: 140, height: 80, compositor: compositor)
    #expect(luminance(after[100, 30]) < 200)
    #expect(luminance(after[100, 52]) < 250)
  }

  /// Seed 004: only the top-left and bottom-right corners rounded, with a white 2-point stroke.
  @Test func seed004ChosenCornersWithStroke() throws {
    let l = Layer()
    l.frame = Rect(x: 10, y: 10, width: 80, height: 40)
    l.backgroundColor = .testBlue
    l.cornerRadius = 15
    l.maskedCorners = [.topLeft, .bottomRight]
    l.borderWidth = 2
    l.borderColor = .white
    let s = try render([l], width: 100, height: 60, background: .black)
    // Rounded corners leave the corner pixel black; square corners are white border.
    #expect(s[10, 10] == 0xFF00_0000)
    #expect(s[89, 49] == 0xFF00_0000)
    #expect(s[89, 10] == 0xFFFF_FFFF)
    #expect(s[10, 49] == 0xFFFF_FFFF)
    // The border follows the round corner: at 45 degrees on the arc it is white-ish.
    let d = 15 - 14 * 0.7071
    let x = Int(10 + d)
    #expect(luminance(s[x, x]) > 150)
    // Inside, blue.
    #expect(s[50, 30] == Color.testBlue.premultiplied)
  }
}
