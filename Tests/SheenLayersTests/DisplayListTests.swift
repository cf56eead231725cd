import Testing

@testable import SheenLayers
@testable import SheenRaster

/// The display list: a frame's tree resolved once into Sendable values that every band replays
/// without reading a layer.
@Suite struct DisplayListTests {
  /// A tree with one of each kind of drawing: a shadowed, clipped card holding text, a stroked
  /// shape, a gradient and a masked, translucent badge; a turned card with an alpha shadow.
  static func tree(text: String = "Display list", stroke: Color = .testBlue) -> [Layer] {
    let card = Layer()
    card.frame = Rect(x: 20, y: 16, width: 180, height: 110)
    card.backgroundColor = .white
    card.cornerRadius = 12
    card.masksToBounds = true
    card.borderWidth = 1.5
    card.borderColor = Color(red: 0.2, green: 0.3, blue: 0.4)
    let title = TextLayer()
    title.frame = Rect(x: 10, y: 8, width: 160, height: 24)
    title.string = text
    title.fontSize = 15
    card.addSublayer(title)
    let shape = ShapeLayer()
    shape.frame = Rect(x: 12, y: 40, width: 60, height: 40)
    var p = Path()
    p.move(to: Point(x: 0, y: 40))
    p.addLine(to: Point(x: 30, y: 0))
    p.addLine(to: Point(x: 60, y: 40))
    shape.path = p
    shape.fillColor = Color(red: 1, green: 0.8, blue: 0.2)
    shape.strokeColor = stroke
    shape.lineWidth = 3
    card.addSublayer(shape)
    let gradient = GradientLayer()
    gradient.frame = Rect(x: 90, y: 44, width: 80, height: 30)
    gradient.cornerRadius = 15
    gradient.colors = [.testRed, .testBlue]
    card.addSublayer(gradient)
    let badge = Layer()
    badge.frame = Rect(x: 150, y: 80, width: 40, height: 40)
    badge.backgroundColor = Color(red: 0.1, green: 0.7, blue: 0.3)
    badge.opacity = 0.7
    let dot = Layer()
    dot.frame = Rect(x: 5, y: 5, width: 30, height: 30)
    dot.cornerRadius = 15
    dot.backgroundColor = .black
    badge.mask = dot
    card.addSublayer(badge)

    let holder = Layer()
    holder.frame = Rect(x: 40, y: 140, width: 120, height: 60)
    holder.transform = LayerTransform(rotation: 0.2)
    holder.shadowOpacity = 0.5
    holder.shadowRadius = 4
    holder.shadowOffset = Size(width: 2, height: 3)
    let a = ShapeLayer()
    a.frame = Rect(x: 0, y: 0, width: 120, height: 60)
    var star = Path()
    star.move(to: Point(x: 60, y: 0))
    star.addLine(to: Point(x: 75, y: 60))
    star.addLine(to: Point(x: 0, y: 20))
    star.addLine(to: Point(x: 120, y: 20))
    star.addLine(to: Point(x: 45, y: 60))
    star.closeSubpath()
    a.path = star
    a.fillColor = .testRed
    holder.addSublayer(a)
    return [card, holder]
  }

  /// What a node says, layer identity aside (two equal trees have different layers).
  static func summary(_ list: DisplayList) -> [String] {
    list.nodes.map { n in
      var content = "none"
      switch n.content {
      case .text(let layout, let color, let clip)?: content = "text \(layout.lines.count) \(color) \(clip)"
      case .shape(let path, let fill, let rule, let stroke, let style)?:
        content =
          "shape \(path.hashValue) \(String(describing: fill)) \(rule) \(String(describing: stroke)) \(style)"
      case .roundedFill(let paint)?: content = "fill \(paint.hashValue)"
      case nil: break
      }
      return [
        "\(n.kind) \(n.invisible) \(n.end) \(n.childStart) \(n.childCount) \(n.hasMask)",
        "\(n.relative) \(n.ctm) \(n.deviceExtent) \(n.localFullExtent) \(n.localBodyExtent)",
        "\(n.opacity) \(n.masksToBounds) \(n.rounded.hashValue) \(n.shape.size) \(n.shape.radii)",
        "\(n.shape.borderWidth) \(String(describing: n.shape.signature)) \(n.drawsPlainly) \(n.origin)",
        "\(String(describing: n.opaqueInterior)) \(n.opaqueStart) \(n.opaqueEnd) \(n.shadowVisible)",
        "\(String(describing: n.shadowColor)) \(n.shadowOpacity) \(n.shadowRadius) \(n.shadowOffset)",
        "\(String(describing: n.shadowShapes)) \(String(describing: n.background))",
        "\(n.partStart) \(n.partEnd) \(content) \(String(describing: n.border?.hashValue))",
        "\(n.alphaSignature)",
      ].joined(separator: " | ")
    }
  }

  @Test func equalTreesMakeEqualLists() {
    var a = DisplayList()
    var b = DisplayList()
    let t = Transform(scaleX: 1.5, y: 1.5)
    a.build(DisplayListTests.tree(), transform: t, cull: IntRect(x: 0, y: 0, width: 360, height: 330))
    b.build(DisplayListTests.tree(), transform: t, cull: IntRect(x: 0, y: 0, width: 360, height: 330))
    #expect(a.count == 8)
    #expect(DisplayListTests.summary(a) == DisplayListTests.summary(b))
    #expect(a.opaqueParts == b.opaqueParts)
    // A different stroke colour is a different list.
    var c = DisplayList()
    c.build(
      DisplayListTests.tree(stroke: .testRed), transform: t,
      cull: IntRect(x: 0, y: 0, width: 360, height: 330))
    #expect(DisplayListTests.summary(a) != DisplayListTests.summary(c))
  }

  /// Replays `list` onto a new white surface.
  static func replay(_ list: DisplayList, _ compositor: Compositor = Compositor()) throws -> Surface {
    let s = try Surface(width: 360, height: 330)
    let c = Canvas(surface: s)
    c.clear(.white)
    compositor.replay(list, in: c)
    return s
  }

  @Test func theListIsASnapshotOfTheTree() throws {
    let layers = DisplayListTests.tree()
    var list = DisplayList()
    let t = Transform(scaleX: 1.5, y: 1.5)
    list.build(layers, transform: t, cull: IntRect(x: 0, y: 0, width: 360, height: 330))
    let before = try DisplayListTests.replay(list)
    // The tree changes (text, colours, geometry, sublayers) after the list was made: a band
    // replaying it draws what was listed, as a fresh tree of the old state renders it.
    let card = layers[0]
    (card.sublayers[0] as! TextLayer).string = "Changed"
    (card.sublayers[1] as! ShapeLayer).strokeColor = .testRed
    card.backgroundColor = .black
    card.frame.origin = Point(x: 60, y: 60)
    card.sublayers[3].removeFromSuperlayer()
    layers[1].shadowOffset = Size(width: -8, height: 9)
    layers[1].sublayers[0].removeFromSuperlayer()
    let after = try DisplayListTests.replay(list)
    #expect(after.pixels == before.pixels)
    let fresh = try render(DisplayListTests.tree(), width: 360, height: 330, scale: 1.5)
    #expect(fresh.pixels == before.pixels)
    // And the changed tree draws something else.
    let changed = try render(layers, width: 360, height: 330, scale: 1.5)
    #expect(changed.pixels != before.pixels)
  }

  @Test func theListIsSendable() async throws {
    var list = DisplayList()
    list.build(
      DisplayListTests.tree(), transform: .identity, cull: IntRect(x: 0, y: 0, width: 360, height: 330))
    let here = try DisplayListTests.replay(list).pixels
    // Handed to another task (which needs a Sendable value) and replayed there.
    let made = list
    let there = try await Task.detached { try DisplayListTests.replay(made).pixels }.value
    #expect(there == here)
    let replay: @Sendable () -> Int = { made.count }
    #expect(replay() == list.count)
  }

  @Test func aSteadyListKeepsItsStorage() {
    let layers = DisplayListTests.tree()
    var list = DisplayList()
    let cull = IntRect(x: 0, y: 0, width: 360, height: 330)
    list.build(layers, transform: .identity, cull: cull)
    let first = list.nodes.withUnsafeBufferPointer { $0.baseAddress }
    for _ in 0..<3 { list.build(layers, transform: .identity, cull: cull) }
    #expect(list.nodes.withUnsafeBufferPointer { $0.baseAddress } == first)
  }

  @Test func layersOutsideTheFrameOrTheirClipAreLeftOut() throws {
    // A list of 200 rows in a clipped view shows four: the others are one culled node each,
    // with nothing below them listed.
    let list = Layer()
    list.frame = Rect(x: 0, y: 0, width: 100, height: 100)
    list.masksToBounds = true
    for i in 0..<200 {
      let row = Layer()
      row.frame = Rect(x: 0, y: Double(i) * 25, width: 100, height: 25)
      row.backgroundColor = i % 2 == 0 ? .testRed : .testBlue
      let label = TextLayer()
      label.frame = Rect(x: 4, y: 2, width: 90, height: 20)
      label.string = "Row \(i)"
      row.addSublayer(label)
      list.addSublayer(row)
    }
    var d = DisplayList()
    d.build([list], transform: .identity, cull: IntRect(x: 0, y: 0, width: 400, height: 400))
    let drawn = d.nodes.filter { $0.kind == .drawn }.count
    let culled = d.nodes.filter { $0.kind == .culled }.count
    // The clip's box is grown by a pixel: the fifth row's edge is listed too.
    #expect(drawn == 1 + 5 * 2)
    #expect(culled == 195)
    // Culled in the list or by the clip when replayed (the fifth row's label), as the old walker
    // counted them.
    let compositor = Compositor()
    let s = try render([list], width: 400, height: 400, compositor: compositor)
    #expect(compositor.context.statistics.layersCulled == 196)
    #expect(rgba(s[97, 37]) == rgba(Color.testBlue.premultiplied))
  }

  /// A container whose shadow is made from its alpha (no background: a star and a bar), the
  /// star holding a small shadowed dot.
  static func shadowed(
    dotOffset: Size = Size(width: 0, height: 2), dotShadow: Color = .black, bar: Double = 50
  )
    -> [Layer]
  {
    let holder = Layer()
    holder.frame = Rect(x: 30, y: 20, width: 140, height: 90)
    holder.shadowOpacity = 0.6
    holder.shadowRadius = 5
    holder.shadowOffset = Size(width: 3, height: 4)
    let star = ShapeLayer()
    star.frame = Rect(x: 0, y: 0, width: 90, height: 90)
    var p = Path()
    p.move(to: Point(x: 45, y: 0))
    p.addLine(to: Point(x: 72, y: 90))
    p.addLine(to: Point(x: 0, y: 33))
    p.addLine(to: Point(x: 90, y: 33))
    p.addLine(to: Point(x: 18, y: 90))
    p.closeSubpath()
    star.path = p
    star.fillColor = Color(red: 0.9, green: 0.6, blue: 0.1)
    let dot = Layer()
    dot.frame = Rect(x: 35, y: 40, width: 20, height: 20)
    dot.cornerRadius = 10
    dot.backgroundColor = .testBlue
    dot.shadowOpacity = 1
    dot.shadowRadius = 2
    dot.shadowOffset = dotOffset
    dot.shadowColor = dotShadow
    star.addSublayer(dot)
    let barLayer = Layer()
    barLayer.frame = Rect(x: 95, y: 10, width: 40, height: bar)
    barLayer.backgroundColor = .testRed
    holder.addSublayer(star)
    holder.addSublayer(barLayer)
    return [holder]
  }

  static func shadowKey(_ layers: [Layer]) -> Int {
    var list = DisplayList()
    list.build(layers, transform: .identity, cull: IntRect(x: 0, y: 0, width: 200, height: 150))
    return list.nodes[0].alphaSignature
  }

  @Test func anyChangeBelowAContainerChangesItsShadow() throws {
    // Each change, deep in the subtree, makes another shadow key, and the container drawn by a
    // compositor that kept the old shadow is a fresh compositor's picture of the new tree.
    let layers = DisplayListTests.shadowed()
    let star = layers[0].sublayers[0] as! ShapeLayer
    let dot = star.sublayers[0]
    let kept = Compositor()
    _ = try render(layers, width: 200, height: 150, compositor: kept)
    var keys = [DisplayListTests.shadowKey(layers)]
    let changes: [() -> Void] = [
      { dot.shadowOffset = Size(width: 6, height: -5) },
      { dot.shadowColor = .testRed },
      { dot.shadowOpacity = 0.3 },
      { dot.frame.origin = Point(x: 20, y: 45) },
      { star.fillColor = .testBlue },
      { star.path = Path(ellipseIn: Rect(x: 0, y: 0, width: 90, height: 60)) },
      { layers[0].sublayers[1].isHidden = true },
    ]
    for change in changes {
      change()
      keys.append(DisplayListTests.shadowKey(layers))
      let drawn = try render(layers, width: 200, height: 150, compositor: kept)
      let fresh = try render(layers, width: 200, height: 150)
      #expect(drawn.pixels == fresh.pixels)
    }
    #expect(Set(keys).count == keys.count, "\(keys)")
    // The same changes made to a new tree give the same key (the key is the drawing's, not the
    // layers').
    let again = DisplayListTests.shadowed(dotOffset: Size(width: 6, height: -5), dotShadow: .testRed)
    #expect(DisplayListTests.shadowKey(again) == keys[2])
  }

  @Test func aMovedOrFadedContainerKeepsItsShadow() throws {
    let layers = DisplayListTests.shadowed()
    let key = DisplayListTests.shadowKey(layers)
    let compositor = Compositor()
    _ = try render(layers, width: 200, height: 150, compositor: compositor)
    #expect(compositor.context.statistics.blurs > 0)
    // Moved as a whole by whole and by fractional points, faded: the same key, no blur.
    for (dx, opacity) in [(10.0, 1.0), (-7.25, 0.8), (3.5, 0.4)] {
      layers[0].frame.origin.x += dx
      layers[0].opacity = opacity
      #expect(DisplayListTests.shadowKey(layers) == key)
      compositor.context.resetStatistics()
      let drawn = try render(layers, width: 200, height: 150, compositor: compositor)
      #expect(compositor.context.statistics.blurs == 0)
      #expect(drawn.pixels == (try render(layers, width: 200, height: 150)).pixels)
    }
    // An equal container elsewhere shares the key.
    let other = DisplayListTests.shadowed()
    other[0].frame.origin = Point(x: 3, y: 1)
    #expect(DisplayListTests.shadowKey(other) == key)
  }
}
