import SheenKit

/// A picture (SwiftUI's `Image`). `Image(systemName:)` draws one of SheenUI's own symbols as
/// paths, sized by the font around it and coloured with the foreground colour, as SF Symbols
/// are: `star`, `star.fill`, `heart`, `heart.fill`, `checkmark`, `xmark`, `plus`, `minus`,
/// `chevron.right`, `chevron.left`, `person.crop.circle`, `circle`, `circle.fill`. An unknown
/// name draws nothing and takes no space (SwiftUI logs it and does the same).
///
/// `Image(_:)` (an image of the bundled assets, as `UIImage(named:)`) and `Image(uiImage:)` show
/// a picture at its size in points; `.resizable()` lets it take the size offered (stretched, or
/// in nine parts with cap insets), and `.aspectRatio`, `.scaledToFit()`, `.scaledToFill()` keep
/// its proportions. A name no image has shows nothing and takes no space.
public struct Image: View, Equatable {
  let systemName: String?
  let uiImage: UIImage?
  var isResizable = false
  var capInsets = EdgeInsets()
  var resizingMode = ResizingMode.stretch

  public init(systemName: String) {
    self.systemName = systemName
    uiImage = nil
  }

  /// The bundled image named `name` (`UIImage(named:)`).
  public init(_ name: String) {
    systemName = nil
    uiImage = UIImage(named: name)
  }

  /// The bundled image named `name`, ignored by accessibility (drawn the same).
  public init(decorative name: String) { self.init(name) }

  public init(uiImage: UIImage) {
    systemName = nil
    self.uiImage = uiImage
  }

  /// How a resizable image fills a larger frame (SwiftUI's `Image.ResizingMode`): stretched, or
  /// repeated at its natural size (the centre and edges between the cap insets).
  public enum ResizingMode: Hashable, Sendable {
    case stretch, tile
  }

  /// The image taking the size offered: stretched, keeping `capInsets` (points) at their size.
  public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: ResizingMode = .stretch) -> Image
  {
    var i = self
    i.isResizable = true
    i.capInsets = capInsets
    i.resizingMode = resizingMode
    return i
  }

  public typealias Body = Never
  public var body: Never { fatalError("Image has no body") }
}

/// One symbol: its box in units of the font's point size, and its outlines in a unit square
/// (filled, and stroked with round caps and joins at the weight's line width).
struct Symbol: Sendable {
  var width: CGFloat
  var height: CGFloat
  var fill: @Sendable (CGRect, CGFloat) -> Path?
  var stroke: @Sendable (CGRect, CGFloat) -> Path?

  /// The line width of stroked symbols at `weight`, for a point size of `size`: about a
  /// twelfth of the size at regular weight.
  static func lineWidth(size: CGFloat, weight: Font.Weight) -> CGFloat {
    size * (0.085 + 0.06 * max(-0.8, min(0.62, weight.value)))
  }

  /// A five-pointed star filling `r` (its points on a circle of radius `r.height / 1.809`).
  static func star(in r: CGRect) -> Path {
    let outer = r.height / (1 + cos(.pi / 5))
    let inner = outer * 0.4
    let c = CGPoint(x: r.midX, y: r.minY + outer)
    var p = Path()
    for i in 0..<10 {
      let a = -CGFloat.pi / 2 + CGFloat(i) * .pi / 5
      let rr = i % 2 == 0 ? outer : inner
      let q = CGPoint(x: c.x + rr * cos(a), y: c.y + rr * sin(a))
      if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
    }
    p.closeSubpath()
    return p
  }

  static func heart(in r: CGRect) -> Path {
    func pt(_ x: CGFloat, _ y: CGFloat) -> CGPoint {
      CGPoint(x: r.minX + x * r.width, y: r.minY + y * r.height)
    }
    var p = Path()
    p.move(to: pt(0.5, 0.98))
    p.addCurve(to: pt(0, 0.3), control1: pt(0.18, 0.74), control2: pt(0, 0.52))
    p.addCurve(to: pt(0.28, 0), control1: pt(0, 0.12), control2: pt(0.13, 0))
    p.addCurve(to: pt(0.5, 0.16), control1: pt(0.38, 0), control2: pt(0.46, 0.06))
    p.addCurve(to: pt(0.72, 0), control1: pt(0.54, 0.06), control2: pt(0.62, 0))
    p.addCurve(to: pt(1, 0.3), control1: pt(0.87, 0), control2: pt(1, 0.12))
    p.addCurve(to: pt(0.5, 0.98), control1: pt(1, 0.52), control2: pt(0.82, 0.74))
    p.closeSubpath()
    return p
  }

  /// A polyline through unit points of `r` shrunk by half the line width `w`.
  static func lines(_ r: CGRect, _ w: CGFloat, _ runs: [[(CGFloat, CGFloat)]]) -> Path {
    let i = r.insetBy(dx: w / 2, dy: w / 2)
    var p = Path()
    for run in runs {
      p.addLines(run.map { CGPoint(x: i.minX + $0.0 * i.width, y: i.minY + $0.1 * i.height) })
    }
    return p
  }

  static let all: [String: Symbol] = [
    "star.fill": Symbol(width: 1.15, height: 1.1, fill: { r, _ in star(in: r) }, stroke: { _, _ in nil }),
    "star": Symbol(
      width: 1.15, height: 1.1, fill: { _, _ in nil },
      stroke: { r, w in star(in: r.insetBy(dx: w * 0.6, dy: w * 0.6)) }),
    "heart.fill": Symbol(width: 1.13, height: 0.98, fill: { r, _ in heart(in: r) }, stroke: { _, _ in nil }),
    "heart": Symbol(
      width: 1.13, height: 0.98, fill: { _, _ in nil },
      stroke: { r, w in heart(in: r.insetBy(dx: w / 2, dy: w / 2)) }),
    "checkmark": Symbol(
      width: 0.96, height: 0.94, fill: { _, _ in nil },
      stroke: { r, w in lines(r, w, [[(0, 0.56), (0.34, 1), (1, 0)]]) }),
    "xmark": Symbol(
      width: 0.8, height: 0.8, fill: { _, _ in nil },
      stroke: { r, w in lines(r, w, [[(0, 0), (1, 1)], [(1, 0), (0, 1)]]) }),
    "plus": Symbol(
      width: 0.9, height: 0.9, fill: { _, _ in nil },
      stroke: { r, w in lines(r, w, [[(0.5, 0), (0.5, 1)], [(0, 0.5), (1, 0.5)]]) }),
    "minus": Symbol(
      width: 0.9, height: 0.12, fill: { _, _ in nil },
      stroke: { r, w in lines(r, 0, [[(0.06, 0.5), (0.94, 0.5)]]) }),
    "chevron.right": Symbol(
      width: 0.52, height: 0.91, fill: { _, _ in nil },
      stroke: { r, w in lines(r, w, [[(0, 0), (1, 0.5), (0, 1)]]) }),
    "chevron.left": Symbol(
      width: 0.52, height: 0.91, fill: { _, _ in nil },
      stroke: { r, w in lines(r, w, [[(1, 0), (0, 0.5), (1, 1)]]) }),
    "circle": Symbol(
      width: 1.19, height: 1.19, fill: { _, _ in nil },
      stroke: { r, w in Path(ellipseIn: r.insetBy(dx: w / 2, dy: w / 2)) }),
    "circle.fill": Symbol(
      width: 1.19, height: 1.19, fill: { r, _ in Path(ellipseIn: r) }, stroke: { _, _ in nil }),
    "person.crop.circle": Symbol(
      width: 1.19, height: 1.19,
      fill: { r, w in
        // The head, and the shoulders: the part of the inner circle below a curve.
        var p = Path(
          ellipseIn: CGRect(
            x: r.midX - r.width * 0.17, y: r.minY + r.height * 0.2, width: r.width * 0.34,
            height: r.height * 0.34))
        let c = CGPoint(x: r.midX, y: r.midY)
        let rr = r.width / 2 - w / 2
        func at(_ deg: CGFloat) -> CGPoint {
          CGPoint(x: c.x + rr * cos(deg * .pi / 180), y: c.y + rr * sin(deg * .pi / 180))
        }
        p.move(to: at(145))
        p.addArc(center: c, radius: rr, startAngle: .degrees(145), endAngle: .degrees(35), clockwise: true)
        p.addCurve(
          to: at(145), control1: CGPoint(x: r.minX + r.width * 0.74, y: r.minY + r.height * 0.56),
          control2: CGPoint(x: r.minX + r.width * 0.26, y: r.minY + r.height * 0.56))
        p.closeSubpath()
        return p
      },
      stroke: { r, w in Path(ellipseIn: r.insetBy(dx: w / 2, dy: w / 2)) }),
  ]
}

/// The view of a symbol: a filled and a stroked shape layer.
final class SymbolView: UIView {
  let fillLayer = CAShapeLayer()
  let strokeLayer = CAShapeLayer()

  override init(frame: CGRect) {
    super.init(frame: frame)
    isUserInteractionEnabled = false
    strokeLayer.fillColor = nil
    strokeLayer.lineCap = .round
    strokeLayer.lineJoin = .round
    layer.addSublayer(fillLayer)
    layer.addSublayer(strokeLayer)
  }
  required init?(coder: NSCoder) { return nil }
}

final class ImageNode: Node {
  let view = SymbolView()
  var symbol: Symbol?
  var size = CGSize.zero
  var lineWidth: CGFloat = 0
  var drawnSize: CGSize?
  var key: (String, Font, Font.Weight?)?

  override var ownView: UIView? { view }

  func update(_ image: Image, _ ctx: UpdateContext) {
    let env = ctx.environment
    let font = env.font ?? .body
    let weight = env.fontWeight ?? font.weight
    let color = (env.foregroundColor ?? .primary).cgColor
    view.fillLayer.fillColor = color
    view.strokeLayer.strokeColor = color
    let name = image.systemName ?? ""
    if let k = key, k.0 == name, k.1 == font, k.2 == env.fontWeight { return }
    key = (name, font, env.fontWeight)
    symbol = Symbol.all[name]
    size = symbol.map { CGSize(width: $0.width * font.size, height: $0.height * font.size) } ?? .zero
    lineWidth = Symbol.lineWidth(size: font.size, weight: weight)
    view.strokeLayer.lineWidth = lineWidth
    drawnSize = nil
    invalidateLayout()
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize { size }

  override func placeNode(in rect: CGRect) {
    super.placeNode(in: rect)
    guard drawnSize != rect.size, let s = symbol else { return }
    drawnSize = rect.size
    let r = CGRect(origin: .zero, size: rect.size)
    view.fillLayer.frame = r
    view.strokeLayer.frame = r
    view.fillLayer.path = s.fill(r, lineWidth)?.cgPath
    view.strokeLayer.path = s.stroke(r, lineWidth)?.cgPath
  }
}

/// The node of an image from a file or pixels: a `UIImageView` stretching it to its frame.
final class BitmapImageNode: Node {
  let view = UIImageView()
  var image: Image?

  override var ownView: UIView? { view }

  func update(_ i: Image) {
    guard i != image else { return }
    image = i
    view.contentMode = .scaleToFill
    let c = i.capInsets
    if i.isResizable, c != EdgeInsets() || i.resizingMode == .tile, let u = i.uiImage {
      view.image = u.resizableImage(
        withCapInsets: UIEdgeInsets(top: c.top, left: c.leading, bottom: c.bottom, right: c.trailing),
        resizingMode: i.resizingMode == .tile ? .tile : .stretch)
    } else {
      view.image = i.uiImage
    }
    invalidateLayout()
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    let natural = image?.uiImage?.size ?? .zero
    guard image?.isResizable == true else { return natural }
    return p.replacingUnspecifiedDimensions(by: natural)
  }
}

extension Image: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    if systemName == nil {
      let n = (old as? BitmapImageNode) ?? BitmapImageNode()
      n.update(self)
      return n
    }
    let n = (old as? ImageNode) ?? ImageNode()
    n.update(self, ctx)
    return n
  }
}

// MARK: - Aspect ratio

/// How content keeps its proportions in a frame (SwiftUI's `ContentMode`).
public enum ContentMode: Hashable, Sendable {
  case fit, fill
}

public struct _AspectRatioLayout<Content: View>: View {
  let content: Content
  let ratio: CGFloat?
  let contentMode: ContentMode
  public typealias Body = Never
  public var body: Never { fatalError("_AspectRatioLayout has no body") }
}

/// Offers the child the largest size of the ratio within the proposal (`fit`), or the smallest
/// covering it (`fill`); the ratio is the child's ideal size's when none is given.
final class AspectRatioNode: Node {
  var ratio: CGFloat?
  var contentMode = ContentMode.fit

  func target(_ p: ProposedViewSize) -> ProposedViewSize {
    guard let c = children.first else { return p }
    let ideal = c.sizeThatFits(.unspecified)
    let r = ratio ?? (ideal.height > 0 ? ideal.width / ideal.height : 1)
    guard r > 0, r.isFinite else { return p }
    let w = p.width.flatMap { $0.isFinite ? $0 : nil }
    let h = p.height.flatMap { $0.isFinite ? $0 : nil }
    switch (w, h) {
    case (nil, nil):
      return ProposedViewSize(width: ideal.width, height: ideal.width / r)
    case (let w?, nil):
      return ProposedViewSize(width: w, height: w / r)
    case (nil, let h?):
      return ProposedViewSize(width: h * r, height: h)
    case (let w?, let h?):
      let wide = w / max(h, .leastNonzeroMagnitude) > r
      let byHeight = contentMode == .fit ? wide : !wide
      return byHeight ? ProposedViewSize(width: h * r, height: h) : ProposedViewSize(width: w, height: w / r)
    }
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    children.first?.sizeThatFits(target(p)) ?? .zero
  }

  override func placeChildren(in rect: CGRect) {
    guard let c = children.first else { return }
    let s = c.sizeThatFits(target(proposal(for: rect.size)))
    c.place(in: Alignment.center.place(s, in: rect))
  }
}

extension _AspectRatioLayout: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? AspectRatioNode) ?? AspectRatioNode()
    if n.ratio != ratio || n.contentMode != contentMode {
      (n.ratio, n.contentMode) = (ratio, contentMode)
      n.invalidateLayout()
    }
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// Keeps the ratio of width to height (`ratio`, or the view's own) within the size offered.
  public func aspectRatio(_ ratio: CGFloat? = nil, contentMode: ContentMode) -> _AspectRatioLayout<Self> {
    _AspectRatioLayout(content: self, ratio: ratio, contentMode: contentMode)
  }
  public func aspectRatio(_ ratio: CGSize, contentMode: ContentMode) -> _AspectRatioLayout<Self> {
    aspectRatio(ratio.height > 0 ? ratio.width / ratio.height : nil, contentMode: contentMode)
  }
  /// As large as fits the size offered, keeping the view's proportions.
  public func scaledToFit() -> _AspectRatioLayout<Self> { aspectRatio(contentMode: .fit) }
  /// As small as covers the size offered, keeping the view's proportions.
  public func scaledToFill() -> _AspectRatioLayout<Self> { aspectRatio(contentMode: .fill) }
}
