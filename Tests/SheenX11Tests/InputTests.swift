import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenX11

extension X11Tests {
  @Suite struct Input {
    private func wid(_ window: X11Window) -> String { "0x" + String(window.windowID, radix: 16) }

    /// Through XInput2 (Xvfb has 2.2) and through core events, the fallback without it.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func clicksDragsAndWheelArriveAtTheRightPlaces(xinput2: Bool) throws {
      try withXvfb { server in
        let display = try X11Display(name: server.display)
        let window = try X11Window(
          display: display, title: "input", size: PixelSize(width: 300, height: 200), xinput2: xinput2)
        _ = pump(window) { $0.contains(.expose) }
        defer { window.close() }
        #expect(window.usesXInput2 == xinput2)
        #expect(display.xiMinorVersion == 2)
        _ = try showPattern(in: window)
        let w = wid(window)
        try server.run(
          "xdotool",
          [
            "mousemove", "--window", w, "30", "40", "click", "1",
            "mousemove", "--window", w, "60", "70", "mousedown", "1",
            "mousemove", "--window", w, "90", "80", "mousemove", "--window", w, "120", "90", "mouseup", "1",
            "click", "3", "click", "4", "click", "5", "click", "6", "click", "7",
          ])
        let scrollRight = PlatformEvent.scroll(
          delta: Point(x: 48, y: 0), at: Point(x: 120, y: 90), modifiers: [])
        let events = PlatformEvent.compressingMotion(pump(window) { $0.contains(scrollRight) })
        let none: Modifiers = []
        let expected: [PlatformEvent] = [
          .pointerDown(Point(x: 30, y: 40), button: .left, modifiers: none),
          .pointerUp(Point(x: 30, y: 40), button: .left, modifiers: none),
          .pointerDown(Point(x: 60, y: 70), button: .left, modifiers: none),
          .pointerUp(Point(x: 120, y: 90), button: .left, modifiers: none),
          .pointerDown(Point(x: 120, y: 90), button: .right, modifiers: none),
          .pointerUp(Point(x: 120, y: 90), button: .right, modifiers: none),
          .scroll(delta: Point(x: 0, y: -48), at: Point(x: 120, y: 90), modifiers: none),
          .scroll(delta: Point(x: 0, y: 48), at: Point(x: 120, y: 90), modifiers: none),
          .scroll(delta: Point(x: -48, y: 0), at: Point(x: 120, y: 90), modifiers: none),
          scrollRight,
        ]
        let buttons = events.filter {
          switch $0 {
          case .pointerDown, .pointerUp, .scroll: return true
          default: return false
          }
        }
        #expect(buttons == expected)
        // The drag's motion arrives, compressed to the last position before the release.
        if let up = events.firstIndex(of: expected[3]) {
          #expect(events[up - 1] == .pointerMove(Point(x: 120, y: 90), modifiers: .init(rawValue: 0)))
        }
        #expect(events.contains { if case .pointerEnter = $0 { return true } else { return false } })
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func keysArriveAsNeutralKeysWithText() throws {
      try withXvfb { server in
        let window = try openWindow(on: server, size: PixelSize(width: 200, height: 120))
        defer { window.close() }
        let w = wid(window)
        try server.run("xdotool", ["mousemove", "--window", w, "50", "50", "windowfocus", "--sync", w])
        try server.run(
          "xdotool",
          [
            "key", "Left", "Right", "Up", "Down", "Prior", "Next", "Home", "End", "space", "Escape", "q", "a",
            "shift+a",
          ])
        // The last event is the release of Shift (keysym 0xffe1).
        let events = pump(window) { events in
          events.contains { if case .keyUp(.other(0xffe1), _) = $0 { return true } else { return false } }
        }
        let downs: [PlatformEvent] = events.filter {
          if case .keyDown = $0 { return true } else { return false }
        }
        let none: Modifiers = []
        let expected: [PlatformEvent] = [
          .keyDown(.left, text: "", modifiers: none), .keyDown(.right, text: "", modifiers: none),
          .keyDown(.up, text: "", modifiers: none), .keyDown(.down, text: "", modifiers: none),
          .keyDown(.pageUp, text: "", modifiers: none), .keyDown(.pageDown, text: "", modifiers: none),
          .keyDown(.home, text: "", modifiers: none), .keyDown(.end, text: "", modifiers: none),
          .keyDown(.space, text: " ", modifiers: none), .keyDown(.escape, text: "", modifiers: none),
          .keyDown(.q, text: "q", modifiers: none), .keyDown(.other(0x61), text: "a", modifiers: none),
        ]
        #expect(Array(downs.prefix(expected.count)) == expected)
        // shift+a: the Shift key itself, then "A" with the shift modifier.
        #expect(downs.contains(.keyDown(.other(0x41), text: "A", modifiers: .shift)))
        #expect(events.contains(.focusIn))
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func resizeYieldsAFramebufferOfTheNewSize() throws {
      try withXvfb { server in
        let window = try openWindow(on: server, size: PixelSize(width: 240, height: 160))
        defer { window.close() }
        _ = try showPattern(in: window)
        let firstSegment = window.sharedMemoryID
        try server.run("xdotool", ["windowsize", wid(window), "411", "263"])
        let newSize = PixelSize(width: 411, height: 263)
        let events = pump(window) { $0.contains(.resize(newSize)) }
        #expect(events.contains(.resize(newSize)))
        #expect(window.size == newSize)
        let surface = try showPattern(in: window, seed: 5)
        #expect(surface.width == 411 && surface.height == 263)
        let shown = try XWDImage.capture(window: window.windowID, on: server)
        #expect(shown.width == 411 && shown.height == 263)
        #expect(differingPixels(surface, shown) == 0)
        // The old segment was detached and is gone.
        if let firstSegment { #expect(try waitUntilSegmentGone(firstSegment)) }
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func aStormOfResizesNeitherLeaksNorCrashes() throws {
      try withXvfb { server in
        let window = try openWindow(on: server, size: PixelSize(width: 200, height: 150))
        let w = wid(window)
        var args: [String] = []
        for i in 0..<40 { args += ["windowsize", w, "\(150 + i * 7)", "\(120 + (i * 13) % 90)"] }
        args += ["windowsize", w, "333", "222"]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: findExecutable("xdotool")!)
        p.arguments = args
        p.environment = server.environment
        try spawn(p)
        // Draw as fast as events allow while the storm goes on (and at least twice: a storm that
        // ends before the second frame still has its resizes read between frames).
        let deadline = Date().addingTimeInterval(20)
        var frames = 0
        while (p.isRunning || window.size != PixelSize(width: 333, height: 222) || frames < 2)
          && Date() < deadline
        {
          _ = window.pollEvents()
          drawPattern(into: try window.framebuffer(), seed: frames)
          window.present()
          frames += 1
          window.waitForEvents(timeout: 0.005, wakeDescriptor: nil)
        }
        #expect(waitForExit(p, timeout: 5) && p.terminationStatus == 0)
        #expect(window.size == PixelSize(width: 333, height: 222))
        let surface = try showPattern(in: window, seed: 9)
        #expect(surface.width == 333 && surface.height == 222)
        let ours = try sharedMemorySegments().filter { $0.creator == getpid() }
        #expect(ours.count <= 1, "segments still present: \(ours)")
        let shown = try XWDImage.capture(window: window.windowID, on: server)
        #expect(differingPixels(surface, shown) == 0)
        window.close()
        let segment = ours.first?.id
        if let segment { #expect(try waitUntilSegmentGone(segment)) }
      }
    }
  }
}
