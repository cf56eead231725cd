import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenWayland

extension WaylandTests {
  @Suite struct WindowPixels {
    @Test(.timeLimit(.minutes(1)))
    func drawnPatternAppearsInScreenshot() throws {
      try withWeston { weston in
        let display = try connect(to: weston)
        let window = try WaylandWindow(
          display: display, title: "pattern", size: PixelSize(width: 200, height: 150))
        defer { window.close() }
        let surface = try showPattern(in: window, seed: 3)
        #expect(surface.width == 200 && surface.height == 150)
        let pixel = { (x: Int, y: Int) in patternPixel(x: x, y: y, seed: 3) }
        let shot = try weston.screenshot { locate(width: 200, height: 150, in: $0, pixel: pixel) != nil }
        let origin = try #require(
          locate(width: 200, height: 150, in: shot, pixel: pixel), "pattern not on screen")
        #expect(differingPixels(width: 200, height: 150, in: shot, at: origin, pixel: pixel) == 0)
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func demoFrameAppearsInScreenshot() throws {
      try withWeston { weston in
        let demo = try DemoProcess(
          environment: weston.environment,
          arguments: ["--backend", "wayland", "--test-pattern", "--size", "160x120"])
        #expect(demo.ready["backend"] == "wayland")
        #expect(demo.ready["size"] == "160x120")
        let shot = try weston.screenshot {
          locate(width: 160, height: 120, in: $0, pixel: demoPatternPixel) != nil
        }
        let origin = try #require(
          locate(width: 160, height: 120, in: shot, pixel: demoPatternPixel),
          "the demo's frame is not on screen")
        #expect(differingPixels(width: 160, height: 120, in: shot, at: origin, pixel: demoPatternPixel) == 0)
        usleep(300_000)
        kill(demo.process.processIdentifier, SIGTERM)
        #expect(demo.exitStatus(timeout: 5) == 0)
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func resizeYieldsBuffersOfTheNewSize() throws {
      try withWeston(width: 400, height: 300) { weston in
        let display = try connect(to: weston)
        let window = try WaylandWindow(
          display: display, title: "resize", size: PixelSize(width: 120, height: 90))
        defer { window.close() }
        try showPattern(in: window)

        window.setFullscreen(true)
        let full = PixelSize(width: 400, height: 300)
        let events = pump(window) { $0.contains(.resize(full)) }
        #expect(events.contains(.resize(full)))
        #expect(window.size == full && window.isFullscreen)
        let surface = try showPattern(in: window, seed: 1)
        #expect(surface.width == 400 && surface.height == 300)
        #expect(window.createdBufferSizes.last == full)
        let pixel = { (x: Int, y: Int) in patternPixel(x: x, y: y, seed: 1) }
        let shot = try weston.screenshot {
          differingPixels(width: 400, height: 300, in: $0, at: (0, 0), pixel: pixel) == 0
        }
        #expect(differingPixels(width: 400, height: 300, in: shot, at: (0, 0), pixel: pixel) == 0)

        window.setFullscreen(false)
        let small = PixelSize(width: 120, height: 90)
        #expect(pump(window) { $0.contains(.resize(small)) }.contains(.resize(small)))
        let again = try showPattern(in: window, seed: 2)
        #expect(again.width == 120 && again.height == 90)
        // Buffers of the old size go once the compositor releases them.
        _ = try showPattern(in: window, seed: 3)
        _ = try window.framebuffer()
        #expect(window.bufferCount <= WaylandWindow.maximumBuffers)
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func buffersAreReusedNeverDrawnWhileHeld() throws {
      try withWeston { weston in
        let display = try connect(to: weston)
        let window = try WaylandWindow(
          display: display, title: "frames", size: PixelSize(width: 64, height: 48))
        defer { window.close() }
        for frame in 0..<30 {
          let surface = try window.framebuffer()
          #expect(
            window.drawingBufferIsHeld == false, "frame \(frame) draws into a buffer the compositor holds")
          surface.clear(0xff00_0000 | UInt32(frame * 8))
          window.present()
        }
        #expect(window.createdBufferSizes.count <= WaylandWindow.maximumBuffers)
        #expect(window.createdBufferSizes.count >= 2)
      }
    }
  }
}
