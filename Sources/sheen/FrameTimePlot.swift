import Foundation
import SheenRaster
import SheenText

/// Draws frame times as a bar chart with our own rasterizer and writes it as a PNG: one bar per
/// frame (render in blue, the rest of the frame in grey), the 16.7 ms line of 60 Hz in red, and
/// the scale and percentiles as text.
func writeFrameTimePlot(whole: [Double], render: [Double], to path: String, title: String) throws {
  let width = 960
  let height = 360
  let surface = try Surface(width: width, height: height)
  let canvas = Canvas(surface: surface)
  canvas.clear(Color(hex: "#FFFFFF")!)
  let left = 56.0
  let right = Double(width) - 16
  let top = 44.0
  let bottom = Double(height) - 36
  let sorted = whole.sorted()
  let p99 = sorted.isEmpty ? 16.7 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
  let scaleMax = max(20, (max(p99, 16.7) * 1.25).rounded(.up))
  func yFor(_ ms: Double) -> Double { bottom - min(ms, scaleMax) / scaleMax * (bottom - top) }
  let n = max(1, whole.count)
  let barWidth = (right - left) / Double(n)
  for (i, ms) in whole.enumerated() {
    let x = left + Double(i) * barWidth
    let r = i < render.count ? render[i] : ms
    canvas.fill(
      Rect(x: x, y: yFor(ms), width: max(barWidth, 0.5), height: yFor(r) - yFor(ms)),
      paint: .solid(Color(hex: "#C7C7CC")!))
    canvas.fill(
      Rect(x: x, y: yFor(r), width: max(barWidth, 0.5), height: bottom - yFor(r)),
      paint: .solid(Color(hex: "#0A84FF")!))
  }
  // Axes, the 60 Hz line and grid lines every 5 ms.
  let axis = Color(hex: "#3C3C43")!
  canvas.fill(Rect(x: left - 1, y: top, width: 1, height: bottom - top), paint: .solid(axis))
  canvas.fill(Rect(x: left - 1, y: bottom, width: right - left + 1, height: 1), paint: .solid(axis))
  canvas.fill(
    Rect(x: left, y: yFor(16.7) - 0.5, width: right - left, height: 1), paint: .solid(Color(hex: "#FF3B30")!))
  let font = try Font.bundled(.regular)
  let small = TextStyle(font: font, size: 11)
  var ms = 0.0
  while ms <= scaleMax {
    canvas.fill(Rect(x: left - 5, y: yFor(ms) - 0.5, width: 4, height: 1), paint: .solid(axis))
    canvas.drawText(TextLayout("\(Int(ms)) ms", style: small), at: Point(x: 6, y: yFor(ms) - 8), color: axis)
    ms += scaleMax > 60 ? 20 : 5
  }
  let p = percentiles(whole)
  let heading = TextStyle(font: try Font.bundled(.bold), size: 14)
  canvas.drawText(TextLayout(title, style: heading), at: Point(x: left, y: 10), color: axis)
  let legend = String(
    format:
      "%d frames   p50 %.2f ms   p95 %.2f ms   p99 %.2f ms   blue: render   grey: present   red: 16.7 ms",
    whole.count, p.0, p.1, p.2)
  canvas.drawText(TextLayout(legend, style: small), at: Point(x: left, y: bottom + 10), color: axis)
  let dir = (path as NSString).deletingLastPathComponent
  if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
  try surface.writePNG(to: path)
}
