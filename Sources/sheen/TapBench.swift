import Foundation
import SheenDemo
import SheenLayers
import SheenPlatform
import SheenRaster
import SheenUI

/// `sheen bench tap`: a tap on a card's button in the SwiftUI twin against a press in the UIKit
/// list (issue 20: "tapping a button costs no more than a frame of the press animation in the
/// UIKit demo"). Both lists play `show-card I, wait 2, press-button I, wait 30, release, wait 26`
/// on a new window each run, the two lists' runs interleaved, and the frames are drawn back to
/// back on a 60 Hz virtual clock as `sheen bench press` draws them (nothing written between
/// frames). Each frame counts the script's input for it and its drawing (`renderFrame`, where
/// the twin asks the card's body again, updates its graph and places it), and its least
/// processor time over the runs.
///
/// The UIKit list's press-animation frames are the press frame and the 7 after it (the 0.12 s
/// shrink) and the release frame and the 22 after it (the 0.4 s spring back). The twin's tap is
/// its release frame: the button's action changes the card's `@State`, and that frame asks the
/// card's body again, updates and places what changed, and starts the badge's spring.
func benchTap(
  runs: Int, threads: Int, width: Int, height: Int, card: Int, rasterCache: Bool = true
) throws -> TapFigures {
  let script = try DemoScript("show-card \(card), wait 2, press-button \(card), wait 30, release, wait 26")
  let pressFrame = 3
  let releaseFrame = 34
  let frames = 60
  let size = PixelSize(width: width, height: height)
  let surface = try Surface(width: size.width, height: size.height)
  let uis = [DemoUI.uikit, .swiftui]
  // [ui: [frame: least processor ms]], page faults and allocations by frame (all runs).
  var least = [[Double]](repeating: [Double](repeating: .infinity, count: frames + 1), count: uis.count)
  var faults = [[Int]](repeating: [Int](repeating: 0, count: frames + 1), count: uis.count)
  var system = [[Double]](repeating: [Double](repeating: 0, count: frames + 1), count: uis.count)
  var allocations = [[UInt64]](repeating: [UInt64](repeating: 0, count: frames + 1), count: uis.count)
  // Bodies the twin's tap frame asked for (the last run's): the tap did change the card's state.
  var tapBodies = 0
  // What the twin's tap frame's update visited (the last run's), and what it left as it was.
  var tapVisits: String = ""
  // The tap frames' input alone (the script's events: the button's action), least over the runs.
  var leastInput = [[Double]](repeating: [Double](repeating: .infinity, count: 2), count: uis.count)
  // Each frame's layout and animation alone (`advance`: where the twin's update runs), least.
  var leastAdvance = [[Double]](
    repeating: [Double](repeating: .infinity, count: frames + 1), count: uis.count)
  for _ in 0..<runs {
    for (k, ui) in uis.enumerated() {
      let window = DemoApp.makeWindow(size: size, scale: 1, cardCount: DemoContent.cardCount, ui: ui)
      window.overlay.isHidden = true
      window.renderer = FrameRenderer(threads: threads)
      window.renderer.rasterizesAutomatically = rasterCache
      let state = DemoScript.State()
      for n in 0...frames {
        let time = Double(n) / 60
        let usage = ProcessUsage.now()
        let allocated = allocationCount?() ?? 0
        let bodies = (window as? SwiftUIDemoWindow)?.host.bodyEvaluationCount ?? 0
        let visits = (window as? SwiftUIDemoWindow)?.host.updateVisits
        let start = processCPUSeconds()
        script.apply(to: window, frame: n, time: time, state: state)
        let input = (processCPUSeconds() - start) * 1000
        if n == pressFrame || n == releaseFrame {
          leastInput[k][n == pressFrame ? 0 : 1] = min(leastInput[k][n == pressFrame ? 0 : 1], input)
        }
        window.refreshOverlay(at: time)
        let advanceStart = processCPUSeconds()
        window.advance(to: time)
        leastAdvance[k][n] = min(leastAdvance[k][n], (processCPUSeconds() - advanceStart) * 1000)
        window.renderFrame(into: surface, time: time)
        let cpu = (processCPUSeconds() - start) * 1000
        allocations[k][n] += (allocationCount?() ?? 0) - allocated
        let used = ProcessUsage.now() - usage
        faults[k][n] += used.minorFaults
        system[k][n] += used.systemSeconds * 1000
        window.recordFrame(time: time, render: cpu / 1000, present: 0)
        least[k][n] = min(least[k][n], cpu)
        if n == releaseFrame, let w = window as? SwiftUIDemoWindow {
          tapBodies = w.host.bodyEvaluationCount - bodies
          if let visits {
            let v = w.host.updateVisits - visits
            tapVisits =
              "nodes reconciled \(v.reconciled),"
              + " sizes worked out \(v.sizesComputed), layout invalidations \(v.invalidations), placed \(v.placed),"
              + " lazy-stack entries \(v.lazyEntries)"
          }
        }
      }
    }
  }
  func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.isEmpty ? 0 : s[(s.count - 1) / 2]
  }
  let animation = Array(pressFrame...(pressFrame + 7)) + Array(releaseFrame...(releaseFrame + 22))
  let calm = Array((pressFrame + 9)..<releaseFrame)
  let uikit = least[0]
  let twin = least[1]
  let figures = TapFigures(
    uikitCalm: median(calm.map { uikit[$0] }), uikitPress: median(animation.map { uikit[$0] }),
    twinCalm: median(calm.map { twin[$0] }), twinPressFrame: twin[pressFrame],
    twinTapFrame: twin[releaseFrame],
    twinAnimation: median(animation.map { twin[$0] }))
  let r = Double(runs)
  let costliest = (1...frames).max { twin[$0] < twin[$1] }!
  print(
    "a tap on card \(card)'s button, \(size.width)x\(size.height), \(threads) thread(s), \(runs) runs"
      + (rasterCache ? "" : ", raster cache off")
      + " (the two lists interleaved); each frame's least processor time over the runs (its input and its drawing):"
  )
  print(
    String(
      format:
        "UIKit list: calm frames (%d-%d) median %.2f ms; press-animation frames (%d-%d, %d-%d) median %.2f ms",
      calm.first!, calm.last!, figures.uikitCalm, pressFrame, pressFrame + 7, releaseFrame, releaseFrame + 22,
      figures.uikitPress))
  print(
    String(
      format:
        "SwiftUI twin: calm frames median %.2f ms; the same animation frames median %.2f ms; press frame (%d) %.2f ms (%.2fx the UIKit press frames' median); costliest frame after launch %d, %.2f ms (%.2fx)",
      figures.twinCalm, figures.twinAnimation, pressFrame, figures.twinPressFrame,
      figures.twinPressFrame / figures.uikitPress, costliest, twin[costliest],
      twin[costliest] / figures.uikitPress))
  if allocationCount != nil {
    print(
      String(
        format:
          "allocations a run: twin's press frame %.0f, tap frame %.0f, calm frame %.0f; UIKit press frame %.0f, release frame %.0f",
        Double(allocations[1][pressFrame]) / r, Double(allocations[1][releaseFrame]) / r,
        Double(allocations[1][calm[calm.count / 2]]) / r, Double(allocations[0][pressFrame]) / r,
        Double(allocations[0][releaseFrame]) / r))
  }
  print(
    String(
      format: "input alone (the events, the button's action): twin's press frame %.2f ms, tap frame %.2f ms;"
        + " UIKit press frame %.2f ms, release frame %.2f ms", leastInput[1][0], leastInput[1][1],
      leastInput[0][0],
      leastInput[0][1]))
  print(
    String(
      format:
        "layout and animation alone (advance, before drawing): twin's tap frame %.3f ms, press frame %.3f ms,"
        + " calm frame %.3f ms; UIKit release frame %.3f ms, press-animation frames' median %.3f ms",
      leastAdvance[1][releaseFrame], leastAdvance[1][pressFrame], median(calm.map { leastAdvance[1][$0] }),
      leastAdvance[0][releaseFrame], median(animation.map { leastAdvance[0][$0] })))
  print("bodies the twin's tap frame asked for: \(tapBodies); its update: \(tapVisits)")
  print(
    String(
      format:
        "page faults and system time a run: twin's press frame %d, %.2f ms, tap frame %d, %.2f ms; UIKit press frame %d, %.2f ms, release frame %d, %.2f ms",
      faults[1][pressFrame] / runs, system[1][pressFrame] / r, faults[1][releaseFrame] / runs,
      system[1][releaseFrame] / r, faults[0][pressFrame] / runs, system[0][pressFrame] / r,
      faults[0][releaseFrame] / runs, system[0][releaseFrame] / r))
  print(
    String(
      format:
        "twin's tap frame (%d) %.2f ms / UIKit press-animation frames' median %.2f ms: %.2fx (target at most 1x)",
      releaseFrame, figures.twinTapFrame, figures.uikitPress, figures.twinTapFrame / figures.uikitPress))
  return figures
}

/// What `sheen bench tap` measured, in milliseconds of processor time.
struct TapFigures {
  var uikitCalm: Double
  var uikitPress: Double
  var twinCalm: Double
  var twinPressFrame: Double
  var twinTapFrame: Double
  var twinAnimation: Double
}
