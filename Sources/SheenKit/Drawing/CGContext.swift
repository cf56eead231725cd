import Foundation
import SheenRaster
import Synchronization

/// A drawing destination with Core Graphics' calls (`CGContext`), over a SheenRaster `Canvas`.
///
/// The model is Core Graphics': a graphics state (CTM, clip, colours, pen, alpha, blend mode,
/// shadow) saved and restored as a stack; a current path whose points are mapped by the CTM when
/// they are added; painting calls that consume the path. Contexts made by UIKit
/// (`UIGraphicsImageRenderer`, a view's `draw(_:)`) have UIKit's flipped coordinates: origin at
/// the top left, y down, one unit per point.
///
/// Unlike Core Graphics:
/// - colours are device RGB whatever the colour space (as the rest of Sheen);
/// - `restoreGState` without a matching save is ignored silently (CG logs it);
/// - a call given NaN (a point, a size, an angle, a width, a dash, an alpha, a colour component)
///   is ignored as Core Graphics ignores it, and said once per call on standard error (CG's
///   "passed an invalid numeric value (NaN, or not-a-number) to CoreGraphics API and this value
///   is being ignored"); infinities are not NaN: they pass, and draw nothing sensible;
/// - a shadow's blur is a Gaussian of standard deviation `blur / 2` (as WebKit emulates CG's).
public final class CGContext {
  /// The canvas everything is drawn on (made on first use for a deferred context).
  public var canvas: Canvas {
    if let c = madeCanvas { return c }
    var surface: Surface?
    if let d = deferred {
      if let spare = d.spare, spare.width == d.width, spare.height == d.height {
        spare.clear(0)
        surface = spare
      } else {
        surface = try? Surface(width: d.width, height: d.height)
      }
    }
    deferred = nil
    let target = surface ?? (try! Surface(width: 1, height: 1))
    let c: Canvas
    if let kept = keptCanvas {
      kept.reset(surface: target)
      c = kept
    } else {
      c = Canvas(surface: target)
    }
    keptCanvas = nil
    c.transform = base
    madeCanvas = c
    return c
  }
  /// The canvas, if it was made.
  private(set) var madeCanvas: Canvas?
  /// The bitmap a deferred context makes on first use, and a spare one to clear and draw into
  /// instead when it has that size.
  private var deferred: (width: Int, height: Int, spare: Surface?)?
  /// A canvas a context reused for another bitmap keeps (its rasterizer's buffers, its pools),
  /// to draw the next bitmap with.
  private var keptCanvas: Canvas?
  /// Maps the context's default user space to device pixels (UIKit's: the scale, flipped).
  private(set) var base: Transform

  struct GState {
    var fill = Color.black
    var stroke = Color.black
    var lineWidth: Double = 1
    var cap = LineCap.butt
    var join = LineJoin.miter
    var miterLimit: Double = 10
    var dash: DashPattern? = nil
    var shadow: (offset: CGSize, blur: CGFloat, color: Color)? = nil
    var antialias = true
  }

  var state = GState()
  var stack: [GState] = []
  /// The current path, in device space (points were mapped by the CTM when added).
  var currentPath = Path()
  /// The path a painting call consumed, moved out of `currentPath` (whose storage then builds the
  /// next one): a context drawing path after path makes no new path storage once it has room.
  var spentPath = Path()
  /// Storage for a path a call makes and draws at once (a rectangle, an ellipse, the current path
  /// mapped back to user space to stroke), kept from one call to the next.
  var scratchPath = Path()
  /// Set for a stand-in context whose pixels nobody keeps.
  var discardsPixels = false
  /// Open transparency layers: the graphics state when each began, and the stack depth.
  var layers: [(state: GState, depth: Int)] = []

  /// A context drawing on `canvas`, whose current transform becomes the base space (default user
  /// space to device).
  public init(canvas: Canvas) {
    madeCanvas = canvas
    base = canvas.transform
  }

  /// A context whose transparent `width` x `height` bitmap (with UIKit's coordinates at `scale`)
  /// is made only when something uses the context: a layer's `draw(in:)` that draws nothing
  /// costs no bitmap. The size must be valid (`Surface.validate`).
  init(deferredWidth width: Int, height: Int, scale: Double, reusing spare: Surface? = nil) {
    base = Transform(scaleX: scale, y: scale)
    deferred = (width, height, spare)
  }

  /// Makes this context a new deferred one (as `init(deferredWidth:height:scale:reusing:)`),
  /// keeping its storage: the canvas it drew with (retargeted when the new bitmap is made), its
  /// path and state stacks. What it drew before is no longer its own; `finishReuse()` must have
  /// been called after it.
  func reuse(deferredWidth width: Int, height: Int, scale: Double, reusing spare: Surface? = nil) {
    base = Transform(scaleX: scale, y: scale)
    deferred = (width, height, spare)
    state = GState()
    stack.removeAll(keepingCapacity: true)
    layers.removeAll(keepingCapacity: true)
    currentPath.removeAllKeepingCapacity()
    discardsPixels = false
    interpolationQuality = .default
  }

  /// Lets go of the bitmap drawn (the canvas is kept for the next `reuse`, pointed at an empty
  /// one-pixel surface so that the drawing's bitmap has no other owner) and of the paths drawn.
  func finishReuse() {
    if let c = madeCanvas {
      c.reset(surface: CGContext.placeholder)
      // Pooled masks and groups not used for a while go (what a rare drawing needed).
      c.trimPools()
      keptCanvas = c
    }
    madeCanvas = nil
    deferred = nil
    spentPath.removeAllKeepingCapacity()
    scratchPath.removeAllKeepingCapacity()
  }

  /// What a kept canvas points at between uses.
  private static let placeholder = try! Surface(width: 1, height: 1)

  /// A context over a new transparent bitmap of `width` x `height` pixels with UIKit's
  /// coordinates (`scale` pixels per point); nil for a size that cannot be made.
  public convenience init?(width: Int, height: Int, scale: CGFloat = 1) {
    guard let s = try? Surface(width: width, height: height) else { return nil }
    let c = Canvas(surface: s)
    let k = Double(scale)
    c.transform = Transform(scaleX: k.isFinite && k > 0 ? k : 1, y: k.isFinite && k > 0 ? k : 1)
    self.init(canvas: c)
  }

  /// The bitmap drawn on, as an image (a copy).
  public func makeImage() -> CGImage? { CGImage(surface: canvas.surface.copy()) }

  public var width: Int { canvas.surface.width }
  public var height: Int { canvas.surface.height }

  // MARK: NaN

  /// Calls that were given NaN and said so (each is said once).
  private static let reported = Mutex<Set<String>>([])

  /// Whether any of `values` is NaN; the first time for `call`, says so on standard error.
  static func rejectsNaN(_ values: [CGFloat], _ call: String) -> Bool {
    guard values.contains(where: \.isNaN) else { return false }
    let first = reported.withLock { $0.insert(call).inserted }
    if first {
      FileHandle.standardError.write(
        Data("CGContext.\(call): passed an invalid numeric value (NaN); the call is ignored\n".utf8))
    }
    return true
  }

  static func values(_ p: CGPoint) -> [CGFloat] { [p.x, p.y] }
  static func values(_ r: CGRect) -> [CGFloat] { [r.origin.x, r.origin.y, r.size.width, r.size.height] }
  static func values(_ t: CGAffineTransform) -> [CGFloat] { [t.a, t.b, t.c, t.d, t.tx, t.ty] }

  // MARK: Graphics state

  public func saveGState() {
    canvas.save()
    stack.append(state)
  }

  /// Restores the state saved by the matching `saveGState`; without one (or across the start of
  /// a transparency layer) it does nothing.
  public func restoreGState() {
    guard stack.count > (layers.last?.depth ?? 0) else { return }
    canvas.restore()
    state = stack.removeLast()
  }

  /// User space to device space.
  public var ctm: CGAffineTransform { CGAffineTransform(canvas.transform) }
  public var userSpaceToDeviceSpaceTransform: CGAffineTransform { ctm }

  public func translateBy(x: CGFloat, y: CGFloat) {
    if Self.rejectsNaN([x, y], "translateBy") { return }
    canvas.translateBy(x: Double(x), y: Double(y))
  }
  public func scaleBy(x: CGFloat, y: CGFloat) {
    if Self.rejectsNaN([x, y], "scaleBy") { return }
    canvas.scaleBy(x: Double(x), y: Double(y))
  }
  public func rotate(by angle: CGFloat) {
    if Self.rejectsNaN([angle], "rotate") { return }
    canvas.rotate(by: Double(angle))
  }
  public func concatenate(_ t: CGAffineTransform) {
    if Self.rejectsNaN(Self.values(t), "concatenate") { return }
    canvas.concatenate(t.sheen)
  }

  public func setFillColor(_ c: CGColor) { setFillColor(c.color) }
  public func setStrokeColor(_ c: CGColor) { setStrokeColor(c.color) }
  /// The same with a colour's components (`UIColor.setFill()`, without making a `CGColor`).
  func setFillColor(_ v: Color) {
    if v.hasNaN, Self.rejectsNaN([v.red, v.green, v.blue, v.alpha].map { CGFloat($0) }, "setFillColor") {
      return
    }
    state.fill = v
  }
  func setStrokeColor(_ v: Color) {
    if v.hasNaN, Self.rejectsNaN([v.red, v.green, v.blue, v.alpha].map { CGFloat($0) }, "setStrokeColor") {
      return
    }
    state.stroke = v
  }
  public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    if Self.rejectsNaN([red, green, blue, alpha], "setFillColor") { return }
    state.fill = Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
  }
  public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    if Self.rejectsNaN([red, green, blue, alpha], "setStrokeColor") { return }
    state.stroke = Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
  }
  public func setFillColor(gray: CGFloat, alpha: CGFloat) {
    setFillColor(red: gray, green: gray, blue: gray, alpha: alpha)
  }
  public func setStrokeColor(gray: CGFloat, alpha: CGFloat) {
    setStrokeColor(red: gray, green: gray, blue: gray, alpha: alpha)
  }

  /// The opacity of everything drawn (clamped to 0...1).
  public func setAlpha(_ a: CGFloat) {
    if Self.rejectsNaN([a], "setAlpha") { return }
    canvas.globalAlpha = Double(a)
  }
  public func setBlendMode(_ mode: CGBlendMode) { canvas.blendMode = mode.sheen }

  public func setLineWidth(_ w: CGFloat) {
    if Self.rejectsNaN([w], "setLineWidth") { return }
    state.lineWidth = Double(w)
  }
  public func setLineCap(_ cap: CGLineCap) { state.cap = cap.sheen }
  public func setLineJoin(_ join: CGLineJoin) { state.join = join.sheen }
  public func setMiterLimit(_ limit: CGFloat) {
    if Self.rejectsNaN([limit], "setMiterLimit") { return }
    state.miterLimit = Double(limit)
  }

  /// Dashes later strokes: `lengths` alternate on and off (user space), starting `phase` in.
  /// An empty, negative or all-zero pattern strokes solid.
  public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
    if Self.rejectsNaN([phase] + lengths, "setLineDash") { return }
    state.dash = DashPattern(lengths: lengths.map { Double($0) }, phase: Double(phase))
  }

  /// Draws a shadow under everything drawn next: `offset` and `blur` are in base space (points,
  /// not affected by the CTM; positive height is down, as in UIKit); a nil or clear colour turns
  /// the shadow off.
  public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
    if Self.rejectsNaN([offset.width, offset.height, blur], "setShadow") { return }
    if let c = color?.color, c.alpha > 0, offset.width.isFinite, offset.height.isFinite, blur.isFinite {
      state.shadow = (offset, max(0, blur), c)
    } else {
      state.shadow = nil
    }
  }

  /// A shadow in black at a third opacity, as Core Graphics' default.
  public func setShadow(offset: CGSize, blur: CGFloat) {
    setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3.0))
  }

  /// Stored; Sheen always anti-aliases.
  public func setShouldAntialias(_ on: Bool) { state.antialias = on }
  public func setAllowsAntialiasing(_ on: Bool) {}
  public var interpolationQuality: CGInterpolationQuality = .default

  // MARK: Path

  /// The inverse CTM, when the CTM can be inverted.
  var inverseCTM: Transform? { canvas.transform.inverted }

  public func beginPath() { currentPath.removeAllKeepingCapacity() }

  /// Moves the current path to `spentPath` for a painting call to consume, and empties the
  /// current path (in the storage `spentPath` had).
  func consumeCurrentPath() {
    swap(&currentPath, &spentPath)
    currentPath.removeAllKeepingCapacity()
  }

  /// `scratchPath` emptied and built by `build`: a path for one call to draw and let go.
  func scratch(_ build: (inout Path) -> Void) -> Path {
    scratchPath.removeAllKeepingCapacity()
    build(&scratchPath)
    return scratchPath
  }
  public var isPathEmpty: Bool { currentPath.isEmpty }

  /// The current point in user space (`.zero` without one, as CG).
  public var currentPointOfPath: CGPoint {
    guard let p = currentPath.currentPoint, let inv = inverseCTM else { return .zero }
    return CGPoint(inv.apply(p))
  }

  /// The current path's bounding box in user space (control points included).
  public var boundingBoxOfPath: CGRect {
    guard !currentPath.isEmpty, let inv = inverseCTM else { return .null }
    return CGRect(inv.apply(currentPath.controlBounds))
  }

  /// A copy of the current path in user space.
  public var path: CGPath? {
    currentPath.isEmpty ? nil : CGPath(currentPath.transformed(by: inverseCTM ?? .identity))
  }

  @inline(__always) func device(_ p: CGPoint) -> Point { canvas.transform.apply(p.sheen) }

  public func move(to p: CGPoint) {
    if Self.rejectsNaN(Self.values(p), "move") { return }
    currentPath.move(to: device(p))
  }
  public func addLine(to p: CGPoint) {
    if Self.rejectsNaN(Self.values(p), "addLine") { return }
    guard currentPath.currentPoint != nil else { return }  // CG needs a current point
    currentPath.addLine(to: device(p))
  }
  public func addLines(between points: [CGPoint]) {
    guard let first = points.first else { return }
    move(to: first)
    for p in points.dropFirst() { addLine(to: p) }
  }
  public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
    if Self.rejectsNaN([end.x, end.y, control1.x, control1.y, control2.x, control2.y], "addCurve") {
      return
    }
    guard currentPath.currentPoint != nil else { return }
    currentPath.addCurve(to: device(end), control1: device(control1), control2: device(control2))
  }
  public func addQuadCurve(to end: CGPoint, control: CGPoint) {
    if Self.rejectsNaN([end.x, end.y, control.x, control.y], "addQuadCurve") { return }
    guard currentPath.currentPoint != nil else { return }
    currentPath.addQuadCurve(to: device(end), control: device(control))
  }
  public func closePath() { currentPath.closeSubpath() }
  public func addRect(_ r: CGRect) {
    if Self.rejectsNaN(Self.values(r), "addRect") { return }
    let t = canvas.transform
    currentPath.addPath(scratch { $0.addRect(r.sheen) }, transform: t)
  }
  public func addRects(_ rects: [CGRect]) { for r in rects { addRect(r) } }
  public func addEllipse(in r: CGRect) {
    if Self.rejectsNaN(Self.values(r), "addEllipse") { return }
    let t = canvas.transform
    currentPath.addPath(scratch { $0.addEllipse(in: r.sheen) }, transform: t)
  }
  public func addPath(_ p: CGPath) { currentPath.addPath(p.path, transform: canvas.transform) }
  /// Adds a user-space path (a `UIBezierPath`'s, without making a `CGPath` of it).
  func addUserPath(_ p: Path) { currentPath.addPath(p, transform: canvas.transform) }

  /// A circular arc; `clockwise` in Core Graphics' sense, which in UIKit's flipped coordinates
  /// runs counter-clockwise on screen (UIBezierPath's flag does not).
  public func addArc(
    center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
  ) {
    if Self.rejectsNaN([center.x, center.y, radius, startAngle, endAngle], "addArc") { return }
    let arc = scratch {
      $0.addArc(
        center: center.sheen, radius: Double(radius), startAngle: Double(startAngle),
        endAngle: Double(endAngle), clockwise: !clockwise)
    }
    appendJoined(arc)
  }

  /// An arc of `radius` tangent to the line from the current point to `tangent1End` and to the
  /// line from there to `tangent2End` (PostScript's `arct`), joined to the current point by a
  /// line. Without a current point nothing is added; when the points are collinear or the radius
  /// is zero, a line to `tangent1End`.
  public func addArc(tangent1End p1: CGPoint, tangent2End p2: CGPoint, radius: CGFloat) {
    if Self.rejectsNaN([p1.x, p1.y, p2.x, p2.y, radius], "addArc") { return }
    guard let cur = currentPath.currentPoint, let inv = inverseCTM else { return }
    let p0 = inv.apply(cur)
    let a = p1.sheen
    let b = p2.sheen
    let r = Double(radius)
    let u = (p0 - a).normalized
    let v = (b - a).normalized
    let cross = u.cross(v)
    guard r > 0, r.isFinite, abs(cross) > 1e-9, (p0 - a).length > 0, (b - a).length > 0 else {
      addLine(to: p1)
      return
    }
    // The angle at the corner, and how far from it the arc touches each line.
    let cosTheta = max(-1, min(1, u.dot(v)))
    let theta = acos(cosTheta)
    let d = r / tan(theta / 2)
    let t0 = a + u * d
    let t1 = a + v * d
    let bisector = (u + v).normalized
    let c = a + bisector * (r / sin(theta / 2))
    let start = atan2(t0.y - c.y, t0.x - c.x)
    let end = atan2(t1.y - c.y, t1.x - c.x)
    // The short way round: increasing angle when the corner turns that way.
    let arc = scratch {
      $0.addArc(center: c, radius: r, startAngle: start, endAngle: end, clockwise: cross < 0)
    }
    appendJoined(arc)
  }

  /// Appends a user-space path, joining its first point to the current point with a line.
  private func appendJoined(_ p: Path) {
    let t = canvas.transform
    var first = true
    for e in p.elements {
      switch e {
      case .move(let q):
        if first && currentPath.currentPoint != nil {
          currentPath.addLine(to: t.apply(q))
        } else {
          currentPath.move(to: t.apply(q))
        }
      case .line(let q): currentPath.addLine(to: t.apply(q))
      case .quad(let c, let q): currentPath.addQuadCurve(to: t.apply(q), control: t.apply(c))
      case .cubic(let c1, let c2, let q):
        currentPath.addCurve(to: t.apply(q), control1: t.apply(c1), control2: t.apply(c2))
      case .close: currentPath.closeSubpath()
      }
      first = false
    }
  }

  /// Replaces the path with the outline of its stroke under the current pen.
  public func replacePathWithStrokedPath() {
    guard let inv = inverseCTM else { return }
    let user = dashedUserPath(currentPath.transformed(by: inv))
    currentPath = user.stroked(pen, transform: canvas.transform, tolerance: Canvas.strokeTolerance)
  }

  // MARK: Painting

  var pen: StrokeStyle {
    StrokeStyle(width: state.lineWidth, join: state.join, cap: state.cap, miterLimit: state.miterLimit)
  }

  /// The user-space path dashed by the current pattern (or as it is).
  func dashedUserPath(_ p: Path) -> Path {
    guard let dash = state.dash else { return p }
    let tolerance = 0.05 / max(1e-9, canvas.transform.maxScale)
    return p.dashed(dash, tolerance: tolerance)
  }

  /// Fills a device-space path.
  func fillDevice(_ p: Path, rule: FillRule, paint: Paint) {
    let t = canvas.transform
    canvas.transform = .identity
    canvas.fill(p, paint: paint, rule: rule)
    canvas.transform = t
  }

  /// Strokes a device-space path with the pen (in user space).
  func strokeDevice(_ p: Path) {
    guard let inv = inverseCTM else { return }
    let user = scratch { $0.addPath(p, transform: inv) }
    canvas.stroke(dashedUserPath(user), style: pen, paint: .solid(state.stroke))
  }

  public func fillPath(using rule: CGPathFillRule = .winding) {
    consumeCurrentPath()
    painting { fillDevice(spentPath, rule: rule.sheen, paint: .solid(state.fill)) }
  }

  public func eoFillPath() { fillPath(using: .evenOdd) }

  public func strokePath() {
    consumeCurrentPath()
    painting { strokeDevice(spentPath) }
  }

  public func drawPath(using mode: CGPathDrawingMode) {
    consumeCurrentPath()
    let p = spentPath
    painting {
      switch mode {
      case .fill: fillDevice(p, rule: .nonZero, paint: .solid(state.fill))
      case .eoFill: fillDevice(p, rule: .evenOdd, paint: .solid(state.fill))
      case .stroke: strokeDevice(p)
      case .fillStroke:
        fillDevice(p, rule: .nonZero, paint: .solid(state.fill))
        strokeDevice(p)
      case .eoFillStroke:
        fillDevice(p, rule: .evenOdd, paint: .solid(state.fill))
        strokeDevice(p)
      }
    }
  }

  public func fill(_ rect: CGRect) {
    if Self.rejectsNaN(Self.values(rect), "fill") { return }
    let r = rect.sheen
    painting { canvas.fill(scratch { $0.addRect(r) }, paint: .solid(state.fill)) }
  }
  public func fill(_ rects: [CGRect]) {
    if Self.rejectsNaN(rects.flatMap(Self.values), "fill") { return }
    var p = Path()
    for r in rects { p.addRect(r.sheen) }
    painting { canvas.fill(p, paint: .solid(state.fill)) }
  }
  public func fillEllipse(in rect: CGRect) {
    if Self.rejectsNaN(Self.values(rect), "fillEllipse") { return }
    let r = rect.sheen
    painting { canvas.fill(scratch { $0.addEllipse(in: r) }, paint: .solid(state.fill)) }
  }
  public func stroke(_ rect: CGRect) {
    if Self.rejectsNaN(Self.values(rect), "stroke") { return }
    painting {
      canvas.stroke(dashedUserPath(Path(rect: rect.sheen)), style: pen, paint: .solid(state.stroke))
    }
  }
  public func stroke(_ rect: CGRect, width: CGFloat) {
    saveGState()
    setLineWidth(width)
    stroke(rect)
    restoreGState()
  }
  public func strokeEllipse(in rect: CGRect) {
    if Self.rejectsNaN(Self.values(rect), "strokeEllipse") { return }
    painting {
      canvas.stroke(dashedUserPath(Path(ellipseIn: rect.sheen)), style: pen, paint: .solid(state.stroke))
    }
  }
  /// Strokes segments between pairs of points (p0-p1, p2-p3, ...).
  public func strokeLineSegments(between points: [CGPoint]) {
    if Self.rejectsNaN(points.flatMap(Self.values), "strokeLineSegments") { return }
    var p = Path()
    var i = 0
    while i + 1 < points.count {
      p.move(to: points[i].sheen)
      p.addLine(to: points[i + 1].sheen)
      i += 2
    }
    painting { canvas.stroke(dashedUserPath(p), style: pen, paint: .solid(state.stroke)) }
  }

  /// Makes `rect` transparent (through the clip; no blending, alpha or shadow).
  public func clear(_ rect: CGRect) {
    if Self.rejectsNaN(Self.values(rect), "clear") { return }
    canvas.save()
    canvas.clip(to: rect.sheen)
    canvas.clear(.clear)
    canvas.restore()
  }

  // MARK: Clipping

  /// Intersects the clip with the current path (which is consumed).
  public func clip(using rule: CGPathFillRule = .winding) {
    let t = canvas.transform
    canvas.transform = .identity
    canvas.clip(to: currentPath, rule: rule.sheen)
    canvas.transform = t
    currentPath.removeAllKeepingCapacity()
  }
  public func clip() { clip(using: .winding) }
  public func eoClip() { clip(using: .evenOdd) }

  public func clip(to rect: CGRect) {
    if Self.rejectsNaN(Self.values(rect), "clip") { return }
    canvas.clip(to: rect.sheen)
  }
  public func clip(to rects: [CGRect]) {
    if Self.rejectsNaN(rects.flatMap(Self.values), "clip") { return }
    var p = Path()
    for r in rects { p.addRect(r.sheen) }
    canvas.clip(to: p)
  }

  /// Clips to `rect` through an image: its alpha (or, for an opaque image, its luminance, as a
  /// DeviceGray mask) says how much of each point stays. As Core Graphics, the image's first row
  /// goes to the rectangle's max-y edge (upside down in UIKit's flipped coordinates).
  public func clip(to rect: CGRect, mask: CGImage) {
    if Self.rejectsNaN(Self.values(rect), "clip") { return }
    let placement = CGContext.imagePlacement(mask, in: rect.sheen).concatenating(canvas.transform)
    let extent = IntRect(enclosing: placement.apply(Rect(mask.surface.bounds))).intersection(
      canvas.clipBounds)
    guard !extent.isEmpty, let m = try? AlphaMask(width: extent.width, height: extent.height),
      let source = try? Surface(width: extent.width, height: extent.height)
    else {
      canvas.clip(to: Rect.zero)
      return
    }
    m.originX = extent.x
    m.originY = extent.y
    let c = Canvas(surface: source)
    c.transform = placement.concatenating(Transform(translationX: Double(-extent.x), y: Double(-extent.y)))
    c.draw(mask.surface)
    let opaque = mask.surface.pixels.allSatisfy { $0 >> 24 == 255 }
    for y in 0..<extent.height {
      let src = source.row(y)
      let dst = m.row(y)
      for x in 0..<extent.width {
        let p = src[x]
        if opaque {
          let l = (Pixel.red(p) * 77 + Pixel.green(p) * 150 + Pixel.blue(p) * 29 + 128) >> 8
          dst[x] = UInt8(Pixel.div255(l * Pixel.alpha(p)))
        } else {
          dst[x] = UInt8(Pixel.alpha(p))
        }
      }
    }
    canvas.clip(to: m)
  }

  /// The clip's bounding box in user space.
  public var boundingBoxOfClipPath: CGRect {
    guard let inv = inverseCTM else { return .null }
    return CGRect(inv.apply(Rect(canvas.clipBounds)))
  }

  // MARK: Gradients

  /// Fills the clip with a gradient along the line from `start` to `end` (user space); beyond
  /// the ends only where `options` say so.
  public func drawLinearGradient(
    _ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions
  ) {
    if Self.rejectsNaN([start.x, start.y, end.x, end.y], "drawLinearGradient") { return }
    guard let inv = inverseCTM else { return }
    let s = start.sheen
    let e = end.sheen
    let u = e - s
    let len = u.length
    guard len > 0, len.isFinite, s.isFinite else { return }
    let area = scratch { $0.addRect(inv.apply(Rect(canvas.clipBounds))) }
    let paint = Paint.boundedLinearGradient(
      gradient.gradient, start: s, end: e, extendsStart: options.contains(.drawsBeforeStartLocation),
      extendsEnd: options.contains(.drawsAfterEndLocation))
    painting { canvas.fill(area, paint: paint) }
  }

  /// Fills the clip with a gradient between two circles (user space): at each point, the
  /// colour of the largest circle through it, as Core Graphics and PDF shadings.
  public func drawRadialGradient(
    _ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint,
    endRadius: CGFloat, options: CGGradientDrawingOptions
  ) {
    if Self.rejectsNaN(
      Self.values(startCenter) + Self.values(endCenter) + [startRadius, endRadius], "drawRadialGradient")
    {
      return
    }
    guard let inv = inverseCTM, startRadius >= 0, endRadius >= 0, startRadius.isFinite, endRadius.isFinite,
      startCenter.sheen.isFinite, endCenter.sheen.isFinite
    else { return }
    let geo = ConicalGradient(
      start: startCenter.sheen, startRadius: Double(startRadius), end: endCenter.sheen,
      endRadius: Double(endRadius), extendsStart: options.contains(.drawsBeforeStartLocation),
      extendsEnd: options.contains(.drawsAfterEndLocation))
    let area = scratch { $0.addRect(inv.apply(Rect(canvas.clipBounds))) }
    painting { canvas.fill(area, paint: .conicalGradient(gradient.gradient, geo)) }
  }

  // MARK: Images

  /// Image pixels to user space for `draw(_:in:)`: the image fills `rect`, its first row at the
  /// rectangle's max-y edge (Core Graphics' convention).
  static func imagePlacement(_ image: CGImage, in rect: Rect) -> Transform {
    let sx = rect.width / Double(image.width)
    let sy = rect.height / Double(image.height)
    return Transform(a: sx, b: 0, c: 0, d: -sy, tx: rect.minX, ty: rect.maxY)
  }

  /// Draws an image stretched over `rect`, as Core Graphics: its first row at the rectangle's
  /// max-y edge, so that in UIKit's flipped coordinates it shows upside down (`UIImage.draw(in:)`
  /// draws it upright).
  public func draw(_ image: CGImage, in rect: CGRect) {
    if Self.rejectsNaN(Self.values(rect), "draw") { return }
    let r = rect.sheen
    guard !r.isEmpty, r.origin.isFinite, r.width.isFinite, r.height.isFinite else { return }
    painting { canvas.draw(image.surface, transform: CGContext.imagePlacement(image, in: r)) }
  }

  /// Draws an image upright in `rect` (UIKit's `UIImage.draw(in:)`).
  func drawUpright(_ surface: Surface, in r: Rect, alpha: Double = 1, blend: BlendMode? = nil) {
    guard !r.isEmpty, r.origin.isFinite, r.width.isFinite, r.height.isFinite else { return }
    let place = Transform(
      a: r.width / Double(surface.width), b: 0, c: 0, d: r.height / Double(surface.height), tx: r.minX,
      ty: r.minY)
    canvas.save()
    canvas.globalAlpha *= alpha
    if let blend { canvas.blendMode = blend }
    painting { canvas.draw(surface, transform: place) }
    canvas.restore()
  }

  // MARK: Transparency layers

  /// Starts a transparency layer: what is drawn until `endTransparencyLayer` is composited as
  /// one image, with the alpha, blend mode and shadow in effect now (inside, they start reset).
  public func beginTransparencyLayer(auxiliaryInfo: [String: Any]?) {
    beginTransparencyLayer(in: nil)
  }

  /// The same, limited to `rect` (user space).
  public func beginTransparencyLayer(in rect: CGRect, auxiliaryInfo: [String: Any]?) {
    // (NaN bounds: a layer over the whole clip, so that its end still pairs with it; said once.)
    _ = Self.rejectsNaN(Self.values(rect), "beginTransparencyLayer")
    beginTransparencyLayer(in: Self.values(rect).contains(where: \.isNaN) ? nil : rect.sheen)
  }

  private func beginTransparencyLayer(in rect: Rect?) {
    saveGState()
    layers.append((state, stack.count))
    let bounds = rect.map { IntRect(enclosing: canvas.transform.apply($0)) }
    // The group is drawn plainly; the alpha, blend mode and shadow apply when it is composited
    // (ending the group gives the canvas back its state from here).
    canvas.beginGroup(bounds: bounds)
    canvas.globalAlpha = 1
    canvas.blendMode = .normal
    state.shadow = nil
  }

  /// Ends the innermost transparency layer and composites it; without one it does nothing.
  public func endTransparencyLayer() {
    guard let layer = layers.last else { return }
    while stack.count > layer.depth { restoreGState() }
    layers.removeLast()
    guard let group = canvas.endGroupDeferred() else { return }
    state = layer.state
    let alpha = canvas.globalAlpha
    painting { canvas.composite(group, opacity: alpha) }
    canvas.recycle(group)
    restoreGState()
  }

  // MARK: Shadows

  /// Runs a drawing operation; with a shadow set, it is drawn offscreen first, its alpha
  /// blurred and drawn offset in the shadow colour, then the drawing on top.
  func painting(_ body: () -> Void) {
    guard let shadow = state.shadow else {
      body()
      return
    }
    let scale = (abs(base.determinant)).squareRoot()
    let sigma = Double(shadow.blur) / 2 * scale
    let offset = base.applyToVector(shadow.offset.asPoint)
    guard sigma.isFinite, sigma < 1000, abs(offset.x) < 1e5, abs(offset.y) < 1e5 else {
      body()
      return
    }
    let dx = Int(offset.x.rounded())
    let dy = Int(offset.y.rounded())
    // What casts a shadow into the clip may lie outside it, by up to the blur and the offset.
    let reach = AlphaMask.blurMargin(sigma: sigma) + 1
    let clip = canvas.clipBounds
    if clip.isEmpty { return }
    let area = IntRect(
      x: clip.x - dx - reach, y: clip.y - dy - reach, width: clip.width + 2 * reach,
      height: clip.height + 2 * reach
    ).union(clip).intersection(
      IntRect(
        x: canvas.surface.bounds.x - 4096, y: canvas.surface.bounds.y - 4096,
        width: canvas.surface.width + 8192, height: canvas.surface.height + 8192))
    let alpha = canvas.globalAlpha
    let blend = canvas.blendMode
    canvas.blendMode = .normal
    canvas.beginGroup(bounds: area, unclipped: true)
    body()
    guard let group = canvas.endGroupDeferred() else { return }
    canvas.blendMode = blend
    canvas.globalAlpha = 1
    if let m = try? group.alphaMask(), let blurred = try? m.blurred(sigma: sigma) {
      canvas.draw(mask: blurred, color: shadow.color, offsetX: dx, offsetY: dy)
    }
    canvas.composite(group)
    canvas.recycle(group)
    canvas.globalAlpha = alpha
  }
}

/// How images are resampled (Core Graphics' `CGInterpolationQuality`). Stored; Sheen samples
/// bilinearly.
public enum CGInterpolationQuality: Int32, Sendable {
  case `default`, none, low, medium, high
}

extension Color {
  /// Whether a component is NaN.
  var hasNaN: Bool { red.isNaN || green.isNaN || blue.isNaN || alpha.isNaN }
}

extension CGSize {
  var asPoint: Point { Point(x: Double(width), y: Double(height)) }
}

extension CGAffineTransform {
  init(_ t: Transform) {
    self.init(
      a: CGFloat(t.a), b: CGFloat(t.b), c: CGFloat(t.c), d: CGFloat(t.d), tx: CGFloat(t.tx), ty: CGFloat(t.ty)
    )
  }
}
