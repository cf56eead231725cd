import Foundation
import SheenDemo
import SheenKit
import SheenTestSupport
import Testing

/// The demo in a real X window on a private Xvfb, driven by xdotool and captured by xwd.
@Suite(.serialized, .enabled(if: Xvfb.isInstalled, Comment(rawValue: Xvfb.skipMessage)))
struct WindowTests {
  static let width = 420
  static let height = 560

  /// A running demo at the test size, and the in-process twin that says where things are.
  private func start(_ server: Xvfb) throws -> (DemoProcess, DemoWindow) {
    let demo = try DemoProcess(
      server: server, arguments: ["--backend", "x11", "--size", "\(WindowTests.width)x\(WindowTests.height)"])
    return (demo, makeDemo(width: WindowTests.width, height: WindowTests.height))
  }

  private func capture(_ demo: DemoProcess, _ server: Xvfb) throws -> XWDImage {
    try XWDImage.capture(window: demo.windowID, on: server)
  }

  /// Captures until `done` accepts a capture (returned) or `timeout` seconds pass (the last
  /// capture is returned). A debug build of the demo may take a second per frame.
  private func capture(
    _ demo: DemoProcess, _ server: Xvfb, timeout: Double = 20, until done: (XWDImage) -> Bool
  ) throws -> XWDImage {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let image = try capture(demo, server)
      if done(image) || Date() > deadline { return image }
      usleep(100_000)
    }
  }

  /// The mean brightness of a rectangle of an xwd capture.
  private func meanLuminance(_ image: XWDImage, _ r: CGRect) -> Double {
    var sum = 0
    var n = 0
    for y in Int(r.minY)..<Int(r.maxY) {
      for x in Int(r.minX)..<Int(r.maxX) {
        sum += luminance(image[x, y])
        n += 1
      }
    }
    return Double(sum) / Double(max(1, n))
  }

  @Test(.timeLimit(.minutes(1)))
  func anXdotoolClickOnAButtonShowsItsPressedState() throws {
    try withXvfb(screen: "640x640x24") { server in
      let (demo, twin) = try start(server)
      let card = try #require(firstVisibleCard(twin))
      let frame = card.button.convert(card.button.bounds, to: nil)
      let wid = "0x" + String(demo.windowID, radix: 16)
      let before = try capture(demo, server)
      let c = center(of: card.button)
      try server.run(
        "xdotool", ["mousemove", "--window", wid, "\(Int(c.x))", "\(Int(c.y))", "mousedown", "1"])

      // Pressed: the gradient darkens and the button shrinks to 0.95 about its centre, so the
      // card's white shows just inside its old edge.
      let inner = frame.insetBy(dx: 8, dy: 8)
      let edge = CGRect(x: frame.minX + 1, y: frame.midY - 2, width: 1, height: 4)
      func isPressed(_ image: XWDImage) -> Bool {
        meanLuminance(before, inner) - meanLuminance(image, inner) > 10
          && meanLuminance(image, edge) > meanLuminance(before, edge) + 20
      }
      let pressed = try capture(demo, server, until: isPressed)
      #expect(
        isPressed(pressed),
        "no pressed state: \(meanLuminance(pressed, inner)) vs \(meanLuminance(before, inner))")
      try server.run("xdotool", ["mouseup", "1"])
      // Released: back as before (the card's badge appears in its header, not here).
      func isReleased(_ image: XWDImage) -> Bool {
        abs(meanLuminance(image, inner) - meanLuminance(before, inner)) < 1.5
          && abs(meanLuminance(image, edge) - meanLuminance(before, edge)) < 3
      }
      let released = try capture(demo, server, until: isReleased)
      #expect(isReleased(released))
      try server.run("xdotool", ["key", "--window", wid, "Escape"])
      #expect(demo.exitStatus(timeout: 5) == 0)
      #expect(demo.lines.contains { $0.hasPrefix("stopped quit") })
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aWheelTurnScrollsTheContentByTwoNotches() throws {
    try withXvfb(screen: "640x640x24") { server in
      let (demo, _) = try start(server)
      let wid = "0x" + String(demo.windowID, radix: 16)
      let before = try capture(demo, server)
      try server.run("xdotool", ["mousemove", "--window", wid, "60", "300", "click", "5", "click", "5"])
      // The left part of the list (left of the FPS overlay) moves up by 2 × 48 pixels, gliding
      // 0.2 s per notch.
      let shift = 2 * Int(48)
      func differing(_ after: XWDImage) -> (Int, Int) {
        var differing = 0
        var checked = 0
        for y in 40..<(WindowTests.height - shift - 10) {
          for x in stride(from: 0, to: 130, by: 2) {
            checked += 1
            if after[x, y] != before[x, y + shift] { differing += 1 }
          }
        }
        return (differing, checked)
      }
      let after = try capture(demo, server) { differing($0).0 * 100 < differing($0).1 }
      let (d, n) = differing(after)
      #expect(d * 100 < n, "\(d) of \(n) pixels differ from the capture shifted by two notches")
      var moved = 0
      for y in 40..<(WindowTests.height - 10) where after[30, y] != before[30, y] { moved += 1 }
      #expect(moved > 10, "the content did not move")
    }
  }
}
