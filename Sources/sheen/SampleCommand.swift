import Foundation
import SheenCommandLine
import SheenLayers
import SheenRaster

/// `sheen sample [-o OUT.png] [--scale S]`: renders a sample picture of what Sheen draws (rounded,
/// shadowed cards, a gradient button, tags with chosen corners) to a PNG.
func runSample(_ args: [String]) -> Int32 {
  var status: Int32 = 0
  guard let parsed = parseCommandLine(SampleArgs.command, args, status: &status) else { return status }
  let output = parsed[SampleArgs.output] ?? "sample.png"
  let scale = parsed[SampleArgs.scale] ?? 2
  do {
    let width = 390.0
    let height = 300.0
    let surface = try Surface(width: Int((width * scale).rounded()), height: Int((height * scale).rounded()))
    let canvas = Canvas(surface: surface)
    canvas.clear(Color(hex: "#F2F2F7")!)
    Compositor().render(sampleLayers(), in: canvas, transform: Transform(scaleX: scale, y: scale))
    try surface.writePNG(to: output)
    print("sheen sample: wrote \(surface.width)x\(surface.height) pixels to \(output)")
    return 0
  } catch {
    writeError("sheen sample: \(oneLineForMessage("\(error)"))")
    return 1
  }
}

/// A small scene in the style of the seed articles.
func sampleLayers() -> [Layer] {
  let card = Layer()
  card.frame = Rect(x: 20, y: 20, width: 350, height: 150)
  card.shadowOpacity = 0.3
  card.shadowRadius = 8
  card.shadowOffset = Size(width: 0, height: 4)
  card.shadowPath = Path(roundedRect: card.bounds, cornerRadius: 16)

  let content = Layer()
  content.frame = card.bounds
  content.backgroundColor = .white
  content.cornerRadius = 16
  content.masksToBounds = true
  card.addSublayer(content)

  let header = GradientLayer()
  header.frame = Rect(x: 0, y: 0, width: 350, height: 56)
  header.colors = [Color(hex: "#5AC8FA")!, Color(hex: "#007AFF")!]
  header.startPoint = Point(x: 0, y: 0.5)
  header.endPoint = Point(x: 1, y: 0.5)
  content.addSublayer(header)

  let title = TextLayer()
  title.frame = Rect(x: 20, y: 14, width: 310, height: 30)
  title.string = "Drawn on the CPU"
  title.fontSize = 20
  title.fontWeight = .bold
  title.foregroundColor = .white
  content.addSublayer(title)

  let subtitle = TextLayer()
  subtitle.frame = Rect(x: 20, y: 62, width: 310, height: 22)
  subtitle.string = "Exact-area anti-aliasing, Gaussian shadows and TrueType text in pure Swift."
  subtitle.fontSize = 13
  subtitle.foregroundColor = Color(hex: "#3C3C43")!
  subtitle.truncationMode = .end
  content.addSublayer(subtitle)

  let button = GradientLayer()
  button.frame = Rect(x: 20, y: 90, width: 140, height: 40)
  button.colors = [Color(hex: "#FF5E3A")!, Color(hex: "#FF2A68")!]
  button.cornerRadius = 4
  button.shadowOpacity = 0.25
  button.shadowRadius = 3
  button.shadowOffset = Size(width: 0, height: 2)
  content.addSublayer(button)

  let label = TextLayer()
  label.frame = Rect(x: 0, y: 11, width: 140, height: 20)
  label.string = "GET STARTED"
  label.fontSize = 14
  label.fontWeight = .bold
  label.foregroundColor = .white
  label.alignmentMode = .center
  button.addSublayer(label)

  let tag = ShapeLayer()
  tag.frame = Rect(x: 190, y: 95, width: 120, height: 30)
  tag.path = Path(
    roundedRect: tag.bounds, radii: CornerRadii(topLeft: 12, topRight: 0, bottomRight: 12, bottomLeft: 0))
  tag.fillColor = Color(hex: "#34C759")!
  tag.strokeColor = Color(hex: "#1E7F3A")!
  tag.lineWidth = 2
  content.addSublayer(tag)

  let tagLabel = TextLayer()
  tagLabel.frame = Rect(x: 0, y: 6, width: 120, height: 20)
  tagLabel.string = "SWIFT 6"
  tagLabel.fontSize = 13
  tagLabel.fontWeight = .bold
  tagLabel.foregroundColor = .white
  tagLabel.alignmentMode = .center
  tag.addSublayer(tagLabel)

  let badge = Layer()
  badge.frame = Rect(x: 40, y: 200, width: 80, height: 80)
  badge.backgroundColor = Color(hex: "#AF52DE")!
  badge.cornerRadius = 40
  badge.shadowOpacity = 0.4
  badge.shadowRadius = 6
  badge.shadowOffset = Size(width: 0, height: 3)

  let fan = GradientLayer()
  fan.frame = Rect(x: 160, y: 195, width: 200, height: 90)
  fan.type = .radial
  fan.colors = [Color(hex: "#FFCC00")!, Color(hex: "#FF9500")!, Color(hex: "#FF3B30")!]
  fan.startPoint = Point(x: 0.5, y: 0.5)
  fan.endPoint = Point(x: 1, y: 1)
  fan.cornerRadius = 20
  fan.borderWidth = 3
  fan.borderColor = .white
  fan.opacity = 0.9
  return [card, badge, fan]
}
