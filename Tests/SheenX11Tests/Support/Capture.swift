import Foundation
import SheenPlatform
import SheenRaster
import SheenX11

/// An image captured from the X server by `xwd`, parsed here (XWD version 7, ZPixmap, 32 bpp).
struct XWDImage {
  var width: Int
  var height: Int
  /// Pixels in row order, as `0x00RRGGBB` (the depth-24 bits).
  var pixels: [UInt32]

  subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

  init(data: Data) throws {
    let bytes = [UInt8](data)
    guard bytes.count >= 100 else { throw TestFailure("XWD file too short") }
    func field(_ i: Int) -> Int {
      let o = i * 4
      return Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3])
    }
    let headerSize = field(0)
    let version = field(1)
    let format = field(2)
    width = field(4)
    height = field(5)
    let byteOrder = field(7)
    let bitsPerPixel = field(11)
    let bytesPerLine = field(12)
    let colors = field(19)
    guard version == 7, format == 2, bitsPerPixel == 32 else {
      throw TestFailure("unexpected XWD: version \(version), format \(format), \(bitsPerPixel) bpp")
    }
    let start = headerSize + colors * 12
    guard bytes.count >= start + bytesPerLine * height else { throw TestFailure("XWD file truncated") }
    var pixels = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        let o = start + y * bytesPerLine + x * 4
        let b = (UInt32(bytes[o]), UInt32(bytes[o + 1]), UInt32(bytes[o + 2]), UInt32(bytes[o + 3]))
        let v =
          byteOrder == 0 ? b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0 : b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3
        pixels[y * width + x] = v & 0xff_ffff
      }
    }
    self.pixels = pixels
  }

  /// Captures window `id` of `server` with `xwd -id`.
  static func capture(window id: UInt, on server: Xvfb) throws -> XWDImage {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-\(getpid())-\(id).xwd")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try server.run("xwd", ["-silent", "-id", "0x" + String(id, radix: 16), "-out", path])
    return try XWDImage(data: Data(contentsOf: URL(fileURLWithPath: path)))
  }
}

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
