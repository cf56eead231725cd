import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenWayland

/// Real input: weston's X11 backend inside a private Xvfb (kiosk-shell, which shows the window
/// fullscreen at the output's top-left), driven by xdotool. weston's X window sits at (0, 0)
/// in the Xvfb, so X coordinates are the window's.
extension WaylandTests {
  @Suite(.enabled(if: Weston.canNestInXvfb, Comment(rawValue: Weston.nestSkipMessage)))
  struct Input {
    @Test(.timeLimit(.minutes(1)))
    func pointerKeysAndWheelReachTheDemo() throws {
      try withWeston(width: 400, height: 300, backend: .nestedInXvfb) { weston in
        let demo = try DemoProcess(
          environment: weston.environment,
          arguments: ["--backend", "wayland", "--test-pattern", "--size", "100x80"])
        #expect(demo.ready["pointer"] == "true" && demo.ready["keyboard"] == "true")
        // kiosk-shell makes the window fill the output.
        #expect(demo.ready["size"] == "400x300")
        // Outside weston's window first: the next motion then enters it where xdotool says.
        // (weston's X11 backend does not report leaving for XTest motion reliably: not checked.)
        try weston.x11("xdotool", ["mousemove", "590", "490", "sleep", "0.2", "mousemove", "120", "90"])
        #expect(demo.readLine(until: { $0.hasPrefix("pointerEnter x=120 y=90") }, timeout: 5) != nil)
        try weston.x11("xdotool", ["click", "1"])
        #expect(
          demo.readLine(until: { $0 == "pointerDown x=120 y=90 button=left mods=none" }, timeout: 5) != nil)
        #expect(
          demo.readLine(until: { $0 == "pointerUp x=120 y=90 button=left mods=none" }, timeout: 5) != nil)
        try weston.x11("xdotool", ["mousemove", "200", "150"])
        #expect(demo.readLine(until: { $0.hasPrefix("pointerMove x=200 y=150") }, timeout: 5) != nil)
        // One wheel notch down is one notch of points, as on X11 (button 5).
        try weston.x11("xdotool", ["click", "5"])
        #expect(demo.readLine(until: { $0 == "scroll dx=0 dy=48 x=200 y=150 mods=none" }, timeout: 5) != nil)
        try weston.x11("xdotool", ["click", "4"])
        #expect(demo.readLine(until: { $0 == "scroll dx=0 dy=-48 x=200 y=150 mods=none" }, timeout: 5) != nil)
        try weston.x11("xdotool", ["click", "3"])
        #expect(
          demo.readLine(until: { $0.hasPrefix("pointerDown x=200 y=150 button=right") }, timeout: 5) != nil)
        try weston.x11("xdotool", ["key", "shift+q", "Left", "Return"])
        #expect(demo.readLine(until: { $0 == "keyDown key=q text=\"Q\" mods=shift" }, timeout: 5) != nil)
        #expect(demo.readLine(until: { $0 == "keyDown key=left text=\"\" mods=none" }, timeout: 5) != nil)
        #expect(demo.readLine(until: { $0 == "keyDown key=enter text=\"\" mods=none" }, timeout: 5) != nil)
        kill(demo.process.processIdentifier, SIGTERM)
        #expect(demo.exitStatus(timeout: 5) == 0)
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func inProcessWindowSeesFocusAndPointer() throws {
      try withWeston(width: 320, height: 240, backend: .nestedInXvfb) { weston in
        let display = try connect(to: weston)
        #expect(display.hasPointer && display.hasKeyboard)
        let window = try WaylandWindow(
          display: display, title: "input", size: PixelSize(width: 100, height: 80))
        defer { window.close() }
        try showPattern(in: window)
        #expect(window.size == PixelSize(width: 320, height: 240))
        try weston.x11(
          "xdotool", ["mousemove", "500", "400", "sleep", "0.2", "mousemove", "30", "40", "click", "2"])
        let events = pump(window) {
          $0.contains { if case .pointerUp = $0 { return true } else { return false } }
        }
        #expect(events.contains(.pointerDown(Point(x: 30, y: 40), button: .middle, modifiers: [])))
        #expect(events.contains(.pointerUp(Point(x: 30, y: 40), button: .middle, modifiers: [])))
      }
    }
  }
}
