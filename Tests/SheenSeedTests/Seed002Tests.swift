import SheenLayers
import SheenRaster
import Testing

@testable import SheenKit

/// Seed 002: `PrimaryButton`, styled entirely in its `layoutSubviews`.
@Suite struct Seed002Tests {
  func makeButton() -> (page: UIView, button: PrimaryButton) {
    let root = page(240, 100, .systemGray6)
    let button = PrimaryButton(frame: CGRect(x: 30, y: 28, width: 180, height: 44))
    button.setTitle("Get started", for: .normal)
    root.addSubview(button)
    return (root, button)
  }

  static let background = """
    { "type": "gradient", "frame": [0, 0, 180, 44], "colors": ["#9668F7", "#7031F5"], "cornerRadius": 4 }
    """
  static let border = """
    { "type": "gradient", "frame": [0, 0, 180, 44], "colors": ["#895EE6", "#6629E6"], "cornerRadius": 4,
      "mask": { "type": "shape", "frame": [0, 0, 0, 0], "path": { "roundedRect": [0, 0, 180, 44], "cornerRadius": 4 },
                "fillColor": null, "strokeColor": "#000000", "lineWidth": 1 } }
    """
  /// The layer tree after the first layout: the seed's two layers from each of the two layout
  /// passes (see `everyLayoutPassAddsTwoLayers`), then the title label's layer and its text
  /// (the label's frame is where `UIButton` centres it).
  static let scene = """
    { "width": 240, "height": 100, "scale": 2, "background": "#F2F2F7",
      "layers": [
        { "frame": [30, 28, 180, 44],
          "shadowColor": "#000000", "shadowOffset": [0, 0.5], "shadowOpacity": 0.2, "shadowRadius": 1,
          "sublayers": [
            \(background), \(border), \(background), \(border),
            { "frame": [44.5, 15, 91, 14],
              "sublayers": [
                { "type": "text", "frame": [0, 0.015625, 91, 14.46875], "string": "GET STARTED", "fontSize": 12,
                  "fontWeight": "bold", "foregroundColor": "#FFFFFF", "alignmentMode": "center",
                  "truncationMode": "end" } ] }
          ] }
      ] }
    """

  @Test func layoutSubviewsStylesTheButton() throws {
    let (root, button) = makeButton()
    let s = try SeedPicture.render(root, name: "seed002-primary-button")
    try SeedPicture.expectSame(s, asScene: Self.scene, "seed002")
    #expect(button.titleLabel?.frame == CGRect(x: 44.5, y: 15, width: 91, height: 14))
    // The text: the title upper-cased, white, 12-point bold.
    let label = try #require(button.titleLabel)
    #expect(button.currentTitle == "GET STARTED")
    #expect(label.text == "GET STARTED")
    #expect(label.textColor == .white)
    #expect(label.font == UIFont.systemFont(ofSize: 12, weight: .bold))
    // Layers: the background gradient, then the border gradient, then the title's layer on top.
    let layers = try #require(button.layer.sublayers)
    #expect(layers.last === label.layer)
    let gradients = layers.compactMap { $0 as? CAGradientLayer }
    #expect(gradients.count == layers.count - 1)
    let background = gradients[gradients.count - 2]
    let border = gradients[gradients.count - 1]
    #expect(border.mask is CAShapeLayer)
    #expect(background.mask == nil && background.cornerRadius == 4)
    #expect(background.frame == button.bounds && border.frame == button.bounds)
    #expect(
      background.colors as? [CGColor] == [
        UIColor(hue: 0.72, saturation: 0.58, brightness: 0.97, alpha: 1).cgColor,
        UIColor(hue: 0.72, saturation: 0.80, brightness: 0.96, alpha: 1).cgColor,
      ])
    #expect(button.layer.shadowOpacity == 0.2 && button.layer.shadowOffset == CGSize(width: 0, height: 0.5))

    // The picture: the background runs from a lighter violet at the top to a deeper one at the
    // bottom; the 1-point border is darker than the fill inside it; a faint shadow falls below.
    let top = at(s, 120, 31)
    let bottom = at(s, 120, 69)
    #expect(Pixel.red(top) > Pixel.red(bottom) + 20)
    #expect(Pixel.blue(top) > 200 && Pixel.blue(bottom) > 200)
    #expect(luminance(at(s, 120, 28.25)) < luminance(top) - 10)
    let page = luminance(at(s, 4, 4))
    #expect(luminance(at(s, 120, 72.25)) < page - 5)
    // Round corners: the frame's corner pixel is the page (under the faint shadow), not violet.
    let corner = at(s, 30.25, 28.25)
    #expect(luminance(corner) > page - 4 && Int(Pixel.blue(corner)) - Int(Pixel.red(corner)) < 10)
    // White title pixels across the middle line.
    var white = 0
    for x in stride(from: 60.0, to: 180, by: 0.5) where luminance(at(s, x, 50)) > 240 { white += 1 }
    #expect(white > 10)
  }

  /// Every layout pass inserts two more gradient layers: the seed never removes the old ones
  /// (the same happens on iOS). Setting the upper-cased title and the bold font inside
  /// `layoutSubviews` asks for one more pass, after which the button stays as it is until
  /// something asks for layout again.
  @Test func everyLayoutPassAddsTwoLayers() throws {
    let (root, button) = makeButton()
    root.layoutIfNeeded()
    let first = button.layer.sublayers?.count ?? 0
    root.layoutIfNeeded()
    #expect(button.layer.sublayers?.count == first)
    button.setNeedsLayout()
    root.layoutIfNeeded()
    #expect(button.layer.sublayers?.count == first + 2)
    // The first layout ran twice: two backgrounds, two borders and the title label's layer.
    #expect(first == 5)
  }
}
