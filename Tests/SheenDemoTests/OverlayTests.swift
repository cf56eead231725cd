import Foundation
import SheenDemo
import SheenKit
import Testing

@Suite struct OverlayTests {
  @Test func theOverlayCountsFramesAndTimes() {
    let w = makeDemo(width: 600, height: 300)
    w.overlay.isHidden = false
    for i in 1...60 {
      w.recordFrame(time: Double(i) / 60, render: 0.004, present: 0.001)
    }
    w.refreshOverlay(at: 1.0)
    #expect(w.overlay.fpsLabel.text == "60 fps")
    #expect(w.overlay.timeLabel.text == "frame 5.0 ms, worst 5.0 ms (last 120)")
    #expect(w.overlay.splitLabel.text == "render 4.0 (4.0) \u{B7} present 1.0 (1.0) ms")
    // Text changes a few times a second, not every frame.
    for i in 1...3 { w.recordFrame(time: 1 + Double(i) / 30, render: 0.02, present: 0.001) }
    #expect(!w.overlay.refresh(at: 1.1))
    #expect(w.overlay.fpsLabel.text == "60 fps")
    for i in 4...30 { w.recordFrame(time: 1 + Double(i) / 30, render: 0.02, present: 0.001) }
    w.refreshOverlay(at: 2.0)
    #expect(w.overlay.fpsLabel.text == "30 fps")
    #expect(w.overlay.timeLabel.text?.hasSuffix("worst 21.0 ms (last 120)") == true)
    // Top right, above the list.
    #expect(w.overlay.frame.maxX < w.bounds.width && w.overlay.frame.minX > w.bounds.width / 2)
    #expect(w.subviews.last === w.overlay)
  }
}
