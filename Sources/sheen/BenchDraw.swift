import Foundation
import SheenDemo
import SheenKit
import SheenRaster

/// `sheen bench draw`: what a custom view's `draw(_:)` costs. Times a redraw of the demo's
/// 300x200-point chart (`ChartView`: grid, labels, gradient area, curve, shadowed marker) at
/// scales 1 and 2, as the display pass does it (`setNeedsDisplay()` then display), and a steady
/// frame of a window showing it, which draws only the kept bitmap.
func benchDraw(runs: Int) throws {
  for scale in [1, 2] {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 340, height: 240))
    window.scale = CGFloat(scale)
    let surface = try Surface(width: 340 * scale, height: 240 * scale)
    let chart = ChartView(frame: CGRect(x: 20, y: 20, width: 300, height: 200))
    window.addSubview(chart)
    var time = 0.0
    func frame() {
      time += 1.0 / 60
      window.renderFrame(into: surface, time: time)
    }
    frame()
    let redraw = measure(runs: runs) {
      chart.setNeedsDisplay()
      chart.layer.displayIfNeeded()
    }
    let redrawAllocations = allocationsPerFrame(frames: 50) {
      chart.setNeedsDisplay()
      chart.layer.displayIfNeeded()
    }
    let steady = measure(runs: runs, frame)
    let draws = window.displayCount
    let allocations = allocationsPerFrame(frames: 100, frame)
    var line = String(
      format:
        "draw: 300x200-point chart at scale %d: redraw median %.3f ms, min %.3f ms; steady frame (340x240 points) median %.3f ms, min %.3f ms, draw(_:) calls per steady frame %.2f",
      scale, redraw.median, redraw.min, steady.median, steady.min, Double(window.displayCount - draws) / 100)
    if let a = redrawAllocations { line += String(format: "; allocations per redraw %.1f", a) }
    if let a = allocations { line += String(format: "; allocations per steady frame %.2f", a) }
    print(line)
  }
}
