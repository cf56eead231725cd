import Foundation
import SheenPlatform
import SheenRaster
import SheenX11

private let demoUsage = """
  usage: sheen demo [options]

  Opens a window (Wayland or X11) and animates it until closed.

  options:
    --fps N          target frames per second (default 60; 0 = as fast as possible)
    --size WxH       initial window size in pixels (default 800x600)
    --frames N       exit after drawing N frames
    --title TEXT     window title (default "Sheen")
    --test-pattern   draw a static, deterministic pattern (see DemoClient.testPatternPixel)
    --print-events   print one line per event on stdout (and a "ready" line once shown)
    --backend B      wayland or x11 (default: Wayland when $WAYLAND_DISPLAY is reachable, else X11)

  exit status: 0 closed, interrupted or done; 3 no display or the display server went away;
  64 bad usage.
  """

/// Options of `sheen demo`.
struct DemoOptions {
  var fps: Double = 60
  var size = PixelSize(width: 800, height: 600)
  var frames: Int?
  var title = "Sheen"
  var testPattern = false
  var printEvents = false
  var backend: Backend?

  /// Parses `args`; returns an error message for bad usage, or nil with `help` for `--help`.
  static func parse(_ args: [String]) -> Result<DemoOptions?, DemoUsageError> {
    var o = DemoOptions()
    var i = 0
    func value(_ flag: String) throws(DemoUsageError) -> String {
      i += 1
      guard i < args.count else { throw DemoUsageError("\(flag) needs a value") }
      return args[i]
    }
    do throws(DemoUsageError) {
      while i < args.count {
        let arg = args[i]
        switch arg {
        case "-h", "--help": return .success(nil)
        case "--fps":
          guard let f = Double(try value(arg)), f >= 0, f <= 1000 else {
            throw DemoUsageError("--fps needs a number from 0 to 1000")
          }
          o.fps = f
        case "--size":
          let parts = try value(arg).split(separator: "x").compactMap { Int($0) }
          guard parts.count == 2, (1...16384).contains(parts[0]), (1...16384).contains(parts[1]) else {
            throw DemoUsageError("--size needs WIDTHxHEIGHT, such as 800x600")
          }
          o.size = PixelSize(width: parts[0], height: parts[1])
        case "--frames":
          guard let n = Int(try value(arg)), n >= 1 else {
            throw DemoUsageError("--frames needs a positive count")
          }
          o.frames = n
        case "--title": o.title = try value(arg)
        case "--test-pattern": o.testPattern = true
        case "--print-events": o.printEvents = true
        case "--backend":
          guard let b = Backend(rawValue: try value(arg)) else {
            throw DemoUsageError("--backend needs wayland or x11")
          }
          o.backend = b
        default: throw DemoUsageError("unknown option '\(arg)'")
        }
        i += 1
      }
    } catch {
      return .failure(error)
    }
    return .success(o)
  }
}

struct DemoUsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// `sheen demo`: an animated window, until the real demo lands.
func runDemo(_ args: [String]) -> Int32 {
  let options: DemoOptions
  switch DemoOptions.parse(args) {
  case .failure(let e):
    FileHandle.standardError.write(Data("sheen demo: \(e.message)\n\(demoUsage)\n".utf8))
    return 64
  case .success(nil):
    print(demoUsage)
    return 0
  case .success(let o?):
    options = o
  }

  let opened: OpenedWindow
  do {
    opened = try openWindow(backend: options.backend, title: options.title, size: options.size)
  } catch {
    FileHandle.standardError.write(Data("sheen demo: \(error)\n".utf8))
    return 3
  }

  let window = opened.window
  let client = DemoClient(testPattern: options.testPattern)
  let loop = FrameLoop(
    window: window, client: client, framesPerSecond: options.fps, maxFrames: options.frames)
  if options.printEvents {
    loop.eventObserver = { event in printLine(event.description) }
  }
  do {
    if options.printEvents {
      // One frame shown before the loop, so a test knows the window is on screen.
      let surface = try window.framebuffer()
      client.draw(into: surface, frame: FrameLoop.FrameInfo(index: 0, time: 0))
      window.present()
      opened.waitUntilShown()
      printLine("ready \(opened.readyFields())")
    }
    let reason = try loop.run()
    window.close()
    if options.printEvents { printLine("stopped \(reason) frames=\(loop.framesDrawn)") }
    return 0
  } catch {
    window.close()
    FileHandle.standardError.write(Data("sheen demo: \(error)\n".utf8))
    return 1
  }
}

/// Writes one line to stdout at once (unbuffered, so a test reading a pipe sees it now).
private func printLine(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Draws moving coloured bars with plain pixel stores, a square that follows the pointer, and
/// scrolls with the wheel; or a static test pattern.
final class DemoClient: FrameLoopClient {
  let testPattern: Bool
  private var pointer: Point?
  private var pressed = false
  private var scroll = Point(x: 0, y: 0)

  init(testPattern: Bool) { self.testPattern = testPattern }

  var isAnimating: Bool { !testPattern }

  /// The test pattern's pixel at (x, y): opaque, every channel a different function of x and y.
  static func testPatternPixel(x: Int, y: Int) -> UInt32 {
    let r = UInt32(truncatingIfNeeded: x &* 3) & 0xff
    let g = UInt32(truncatingIfNeeded: y &* 5) & 0xff
    let b = UInt32(truncatingIfNeeded: (x ^ y) &+ (x >> 8) &* 37) & 0xff
    return 0xff00_0000 | r << 16 | g << 8 | b
  }

  func handle(_ event: PlatformEvent) {
    switch event {
    case .pointerMove(let p, _), .pointerEnter(let p): pointer = p
    case .pointerDown(let p, _, _):
      pointer = p
      pressed = true
    case .pointerUp(let p, _, _):
      pointer = p
      pressed = false
    case .pointerLeave: pointer = nil
    case .scroll(let d, _, _):
      scroll.x += d.x
      scroll.y += d.y
    default: break
    }
  }

  func draw(into surface: Surface, frame: FrameLoop.FrameInfo) {
    if testPattern {
      for y in 0..<surface.height {
        let row = surface.row(y)
        for x in 0..<surface.width { row[x] = DemoClient.testPatternPixel(x: x, y: y) }
      }
      return
    }
    let colors: [UInt32] = [0xffe0_4f5f, 0xfff2_a03d, 0xfff4_d35e, 0xff5b_c07a, 0xff3d_8fd1, 0xff8e_5bd6]
    let barWidth = 48
    let shift = Int(frame.time * 120) + Int(scroll.x)
    let row = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: surface.width)
    defer { row.deallocate() }
    for x in 0..<surface.width {
      let band = ((x + shift) / barWidth) % colors.count
      row[x] = colors[(band + colors.count) % colors.count]
    }
    for y in 0..<surface.height {
      // Every 64 rows (moved by the vertical scroll) the bars shift by half a bar.
      let offset = (((y + Int(scroll.y)) >> 6) & 1) * (barWidth / 2)
      let dst = surface.row(y)
      let n = surface.width
      if offset == 0 {
        dst.update(from: row.baseAddress!, count: n)
      } else {
        dst.update(from: row.baseAddress! + offset, count: n - offset)
        dst.advanced(by: n - offset).update(from: row.baseAddress!, count: offset)
      }
    }
    if let p = pointer {
      let side = pressed ? 40 : 24
      let r = IntRect(x: Int(p.x) - side / 2, y: Int(p.y) - side / 2, width: side, height: side)
      surface.clear(pressed ? 0xffff_ffff : 0xff20_2020, in: r)
    }
  }
}
