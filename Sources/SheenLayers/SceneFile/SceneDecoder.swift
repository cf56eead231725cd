// Scene files to layers: the top level (canvas) and each layer's keys, in document order, so the
// first problem reported is the first one in the file.

import SheenRaster

/// Turns a parsed scene file into a `Scene`, refusing anything SCENE.md does not allow.
enum SceneDecoder {
  /// The layer types and the keys each adds to those of every layer.
  enum LayerType: String, CaseIterable {
    case layer, shape, gradient, text

    var keys: [String] {
      switch self {
      case .layer: []
      case .shape: ["path", "fillColor", "fillRule", "strokeColor", "lineWidth", "lineJoin", "lineCap"]
      case .gradient: ["colors", "locations", "startPoint", "endPoint", "gradientType"]
      case .text:
        [
          "string", "fontSize", "fontWeight", "fontFamily", "foregroundColor", "alignmentMode", "isWrapped",
          "truncationMode",
        ]
      }
    }
  }

  /// The keys of every layer.
  static let commonKeys: Set<String> = [
    "type", "frame", "backgroundColor", "cornerRadius", "maskedCorners", "masksToBounds", "borderWidth",
    "borderColor", "opacity", "hidden", "transform", "anchorPoint", "shadowColor", "shadowOpacity",
    "shadowOffset", "shadowRadius", "shadowPath", "mask", "sublayers", "contents", "contentsGravity",
    "contentsScale", "contentsRect", "contentsCenter", "minificationFilter", "magnificationFilter",
  ]

  // MARK: The canvas

  static func decodeScene(_ root: SceneField, scaleOverride: Double?, images: SceneImageSource)
    throws(SceneError)
    -> Scene
  {
    let members = try root.members("a scene object at the top level")
    var width: Double?
    var height: Double?
    var scale = 1.0
    var background: Color?
    var layers: SceneField?
    for m in members {
      let f = root.member(m)
      switch m.key {
      case "width": width = try f.positive()
      case "height": height = try f.positive()
      case "scale": scale = try f.positive()
      case "background": background = try f.color()
      case "layers": layers = f
      default: throw root.unknownKey(m)
      }
    }
    guard let width else {
      throw SceneError(keyPath: "width", message: "missing (the canvas width in points)")
    }
    guard let height else {
      throw SceneError(keyPath: "height", message: "missing (the canvas height in points)")
    }
    if let s = scaleOverride { scale = s }
    let pixelWidth = try canvasPixels("width", width, scale: scale, from: root, members)
    let pixelHeight = try canvasPixels("height", height, scale: scale, from: root, members)
    var scene = Scene(
      width: width, height: height, scale: scale, background: background, layers: [], pixelWidth: pixelWidth,
      pixelHeight: pixelHeight)
    if let layers {
      for item in try layers.elements("an array of layers") {
        scene.layers.append(try decodeLayer(item, depth: 1, images: images))
      }
    }
    return scene
  }

  /// A side of the canvas in pixels: `points × scale` rounded half up, in 1...16384.
  static func canvasPixels(
    _ key: String, _ points: Double, scale: Double, from root: SceneField, _ members: [JSONMember]
  ) throws(SceneError) -> Int {
    let exact = points * scale
    let rounded = (exact + 0.5).rounded(.down)
    let offset = members.first { $0.key == key }?.value.offset
    let what =
      "a canvas of \(formatted(exact)) pixels (\(formatted(points)) pt × scale \(formatted(scale)))"
    if !(rounded <= Double(Scene.maxPixelsPerSide)) {
      throw SceneError(
        keyPath: key, message: "\(what) is over \(Scene.maxPixelsPerSide) pixels on a side", offset: offset)
    }
    if rounded < 1 {
      throw SceneError(keyPath: key, message: "\(what) rounds to zero pixels", offset: offset)
    }
    return Int(rounded)
  }

  // MARK: Layers

  /// Decodes one layer and its subtree; `depth` is 1 for the root's sublayers.
  static func decodeLayer(_ field: SceneField, depth: Int, images: SceneImageSource) throws(SceneError)
    -> Layer
  {
    guard depth <= Scene.maxLayerDepth else {
      throw SceneError(
        keyPath: abbreviated(field.path),
        message: "layers nested deeper than \(Scene.maxLayerDepth) (this one is at depth \(depth))",
        offset: field.value.offset)
    }
    let members = try field.members("a layer object")
    var type = LayerType.layer
    if let m = members.first(where: { $0.key == "type" }) {
      let f = field.member(m)
      guard case .string(let name) = m.value.kind, let t = LayerType(rawValue: name) else {
        if case .string = m.value.kind {
          throw f.fail(
            "unknown layer type \(f.described) (expected \(listed(LayerType.allCases.map(\.rawValue))))")
        }
        throw f.expected("a layer type, " + listed(LayerType.allCases.map(\.rawValue)))
      }
      type = t
    }
    let typeKeys = Set(type.keys)
    for m in members where !commonKeys.contains(m.key) && !typeKeys.contains(m.key) {
      if let owner = LayerType.allCases.first(where: { $0.keys.contains(m.key) }) {
        throw field.unknownKey(
          m, "unknown key for a layer of type \"\(type.rawValue)\" (it belongs to type \"\(owner.rawValue)\")"
        )
      }
      throw field.unknownKey(m)
    }

    let layer: Layer
    switch type {
    case .layer: layer = Layer()
    case .shape: layer = ShapeLayer()
    case .gradient: layer = GradientLayer()
    case .text: layer = TextLayer()
    }
    for m in members {
      let f = field.member(m)
      if commonKeys.contains(m.key) {
        try decodeCommonKey(m.key, f, into: layer, depth: depth, images: images)
      } else if let shape = layer as? ShapeLayer {
        try decodeShapeKey(m.key, f, into: shape)
      } else if let gradient = layer as? GradientLayer {
        try decodeGradientKey(m.key, f, into: gradient)
      } else if let text = layer as? TextLayer {
        try decodeTextKey(m.key, f, into: text)
      }
    }
    if let gradient = layer as? GradientLayer {
      try checkGradient(gradient, field, members)
    }
    return layer
  }

  /// A key every layer has.
  static func decodeCommonKey(
    _ key: String, _ f: SceneField, into layer: Layer, depth: Int, images: SceneImageSource
  ) throws(SceneError) {
    switch key {
    case "type": break  // read first
    case "frame": layer.frame = try f.rect()
    case "backgroundColor": layer.backgroundColor = try f.color()
    case "cornerRadius": layer.cornerRadius = try f.nonNegative()
    case "maskedCorners": layer.maskedCorners = try f.corners()
    case "masksToBounds": layer.masksToBounds = try f.bool()
    case "borderWidth": layer.borderWidth = try f.nonNegative()
    case "borderColor": layer.borderColor = try f.color()
    case "opacity": layer.opacity = try f.unit()
    case "hidden": layer.isHidden = try f.bool()
    case "transform": layer.transform = try decodeTransform(f)
    case "anchorPoint": layer.anchorPoint = try f.point()
    case "shadowColor": layer.shadowColor = try f.color()
    case "shadowOpacity": layer.shadowOpacity = try f.unit()
    case "shadowOffset": layer.shadowOffset = try f.size()
    case "shadowRadius": layer.shadowRadius = try f.nonNegative()
    case "shadowPath": layer.shadowPath = try decodePath(f)
    case "mask": layer.mask = f.isNull ? nil : try decodeLayer(f, depth: depth + 1, images: images)
    case "sublayers":
      for item in try f.elements("an array of layers") {
        layer.addSublayer(try decodeLayer(item, depth: depth + 1, images: images))
      }
    case "contents": layer.contents = try images.image(f)
    case "contentsGravity":
      guard case .string(let s) = f.value.kind, let g = ContentsGravity(rawValue: s) else {
        throw f.expected("one of " + listed(ContentsGravity.allCases.map(\.rawValue)))
      }
      layer.contentsGravity = g
    case "contentsScale": layer.contentsScale = try f.positive()
    case "contentsRect": layer.contentsRect = try f.rect()
    case "contentsCenter": layer.contentsCenter = try f.rect()
    case "minificationFilter":
      layer.minificationFilter = try f.choice([
        "nearest": ImageFilter.nearest, "linear": .linear, "trilinear": .trilinear,
      ])
    case "magnificationFilter":
      layer.magnificationFilter = try f.choice(["nearest": ImageFilter.nearest, "linear": .linear])
    default: break  // not a common key: refused before decoding
    }
  }

  /// `{"scale": s | [sx, sy], "rotation": radians, "translation": [tx, ty]}` or null.
  static func decodeTransform(_ f: SceneField) throws(SceneError) -> LayerTransform {
    if f.isNull { return .identity }
    var t = LayerTransform.identity
    for m in try f.members("an object with \"scale\", \"rotation\" and \"translation\", or null") {
      let g = f.member(m)
      switch m.key {
      case "scale":
        if case .array = m.value.kind {
          let s = try g.numbers(2)
          t.scaleX = s[0]
          t.scaleY = s[1]
        } else {
          let s = try g.number("a number or [sx, sy]")
          t.scaleX = s
          t.scaleY = s
        }
      case "rotation": t.rotation = try g.number()
      case "translation":
        let v = try g.numbers(2)
        t.translationX = v[0]
        t.translationY = v[1]
      default: throw f.unknownKey(m)
      }
    }
    return t
  }

  // MARK: Paths

  /// An SVG path-data string, `{"roundedRect": [x, y, w, h], "cornerRadius": r, "corners": [...]}`,
  /// or null.
  static func decodePath(_ f: SceneField) throws(SceneError) -> Path? {
    switch f.value.kind {
    case .null:
      return nil
    case .string(let data):
      do {
        return try Path(svgData: data)
      } catch let e as SVGPathError {
        throw f.fail("malformed path at offset \(e.offset) of the path data: \(e.message)")
      } catch {
        throw f.fail("malformed path: \(error)")
      }
    case .object(let members):
      var rect: Rect?
      var radius = 0.0
      var corners = CornerMask.all
      for m in members {
        let g = f.member(m)
        switch m.key {
        case "roundedRect": rect = try g.rect()
        case "cornerRadius": radius = try g.nonNegative()
        case "corners": corners = try g.corners()
        default: throw f.unknownKey(m)
        }
      }
      guard let rect else {
        throw SceneError(
          keyPath: "\(f.path).roundedRect",
          message: "missing (a path object needs \"roundedRect\": [x, y, w, h])",
          offset: f.value.offset)
      }
      // As `cornerRadius` of a layer: clamped to half the shorter side.
      let r = min(radius, rect.width / 2, rect.height / 2)
      let radii = CornerRadii(
        topLeft: corners.contains(.topLeft) ? r : 0, topRight: corners.contains(.topRight) ? r : 0,
        bottomRight: corners.contains(.bottomRight) ? r : 0, bottomLeft: corners.contains(.bottomLeft) ? r : 0
      )
      return Path(roundedRect: rect, radii: radii)
    default:
      throw f.expected("a path (an SVG path-data string or {\"roundedRect\": [x, y, w, h], ...})")
    }
  }

  /// Writes runs of a repeated key path segment once with a count, so that a path 257 layers deep
  /// stays readable: `layers[0](.sublayers[0])×256`.
  static func abbreviated(_ path: String) -> String {
    var segments: [Substring] = []
    var start = path.startIndex
    var i = path.startIndex
    while i < path.endIndex {
      if path[i] == ".", i > start {
        segments.append(path[start..<i])
        start = i
      }
      i = path.index(after: i)
    }
    if start < path.endIndex { segments.append(path[start...]) }
    var out = ""
    var k = 0
    while k < segments.count {
      var j = k
      while j < segments.count, segments[j] == segments[k] { j += 1 }
      out += j - k > 3 ? "(\(segments[k]))×\(j - k)" : segments[k..<j].joined()
      k = j
    }
    return out
  }
}
