import Foundation
import SheenDemo
import SheenLayers
import SheenPlatform
import SheenRaster

/// `sheen bench press`: a press in each section of the demo, held to the target (no frame over
/// 1.5 times the median of the press script). Each run plays, for every section in turn (the
/// sections interleaved), `show-card I, wait 2, press-button I, wait 12, release, wait 30` on a
/// new window, I the section's first card: the launch frame, then 48 frames through the shrink,
/// the spring back and the rest, drawn back to back on a 60 Hz virtual clock as a frame loop
/// draws them (nothing written between frames). A frame is a few milliseconds and the machine
/// may be shared, so each frame counts its least processor time over the runs: what the frame
/// costs when nothing else took its core. Blurs, shape rasterizations, page faults and system
/// time are every run's.
func benchPress(
  runs: Int, threads: Int, width: Int, height: Int, ui: DemoUI,
  sections chosen: [Int]? = nil, rasterCache: Bool = true
) throws {
  // Sections by index from 0; every one unless chosen.
  let sections = chosen ?? Array(0..<DemoContent.sectionCount)
  let frames = 48
  let size = PixelSize(width: width, height: height)
  let surface = try Surface(width: size.width, height: size.height)
  // [section: [frame: least processor ms]], and the worst of each frame's runs.
  var least = [[Double]](repeating: [Double](repeating: .infinity, count: frames + 1), count: sections.count)
  var worstRatio = [Double](repeating: 0, count: sections.count)
  var blurs = [Int](repeating: 0, count: sections.count)
  var shapes = [Int](repeating: 0, count: sections.count)
  var faults = [Int](repeating: 0, count: sections.count)
  var system = [Double](repeating: 0, count: sections.count)
  // Page faults and system time by frame, summed over sections and runs.
  var faultsByFrame = [Int](repeating: 0, count: frames + 1)
  var systemByFrame = [Double](repeating: 0, count: frames + 1)
  for _ in 0..<runs {
    for (k, section) in sections.enumerated() {
      let card = section * DemoContent.cardsPerSection
      let script = try DemoScript(
        "show-card \(card), wait 2, press-button \(card), wait 12, release, wait 30")
      let window = DemoApp.makeWindow(size: size, scale: 1, cardCount: DemoContent.cardCount, ui: ui)
      window.overlay.isHidden = true
      window.renderer = FrameRenderer(threads: threads)
      window.renderer.rasterizesAutomatically = rasterCache
      let state = DemoScript.State()
      var times: [Double] = []
      for n in 0...frames {
        let time = Double(n) / 60
        script.apply(to: window, frame: n, time: time, state: state)
        window.refreshOverlay(at: time)
        window.renderer.context.resetStatistics()
        let usage = ProcessUsage.now()
        let start = processCPUSeconds()
        window.renderFrame(into: surface, time: time)
        let cpu = (processCPUSeconds() - start) * 1000
        let used = ProcessUsage.now() - usage
        window.recordFrame(time: time, render: cpu / 1000, present: 0)
        guard n > 0 else { continue }
        let s = window.renderer.context.statistics
        blurs[k] += s.blurs
        shapes[k] = max(shapes[k], s.shapeRasterizations)
        faults[k] += used.minorFaults
        system[k] += used.systemSeconds * 1000
        faultsByFrame[n] += used.minorFaults
        systemByFrame[n] += used.systemSeconds * 1000
        least[k][n] = min(least[k][n], cpu)
        times.append(cpu)
      }
      let sorted = times.sorted()
      worstRatio[k] = max(worstRatio[k], sorted[sorted.count - 1] / sorted[(sorted.count - 1) / 2])
    }
  }
  print(
    "a press in each section, \(size.width)x\(size.height), \(threads) thread(s), --ui \(ui.rawValue), \(runs) runs"
      + " (sections interleaved); frames 1-\(frames), each frame's least processor time over the runs:")
  var worst = 0.0
  for (k, section) in sections.enumerated() {
    let frameTimes = least[k].dropFirst()
    let sorted = frameTimes.sorted()
    let median = sorted[(sorted.count - 1) / 2]
    let slowest = frameTimes.indices.max { least[k][$0] < least[k][$1] }!
    let ratio = least[k][slowest] / median
    worst = max(worst, ratio)
    print(
      String(
        format:
          "section %d (card %d): median %.2f ms, slowest frame %d %.2f ms (%.2fx); single runs' slowest / median at worst %.2fx; %d blurs, at most %d shape rasterizations a frame, %d page faults, %.2f ms of system time (all runs)",
        section + 1, section * DemoContent.cardsPerSection, median, slowest, least[k][slowest], ratio,
        worstRatio[k], blurs[k], shapes[k],
        faults[k], system[k]))
  }
  let faulting = (1...frames).filter { faultsByFrame[$0] > 0 || systemByFrame[$0] >= 0.5 }
  print(
    "frames with page faults or system time (all sections and runs): "
      + (faulting.isEmpty
        ? "none"
        : faulting.map { String(format: "%d (%d, %.1f ms)", $0, faultsByFrame[$0], systemByFrame[$0]) }
          .joined(separator: ", ")))
  print(String(format: "slowest frame / median, worst section: %.2fx (target at most 1.5x)", worst))
}
