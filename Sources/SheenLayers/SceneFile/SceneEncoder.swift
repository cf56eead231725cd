import SheenRaster
import SheenText

// Writing a layer tree back as a scene file (shared SCENE.md): what a frame of a live program
// (the demo) shows, for another renderer (the Skia oracle) to draw and time, or to keep as a test.

extension Scene {
  /// The scene as a scene file: JSON that `Scene.decode` reads back to the same tree.
  ///
  /// - Parameters:
  ///   - visibleOnly: leave out layers that draw nothing on the canvas (outside it, or hidden),
  ///     as a renderer would cull them: the file then describes what the frame shows.
  ///   - imagePath: the path (relative to the file's folder) under which a layer's image is
  ///     written, for `contents`; nil leaves the image out. The caller writes the files
  ///     (`Surface.writePNG`), once per image.
  public func encoded(visibleOnly: Bool = false, imagePath: ((RasterImage) -> String?)? = nil) -> String {
    var out = "{\"width\": \(number(width)), \"height\": \(number(height)), \"scale\": \(number(scale))"
    if let background { out += ", \"background\": \(color(background))" }
    out += ", \"layers\": ["
    if visibleOnly { Layer.prepareForDrawingTree(layers) }
    let canvas = Rect(x: 0, y: 0, width: width, height: height)
    var first = true
    for l in layers where !visibleOnly || l.shows(in: canvas, parent: .identity) {
      out += first ? "\n" : ",\n"
      first = false
      encode(
        l, into: &out, indent: 1, canvas: visibleOnly ? canvas : nil, parent: .identity, images: imagePath)
    }
    out += "\n]}\n"
    return out
  }
}

extension Layer {
  /// Whether the layer draws anything inside `canvas` (points), under its parent's transform.
  fileprivate func shows(in canvas: Rect, parent: Transform) -> Bool {
    if isHidden || !(opacity > 0) { return false }
    let t = transformToSuperlayer.concatenating(parent)
    return !t.apply(localFullExtent).intersection(canvas).isEmpty
  }
}

private func encode(
  _ l: Layer, into out: inout String, indent: Int, canvas: Rect?, parent: Transform,
  images: ((RasterImage) -> String?)?
) {
  let pad = String(repeating: "  ", count: indent)
  var fields: [String] = []
  func add(_ key: String, _ value: String) { fields.append("\"\(key)\": \(value)") }
  switch l {
  case is ShapeLayer: add("type", "\"shape\"")
  case is GradientLayer: add("type", "\"gradient\"")
  case is TextLayer: add("type", "\"text\"")
  default: break
  }
  let f = l.frame
  add("frame", "[\(number(f.minX)), \(number(f.minY)), \(number(f.width)), \(number(f.height))]")
  if let c = l.backgroundColor { add("backgroundColor", color(c)) }
  if l.cornerRadius != 0 { add("cornerRadius", number(l.cornerRadius)) }
  if l.maskedCorners != .all { add("maskedCorners", corners(l.maskedCorners)) }
  if l.masksToBounds { add("masksToBounds", "true") }
  if l.borderWidth != 0 { add("borderWidth", number(l.borderWidth)) }
  if l.borderColor != .black { add("borderColor", l.borderColor.map(color) ?? "null") }
  if l.opacity != 1 { add("opacity", number(l.opacity)) }
  if l.isHidden { add("hidden", "true") }
  if !l.transform.isIdentity {
    let t = l.transform
    add(
      "transform",
      "{\"scale\": [\(number(t.scaleX)), \(number(t.scaleY))], \"rotation\": \(number(t.rotation)), "
        + "\"translation\": [\(number(t.translationX)), \(number(t.translationY))]}")
  }
  if l.anchorPoint != Point(x: 0.5, y: 0.5) {
    add("anchorPoint", "[\(number(l.anchorPoint.x)), \(number(l.anchorPoint.y))]")
  }
  if l.shadowColor != .black { add("shadowColor", l.shadowColor.map(color) ?? "null") }
  if l.shadowOpacity != 0 {
    add("shadowOpacity", number(l.shadowOpacity))
    add("shadowOffset", "[\(number(l.shadowOffset.width)), \(number(l.shadowOffset.height))]")
    add("shadowRadius", number(l.shadowRadius))
    if let p = l.shadowPath { add("shadowPath", svg(p)) }
  }
  if let image = l.contents, let path = images?(image) {
    add("contents", quoted(path))
    if l.contentsGravity != .resize { add("contentsGravity", quoted(l.contentsGravity.rawValue)) }
    if l.contentsScale != 1 { add("contentsScale", number(l.contentsScale)) }
    let unit = Rect(x: 0, y: 0, width: 1, height: 1)
    func rect(_ r: Rect) -> String {
      "[\(number(r.minX)), \(number(r.minY)), \(number(r.width)), \(number(r.height))]"
    }
    if l.contentsRect != unit { add("contentsRect", rect(l.contentsRect)) }
    if l.contentsCenter != unit { add("contentsCenter", rect(l.contentsCenter)) }
    if l.minificationFilter != .linear { add("minificationFilter", quoted(l.minificationFilter.rawValue)) }
    if l.magnificationFilter == .nearest { add("magnificationFilter", "\"nearest\"") }
  }
  if let s = l as? ShapeLayer {
    if let p = s.path { add("path", svg(p)) }
    if s.fillColor != .black { add("fillColor", s.fillColor.map(color) ?? "null") }
    if s.fillRule == .evenOdd { add("fillRule", "\"evenOdd\"") }
    if let c = s.strokeColor { add("strokeColor", color(c)) }
    if s.lineWidth != 1 { add("lineWidth", number(s.lineWidth)) }
    switch s.lineJoin {
    case .miter: break
    case .round: add("lineJoin", "\"round\"")
    case .bevel: add("lineJoin", "\"bevel\"")
    }
    switch s.lineCap {
    case .butt: break
    case .round: add("lineCap", "\"round\"")
    case .square: add("lineCap", "\"square\"")
    }
  }
  if let g = l as? GradientLayer {
    add("colors", "[" + g.colors.map(color).joined(separator: ", ") + "]")
    if let loc = g.locations { add("locations", "[" + loc.map(number).joined(separator: ", ") + "]") }
    add("startPoint", "[\(number(g.startPoint.x)), \(number(g.startPoint.y))]")
    add("endPoint", "[\(number(g.endPoint.x)), \(number(g.endPoint.y))]")
    if g.type == .radial { add("gradientType", "\"radial\"") }
  }
  if let t = l as? TextLayer {
    add("string", quoted(t.string))
    add("fontSize", number(t.fontSize))
    if t.fontFamily != FontFamily.defaultName { add("fontFamily", quoted(t.fontFamily)) }
    if t.fontWeight != .regular { add("fontWeight", "\"\(t.fontWeight.rawValue)\"") }
    if t.foregroundColor != .black { add("foregroundColor", color(t.foregroundColor)) }
    switch t.alignmentMode {
    case .natural: break
    case .left: add("alignmentMode", "\"left\"")
    case .center: add("alignmentMode", "\"center\"")
    case .right: add("alignmentMode", "\"right\"")
    }
    if t.isWrapped { add("isWrapped", "true") }
    // SCENE.md's text layers truncate only at the end: a start or middle truncation (UIKit's
    // head and middle line break modes) is written as the nearest it has.
    if t.truncationMode != .none { add("truncationMode", "\"end\"") }
  }
  let t = l.transformToSuperlayer.concatenating(parent)
  if let m = l.mask {
    var s = ""
    encode(m, into: &s, indent: indent + 1, canvas: nil, parent: t, images: images)
    fields.append("\"mask\": " + s.drop { $0 == " " })
  }
  let subs = l.sublayers.filter { s in canvas.map { s.shows(in: $0, parent: t) } ?? true }
  if !subs.isEmpty {
    var s = "\"sublayers\": [\n"
    for (i, sub) in subs.enumerated() {
      encode(sub, into: &s, indent: indent + 1, canvas: canvas, parent: t, images: images)
      s += i + 1 < subs.count ? ",\n" : "\n"
    }
    s += pad + "]"
    fields.append(s)
  }
  out += pad + "{" + fields.joined(separator: ", ") + "}"
}

/// A number as JSON: integers without a fraction, others with the digits that read back exactly.
private func number(_ v: Double) -> String {
  if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
  return "\(v)"
}

private func color(_ c: Color) -> String {
  func byte(_ v: Double) -> Int { Int((min(1, max(0, v)) * 255).rounded()) }
  let a = byte(c.alpha)
  let rgb = [byte(c.red), byte(c.green), byte(c.blue)]
  let hex = (a == 255 ? rgb : rgb + [a]).map { String($0, radix: 16, uppercase: true) }
    .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
  return "\"#\(hex)\""
}

private func corners(_ m: CornerMask) -> String {
  var names: [String] = []
  if m.contains(.topLeft) { names.append("\"topLeft\"") }
  if m.contains(.topRight) { names.append("\"topRight\"") }
  if m.contains(.bottomLeft) { names.append("\"bottomLeft\"") }
  if m.contains(.bottomRight) { names.append("\"bottomRight\"") }
  return "[" + names.joined(separator: ", ") + "]"
}

/// A path as SVG path data.
private func svg(_ p: Path) -> String {
  func pt(_ q: Point) -> String { "\(number(q.x)) \(number(q.y))" }
  var d: [String] = []
  for e in p.elements {
    switch e {
    case .move(let q): d.append("M\(pt(q))")
    case .line(let q): d.append("L\(pt(q))")
    case .quad(let c, let q): d.append("Q\(pt(c)) \(pt(q))")
    case .cubic(let c1, let c2, let q): d.append("C\(pt(c1)) \(pt(c2)) \(pt(q))")
    case .close: d.append("Z")
    }
  }
  return quoted(d.joined(separator: " "))
}
