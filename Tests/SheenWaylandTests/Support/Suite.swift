import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import SheenWayland
import Testing

/// Every test that starts a weston runs in this suite, one at a time (a shared 2-core machine).
/// Without weston the suite is skipped with the reason; `./run.sh test` installs it.
@Suite(.serialized, .enabled(if: Weston.isInstalled, Comment(rawValue: Weston.skipMessage)))
struct WaylandTests {}

/// Reads the window's events until `done` says so or `timeout` seconds pass; returns them all.
@discardableResult
func pump(_ window: WaylandWindow, timeout: Double = 5, until done: ([PlatformEvent]) -> Bool)
  -> [PlatformEvent]
{
  var events: [PlatformEvent] = []
  let deadline = Date().addingTimeInterval(timeout)
  while !done(events) && Date() < deadline {
    window.waitForEvents(timeout: min(0.1, max(0, deadline.timeIntervalSinceNow)), wakeDescriptor: nil)
    events += window.pollEvents()
  }
  return events
}

/// Connects to `weston` from this process. A lost connection is recorded as a test failure
/// instead of exiting the test runner.
func connect(to weston: Weston) throws -> WaylandDisplay {
  let display = try WaylandDisplay(name: weston.socketPath)
  display.onConnectionLost = { message in Issue.record("unexpected: \(message)") }
  return display
}

/// Draws the pattern into the next framebuffer, presents it and waits until it is on screen.
@discardableResult
func showPattern(in window: WaylandWindow, seed: Int = 0) throws -> Surface {
  let surface = try window.framebuffer()
  for y in 0..<surface.height {
    let row = surface.row(y)
    for x in 0..<surface.width { row[x] = patternPixel(x: x, y: y, seed: seed) }
  }
  window.present()
  #expect(window.waitForPresentCompletion(timeout: 5), "no frame callback within 5 s")
  return surface
}
