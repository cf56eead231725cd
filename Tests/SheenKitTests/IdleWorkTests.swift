import Foundation
import Testing

@testable import SheenKit

/// The window's list of views with idle work holds them weakly and does not grow with views that
/// asked and were freed, even when nothing ever runs the idle work (a steady benchmark).
@MainActor @Suite struct IdleWorkTests {
  final class Worker: UIIdleWorking {
    var pieces: Int
    init(pieces: Int) { self.pieces = pieces }
    func performIdleWork(in window: UIWindow, until deadline: Double) -> Bool {
      pieces -= 1
      return pieces > 0
    }
  }

  @Test func freedWorkersDoNotPileUp() {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
    let kept = Worker(pieces: 3)
    window.setNeedsIdleWork(kept)
    for _ in 0..<1000 {
      let w = Worker(pieces: 1)
      window.setNeedsIdleWork(w)
    }
    // The kept worker, and at most the last freed one's entry.
    #expect(window.idleWorkers.count <= 2)
    window.setNeedsIdleWork(kept)
    #expect(window.idleWorkers.filter { $0.value === kept }.count == 1)
    // The kept worker still gets its three pieces, then the list empties.
    #expect(window.performIdleWork(until: .infinity) == false)
    #expect(kept.pieces == 0)
    #expect(!window.hasIdleWork)
  }
}
