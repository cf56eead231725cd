import Testing

@testable import SheenLayers
@testable import SheenRaster

@Suite struct SceneDecoderTests {
  func decode(_ json: String, scale: Double? = nil) throws(SceneError) -> Scene {
    try Scene.decode(Array(json.utf8), scale: scale)
  }

  /// The message decoding `json` gives (an issue is recorded if it decodes).
  func refusal(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    do {
      _ = try decode(json)
      Issue.record("decoded: \(json.prefix(80))", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error.description
    }
  }

  /// `depth` layers nested through `sublayers`, the deepest with `innermost` members.
  func nested(_ depth: Int, innermost: String = "") -> String {
    var s = "{\(innermost)}"
    for _ in 1..<depth { s = #"{"sublayers": [\#(s)]}"# }
    return #"{"width": 10, "height": 10, "layers": [\#(s)]}"#
  }

  // MARK: Errors

  static let refusals: [(String, String)] = [
    // Not JSON, or JSON a scene file does not allow.
    (
      ##"{"width": 10, "height": 10,}"##,
      "invalid JSON at line 1, column 28: unexpected '}', expected a key string after ','"
    ),
    (
      "{\"width\": 10,\n \"height\": 10 x}",
      "invalid JSON at line 2, column 15: unexpected 'x', expected ',' or '}' after an object member"
    ),
    (
      ##"{"width": 10, "height": 10} {}"##,
      "invalid JSON at line 1, column 29: unexpected '{', expected the end of the input after the JSON value"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"opacity": 1, "opacity": 0.5}]}"##,
      "layers[0].opacity: duplicate key"
    ),
    (##"{"width": 10, "height": 10, "width": 10}"##, "width: duplicate key"),
    ("[]", "expected a scene object at the top level, got an array"),
    // Unknown keys and types.
    (##"{"width": 10, "height": 10, "colour": "#000000"}"##, "colour: unknown key"),
    (##"{"width": 10, "height": 10, "layers": [{"shadowBlur": 2}]}"##, "layers[0].shadowBlur: unknown key"),
    (
      ##"{"width": 10, "height": 10, "layers": [{"path": "M0 0"}]}"##,
      ##"layers[0].path: unknown key for a layer of type "layer" (it belongs to type "shape")"##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "colors": []}]}"##,
      ##"layers[0].colors: unknown key for a layer of type "text" (it belongs to type "gradient")"##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "circle"}]}"##,
      ##"layers[0].type: unknown layer type "circle" (expected "layer", "shape", "gradient" or "text")"##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": 1}]}"##,
      ##"layers[0].type: expected a layer type, "layer", "shape", "gradient" or "text", got 1"##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"transform": {"skew": 1}}]}"##,
      "layers[0].transform.skew: unknown key"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"shadowPath": {"roundedRect": [0, 0, 1, 1], "radius": 1}}]}"##,
      "layers[0].shadowPath.radius: unknown key"
    ),
    // Wrong types.
    (##"{"width": "10", "height": 10}"##, ##"width: expected a number > 0, got "10""##),
    (##"{"width": 10, "height": 10, "layers": {}}"##, "layers: expected an array of layers, got an object"),
    (##"{"width": 10, "height": 10, "layers": [3]}"##, "layers[0]: expected a layer object, got 3"),
    (
      ##"{"width": 10, "height": 10, "layers": [{"masksToBounds": 1}]}"##,
      "layers[0].masksToBounds: expected true or false, got 1"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"frame": "0 0 10 10"}]}"##,
      ##"layers[0].frame: expected an array of 4 numbers, got "0 0 10 10""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"frame": [0, 0, 10]}]}"##,
      "layers[0].frame: expected an array of 4 numbers, got 3 elements"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"frame": [0, null, 10, 10]}]}"##,
      "layers[0].frame[1]: expected a number, got null"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"cornerRadius": "4"}]}"##,
      ##"layers[0].cornerRadius: expected a number ≥ 0, got "4""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"sublayers": {}}]}"##,
      "layers[0].sublayers: expected an array of layers, got an object"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"transform": [1, 0, 0, 1]}]}"##,
      ##"layers[0].transform: expected an object with "scale", "rotation" and "translation", or null, got an array"##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"transform": {"scale": "2"}}]}"##,
      ##"layers[0].transform.scale: expected a number or [sx, sy], got "2""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"transform": {"translation": [1]}}]}"##,
      "layers[0].transform.translation: expected an array of 2 numbers, got 1 element"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"mask": true}]}"##,
      "layers[0].mask: expected a layer object, got true"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "shape", "fillRule": "winding"}]}"##,
      ##"layers[0].fillRule: expected one of "nonZero" or "evenOdd", got "winding""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "shape", "lineJoin": "mitre"}]}"##,
      ##"layers[0].lineJoin: expected one of "miter", "round" or "bevel", got "mitre""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"maskedCorners": ["topLeft", "top"]}]}"##,
      ##"layers[0].maskedCorners[1]: expected one of "topLeft", "topRight", "bottomLeft" or "bottomRight", got "top""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "string": 5}]}"##,
      "layers[0].string: expected a string, got 5"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "truncationMode": "middle"}]}"##,
      ##"layers[0].truncationMode: expected one of "none" or "end", got "middle""##
    ),
    // Colours.
    (
      ##"{"width": 10, "height": 10, "background": "#FFF"}"##,
      ##"background: expected a colour "#RRGGBB" or "#RRGGBBAA", got "#FFF""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"backgroundColor": "red"}]}"##,
      ##"layers[0].backgroundColor: expected a colour "#RRGGBB" or "#RRGGBBAA", got "red""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"shadowColor": "#12345G"}]}"##,
      ##"layers[0].shadowColor: expected a colour "#RRGGBB" or "#RRGGBBAA", got "#12345G""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "gradient", "colors": ["#000000", null]}]}"##,
      ##"layers[0].colors[1]: expected a colour "#RRGGBB" or "#RRGGBBAA", got null"##
    ),
    // Paths.
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "shape", "path": "M 10 10 L 20"}]}"##,
      "layers[0].path: malformed path at offset 12 of the path data: expected a number"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "shape", "path": "L 5 5"}]}"##,
      "layers[0].path: malformed path at offset 0 of the path data: path data must begin with a move ('M' or 'm')"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"shadowPath": "M0 0 A-5 5 0 0 1 10 10"}]}"##,
      "layers[0].shadowPath: malformed path at offset 6 of the path data: negative arc radius"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"shadowPath": 4}]}"##,
      ##"layers[0].shadowPath: expected a path (an SVG path-data string or {"roundedRect": [x, y, w, h], ...}), got 4"##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"shadowPath": {"cornerRadius": 4}}]}"##,
      ##"layers[0].shadowPath.roundedRect: missing (a path object needs "roundedRect": [x, y, w, h])"##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"shadowPath": {"roundedRect": [0, 0, 4, -2]}}]}"##,
      "layers[0].shadowPath.roundedRect[3]: expected a size ≥ 0, got -2"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"shadowPath": {"roundedRect": [0, 0, 4, 2], "cornerRadius": -1}}]}"##,
      "layers[0].shadowPath.cornerRadius: expected a number ≥ 0, got -1"
    ),
    // Negative sizes, radii and widths; numbers out of range or not finite.
    (
      ##"{"width": 10, "height": 10, "layers": [{}, {}, {"sublayers": [{"shadowRadius": -4}]}]}"##,
      "layers[2].sublayers[0].shadowRadius: expected a number ≥ 0, got -4"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"frame": [0, 0, -1, 5]}]}"##,
      "layers[0].frame[2]: expected a size ≥ 0, got -1"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"cornerRadius": -0.5}]}"##,
      "layers[0].cornerRadius: expected a number ≥ 0, got -0.5"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"borderWidth": -1}]}"##,
      "layers[0].borderWidth: expected a number ≥ 0, got -1"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "shape", "lineWidth": -2}]}"##,
      "layers[0].lineWidth: expected a number ≥ 0, got -2"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "fontSize": -12}]}"##,
      "layers[0].fontSize: expected a number ≥ 0, got -12"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"opacity": 1.5}]}"##,
      "layers[0].opacity: expected a number in 0…1, got 1.5"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"shadowOpacity": -0.1}]}"##,
      "layers[0].shadowOpacity: expected a number in 0…1, got -0.1"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"cornerRadius": 1e999}]}"##,
      "layers[0].cornerRadius: expected a finite number, got 1e999"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"transform": {"rotation": -1E400}}]}"##,
      "layers[0].transform.rotation: expected a finite number, got -1E400"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"anchorPoint": [0.5, 2e308]}]}"##,
      "layers[0].anchorPoint[1]: expected a finite number, got 2e308"
    ),
    // Gradients.
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "gradient", "colors": ["#000000"]}]}"##,
      "layers[0].colors: expected two or more colours, got 1"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "gradient"}]}"##,
      "layers[0].colors: missing (a gradient layer needs two or more colours)"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "gradient", "colors": ["#000000", "#FFFFFF", "#FF0000"], "locations": [0, 0.6, 0.4]}]}"##,
      "layers[0].locations[2]: locations must not decrease, got 0.4 after 0.6"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "gradient", "locations": [0, 0.5, 1], "colors": ["#000000", "#FFFFFF"]}]}"##,
      ##"layers[0].locations: expected one location per colour (2, as "colors" has), got 3"##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "gradient", "colors": ["#000000", "#FFFFFF"], "locations": [0, 1.2]}]}"##,
      "layers[0].locations[1]: expected a number in 0…1, got 1.2"
    ),
    // Text.
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "fontWeight": "extraBold"}]}"##,
      ##"layers[0].fontWeight: expected one of "ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy" or "black", got "extraBold""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "fontFamily": ""}]}"##,
      ##"layers[0].fontFamily: expected a font family name, got """##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "fontFamily": "  "}]}"##,
      ##"layers[0].fontFamily: expected a font family name, got "  ""##
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "fontFamily": "Noto\u0000Sans"}]}"##,
      ##"layers[0].fontFamily: expected a font family name without control characters, got "Noto\u0000Sans""##
    ),
    (
      "{\"width\": 10, \"height\": 10, \"layers\": [{\"type\": \"text\", \"fontFamily\": \""
        + String(repeating: "x", count: 300) + "\"}]}",
      "layers[0].fontFamily: expected a font family name of at most 256 characters, got 300"
    ),
    (
      ##"{"width": 10, "height": 10, "layers": [{"type": "text", "fontFamily": 12}]}"##,
      "layers[0].fontFamily: expected a string, got 12"
    ),
    // The canvas.
    (##"{"width": 0, "height": 10}"##, "width: expected a number > 0, got 0"),
    (##"{"width": 10, "height": -3}"##, "height: expected a number > 0, got -3"),
    (##"{"width": 10, "height": 10, "scale": 0}"##, "scale: expected a number > 0, got 0"),
    (##"{"height": 10}"##, "width: missing (the canvas width in points)"),
    (
      ##"{"width": 1, "height": 1, "scale": 0.4}"##,
      "width: a canvas of 0.4 pixels (1 pt × scale 0.4) rounds to zero pixels"
    ),
    (
      ##"{"width": 8193, "height": 10, "scale": 2}"##,
      "width: a canvas of 16386 pixels (8193 pt × scale 2) is over 16384 pixels on a side"
    ),
    (
      ##"{"width": 10, "height": 16384.5}"##,
      "height: a canvas of 16384.5 pixels (16384.5 pt × scale 1) is over 16384 pixels on a side"
    ),
  ]

  @Test(arguments: refusals)
  func refused(json: String, message: String) {
    #expect(refusal(json) == message)
  }

  @Test func layersNestAtMost256Deep() throws {
    #expect(try decode(nested(256)).layers.count == 1)
    #expect(
      refusal(nested(257))
        == "layers[0](.sublayers[0])×256: layers nested deeper than 256 (this one is at depth 257)")
    // A mask is one level below its layer.
    #expect(throws: Never.self) { try decode(nested(255, innermost: #""mask": {}"#)) }
    #expect(
      refusal(nested(256, innermost: #""mask": {}"#))
        == "layers[0](.sublayers[0])×255.mask: layers nested deeper than 256 (this one is at depth 257)")
  }

  @Test func deeplyNestedJSONIsRefusedWithoutCrashing() {
    let deep = #"{"width": 10, "height": 10, "layers": "# + String(repeating: "[", count: 10_000)
    #expect(
      refusal(deep)
        == "invalid JSON at line 1, column 1062: arrays and objects nested deeper than 1024 levels")
    #expect(
      refusal(nested(400))?.hasSuffix("layers nested deeper than 256 (this one is at depth 257)") == true)
  }

  @Test func errorsKnowTheirLineAndColumn() {
    let json = "{\"width\": 10, \"height\": 10,\n  \"layers\": [{\"opacity\": 2}]}"
    do {
      _ = try decode(json)
      Issue.record("decoded")
    } catch {
      #expect(error.keyPath == "layers[0].opacity")
      #expect(error.line == 2 && error.column == 26)
    }
  }

  @Test func canvasRoundsHalfUpAndScaleCanBeReplaced() throws {
    let s = try decode(#"{"width": 16384.4, "height": 0.5}"#)
    #expect(s.pixelWidth == 16384 && s.pixelHeight == 1)
    let t = try decode(#"{"width": 390, "height": 300, "scale": 2}"#, scale: 3)
    #expect(t.scale == 3 && t.pixelWidth == 1170 && t.pixelHeight == 900)
    #expect(throws: SceneError.self) { try decode(#"{"width": 390, "height": 300}"#, scale: 100) }
  }

  // MARK: Defaults

  @Test func defaultsFollowSceneMD() throws {
    let s = try decode(
      #"""
      {"width": 10, "height": 20, "layers": [
        {}, {"type": "shape"}, {"type": "gradient", "colors": ["#000000", "#FFFFFF"]}, {"type": "text"}
      ]}
      """#)
    #expect(s.scale == 1 && s.background == nil && s.pixelWidth == 10 && s.pixelHeight == 20)
    let l = s.layers[0]
    #expect(type(of: l) == Layer.self)
    #expect(l.frame == .zero && l.backgroundColor == nil && l.cornerRadius == 0 && l.maskedCorners == .all)
    #expect(!l.masksToBounds && l.borderWidth == 0 && l.borderColor == Color(hex: "#000000"))
    #expect(
      l.opacity == 1 && !l.isHidden && l.transform == .identity && l.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(l.shadowColor == Color(hex: "#000000") && l.shadowOpacity == 0 && l.shadowRadius == 3)
    #expect(l.shadowOffset == Size(width: 0, height: -3) && l.shadowPath == nil && l.mask == nil)
    #expect(l.sublayers.isEmpty)

    let shape = try #require(s.layers[1] as? ShapeLayer)
    #expect(shape.path == nil && shape.fillColor == Color(hex: "#000000") && shape.fillRule == .nonZero)
    #expect(
      shape.strokeColor == nil && shape.lineWidth == 1 && shape.lineJoin == .miter && shape.lineCap == .butt)

    let gradient = try #require(s.layers[2] as? GradientLayer)
    #expect(gradient.colors == [Color(hex: "#000000")!, Color(hex: "#FFFFFF")!] && gradient.locations == nil)
    #expect(gradient.startPoint == Point(x: 0.5, y: 0) && gradient.endPoint == Point(x: 0.5, y: 1))
    #expect(gradient.type == .axial)

    let text = try #require(s.layers[3] as? TextLayer)
    #expect(text.string == "" && text.fontSize == 17 && text.fontWeight == .regular)
    #expect(text.foregroundColor == Color(hex: "#000000") && text.alignmentMode == .natural)
    #expect(!text.isWrapped && text.truncationMode == .none)
  }

  // MARK: A full scene

  @Test func everyPropertyReachesTheLayers() throws {
    let s = try decode(
      #"""
      {
        "width": 390, "height": 300, "scale": 2, "background": "#F2F2F780",
        "layers": [
          {
            "type": "layer", "frame": [20, 30, 350, 120], "backgroundColor": "#FFFFFF",
            "cornerRadius": 16, "maskedCorners": ["topLeft", "bottomRight"], "masksToBounds": true,
            "borderWidth": 2, "borderColor": null, "opacity": 0.5, "hidden": true,
            "transform": {"scale": [2, 3], "rotation": 0.25, "translation": [5, -6]},
            "anchorPoint": [0, 1], "shadowColor": "#FF000080", "shadowOpacity": 0.35,
            "shadowOffset": [1, 4], "shadowRadius": 8,
            "shadowPath": {"roundedRect": [0, 0, 350, 120], "cornerRadius": 100, "corners": ["topRight"]},
            "mask": {"frame": [0, 0, 10, 10], "backgroundColor": "#000000"},
            "sublayers": [
              {"type": "shape", "path": "M0 0 h10 v10 z", "fillColor": null, "fillRule": "evenOdd",
               "strokeColor": "#00FF00", "lineWidth": 3, "lineJoin": "round", "lineCap": "square"},
              {"type": "gradient", "colors": ["#FF0000", "#00FF00", "#0000FF"], "locations": [0, 0.25, 1],
               "startPoint": [0, 0], "endPoint": [1, 1], "gradientType": "radial", "transform": {"scale": 2}},
              {"type": "text", "string": "Hi\n\u00e9 \uD83D\uDE00", "fontSize": 24, "fontWeight": "bold",
               "foregroundColor": "#333333", "alignmentMode": "center", "isWrapped": true,
               "truncationMode": "end", "transform": null}
            ]
          }
        ]
      }
      """#)
    #expect(s.width == 390 && s.height == 300 && s.scale == 2 && s.pixelWidth == 780 && s.pixelHeight == 600)
    #expect(s.background == Color(r8: 0xF2, g8: 0xF2, b8: 0xF7, a8: 0x80))
    let l = try #require(s.layers.first)
    #expect(l.frame == Rect(x: 20, y: 30, width: 350, height: 120))
    #expect(
      l.backgroundColor == .white && l.cornerRadius == 16 && l.maskedCorners == [.topLeft, .bottomRight])
    #expect(l.masksToBounds && l.borderWidth == 2 && l.borderColor == nil && l.opacity == 0.5 && l.isHidden)
    #expect(
      l.transform == LayerTransform(scaleX: 2, scaleY: 3, rotation: 0.25, translationX: 5, translationY: -6))
    #expect(l.anchorPoint == Point(x: 0, y: 1))
    #expect(l.shadowColor == Color(r8: 255, g8: 0, b8: 0, a8: 0x80) && l.shadowOpacity == 0.35)
    #expect(l.shadowOffset == Size(width: 1, height: 4) && l.shadowRadius == 8)
    let radii = CornerRadii(topLeft: 0, topRight: 60, bottomRight: 0, bottomLeft: 0)
    #expect(l.shadowPath == Path(roundedRect: Rect(x: 0, y: 0, width: 350, height: 120), radii: radii))
    let mask = try #require(l.mask)
    #expect(mask.frame == Rect(x: 0, y: 0, width: 10, height: 10) && mask.backgroundColor == .black)
    #expect(l.sublayers.count == 3 && l.sublayers.allSatisfy { $0.superlayer === l })

    let shape = try #require(l.sublayers[0] as? ShapeLayer)
    #expect(shape.path == (try Path(svgData: "M0 0 h10 v10 z")))
    #expect(
      shape.fillColor == nil && shape.fillRule == .evenOdd && shape.strokeColor == Color(hex: "#00FF00"))
    #expect(shape.lineWidth == 3 && shape.lineJoin == .round && shape.lineCap == .square)

    let gradient = try #require(l.sublayers[1] as? GradientLayer)
    #expect(gradient.colors == ["#FF0000", "#00FF00", "#0000FF"].map { Color(hex: $0)! })
    #expect(gradient.locations == [0, 0.25, 1] && gradient.type == .radial)
    #expect(gradient.startPoint == Point(x: 0, y: 0) && gradient.endPoint == Point(x: 1, y: 1))
    #expect(gradient.transform == LayerTransform(scale: 2))

    let text = try #require(l.sublayers[2] as? TextLayer)
    #expect(text.string == "Hi\né 😀" && text.fontSize == 24 && text.fontWeight == .bold)
    #expect(text.foregroundColor == Color(hex: "#333333") && text.alignmentMode == .center)
    #expect(text.isWrapped && text.truncationMode == .end && text.transform == .identity)
  }

  @Test func abbreviatedKeyPaths() {
    #expect(
      SceneDecoder.abbreviated("layers[0].sublayers[0].sublayers[0]") == "layers[0].sublayers[0].sublayers[0]"
    )
    #expect(
      SceneDecoder.abbreviated("layers[1].mask.mask.mask.mask.sublayers[2]")
        == "layers[1](.mask)×4.sublayers[2]")
  }
}
