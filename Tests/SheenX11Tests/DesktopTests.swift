import CX11
import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenX11

/// A window property's raw values: bytes for format 8, C longs for format 32.
func windowProperty(_ d: OpaquePointer, _ window: Window, _ name: String) -> (
  type: String, format: Int32, bytes: [UInt8], longs: [Int]
)? {
  var type: Atom = 0
  var format: Int32 = 0
  var count: UInt = 0
  var after: UInt = 0
  var data: UnsafeMutablePointer<UInt8>?
  let status = XGetWindowProperty(
    d, window, XInternAtom(d, name, False), 0, 1 << 20, False, Atom(AnyPropertyType), &type, &format, &count,
    &after, &data)
  guard status == Success, let data, type != 0 else { return nil }
  defer { XFree(data) }
  let typeName = XGetAtomName(d, type).map { p in
    defer { XFree(p) }
    return String(cString: p)
  }
  if format == 32 {
    let longs = UnsafeRawPointer(data).assumingMemoryBound(to: Int.self)
    return (typeName ?? "?", format, [], Array(UnsafeBufferPointer(start: longs, count: Int(count))))
  }
  return (typeName ?? "?", format, Array(UnsafeBufferPointer(start: data, count: Int(count))), [])
}

/// The name XFixes gives the cursor the server shows now ("" when it has none).
func currentCursorName(_ d: OpaquePointer) -> String? {
  guard let image = XFixesGetCursorImage(d) else { return nil }
  defer { XFree(image) }
  return image.pointee.name.map { String(cString: $0) } ?? ""
}

extension X11Tests {
  @Suite struct Desktop {
    @Test(.timeLimit(.minutes(1)))
    func identityPropertiesAreSet() throws {
      try withXvfb { server in
        let window = try openWindow(on: server, size: PixelSize(width: 120, height: 90))
        defer { window.close() }
        let d = window.display.handle
        let wmClass = try #require(windowProperty(d, window.windowID, "WM_CLASS"))
        #expect(wmClass.type == "STRING")
        #expect(wmClass.bytes == Array("sheen\0Sheen\0".utf8))
        let pid = try #require(windowProperty(d, window.windowID, "_NET_WM_PID"))
        #expect(pid.type == "CARDINAL" && pid.longs == [Int(getpid())])
        var host = [CChar](repeating: 0, count: 256)
        #expect(gethostname(&host, 255) == 0)
        let machine = try #require(windowProperty(d, window.windowID, "WM_CLIENT_MACHINE"))
        #expect(machine.type == "STRING")
        #expect(machine.bytes == host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        let type = try #require(windowProperty(d, window.windowID, "_NET_WM_WINDOW_TYPE"))
        #expect(type.type == "ATOM")
        #expect(type.longs == [Int(bitPattern: XInternAtom(d, "_NET_WM_WINDOW_TYPE_NORMAL", False))])
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func iconHoldsEveryStandardSizeUnpremultiplied() throws {
      try withXvfb { server in
        let window = try openWindow(on: server, size: PixelSize(width: 120, height: 90))
        defer { window.close() }
        let icon = try #require(windowProperty(window.display.handle, window.windowID, "_NET_WM_ICON"))
        #expect(icon.type == "CARDINAL")
        // Walk the images: width, height, then width x height ARGB values.
        var images: [(size: Int, pixels: ArraySlice<Int>)] = []
        var i = 0
        while i + 2 <= icon.longs.count {
          let w = icon.longs[i]
          let h = icon.longs[i + 1]
          try #require(w == h && w > 0 && i + 2 + w * h <= icon.longs.count)
          images.append((w, icon.longs[(i + 2)..<(i + 2 + w * h)]))
          i += 2 + w * h
        }
        #expect(i == icon.longs.count)
        #expect(images.map(\.size) == AppIcon.standardSizes)
        let big = try #require(images.last)
        func argb(_ x: Int, _ y: Int) -> (a: Int, r: Int, g: Int, b: Int) {
          let v = big.pixels[big.pixels.startIndex + y * 128 + x]
          return (v >> 24 & 0xff, v >> 16 & 0xff, v >> 8 & 0xff, v & 0xff)
        }
        // Outside the rounded square: transparent.
        #expect(argb(0, 0).a == 0)
        // The first card (white at 96% opacity) over the gradient: unpremultiplied, so it reads
        // as nearly white whatever the gradient under it, at alpha 255.
        let card = argb(64, 48)
        #expect(card.a == 255 && card.r >= 245 && card.g >= 245 && card.b >= 245)
        // The background at (64.5, 20.5): the gradient at t = 16.5 / 120 (0x5C8DFF to 0x7A3EE6),
        // under the sheen (white at 16%).
        let t = 16.5 / 120
        func expected(_ top: Double, _ bottom: Double) -> Double {
          let c = top + (bottom - top) * t
          return c + (255 - c) * 0.16
        }
        let bg = argb(64, 20)
        #expect(bg.a == 255)
        #expect(abs(Double(bg.r) - expected(0x5C, 0x7A)) <= 3)
        #expect(abs(Double(bg.g) - expected(0x8D, 0x3E)) <= 3)
        #expect(abs(Double(bg.b) - expected(0xFF, 0xE6)) <= 3)
        // Antialiased edge pixels of the 16 px icon keep their colour (not darkened by alpha).
        let small = try #require(images.first)
        let edge = small.pixels.filter { ($0 >> 24 & 0xff) > 0 && ($0 >> 24 & 0xff) < 200 }
        #expect(!edge.isEmpty)
        #expect(edge.allSatisfy { ($0 & 0xff) >= 200 })  // blue stays strong in the edge
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func cursorShapesAreNamedForXFixes() throws {
      try withXvfb { server in
        let window = try openWindow(on: server, size: PixelSize(width: 200, height: 150))
        defer { window.close() }
        _ = try showPattern(in: window)
        let w = "0x" + String(window.windowID, radix: 16)
        try server.run("xdotool", ["mousemove", "--window", w, "100", "70"])
        let d = window.display.handle
        window.setCursor(.pointingHand)
        window.display.sync()
        #expect(currentCursorName(d) == "pointer")
        window.setCursor(.arrow)
        window.display.sync()
        #expect(currentCursorName(d) == "default")
        #expect(window.cursor == .arrow)
      }
    }

    @Test(.timeLimit(.minutes(2)))
    func demoIsFoundByPidAndShowsAHandOverButtons() throws {
      try withXvfb { server in
        let demo = try DemoProcess(server: server, arguments: ["--size", "640x640"])
        let pid = demo.process.processIdentifier
        let found = try server.run("xdotool", ["search", "--pid", String(pid)])
        #expect(found.split(separator: "\n").compactMap { UInt($0) }.contains(demo.windowID))
        let wmClass = try server.run("xprop", ["-id", String(demo.windowID), "WM_CLASS"])
        #expect(wmClass.contains("\"sheen\", \"Sheen\""))

        guard let d = XOpenDisplay(server.display) else { throw TestFailure("cannot open the display") }
        defer { XCloseDisplay(d) }
        let w = String(demo.windowID)
        // Sweep down the cards' right side, where their buttons are, until the demo shows the hand.
        var hand: Int?
        for y in stride(from: 200, to: 640, by: 6) where hand == nil {
          try server.run("xdotool", ["mousemove", "--window", w, "560", String(y)])
          if demo.readLine(until: { $0 == "cursor pointer" }, timeout: 0.15) != nil { hand = y }
        }
        try #require(hand != nil, "no button under x=560")
        #expect(currentCursorName(d) == "pointer")
        // Over the list's background the arrow comes back.
        try server.run("xdotool", ["mousemove", "--window", w, "8", String(hand!)])
        #expect(demo.readLine(until: { $0 == "cursor default" }, timeout: 5) != nil)
        #expect(currentCursorName(d) == "default")
      }
    }
  }
}

/// CPU seconds (user + system) `pid` has used, from /proc/PID/stat.
func cpuSeconds(_ pid: Int32) throws -> Double {
  let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
  // Fields after the command name (which is in parentheses and may hold spaces).
  guard let close = stat.lastIndex(of: ")") else { throw TestFailure("unreadable /proc/\(pid)/stat") }
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
  guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
    throw TestFailure("unreadable /proc/\(pid)/stat")
  }
  return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

extension X11Tests.Desktop {
  @Test(.timeLimit(.minutes(2)))
  func idleDemoUsesNoCPUEvenAfterInput() throws {
    try withXvfb { server in
      let demo = try DemoProcess(server: server, arguments: ["--size", "640x480"])
      let pid = demo.process.processIdentifier
      let w = String(demo.windowID)
      // Hover, scroll with the wheel, then leave the pointer resting over the window.
      try server.run("xdotool", ["mousemove", "--window", w, "300", "300", "click", "5", "click", "5"])
      _ = try server.run("xdotool", ["mousemove", "--window", w, "310", "200"])
      #expect(demo.readLine(until: { $0.hasPrefix("scroll") }, timeout: 5) != nil)
      // Let the glide (0.2 s) and any cursor change settle: on a loaded machine its last frames
      // may come late, so wait (at most 10 s) for a quiet half second, then measure 2 s.
      for _ in 0..<20 {
        let start = try cpuSeconds(pid)
        usleep(500_000)
        if try cpuSeconds(pid) == start { break }
      }
      let before = try cpuSeconds(pid)
      usleep(2_000_000)
      let used = try cpuSeconds(pid) - before
      // Two clock ticks (20 ms) of noise at most: no frames, no timers. The tick counts are
      // divided by the clock rate, so compare with half a tick to spare for rounding (two ticks
      // once read as 0.020000000000000018 s).
      #expect(used < 0.025, "the idle demo used \(used) s of CPU in 2 s")
    }
  }
}

/// Sets the server's resource database (the root window's RESOURCE_MANAGER, as `xrdb` does)
/// through `d`. Keep a connection open afterwards: Xvfb resets, clearing it, when its last
/// client leaves.
func setResources(_ text: String, through d: OpaquePointer) {
  var bytes = Array(text.utf8)
  XChangeProperty(
    d, XDefaultRootWindow(d), XA_RESOURCE_MANAGER, XA_STRING, 8, PropModeReplace, &bytes, Int32(bytes.count))
  XSync(d, False)
}

extension X11Tests.Desktop {
  @Test(.timeLimit(.minutes(1)))
  func scaleComesFromXftDpi() throws {
    try withXvfb { server in
      guard let keeper = XOpenDisplay(server.display) else { throw TestFailure("cannot open the display") }
      defer { XCloseDisplay(keeper) }
      #expect(try X11Display(name: server.display).resourceScale == 1)  // nothing set
      for (resources, scale) in [
        ("Xft.dpi:\t192\n", 2.0), ("Xcursor.size: 48\nXft.dpi: 144\nXft.antialias: 1\n", 1.5),
        ("Xft.dpi: 9600\n", 1), ("Xft.dpi: lots\n", 1), ("*dpi: 192\n", 2),
      ] {
        setResources(resources, through: keeper)
        let display = try X11Display(name: server.display)
        #expect(display.resourceScale == scale, "\(resources)")
        let window = try X11Window(display: display, title: "dpi", size: PixelSize(width: 40, height: 30))
        #expect(window.preferredScale == scale)
        window.close()
      }
    }
  }
}
