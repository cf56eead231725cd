import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenWayland

extension WaylandTests {
  @Suite struct Scale {
    /// On an output of scale 2 the window draws twice the pixels, shown one to one (no upscale).
    @Test(.timeLimit(.minutes(1)))
    func aScaleTwoOutputGetsBuffersOfTwiceThePixels() throws {
      try withWeston(width: 640, height: 480, scale: 2) { weston in
        let display = try connect(to: weston)
        let window = try WaylandWindow(
          display: display, title: "hidpi", size: PixelSize(width: 120, height: 90))
        defer { window.close() }
        #expect(window.bufferScale == 1)
        // The compositor says which output the surface is on once it shows a buffer.
        try showPattern(in: window)
        let events = pump(window) { $0.contains(.resize(PixelSize(width: 240, height: 180))) }
        #expect(events.contains(.scaleChange(2)))
        #expect(
          events.firstIndex(of: .scaleChange(2))! < events.firstIndex(
            of: .resize(PixelSize(width: 240, height: 180)))!)
        #expect(window.bufferScale == 2 && window.preferredScale == 2)
        #expect(window.size == PixelSize(width: 240, height: 180))
        let surface = try showPattern(in: window, seed: 5)
        #expect(surface.width == 240 && surface.height == 180)
        // The screenshot is in the output's pixels: the pattern appears unscaled.
        let pixel = { (x: Int, y: Int) in patternPixel(x: x, y: y, seed: 5) }
        let shot = try weston.screenshot { locate(width: 240, height: 180, in: $0, pixel: pixel) != nil }
        let origin = try #require(
          locate(width: 240, height: 180, in: shot, pixel: pixel), "pattern not on screen")
        #expect(differingPixels(width: 240, height: 180, in: shot, at: origin, pixel: pixel) == 0)
      }
    }
  }
}
