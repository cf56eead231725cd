import Foundation
import SheenRaster
import Testing

@testable import SheenKit

/// A small chart as an app draws one in `draw(_:)`: a rounded panel, the area under the values
/// clipped and filled with a gradient, the line stroked with round joins and caps, a dashed
/// grid, a dot; optionally a clip left set without a save (allowed: the context ends with it).
final class ReusedChartView: UIView {
  var values: [CGFloat] = [] { didSet { setNeedsDisplay() } }
  var leavesClip = false

  override func draw(_ rect: CGRect) {
    guard let ctx = UIGraphicsGetCurrentContext(), values.count > 1, let top = values.max() else { return }
    UIColor(white: 0.9, alpha: 1).setFill()
    UIBezierPath(roundedRect: bounds, cornerRadius: 6).fill()
    let plot = bounds.insetBy(dx: 4, dy: 4)
    let points = values.enumerated().map { i, v in
      CGPoint(
        x: plot.minX + plot.width * CGFloat(i) / CGFloat(values.count - 1),
        y: plot.maxY - plot.height * v / top)
    }
    ctx.saveGState()
    ctx.setStrokeColor(UIColor.gray.cgColor)
    ctx.setLineDash(phase: 0, lengths: [2, 2])
    ctx.move(to: CGPoint(x: plot.minX, y: plot.midY))
    ctx.addLine(to: CGPoint(x: plot.maxX, y: plot.midY))
    ctx.strokePath()
    ctx.restoreGState()
    let line = UIBezierPath()
    line.move(to: points[0])
    for p in points.dropFirst() { line.addLine(to: p) }
    ctx.saveGState()
    let area = UIBezierPath(cgPath: line.cgPath)
    area.addLine(to: CGPoint(x: plot.maxX, y: plot.maxY))
    area.addLine(to: CGPoint(x: plot.minX, y: plot.maxY))
    area.close()
    area.addClip()
    let gradient = CGGradient(
      colorsSpace: CGColorSpaceCreateDeviceRGB(),
      colors: [UIColor.systemBlue.cgColor, UIColor.systemBlue.withAlphaComponent(0).cgColor],
      locations: [0, 1])!
    ctx.drawLinearGradient(
      gradient, start: CGPoint(x: 0, y: plot.minY), end: CGPoint(x: 0, y: plot.maxY), options: [])
    ctx.restoreGState()
    UIColor.systemBlue.setStroke()
    line.lineWidth = 2
    line.lineJoinStyle = .round
    line.lineCapStyle = .round
    line.stroke()
    UIColor.red.setFill()
    let last = points[points.count - 1]
    ctx.fillEllipse(in: CGRect(x: last.x - 2, y: last.y - 2, width: 4, height: 4))
    if leavesClip { ctx.clip(to: CGRect(x: 0, y: 0, width: 3, height: 3)) }
  }
}

/// A view whose drawing renders another layer (which displays it inside this drawing).
final class NestingView: UIView {
  var inner: UIView?

  override func draw(_ rect: CGRect) {
    guard let ctx = UIGraphicsGetCurrentContext() else { return }
    UIColor.blue.setFill()
    UIRectFill(bounds)
    inner?.layer.render(in: ctx)
  }
}

/// The display pass draws with contexts it keeps (`DisplayContexts`: canvas, rasterizer buffers,
/// clip masks, path and stroke storage): what a reused context draws must be exactly what a new
/// one draws, whatever the drawing before it left behind.
@Suite struct DisplayContextReuseTests {
  /// `view` drawn by a context made for it alone (not from the kept ones).
  static func freshPixels(_ view: UIView, scale: CGFloat = 2) -> Surface {
    let w = Int(view.bounds.width * scale)
    let h = Int(view.bounds.height * scale)
    let ctx = CGContext(width: w, height: h, scale: scale)!
    UIGraphicsPushContext(ctx)
    view.draw(view.bounds)
    UIGraphicsPopContext()
    return ctx.canvas.surface
  }

  static func pixels(of view: UIView) -> Surface? { view.layer.sheenLayer.contents?.surface }

  static func same(_ a: Surface?, _ b: Surface) -> Bool {
    guard let a, a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height {
      for x in 0..<a.width where a[x, y] != b[x, y] { return false }
    }
    return true
  }

  @Test func aReusedContextDrawsWhatANewOneDraws() throws {
    let (window, surface) = try makeWindow(width: 200, height: 120)
    window.scale = 2
    // Views drawn one after another in one display pass share the kept contexts; a view drawn
    // again with other values (a reused cell's chart) too.
    let views = (0..<4).map { i in
      let v = ReusedChartView(
        frame: CGRect(x: 10 + 45 * CGFloat(i), y: 10, width: 40 + CGFloat(i) * 3, height: 30))
      v.values = (0..<8).map { CGFloat(($0 * (i + 3) * 7) % 11 + 1) }
      window.addSubview(v)
      return v
    }
    views[1].leavesClip = true
    window.renderFrame(into: surface, time: 0)
    for v in views { #expect(Self.same(Self.pixels(of: v), Self.freshPixels(v))) }
    // Other values, drawn again (in the same bitmaps and kept contexts).
    for (i, v) in views.enumerated() { v.values = (0..<12).map { CGFloat(($0 * (i + 5) * 3) % 13 + 2) } }
    window.renderFrame(into: surface, time: 1)
    for v in views { #expect(Self.same(Self.pixels(of: v), Self.freshPixels(v))) }
    #expect(DisplayContexts.kept >= 1 && DisplayContexts.kept <= DisplayContexts.capacity)
  }

  @Test func aClipLeftSetDoesNotReachTheNextDrawing() throws {
    let (window, surface) = try makeWindow(width: 100, height: 60)
    let first = ReusedChartView(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
    first.values = [1, 3, 2, 5]
    first.leavesClip = true
    window.addSubview(first)
    window.renderFrame(into: surface, time: 0)
    // Drawn next, with the context that ended clipped to 3 x 3 points: the whole panel shows.
    let next = DrawCountingView(frame: CGRect(x: 50, y: 0, width: 40, height: 30))
    window.addSubview(next)
    window.renderFrame(into: surface, time: 1)
    let p = try #require(Self.pixels(of: next))
    #expect(p[0, 0] == 0xFFFF_0000 && p[p.width - 1, p.height - 1] == 0xFFFF_0000)
  }

  @Test func aRedrawAtTheSameSizeDrawsIntoTheSameBitmap() throws {
    // The kept context lets go of the bitmap it drew: the layer alone holds it, so a redraw at
    // the same size clears and reuses it instead of making another.
    let (window, surface) = try makeWindow(width: 100, height: 60)
    let v = ReusedChartView(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
    v.values = [1, 3, 2, 5]
    window.addSubview(v)
    window.renderFrame(into: surface, time: 0)
    let first = Self.pixels(of: v).map(ObjectIdentifier.init)
    #expect(first != nil)
    for values: [CGFloat] in [[5, 2, 3, 1], [2, 2, 4, 1]] {
      v.values = values
      v.layer.displayIfNeeded()
      #expect(Self.pixels(of: v).map(ObjectIdentifier.init) == first)
      #expect(Self.same(Self.pixels(of: v), Self.freshPixels(v, scale: 1)))
    }
  }

  @Test func drawingInsideADrawingTakesAnotherContext() throws {
    // Nested displays (a drawing that renders a layer needing display) each take a context;
    // the thread keeps at most `capacity` of them.
    let (window, surface) = try makeWindow(width: 100, height: 60)
    var views: [NestingView] = []
    for i in 0..<6 {
      let v = NestingView(frame: CGRect(x: 0, y: 0, width: 20 + CGFloat(i) * 4, height: 16 + CGFloat(i) * 4))
      v.inner = views.last
      views.append(v)
    }
    let leaf = DrawCountingView(frame: CGRect(x: 2, y: 2, width: 6, height: 6))
    views[0].inner = leaf
    leaf.setNeedsDisplay()
    for v in views { v.setNeedsDisplay() }
    window.addSubview(views[5])
    window.renderFrame(into: surface, time: 0)
    #expect(leaf.draws == 1)
    // The outermost drawing shows the leaf's red at the leaf's place, the rest blue.
    let p = try #require(Self.pixels(of: views[5]))
    #expect(p[4, 4] == 0xFFFF_0000 && p[20, 20] == 0xFF00_00FF)
    #expect(DisplayContexts.kept <= DisplayContexts.capacity)
  }
}
