import Foundation
import SheenLayers
import SheenRaster
import SheenUI
import Testing

@testable import SheenKit

/// Seed 004 runs as written (Seeds/Seed004RoundedCorners.swift, SwiftUI through SheenUI): its
/// `ContentView` and `CardView` are rendered and compared with scene files that state the same
/// pictures. The scenes' geometry comes from SwiftUI's rules worked out here by hand: the text's
/// size is a `UILabel`'s (SheenKit's, which draws `Text`), `.padding()` is 16 points, a `VStack`'s
/// spacing 8, a background takes its content's frame, a stroke is centred on the outline and an
/// overlay is not clipped by the `clipShape` before it.
@Suite struct Seed004UITests {
  /// A label's size and where it puts its text (`UILabel` centres the text layer vertically).
  func label(_ text: String, size: CGFloat, weight: UIFont.Weight) -> (size: CGSize, text: CGRect) {
    let l = UILabel()
    l.text = text
    l.font = UIFont.systemFont(ofSize: size, weight: weight)
    l.numberOfLines = 0
    let s = l.sizeThatFits(CGSize(width: CGFloat.greatestFiniteMagnitude, height: .greatestFiniteMagnitude))
    l.frame = CGRect(origin: .zero, size: s)
    l.layoutIfNeeded()
    let f = l.textLayer.frame
    return (s, CGRect(x: f.minX, y: f.minY, width: f.width, height: f.height))
  }

  func n(_ v: CGFloat) -> String { String(format: "%.6f", Double(v)) }
  func rect(_ r: CGRect) -> String { "[\(n(r.minX)), \(n(r.minY)), \(n(r.width)), \(n(r.height))]" }

  /// The layers `.background(color).roundedCorners(...)` draws around content at `box`: the
  /// content clipped by the chosen corners, then the stroke on top, centred on the outline.
  func roundedBox(
    _ box: CGRect, color: String, radius: CGFloat, corners: String, stroke: CGFloat, content: String
  ) -> String {
    let path = """
      { "roundedRect": [0, 0, \(n(box.width)), \(n(box.height))], "cornerRadius": \(n(radius)), "corners": [\(corners)] }
      """
    return """
      { "frame": \(rect(box)),
        "mask": { "type": "shape", "frame": [0, 0, 0, 0], "path": \(path) },
        "sublayers": [ { "frame": [0, 0, \(n(box.width)), \(n(box.height))], "backgroundColor": "\(color)" }, \(content) ] },
      { "type": "shape", "frame": \(rect(box)), "path": \(path), "fillColor": null, "strokeColor": "#FFFFFF",
        "lineWidth": \(n(stroke)) }
      """
  }

  func render<V: View>(_ view: V, size: CGSize) throws -> Surface {
    let host = HostingView(rootView: view, frame: CGRect(origin: .zero, size: size))
    host.backgroundColor = .systemGray6
    let s = try host.renderImage(scale: 2)
    // SHEEN_PICTURES=DIR writes the pictures there, to look at.
    if let dir = ProcessInfo.processInfo.environment["SHEEN_PICTURES"] {
      try s.writePNG(to: "\(dir)/seed004-\(V.self).png")
    }
    return s
  }

  @Test func contentViewMatchesItsScene() throws {
    // Text, padding 16, blue, clipped on the top-left and bottom-right by radius 20, a 2-point
    // white stroke, padding 16: the hosting view is the content's size.
    let t = label("Hello, SwiftUI!", size: 17, weight: .regular)
    let box = CGRect(x: 16, y: 16, width: t.size.width + 32, height: t.size.height + 32)
    let size = CGSize(width: box.width + 32, height: box.height + 32)
    let text = """
      { "type": "text", "frame": \(rect(t.text.offsetBy(dx: 16, dy: 16))), "string": "Hello, SwiftUI!", "fontSize": 17,
        "foregroundColor": "#000000", "isWrapped": true, "truncationMode": "end" }
      """
    let scene = """
      { "width": \(n(size.width)), "height": \(n(size.height)), "scale": 2, "background": "#F2F2F7",
        "layers": [ \(roundedBox(box, color: "#007AFF", radius: 20, corners: "\"topLeft\", \"bottomRight\"", stroke: 2, content: text)) ] }
      """
    let host = HostingView(rootView: ContentView())
    #expect(host.sizeThatFits(.unspecified) == size)
    let s = try render(ContentView(), size: size)
    try SeedPicture.expectSame(s, asScene: scene, "seed004 ContentView")
    // Rounded corners show the page; the square ones are the stroke's white; the stroke's outer
    // half shows outside the blue (an overlay is not clipped by the clipShape before it).
    let page = at(s, 2, 2)
    #expect(at(s, box.minX + 0.25, box.minY + 0.25) == page)
    #expect(at(s, box.maxX - 0.25, box.maxY - 0.25) == page)
    #expect(luminance(at(s, box.maxX - 0.25, box.minY + 0.25)) > 240)
    #expect(luminance(at(s, box.midX, box.minY - 0.75)) > 240)
    #expect(Pixel.blue(at(s, box.midX, box.minY + 2)) > 200 && Pixel.red(at(s, box.midX, box.minY + 2)) < 40)
  }

  /// The star symbol's outline as an SVG path in a box of `w × h` at (x, y): ten points on two
  /// circles, the outer one touching the top edge and the bottom points.
  func starPath(x: CGFloat, y: CGFloat, w: CGFloat, h: CGFloat) -> String {
    let outer = h / (1 + cos(.pi / 5))
    let inner = outer * 0.4
    let c = CGPoint(x: x + w / 2, y: y + outer)
    var d = ""
    for i in 0..<10 {
      let a = -CGFloat.pi / 2 + CGFloat(i) * .pi / 5
      let r = i % 2 == 0 ? outer : inner
      d += (i == 0 ? "M" : "L") + "\(n(c.x + r * cos(a))) \(n(c.y + r * sin(a))) "
    }
    return d + "Z"
  }

  func cardScene() -> (scene: String, size: CGSize) {
    // The star at the body size (17 points): 1.15 × 1.1 of it, padded by 16.
    let star = CGSize(width: 1.15 * 17, height: 1.1 * 17)
    let t = label("Custom Rounded Corners", size: 17, weight: .semibold)
    let top = CGSize(width: star.width + 32, height: star.height + 32)
    let bottom = CGSize(width: t.size.width + 32, height: t.size.height + 32)
    // The VStack: centred, 8 apart; then padding 16 and the translucent grey behind.
    let stackWidth = max(top.width, bottom.width)
    let size = CGSize(width: stackWidth + 32, height: top.height + 8 + bottom.height + 32)
    let topBox = CGRect(x: 16 + (stackWidth - top.width) / 2, y: 16, width: top.width, height: top.height)
    let bottomBox = CGRect(
      x: 16 + (stackWidth - bottom.width) / 2, y: 16 + top.height + 8, width: bottom.width,
      height: bottom.height)
    let starLayer = """
      { "type": "shape", "frame": [0, 0, \(n(top.width)), \(n(top.height))],
        "path": "\(starPath(x: 16, y: 16, w: star.width, h: star.height))", "fillColor": "#FFFFFF" }
      """
    let text = """
      { "type": "text", "frame": \(rect(t.text.offsetBy(dx: 16, dy: 16))), "string": "Custom Rounded Corners",
        "fontSize": 17, "fontWeight": "bold", "foregroundColor": "#000000", "isWrapped": true, "truncationMode": "end" }
      """
    let scene = """
      { "width": \(n(size.width)), "height": \(n(size.height)), "scale": 2, "background": "#F2F2F7",
        "layers": [
          { "frame": [0, 0, \(n(size.width)), \(n(size.height))], "backgroundColor": "#8E8E9333" },
          \(roundedBox(topBox, color: "#FF9500", radius: 30, corners: "\"topLeft\", \"topRight\"", stroke: 3, content: starLayer)),
          \(roundedBox(bottomBox, color: "#FF9500", radius: 30, corners: "\"bottomLeft\", \"bottomRight\"", stroke: 3, content: text))
        ] }
      """
    return (scene, size)
  }

  @Test func cardViewMatchesItsScene() throws {
    let (scene, size) = cardScene()
    let host = HostingView(rootView: CardView())
    #expect(host.sizeThatFits(.unspecified) == size)
    let s = try render(CardView(), size: size)
    try SeedPicture.expectSame(s, asScene: scene, "seed004 CardView")
    // The grey behind is the system grey at 20% over the page.
    let g = at(s, 4, 4)
    let expected: Double = 242 * 0.8 + 142 * 0.2
    #expect(abs(Double(Pixel.red(g)) - expected) <= 1)
    // The star is white in the middle of the orange box.
    let starCenter = at(s, size.width / 2, 16 + 16 + 1.1 * 17 * 0.55)
    #expect(luminance(starCenter) > 250)
  }

  @Test func previewRendersToPNG() throws {
    let s = try PreviewRenderer.render(CardView_Previews.self)
    let (_, size) = cardScene()
    #expect(s.width == Int((size.width.rounded(.up) * 2)) && s.height == Int(size.height.rounded(.up) * 2))
    // On the preview canvas's white, the grey at 20% shows.
    let g = s[4, 4]
    let expected: Double = 255 * 0.8 + 142 * 0.2
    #expect(abs(Double(Pixel.red(g)) - expected) <= 1)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "seed004-preview-\(getpid()).png"
    ).path
    try PreviewRenderer.writePNG(CardView_Previews.self, to: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let back = try Surface(contentsOfPNG: path)
    #expect(back.width == s.width && back.height == s.height)
  }

  @Test func roundedCornersWithShadowCastsAShadowBelow() throws {
    // The article's second extension: the same box with a 20% black shadow 5 points down.
    let view = Text("Shadow").padding().background(Color.orange)
      .roundedCornersWithShadow(radius: 12, strokeColor: .white, lineWidth: 2)
      .padding(24)
    let host = HostingView(rootView: view)
    let size = host.sizeThatFits(.unspecified)
    let s = try render(view, size: size)
    let page = luminance(at(s, 2, 2))
    // Below the box the page darkens; above it less (the shadow is moved down by 5).
    let below = luminance(at(s, size.width / 2, size.height - 24 + 4))
    let above = luminance(at(s, size.width / 2, 24 - 4))
    #expect(below < page - 8)
    #expect(above > below + 4)
  }
}
