import Foundation
import SheenKit
import SheenPlatform
import SheenRaster
import SheenTestSupport
import Testing

@testable import SheenWayland

/// End to end under a wlroots compositor: sway headless with a virtual pointer. Its touchpad
/// frames (`axis_source` finger, then `axis_stop` when the fingers lift) reach the window as
/// pixel-precise scrolls and an end, and a scroll view fed with them as they arrived flings;
/// sway offers `xdg-decoration`, so the window is decorated by sway and draws no title bar.
extension WaylandTests {
  @Suite(.enabled(if: Sway.isInstalled, Comment(rawValue: Sway.skipMessage)))
  struct UnderSway {
    @Test(.timeLimit(.minutes(1)))
    func touchpadScrollFromAVirtualPointerFlings() throws {
      let sway = try Sway()
      defer { sway.stop() }
      let device = try VirtualPointer(sway: sway)
      let display = try WaylandDisplay(name: sway.socketPath)
      display.onConnectionLost = { message in Issue.record("unexpected: \(message)") }
      #expect(display.optionalProtocols.contains("zxdg_decoration_manager_v1"))
      let window = try WaylandWindow(
        display: display, title: "sway", size: PixelSize(width: 200, height: 150))
      defer { window.close() }
      try showPattern(in: window)
      pump(window, timeout: 1) { _ in window.serverDecorated }
      #expect(window.serverDecorated && !window.hasTitleBar)
      #expect(display.hasPointer)

      // Into the window (sway tiles it over the output), then 20 frames of 6 units, 8 ms apart.
      var timed: [(time: Double, event: PlatformEvent)] = []
      func read(for seconds: Double) {
        let end = monotonicSeconds() + seconds
        repeat {
          window.waitForEvents(timeout: max(0, end - monotonicSeconds()), wakeDescriptor: nil)
          let now = monotonicSeconds()
          timed += window.pollEvents().map { (now, $0) }
        } while monotonicSeconds() < end
      }
      device.move(to: 320, 240)
      read(for: 0.3)
      #expect(timed.contains { if case .pointerEnter = $0.event { return true } else { return false } })
      timed.removeAll()
      for _ in 0..<20 {
        device.fingerScroll(dy: 6)
        read(for: 0.008)
      }
      device.fingersLift()
      read(for: 0.2)
      let deltas = timed.compactMap { e -> Double? in
        if case .smoothScroll(let d, _, _) = e.event { return d.y }
        return nil
      }
      #expect(deltas.reduce(0, +) == 120, "scrolled \(deltas)")
      let endIndex = try #require(
        timed.firstIndex { if case .smoothScrollEnded = $0.event { return true } else { return false } },
        "no end of the finger scroll")
      #expect(endIndex == timed.count - 1)

      // Those events, at the times they arrived, drive a scroll view: it flings on after the end.
      let ui = UIWindow(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
      let scroll = UIScrollView(frame: ui.bounds)
      scroll.contentSize = CGSize(width: 300, height: 5000)
      ui.addSubview(scroll)
      let surface = try Surface(width: 300, height: 300)
      let start = timed.first!.time
      var next = 0
      var frame = start
      var atEnd = 0.0
      while frame < start + 4 {
        while next < timed.count && timed[next].time <= frame {
          if next == endIndex { atEnd = Double(scroll.contentOffset.y) }
          ui.dispatch(timed[next].event, time: frame)
          next += 1
        }
        ui.renderFrame(into: surface, time: frame)
        frame += 1.0 / 60
      }
      #expect(atEnd == 120)
      #expect(Double(scroll.contentOffset.y) > atEnd + 20, "no fling: rests at \(scroll.contentOffset.y)")

      // A wheel notch is a notch of points, not a fling.
      timed.removeAll()
      device.wheelNotch()
      read(for: 0.2)
      let wheel = timed.map(\.event).filter {
        switch $0 {
        case .scroll, .smoothScroll, .smoothScrollEnded: return true
        default: return false
        }
      }
      #expect(wheel.count == 1, "\(wheel)")
      if case .scroll(let delta, _, _) = wheel.first {
        #expect(delta == Point(x: 0, y: 48))
      } else {
        Issue.record("no wheel scroll: \(wheel)")
      }
    }
  }
}
