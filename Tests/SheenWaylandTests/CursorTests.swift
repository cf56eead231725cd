import Foundation
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenWayland

/// Wayland cursors against Sheen's test compositor, which moves its pointer into the window and
/// prints what the client sets: with `wp_cursor_shape_v1` the shape's number for the enter's
/// serial; without it a themed cursor surface (libwayland-cursor), drawn at the window's scale
/// rounded up (at 150 % the theme's 48-pixel images at buffer scale 2).
@Suite(.enabled(if: TestCompositor.path != nil, "sheen-wayland-test-compositor is not built (swift build)"))
struct WaylandCursorTests {
  /// A window on `compositor` that the pointer has entered; returns it with the enter's serial.
  func enteredWindow(_ compositor: TestCompositor) throws -> (WaylandDisplay, WaylandWindow, String) {
    let display = try WaylandDisplay(name: compositor.socketPath)
    display.onConnectionLost = { message in Issue.record("unexpected: \(message)") }
    let window = try WaylandWindow(
      display: display, title: "cursors", size: PixelSize(width: 200, height: 150))
    try showPattern(in: window)
    let enter = try #require(compositor.readLine { $0.hasPrefix("enter") })
    let events = pump(window) {
      $0.contains { if case .pointerEnter = $0 { return true } else { return false } }
    }
    #expect(events.contains { if case .pointerEnter = $0 { return true } else { return false } })
    return (display, window, String(enter.dropFirst("enter ".count)))
  }

  @Test(.timeLimit(.minutes(1)))
  func namedShapesWhereTheCompositorHasCursorShape() throws {
    let compositor = try TestCompositor(scale120: 120, cursorShape: true)
    defer { compositor.stop() }
    let (display, window, serial) = try enteredWindow(compositor)
    defer { window.close() }
    #expect(display.optionalProtocols.contains("wp_cursor_shape_manager_v1"))
    // The arrow as the pointer enters (shape 1, default), the hand when asked (4, pointer).
    #expect(compositor.readLine { $0.hasPrefix("cursor") } == "cursor shape=1 \(serial)")
    window.setCursor(.pointingHand)
    #expect(compositor.readLine { $0.hasPrefix("cursor") } == "cursor shape=4 \(serial)")
    window.setCursor(.arrow)
    #expect(compositor.readLine { $0.hasPrefix("cursor") } == "cursor shape=1 \(serial)")
    #expect(display.input?.cursors?.shown?.method == .shape)
  }

  @Test(.timeLimit(.minutes(1)))
  func themedCursorsAtTheWindowsScaleElsewhere() throws {
    let compositor = try TestCompositor(scale120: 180)
    defer { compositor.stop() }
    let (display, window, serial) = try enteredWindow(compositor)
    defer { window.close() }
    #expect(!display.optionalProtocols.contains("wp_cursor_shape_manager_v1"))
    for shape in [CursorShape.arrow, .pointingHand] {
      if shape != .arrow { window.setCursor(shape) }
      // The cursor surface's buffer, then the set_cursor naming it, for the enter's serial.
      let commit = try #require(compositor.readLine { $0.hasPrefix("commit") || $0.hasPrefix("cursor") })
      let set = try #require(compositor.readLine { $0.hasPrefix("cursor") })
      #expect(set.hasPrefix("cursor surface \(serial) hotspot="))
      let shown = try #require(display.input?.cursors?.shown)
      #expect(shown.method == .theme && shown.name == shape.cssName)
      // Drawn for 1.5 rounded up: buffer scale 2 whenever the image's size allows it (the
      // installed theme's 48-pixel cursors; libwayland-cursor's built-in ones are odd sizes).
      let fields = commit.split(separator: " ")
      #expect(fields.count == 4 && fields[0] == "commit", "\(commit)")
      let size = fields[1].dropFirst("buffer=".count).split(separator: "x").compactMap { Int($0) }
      let scale = fields[2] == "scale=2" ? 2 : 1
      #expect(size.count == 2 && size[0] == Int(shown.pixelSize))
      if size.count == 2 && size[0] % 2 == 0 && size[1] % 2 == 0 { #expect(scale == 2, "\(commit)") }
      if size.first == 48 { #expect(scale == 2) }
    }
  }
}
