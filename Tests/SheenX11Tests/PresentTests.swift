import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenX11

/// Frames through the Present extension under Xvfb (which has Present and a retrace clock of
/// its own, though no display): drawn as fast as the loop can, they are still shown one per
/// retrace, each completed, and the window shows the last one exactly.
extension X11Tests {
  @Suite struct Present {
    @Test(.timeLimit(.minutes(1)))
    func framesAreShownOnePerRetrace() throws {
      try withXvfb { server in
        let window = try openWindow(on: server, size: PixelSize(width: 160, height: 120))
        defer { window.close() }
        #expect(window.usesPresent)
        var last: Surface?
        let start = monotonicSeconds()
        for seed in 0..<12 {
          // No waiting here: framebuffer() waits for the last frame's retrace.
          let surface = try window.framebuffer()
          drawPattern(into: surface, seed: seed)
          window.present()
          last = surface
        }
        window.waitForPresentCompletion()
        #expect(window.usesPresent && window.usesSharedMemory)
        let elapsed = monotonicSeconds() - start
        let done = window.presentCompletions.suffix(12)
        #expect(done.map(\.serial) == Array(1...12).map(UInt32.init))
        // One frame a retrace: the counter rises with every frame, never twice in one.
        let mscs = done.map(\.msc)
        #expect(zip(mscs, mscs.dropFirst()).allSatisfy { $0 < $1 }, "retraces \(mscs)")
        // The retraces' clock: the 11 intervals took as long as the loop did, at least.
        let first = try #require(done.first)
        let final = try #require(done.last)
        let interval = Double(final.ust - first.ust) / 1e6 / Double(final.msc - first.msc)
        #expect(interval > 0.001 && interval < 0.1, "retrace interval \(interval) s")
        #expect(elapsed >= 11 * interval * 0.9, "12 frames in \(elapsed) s at \(interval) s a retrace")
        print("Present under Xvfb: 12 frames in \(elapsed) s, retraces \(mscs), \(interval) s apart")
        window.display.sync()
        let shown = try XWDImage.capture(window: window.windowID, on: server)
        #expect(differingPixels(try #require(last), shown) == 0)
      }
    }
  }
}
