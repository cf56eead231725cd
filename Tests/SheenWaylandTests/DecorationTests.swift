import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenWayland

/// weston offers no `xdg-decoration`: Sheen draws the title bar. weston's desktop-shell nested in
/// a private Xvfb (its output at the Xvfb's top-left, so screenshot and X coordinates agree),
/// driven by xdotool: the bar is drawn above the content, dragging it moves the window, dragging
/// a corner resizes it (a new buffer of the new size, shown whole), its close button asks to
/// close; cursors follow the pointer (the client's on the content, resize arrows at the edges).
extension WaylandTests {
  @Suite(.enabled(if: Weston.canNestInXvfb, Comment(rawValue: Weston.nestSkipMessage)))
  struct Decorations {
    @Test(.timeLimit(.minutes(1)))
    func titleBarMovesResizesAndClosesTheWindow() throws {
      try withWeston(width: 640, height: 480, backend: .nestedDesktopInXvfb) { weston in
        let display = try connect(to: weston)
        #expect(!display.optionalProtocols.contains("zxdg_decoration_manager_v1"))
        let window = try WaylandWindow(
          display: display, title: "Decorated", size: PixelSize(width: 200, height: 150),
          decorations: .automatic)
        defer { window.close() }
        #expect(window.hasTitleBar && !window.serverDecorated)
        try showPattern(in: window, seed: 3)
        let pixel = { (x: Int, y: Int) in patternPixel(x: x, y: y, seed: 3) }
        func origin(_ w: Int, _ h: Int) throws -> (x: Int, y: Int) {
          let shot = try weston.screenshot { locate(width: w, height: h, in: $0, pixel: pixel) != nil }
          return try #require(locate(width: w, height: h, in: shot, pixel: pixel), "pattern not on screen")
        }
        let o = try origin(200, 150)
        // The bar: 32 units above the content, its background left of the title.
        let shot = try weston.screenshot()
        let barPixel = shot[o.x + 4, o.y - 16] & 0xff_ffff
        #expect(
          [TitleBar.background, TitleBar.inactiveBackground].map { $0.premultiplied & 0xff_ffff }.contains(
            barPixel), "bar pixel \(String(barPixel, radix: 16))")
        #expect(o.y >= 32)

        // The pointer on the content shows the client's cursor; at the right edge a resize arrow.
        window.setCursor(.pointingHand)
        // From outside weston's X window first: the next motion then enters it.
        try weston.x11(
          "xdotool", ["mousemove", "800", "650", "sleep", "0.2", "mousemove", "\(o.x + 100)", "\(o.y + 75)"])
        pump(window, timeout: 3) { _ in window.shownCursorName == "pointer" }
        #expect(window.shownCursorName == "pointer")
        let shown = display.input?.cursors?.shown
        #expect(shown?.name == "pointer" && shown?.method == .theme && (shown?.pixelSize ?? 0) > 0)
        try weston.x11("xdotool", ["mousemove", "\(o.x + 198)", "\(o.y + 75)"])
        pump(window, timeout: 3) { _ in window.shownCursorName == "e-resize" }
        #expect(window.shownCursorName == "e-resize")

        /// Runs xdotool while the window reads its events; returns them.
        func drag(_ arguments: [String]) throws -> [PlatformEvent] {
          let xdotool = try weston.x11Started("xdotool", arguments)
          let events = pump(window, timeout: 10) { _ in !xdotool.isRunning }
          #expect(!xdotool.isRunning && xdotool.terminationStatus == 0)
          return events + pump(window, timeout: 0.3) { _ in false }
        }

        // Drag the bar so that the content's corner lands at (120, 110), halfway there first.
        let (dx, dy) = (120 - o.x, 110 - o.y)
        _ = try drag(
          [
            "mousemove", "\(o.x + 60)", "\(o.y - 16)", "mousedown", "1", "sleep", "0.2", "mousemove",
            "\(o.x + 60 + dx / 2)", "\(o.y - 16 + dy / 2)", "sleep", "0.1", "mousemove", "\(o.x + 60 + dx)",
            "\(o.y - 16 + dy)", "sleep", "0.2", "mouseup", "1",
          ])
        let moved = try origin(200, 150)
        #expect(moved.x == 120 && moved.y == 110, "from \(o) to \(moved)")

        // Drag the bottom-right corner by (+60, +30): one resize to 260x180, drawn and shown whole.
        var events = try drag(
          [
            "mousemove", "\(moved.x + 198)", "\(moved.y + 148)", "mousedown", "1", "sleep", "0.2",
            "mousemove",
            "\(moved.x + 228)", "\(moved.y + 163)", "sleep", "0.1", "mousemove", "\(moved.x + 258)",
            "\(moved.y + 178)", "sleep", "0.2", "mouseup", "1",
          ])
        events += pump(window, timeout: 2) { $0.contains(.resize(PixelSize(width: 260, height: 180))) }
        #expect(events.contains(.resize(PixelSize(width: 260, height: 180))))
        // The press that started the resize never reached the content.
        #expect(!events.contains { if case .pointerDown = $0 { return true } else { return false } })
        try showPattern(in: window, seed: 3)
        // The pointer (drawn in weston's screenshots) off the corner.
        try weston.x11("xdotool", ["mousemove", "600", "460"])
        let resized = try origin(260, 180)
        #expect(resized.x == moved.x && resized.y == moved.y)

        // The close button (20 units wide, 6 from the right edge) asks to close.
        try weston.x11(
          "xdotool", ["mousemove", "\(resized.x + 260 - 16)", "\(resized.y - 16)", "click", "1"])
        events = pump(window) { $0.contains(.closeRequest) }
        #expect(events.contains(.closeRequest))
      }
    }

    /// The bar's pixels and hit areas do not depend on a compositor.
    @Test func edgesAndCursorNames() {
      let size = Size(width: 300, height: 232)
      #expect(TitleBar.edges(at: Point(x: 150, y: 100), windowSize: size).isEmpty)
      #expect(TitleBar.edges(at: Point(x: 150, y: 2), windowSize: size) == .top)
      #expect(TitleBar.edges(at: Point(x: 299, y: 231), windowSize: size) == [.bottom, .right])
      #expect(TitleBar.edges(at: Point(x: 1, y: 10), windowSize: size) == [.left, .top])
      #expect(TitleBar.Edges([.bottom, .right]).cursorName == "se-resize")
      #expect(TitleBar.Edges.top.cursorName == "n-resize")
      #expect(TitleBar.Edges([.top, .left]).cursorName == "nw-resize")
      #expect(TitleBar.Edges().cursorName == nil)
    }
  }
}
