import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import SheenX11

/// Counts pixels of `surface` (RGB only) that differ from `image`.
func differingPixels(_ surface: Surface, _ image: XWDImage) -> Int {
  var count = 0
  for y in 0..<surface.height {
    for x in 0..<surface.width where surface[x, y] & 0xff_ffff != image[x, y] { count += 1 }
  }
  return count
}

/// A deterministic opaque pattern (each channel a different function of x and y).
func patternPixel(x: Int, y: Int, seed: Int = 0) -> UInt32 {
  let r = UInt32((x * 3 + seed) & 0xff)
  let g = UInt32((y * 5 + seed * 7) & 0xff)
  let b = UInt32(((x ^ y) + (x >> 8) * 37 + seed * 13) & 0xff)
  return 0xff00_0000 | r << 16 | g << 8 | b
}

func drawPattern(into surface: Surface, seed: Int = 0) {
  for y in 0..<surface.height {
    for x in 0..<surface.width { surface[x, y] = patternPixel(x: x, y: y, seed: seed) }
  }
}

/// Reads the window's events until `done` says so or `timeout` seconds pass; returns them all.
@discardableResult
func pump(_ window: X11Window, timeout: Double = 5, until done: ([PlatformEvent]) -> Bool) -> [PlatformEvent]
{
  var events: [PlatformEvent] = []
  let deadline = Date().addingTimeInterval(timeout)
  while !done(events) && Date() < deadline {
    window.waitForEvents(timeout: min(0.1, max(0, deadline.timeIntervalSinceNow)), wakeDescriptor: nil)
    events += window.pollEvents()
  }
  return events
}

/// Opens a window on `server` and waits until it is exposed (mapped and visible).
func openWindow(on server: Xvfb, size: PixelSize, title: String = "sheen test") throws -> X11Window {
  let display = try X11Display(name: server.display)
  let window = try X11Window(display: display, title: title, size: size)
  let events = pump(window) { $0.contains(.expose) }
  guard events.contains(.expose) else { throw TestFailure("the window was never exposed") }
  return window
}

/// Draws the pattern, presents it and waits until the server has it.
func showPattern(in window: X11Window, seed: Int = 0) throws -> Surface {
  let surface = try window.framebuffer()
  drawPattern(into: surface, seed: seed)
  window.present()
  window.waitForPresentCompletion()
  window.display.sync()
  return surface
}

/// Shared-memory segments listed by `ipcs -m`, as (shmid, creator pid, mode).
func sharedMemorySegments() throws -> [(id: Int32, creator: Int32)] {
  guard let ipcs = findExecutable("ipcs") else { throw TestFailure("ipcs is not installed") }
  let out = try runProcess(ipcs, ["-m", "-p"], timeout: 10).stdout
  return out.split(separator: "\n").compactMap { line in
    let f = line.split(separator: " ", omittingEmptySubsequences: true)
    guard f.count >= 4, let id = Int32(f[0]), let cpid = Int32(f[2]) else { return nil }
    return (id, cpid)
  }
}

/// Waits up to `timeout` seconds until `ipcs -m` no longer lists `id`; true when gone.
func waitUntilSegmentGone(_ id: Int32, timeout: Double = 5) throws -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while true {
    if try !sharedMemorySegments().contains(where: { $0.id == id }) { return true }
    if Date() > deadline { return false }
    usleep(50_000)
  }
}
