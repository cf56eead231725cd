import Foundation
import SheenDemo
import SheenKit
import SheenLayers
import SheenPlatform
import SheenRaster

/// A small demo window (fast in debug builds) laid out and advanced to time 0.
func makeDemo(width: Int = 420, height: Int = 560, scale: Double = 1) -> DemoWindow {
  let w = DemoApp.makeWindow(size: PixelSize(width: width, height: height), scale: scale)
  w.overlay.isHidden = true
  w.advance(to: 0)
  return w
}

func down(_ p: CGPoint) -> PlatformEvent {
  .pointerDown(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: [])
}
func move(_ p: CGPoint) -> PlatformEvent {
  .pointerMove(Point(x: Double(p.x), y: Double(p.y)), modifiers: [])
}
func up(_ p: CGPoint) -> PlatformEvent {
  .pointerUp(Point(x: Double(p.x), y: Double(p.y)), button: .left, modifiers: [])
}
func key(_ k: Key, _ text: String = "") -> PlatformEvent { .keyDown(k, text: text, modifiers: []) }
func wheel(notches: Double, at p: CGPoint) -> PlatformEvent {
  .scroll(
    delta: Point(x: 0, y: notches * PlatformEvent.scrollPointsPerNotch),
    at: Point(x: Double(p.x), y: Double(p.y)),
    modifiers: [])
}

/// The centre of `view` in window points.
func center(of view: UIView) -> CGPoint {
  view.convert(CGPoint(x: view.bounds.midX, y: view.bounds.midY), to: nil)
}

/// The on-screen (presentation) scale of a view: what its real layer draws with.
func shownScale(_ view: UIView) -> Double { view.layer.sheenLayer.transform.scaleX }

/// The first card whose button is wholly inside the window.
func firstVisibleCard(_ w: DemoWindow) -> CardView? {
  w.cards.visibleCards.first { c in
    let r = c.button.convert(c.button.bounds, to: nil)
    return r.minY >= 0 && r.maxY <= w.bounds.height && r.minX >= 0 && r.maxX <= w.bounds.width
  }
}

/// Channels of a premultiplied opaque pixel.
func rgb(_ p: UInt32) -> (r: Int, g: Int, b: Int) {
  (Int((p >> 16) & 0xff), Int((p >> 8) & 0xff), Int(p & 0xff))
}

func luminance(_ p: UInt32) -> Int {
  let c = rgb(p)
  return (c.r * 299 + c.g * 587 + c.b * 114) / 1000
}

/// Renders `w` at `time` into a new surface of the window's pixel size.
func render(_ w: DemoWindow, at time: Double) throws -> Surface {
  let s = try Surface(
    width: Int((Double(w.bounds.width) * Double(w.scale)).rounded()),
    height: Int((Double(w.bounds.height) * Double(w.scale)).rounded()))
  w.renderFrame(into: s, time: time)
  return s
}

/// Scrolls until card `index` is on screen (its row at the top) and returns its view.
func showCard(_ w: DemoWindow, _ index: Int) -> CardView? {
  guard let p = w.cards.indexPath(forCard: index) else { return nil }
  w.list.scrollToItem(at: p, at: .top, animated: false)
  w.advance(to: w.currentTime)
  return w.cards.cardView(at: index)
}
