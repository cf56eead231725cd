import SheenLayers
import SheenRaster
import Testing

@testable import SheenKit

/// Seed 004's idea done the UIKit way: the path of `RoundedCorner.path(in:)`, verbatim, and the
/// modifier's clip and stroke as UIKit code does them (a shape-layer mask, and a stroked shape
/// layer inside it, so that only the stroke's inner half shows). The seed's SwiftUI code itself
/// runs as written in Seed004UITests.swift.
@Suite struct Seed004Tests {
  /// `RoundedCorner.path(in:)`'s UIKit call, with the seed's parameter names.
  func roundedCorner(radius: CGFloat, corners: UIRectCorner, in rect: CGRect) -> CGPath {
    let path = UIBezierPath(
      roundedRect: rect,
      byRoundingCorners: corners,
      cornerRadii: CGSize(width: radius, height: radius)
    )
    return path.cgPath
  }

  /// `.clipShape(RoundedCorner(...)).overlay(RoundedCorner(...).stroke(...))` in UIKit.
  func roundCorners(
    _ view: UIView, radius: CGFloat, corners: UIRectCorner, strokeColor: UIColor, lineWidth: CGFloat
  ) {
    let clip = CAShapeLayer()
    clip.path = roundedCorner(radius: radius, corners: corners, in: view.bounds)
    view.layer.mask = clip
    let stroke = CAShapeLayer()
    stroke.path = clip.path
    stroke.fillColor = nil
    stroke.strokeColor = strokeColor.cgColor
    stroke.lineWidth = lineWidth
    view.layer.addSublayer(stroke)
  }

  static let scene = """
    { "width": 240, "height": 110, "scale": 2, "background": "#F2F2F7",
      "layers": [
        { "frame": [20, 25, 90, 60], "backgroundColor": "#007AFF",
          "mask": { "type": "shape", "frame": [0, 0, 0, 0],
                    "path": { "roundedRect": [0, 0, 90, 60], "cornerRadius": 20, "corners": ["topLeft", "bottomRight"] } },
          "sublayers": [
            { "type": "shape", "frame": [0, 0, 0, 0],
              "path": { "roundedRect": [0, 0, 90, 60], "cornerRadius": 20, "corners": ["topLeft", "bottomRight"] },
              "fillColor": null, "strokeColor": "#FFFFFF", "lineWidth": 2 } ] },
        { "frame": [130, 25, 90, 60], "backgroundColor": "#FF9500",
          "mask": { "type": "shape", "frame": [0, 0, 0, 0],
                    "path": { "roundedRect": [0, 0, 90, 60], "cornerRadius": 30, "corners": ["topLeft", "topRight"] } },
          "sublayers": [
            { "type": "shape", "frame": [0, 0, 0, 0],
              "path": { "roundedRect": [0, 0, 90, 60], "cornerRadius": 30, "corners": ["topLeft", "topRight"] },
              "fillColor": null, "strokeColor": "#FFFFFF", "lineWidth": 3 } ] }
      ] }
    """

  @Test func chosenCornersClippedAndStroked() throws {
    let root = page(240, 110, .systemGray6)
    // The article's two examples: blue, radius 20, top-left and bottom-right, a 2-point white
    // stroke; orange, radius 30, the top corners, a 3-point white stroke.
    let blue = UIView(frame: CGRect(x: 20, y: 25, width: 90, height: 60))
    blue.backgroundColor = .systemBlue
    roundCorners(blue, radius: 20, corners: [.topLeft, .bottomRight], strokeColor: .white, lineWidth: 2)
    let orange = UIView(frame: CGRect(x: 130, y: 25, width: 90, height: 60))
    orange.backgroundColor = .systemOrange
    roundCorners(orange, radius: 30, corners: [.topLeft, .topRight], strokeColor: .white, lineWidth: 3)
    root.addSubview(blue)
    root.addSubview(orange)
    let s = try SeedPicture.render(root, name: "seed004-rounded-corners")
    try SeedPicture.expectSame(s, asScene: Self.scene, "seed004")
    let page = at(s, 4, 4)
    // Rounded corners show the page; square ones are white (the stroke's outer half is clipped,
    // its inner half shows).
    #expect(at(s, 20.25, 25.25) == page)
    #expect(at(s, 109.75, 84.75) == page)
    #expect(luminance(at(s, 109.75, 25.25)) > 240)
    #expect(luminance(at(s, 20.25, 84.75)) > 240)
    #expect(at(s, 130.25, 25.25) == page && at(s, 219.75, 25.25) == page)
    #expect(luminance(at(s, 130.25, 84.75)) > 240)
    // The stroke is lineWidth / 2 inside the edge: 1 point for blue, 1.5 for orange.
    #expect(luminance(at(s, 65, 25.75)) > 240 && Pixel.blue(at(s, 65, 26.25)) > 200)
    #expect(luminance(at(s, 175, 26.25)) > 240 && luminance(at(s, 175, 26.75)) < 220)
    // The path's corners: radius 20 by the chosen corners only.
    let p = roundedCorner(radius: 20, corners: [.topLeft, .bottomRight], in: blue.bounds)
    #expect(p.boundingBox == blue.bounds)
  }
}
