import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenX11

extension X11Tests {
  @Suite struct WindowPixels {
    @Test(.timeLimit(.minutes(1)))
    func sharedMemoryWindowShowsWhatWasDrawn() throws {
      try withXvfb { server in
        let window = try openWindow(on: server, size: PixelSize(width: 203, height: 151))
        defer { window.close() }
        #expect(window.display.hasSharedMemory)
        for seed in [1, 2] {  // the second frame reuses the buffer after the completion event
          let surface = try showPattern(in: window, seed: seed)
          #expect(window.usesSharedMemory)
          let shown = try XWDImage.capture(window: window.windowID, on: server)
          #expect(shown.width == 203 && shown.height == 151)
          #expect(differingPixels(surface, shown) == 0)
        }
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func fallbackWithoutMITSHMShowsTheSamePixels() throws {
      try withXvfb(extraArguments: ["-extension", "MIT-SHM"]) { server in
        let window = try openWindow(on: server, size: PixelSize(width: 190, height: 97))
        defer { window.close() }
        #expect(!window.display.hasSharedMemory)
        let surface = try showPattern(in: window, seed: 3)
        #expect(!window.usesSharedMemory)
        #expect(window.sharedMemoryID == nil)
        let shown = try XWDImage.capture(window: window.windowID, on: server)
        #expect(differingPixels(surface, shown) == 0)
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func depth16ScreenIsAClearError() throws {
      try withXvfb(screen: "640x480x16") { server in
        #expect {
          _ = try X11Display(name: server.display)
        } throws: { error in
          guard case X11Error.unsupportedVisual = error else { return false }
          return "\(error)".contains("TrueColor")
        }
      }
    }

    @Test func unreachableDisplayIsATypedError() throws {
      #expect(throws: X11Error.cannotOpenDisplay(":987")) { _ = try X11Display(name: ":987") }
    }

    /// Measures a full-HD present: `XShmPutImage` and its completion event, and the `XPutImage`
    /// fallback (with an `XSync`).
    @Test(.timeLimit(.minutes(2)))
    func presentCostAt1920x1080() throws {
      let size = PixelSize(width: 1920, height: 1080)
      for fallback in [false, true] {
        try withXvfb(screen: "1920x1080x24", extraArguments: fallback ? ["-extension", "MIT-SHM"] : []) {
          server in
          let window = try openWindow(on: server, size: size)
          defer { window.close() }
          let surface = try showPattern(in: window)
          #expect(window.usesSharedMemory == !fallback)
          var times: [Double] = []
          for i in 0..<50 {
            surface[i, 0] = 0xff00_ff00
            let t0 = monotonicSeconds()
            window.present()
            window.waitForPresentCompletion()
            if fallback { window.display.sync() }
            times.append(monotonicSeconds() - t0)
          }
          times.sort()
          let median = times[times.count / 2] * 1000
          let name = fallback ? "XPutImage + XSync" : "XShmPutImage + completion"
          print("present 1920x1080, \(name): median \(String(format: "%.2f", median)) ms of 50")
          #expect(median < 50)
        }
      }
    }
  }
}
