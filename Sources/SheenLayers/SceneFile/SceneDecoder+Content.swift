// The keys of shape, gradient and text layers.

import SheenRaster

extension SceneDecoder {
  // MARK: Shape

  static func decodeShapeKey(_ key: String, _ f: SceneField, into layer: ShapeLayer) throws(SceneError) {
    switch key {
    case "path": layer.path = try decodePath(f)
    case "fillColor": layer.fillColor = try f.color()
    case "fillRule":
      layer.fillRule = try f.choice(["nonZero": FillRule.nonZero, "evenOdd": FillRule.evenOdd])
    case "strokeColor": layer.strokeColor = try f.color()
    case "lineWidth": layer.lineWidth = try f.nonNegative()
    case "lineJoin":
      layer.lineJoin = try f.choice([
        "miter": LineJoin.miter, "round": LineJoin.round, "bevel": LineJoin.bevel,
      ])
    case "lineCap":
      layer.lineCap = try f.choice(["butt": LineCap.butt, "round": LineCap.round, "square": LineCap.square])
    default: break
    }
  }

  // MARK: Gradient

  static func decodeGradientKey(_ key: String, _ f: SceneField, into layer: GradientLayer) throws(SceneError)
  {
    switch key {
    case "colors":
      let items = try f.elements("an array of two or more colours")
      guard items.count >= 2 else { throw f.fail("expected two or more colours, got \(items.count)") }
      var colors: [Color] = []
      for item in items { colors.append(try item.color(nullable: false)!) }
      layer.colors = colors
    case "locations":
      if f.isNull {
        layer.locations = nil
        return
      }
      var locations: [Double] = []
      for item in try f.elements("an array of numbers in 0…1") {
        let v = try item.unit()
        if let last = locations.last, v < last {
          throw item.fail("locations must not decrease, got \(item.described) after \(formatted(last))")
        }
        locations.append(v)
      }
      layer.locations = locations
    case "startPoint": layer.startPoint = try f.point()
    case "endPoint": layer.endPoint = try f.point()
    case "gradientType":
      layer.type = try f.choice(["axial": GradientLayer.GradientType.axial, "radial": .radial])
    default: break
    }
  }

  /// What needs all of a gradient's keys: the colours are required, and the locations match them.
  static func checkGradient(_ layer: GradientLayer, _ field: SceneField, _ members: [JSONMember])
    throws(SceneError)
  {
    guard members.contains(where: { $0.key == "colors" }) else {
      throw SceneError(
        keyPath: "\(field.path).colors", message: "missing (a gradient layer needs two or more colours)",
        offset: field.value.offset)
    }
    if let locations = layer.locations, locations.count != layer.colors.count,
      let m = members.first(where: { $0.key == "locations" })
    {
      throw field.member(m).fail(
        "expected one location per colour (\(layer.colors.count), as \"colors\" has), got \(locations.count)")
    }
  }

  // MARK: Text

  static func decodeTextKey(_ key: String, _ f: SceneField, into layer: TextLayer) throws(SceneError) {
    switch key {
    case "string":
      let string = try f.string()
      guard string.utf8.count <= TextLayer.maxSceneStringBytes else {
        throw f.fail(
          "expected a string of at most \(TextLayer.maxSceneStringBytes) bytes, got \(string.utf8.count) bytes"
        )
      }
      layer.string = string
    case "fontSize": layer.fontSize = try f.nonNegative()
    case "fontWeight":
      layer.fontWeight = try f.choice([
        "ultraLight": TextLayer.FontWeight.ultraLight, "thin": .thin, "light": .light, "regular": .regular,
        "medium": .medium, "semibold": .semibold, "bold": .bold, "heavy": .heavy, "black": .black,
      ])
    case "fontFamily": layer.fontFamily = try f.fontFamily()
    // A null colour draws no text.
    case "foregroundColor": layer.foregroundColor = try f.color() ?? .clear
    case "alignmentMode":
      layer.alignmentMode = try f.choice([
        "natural": TextLayer.AlignmentMode.natural, "left": .left, "center": .center, "right": .right,
      ])
    case "isWrapped": layer.isWrapped = try f.bool()
    case "truncationMode":
      layer.truncationMode = try f.choice(["none": TextLayer.TruncationMode.none, "end": .end])
    default: break
    }
  }
}

extension TextLayer {
  /// The longest `string` a scene file may give a text layer, in bytes of UTF-8 (a text layer
  /// lays out all of its string, whatever its size: memory grows with the string).
  public static let maxSceneStringBytes = 1 << 20
}
