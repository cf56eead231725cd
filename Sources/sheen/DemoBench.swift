import Foundation
import SheenCommandLine
import SheenDemo
import SheenKit
import SheenLayers
import SheenPlatform
import SheenRaster
import SheenText

/// `sheen bench [--offscreen] [--threads N] [--size WxH] [--frames N] [--backend B]`: frames of
/// the demo scrolling steadily (DemoScript.scroll: every frame mid-scroll, on a 60 Hz virtual
/// clock), timed one by one after a warm-up that visits the whole list once. Offscreen it times rendering into a surface; in a
/// window it runs uncapped and times whole frames including presenting.
func runDemoBench(_ args: [String]) -> Int32 {
  var status: Int32 = 0
  guard let parsed = parseCommandLine(BenchArgs.command, args, status: &status) else { return status }
  let offscreen = parsed[BenchArgs.offscreen]
  let seconds = parsed[BenchArgs.seconds]
  let plot = parsed[BenchArgs.plot] ?? "out/bench-frame-times.png"
  let overlay = parsed[BenchArgs.overlay]
  let threads = parsed[SharedArgs.threads]
  let size =
    parsed[BenchArgs.size].map { PixelSize(width: $0.width, height: $0.height) }
    ?? PixelSize(width: 1920, height: 1080)
  let frames = parsed[BenchArgs.frames] ?? 300
  let warmup = parsed[BenchArgs.warmup] ?? 240
  let backend = parsed[SharedArgs.backend].flatMap(Backend.init(rawValue:))
  let scrollRange = parsed[BenchArgs.scrollRange]
  let cold = parsed[BenchArgs.cold]
  let idleWork = !parsed[BenchArgs.noIdleWork]
  let idleUntilDone = parsed[BenchArgs.idleUntilDone]
  if cold && (!idleWork || idleUntilDone) {
    writeError(
      "sheen bench: --cold gives idle work the rest of each 60 Hz frame: it takes no --no-idle-work or --idle-until-done\n"
        + BenchArgs.command.shortUsage)
    return 64
  }
  if !idleWork && idleUntilDone {
    writeError(
      "sheen bench: --no-idle-work and --idle-until-done cannot both be given\n"
        + BenchArgs.command.shortUsage)
    return 64
  }
  if cold && (parsed[BenchArgs.frames] != nil || seconds != nil || parsed[BenchArgs.warmup] != nil) {
    writeError(
      "sheen bench: --cold times the first pass through the list: it takes no --frames, --seconds or --warmup\n"
        + BenchArgs.command.shortUsage)
    return 64
  }
  if parsed[BenchArgs.frames] != nil && seconds != nil {
    writeError("sheen bench: --frames and --seconds cannot both be given\n\(BenchArgs.command.shortUsage)")
    return 64
  }
  let window = DemoApp.makeWindow(
    size: size, scale: 1, cardCount: parsed[SharedArgs.cards] ?? DemoContent.cardCount,
    ui: parsed[SharedArgs.ui] ?? .uikit)
  // The FPS overlay is off unless asked for (`--overlay` measures what it costs).
  window.overlay.isHidden = !overlay
  window.renderer = FrameRenderer(threads: threads)
  window.renderer.rasterizesAutomatically = !parsed[SharedArgs.noRasterCache]
  window.renderer.skipsOccludedLayers = !parsed[SharedArgs.noOcclusion]
  if let n = parsed[SharedArgs.stripPixels] { window.renderer.stripPixels = n }
  do {
    if offscreen {
      let surface = try Surface(width: size.width, height: size.height)
      try benchDemo(
        window, frames: frames, seconds: seconds, warmup: warmup, scrollRange: scrollRange, cold: cold,
        idleWork: idleWork ? (idleUntilDone ? .infinity : 1.0 / 60 - 0.002) : nil, plot: plot,
        mode: "offscreen"
      ) {
        _ in surface
      }
    } else {
      let opened = try openWindow(backend: backend, title: "sheen bench", size: size, paced: false)
      defer { opened.window.close() }
      try benchDemo(
        window, frames: frames, seconds: seconds, warmup: warmup, scrollRange: scrollRange, cold: cold,
        idleWork: idleWork ? (idleUntilDone ? .infinity : 1.0 / 60 - 0.002) : nil, plot: plot,
        mode: "\(opened.backend) window, uncapped"
      ) { render in
        _ = opened.window.pollEvents()
        let s = try opened.window.framebuffer()
        render(s)
        opened.window.present()
        return nil
      }
    }
    return 0
  } catch let e as BackendError {
    FileHandle.standardError.write(Data("sheen bench: \(e)\n".utf8))
    return 3
  } catch {
    FileHandle.standardError.write(Data("sheen bench: \(error)\n".utf8))
    return 1
  }
}

/// Runs the scripted scroll. `target` either returns the surface to render into (offscreen) or
/// renders and presents itself through the closure it is given and returns nil (a window).
///
/// `cold`: no visit and no warm-up. The timed frames are the first pass through the list, from
/// the frame after the first (the launch frame, reported on its own) to the frame that reaches
/// the end (or `scrollRange`), at the scroll script's speed: every row appears for the first time
/// in one of them. As many frames of the way back follow, warm, for the ratio.
private func benchDemo(
  _ window: any DemoWindowing, frames: Int, seconds: Double?, warmup: Int, scrollRange: Double?,
  cold: Bool = false, idleWork: Double? = 1.0 / 60 - 0.002,
  plot: String, mode: String,
  target: (_ render: (Surface) -> Void) throws -> Surface?
) throws {
  var frame = 0
  var renderTime = 0.0
  var renderCPUTime = 0.0
  func step() throws {
    let a0 = allocationCount?() ?? 0
    DemoScript.scroll(window, frame: frame, limit: scrollRange)
    AppAllocations.count += (allocationCount?() ?? 0) - a0
    let time = Double(frame) / 60
    let render = { (s: Surface) in
      let t0 = monotonicSeconds()
      let c0 = processCPUSeconds()
      let a0 = allocationCount?() ?? 0
      window.refreshOverlay(at: monotonicSeconds())
      window.renderFrame(into: s, time: time)
      AppAllocations.count += (allocationCount?() ?? 0) - a0
      renderTime = monotonicSeconds() - t0
      renderCPUTime = processCPUSeconds() - c0
    }
    if let s = try target(render) { render(s) }
    frame += 1
  }
  let firstFrameAge = processAge()
  try step()
  let firstFrameDone = processAge()
  let firstFrameCPU = processCPUSeconds()
  if cold {
    try benchCold(window, launchFrame: renderTime, scrollRange: scrollRange, step: step) { frame }
    print(
      String(
        format:
          "resident memory %.1f MB; first frame drawn %.0f ms after the process started (%.1f ms to draw; "
          + "%.0f ms of CPU time since the start)",
        residentMegabytes(), firstFrameDone * 1000, (firstFrameDone - firstFrameAge) * 1000,
        firstFrameCPU * 1000))
    printMemoryMapIfAsked()
    return
  }
  // Visit what the frames will show once, half a screen at a time, so that every row's shadow
  // and every glyph is made before the timed frames: what they measure is the steady state. That
  // is the whole list of the default 208 cards; of a longer one, the part the steady scroll
  // reaches in the warm-up and timed frames (a million cards would take hours to visit).
  let list = window.scrollingList
  var reach = CGFloat(1500 * Double(warmup + (seconds.map { Int($0 * 1000) } ?? frames) + 1) / 60)
  if let scrollRange { reach = min(reach, CGFloat(scrollRange)) }
  let range = min(max(0, list.contentSize.height - list.bounds.height), reach)
  var y: CGFloat = 0
  while y < range + list.bounds.height / 2 {
    list.contentOffset = CGPoint(x: 0, y: min(y, range))
    if let s = try target({ window.renderFrame(into: $0, time: Double(frame) / 60) }) {
      window.renderFrame(into: s, time: Double(frame) / 60)
    }
    y += list.bounds.height / 2
  }
  for _ in 0..<warmup { try step() }
  window.renderer.context.resetStatistics()
  let cache = window.renderer.context.textRenderer.cache
  let glyphsBefore = cache.statistics.rasterizations
  let shapingsBefore = TextLayout.shapingCount
  let allocationsBefore = allocationCount?() ?? 0
  let drawsBefore = window.displayCount
  var whole: [Double] = []
  var renders: [Double] = []
  // The CPU time each render took (all threads): what a frame costs whatever else the machine
  // runs, for comparisons on a loaded machine.
  var renderCPUs: [Double] = []
  whole.reserveCapacity(seconds.map { Int($0 * 1000) } ?? frames)
  renders.reserveCapacity(whole.capacity)
  renderCPUs.reserveCapacity(whole.capacity)
  // Frames in which new rows came into view (the collection view configured reused cells for
  // them: new text to lay out, a row's shadow to blur) are counted apart from steady ones.
  var rowFrames = 0
  var rows = 0
  var rowCosts = (allocations: UInt64(0), blurs: 0, shapes: 0, glyphs: 0, images: 0, shapings: 0, draws: 0)
  // Page faults (memory touched for the first time or again after it was given back).
  let faultsBefore = ProcessUsage.now().minorFaults
  var rowFaults = 0
  // The idle work after each frame (what a 60 Hz frame loop gives the rest of the frame's time:
  // cells made, drawn and made into bitmaps ahead of scrolling), timed apart from the frames,
  // and its allocations (counted with the rows: it makes them).
  var idles: [Double] = []
  idles.reserveCapacity(whole.capacity)
  var idleFaults = 0
  var idleRows = 0
  var idleSeconds = 0.0
  let madeAheadBefore = window.renderer.context.statistics.rasterCacheMadeAhead
  let start = monotonicSeconds()
  var previous = start
  // The counters of the work done for rows (in a frame that showed new rows, or in idle work).
  func snapshot() -> (
    rows: Int, allocations: UInt64, stats: RenderContext.Statistics, glyphs: Int, draws: Int,
    shapings: Int, faults: Int
  ) {
    (
      window.rowsShown, allocationCount?() ?? 0, window.renderer.context.statistics,
      cache.statistics.rasterizations, window.displayCount, TextLayout.shapingCount,
      ProcessUsage.now().minorFaults
    )
  }
  func addRowCosts(
    from a: (
      rows: Int, allocations: UInt64, stats: RenderContext.Statistics, glyphs: Int, draws: Int,
      shapings: Int, faults: Int
    )
  ) {
    let b = snapshot()
    rows += b.rows - a.rows
    rowCosts.allocations += b.allocations - a.allocations
    rowCosts.blurs += b.stats.blurs - a.stats.blurs
    rowCosts.shapes += b.stats.shapeRasterizations - a.stats.shapeRasterizations
    rowCosts.glyphs += b.glyphs - a.glyphs
    rowCosts.shapings += b.shapings - a.shapings
    rowCosts.images += b.stats.imageResamples - a.stats.imageResamples
    rowCosts.draws += b.draws - a.draws
  }
  while seconds.map({ previous - start < $0 }) ?? (whole.count < frames) {
    let before = snapshot()
    try step()
    if window.rowsShown != before.rows {
      rowFrames += 1
      rowFaults += ProcessUsage.now().minorFaults - before.faults
      addRowCosts(from: before)
    }
    let now = monotonicSeconds()
    whole.append((now - previous) * 1000)
    renders.append(renderTime * 1000)
    renderCPUs.append(renderCPUTime * 1000)
    window.recordFrame(time: now, render: renderTime, present: now - previous - renderTime)
    if let idleWork {
      let beforeIdle = snapshot()
      window.performIdleWork(until: previous + idleWork)
      // Work for rows, wherever it falls.
      let after = monotonicSeconds()
      idleFaults += ProcessUsage.now().minorFaults - beforeIdle.faults
      idleRows += window.rowsShown - beforeIdle.rows
      addRowCosts(from: beforeIdle)
      idles.append((after - now) * 1000)
      idleSeconds += after - now
      previous = monotonicSeconds()
    } else {
      previous = now
    }
  }
  let n = Double(whole.count)
  // Steady frames: those that showed no new row.
  let steadyFrames = whole.count - rowFrames
  let m = Double(max(1, steadyFrames))
  let allocations = allocationCount.map {
    Double($0() - allocationsBefore - rowCosts.allocations) / m
  }
  let stats = window.renderer.context.statistics
  let glyphs = Double(cache.statistics.rasterizations - glyphsBefore - rowCosts.glyphs) / m
  // Paragraphs shaped (HarfBuzz, bidi, line breaks): a steady frame's text comes from the
  // layout cache.
  let shapings = Double(TextLayout.shapingCount - shapingsBefore - rowCosts.shapings) / m
  let presents = zip(whole, renders).map { max(0, $0 - $1) }
  let size = window.bounds.size
  print(
    String(
      format: "demo %dx%d, %@, %d thread(s): %d frames in %.1f s, %.1f fps", Int(size.width),
      Int(size.height),
      mode, window.renderer.threads, whole.count, previous - start - idleSeconds,
      n / (previous - start - idleSeconds)))
  for (name, times) in [("frame", whole), ("render", renders), ("present", presents), ("cpu", renderCPUs)] {
    let p = percentiles(times)
    print(String(format: "  %-8@ p50 %.3f ms, p95 %.3f ms, p99 %.3f ms", name, p.0, p.1, p.2))
  }
  var steady = String(
    format:
      "steady state: blurs per frame %.2f, glyph rasterizations per frame %.2f, text shapings per frame %.2f, shape rasterizations per frame %.2f, image resamples per frame %.2f, draw(_:) calls per frame %.2f",
    Double(stats.blurs - rowCosts.blurs) / m, glyphs, shapings,
    Double(stats.shapeRasterizations - rowCosts.shapes) / m,
    Double(stats.imageResamples - rowCosts.images) / m,
    Double(window.displayCount - drawsBefore - rowCosts.draws) / m)
  if let allocations {
    steady += String(
      format: ", allocations per frame %.2f (%.0f in %d frames)", allocations, allocations * m, steadyFrames)
  }
  print(steady + String(format: " (%d frames without a new row)", steadyFrames))
  let faults = ProcessUsage.now().minorFaults - faultsBefore
  print(
    String(
      format:
        "page faults: %.2f per steady frame (%d), %.1f per frame showing new rows, %.1f per row in idle work",
      Double(faults - rowFaults - idleFaults) / m,
      faults - rowFaults - idleFaults, Double(rowFaults) / Double(max(1, rowFrames)),
      Double(idleFaults) / Double(max(1, rows))))
  if rows > 0 {
    let r = Double(rows)
    var line = String(
      format:
        "rows coming into view: %d in %d frames and %d in idle work (work for rows in frames and in idle work counted with them); per row: blurs %.2f, shape rasterizations %.2f, glyph rasterizations %.2f, text shapings %.2f, image resamples %.2f, draw(_:) calls %.2f",
      rows, rowFrames, idleRows, Double(rowCosts.blurs) / r, Double(rowCosts.shapes) / r,
      Double(rowCosts.glyphs) / r,
      Double(rowCosts.shapings) / r, Double(rowCosts.images) / r, Double(rowCosts.draws) / r)
    if allocationCount != nil {
      // (with the idle work's: it makes the rows)
      line += String(format: ", allocations %.1f", Double(rowCosts.allocations) / r)
    }
    print(line)
  }
  if idleWork != nil {
    let p = percentiles(idles)
    print(
      String(
        format:
          "idle work after each frame (cells made, drawn and made into bitmaps ahead of scrolling, %@; not in the frame times): p50 %.3f ms, p99 %.3f ms, max %.3f ms; %.2f bitmaps made ahead per row",
        idleWork == .infinity
          ? "until none is left (--idle-until-done)" : "until 2 ms before the next 60 Hz frame is due",
        p.0, p.2, idles.max() ?? 0,
        Double(stats.rasterCacheMadeAhead - madeAheadBefore) / Double(max(1, rows))))
  } else {
    print("no idle work (--no-idle-work): rows are made inside the frames that show them")
  }
  let caches = window.renderer.context.cacheBytes
  let layouts = TextLayout.cacheStatistics
  print(
    String(
      format:
        "caches: shadows %.1f MB, shapes %.1f MB, glyphs %.1f MB, resampled images %.1f MB; text layouts %d, %.1f MB (%d evicted)",
      Double(caches.shadows) / 1_048_576, Double(caches.shapes) / 1_048_576,
      Double(caches.glyphs) / 1_048_576, Double(window.renderer.context.imageCacheBytes) / 1_048_576,
      layouts.count, Double(TextLayout.cacheBytes) / 1_048_576, layouts.evictions))
  print(
    String(
      format:
        "raster cache: %.2f subtrees composited from kept bitmaps per frame, %.2f bitmaps made per frame, %.2f MB held (budget %.1f MB; %.2f MB of its store resident, %.2f MB reached, %.2f MB kept free for the swing of what it held, %d pages faulted in; %.2f MB canvas)",
      Double(stats.rasterCacheHits) / n, Double(stats.rasterCacheMisses) / n,
      Double(stats.rasterCacheBytes) / 1_048_576,
      Double(window.renderer.context.rasterCache.budget) / 1_048_576,
      Double(window.renderer.context.rasterCache.storePages.resident) / 1_048_576,
      Double(window.renderer.context.rasterCache.storeHighWater) / 1_048_576,
      Double(window.renderer.context.rasterCache.storeSwingAllowance) / 1_048_576,
      window.renderer.context.rasterCache.storePages.faulted,
      Double(window.renderer.context.rasterCache.scratchBytes) / 1_048_576))
  print(
    String(
      format:
        "resident memory %.1f MB; first frame drawn %.0f ms after the process started (%.1f ms to draw; "
        + "%.0f ms of CPU time since the start)",
      residentMegabytes(), firstFrameDone * 1000, (firstFrameDone - firstFrameAge) * 1000,
      firstFrameCPU * 1000))
  printMemoryMapIfAsked()
  do {
    try writeFrameTimePlot(whole: whole, render: renders, to: plot, title: "sheen bench: \(mode)")
    print("frame-time plot: \(plot)")
  } catch {
    writeError(
      "sheen bench: cannot write the plot \(quotedForMessage(plot)): \(oneLineForMessage("\(error)"))")
  }
}

/// With SHEEN_MEMORY_MAP=1 in the environment: the resident memory by mapping and what the
/// allocator holds.
private func printMemoryMapIfAsked() {
  guard ProcessInfo.processInfo.environment["SHEEN_MEMORY_MAP"] == "1" else { return }
  print(residentBreakdown(), terminator: "")
  print(allocatorBreakdown(), terminator: "")
}

/// The first pass through the list (frame 1 until the scroll reaches the end), then as many
/// frames of the way back: what each frame took (render, and present in a window), and how many
/// went over a 60 Hz frame's 16.7 ms.
private func benchCold(
  _ window: any DemoWindowing, launchFrame: Double, scrollRange: Double?, step: () throws -> Void,
  frame: () -> Int
) throws {
  let list = window.scrollingList
  var range = Double(max(1, list.contentSize.height - list.bounds.height))
  if let scrollRange { range = min(range, scrollRange) }
  // DemoScript.scroll moves 1500 points a second, 25 a frame: the frame that reaches the end.
  let pass = Int((range / 25).rounded(.up))
  var first: [Double] = []
  var second: [Double] = []
  // What each frame of the first pass did, to name what the slowest ones spent their time on.
  var work: [FrameWork] = []
  // The idle work after each first-pass frame, and how many frames it made late.
  // Processor time of each frame (what it cost whatever else the machine ran).
  var firstCPU: [Double] = []
  var secondCPU: [Double] = []
  var idles: [Double] = []
  var overWithIdle = 0
  let context = window.renderer.context
  context.resetStatistics()
  first.reserveCapacity(pass + 2)
  second.reserveCapacity(pass + 2)
  firstCPU.reserveCapacity(pass + 2)
  secondCPU.reserveCapacity(pass + 2)
  idles.reserveCapacity(pass + 2)
  work.reserveCapacity(pass + 2)
  // Heap allocations (with the allocation counter preloaded) of the demo's work (scrolling,
  // frames, idle work: cells made ahead are made there; not the benchmark's own bookkeeping) and
  // rows that came into view, in each pass.
  let allocationsStart = AppAllocations.count
  let rowsStart = window.rowsShown
  var firstPassAllocations: UInt64 = 0
  var firstPassRows = 0
  while frame() <= 2 * pass {
    let before = FrameWork(window, frame: frame(), ms: 0)
    let start = monotonicSeconds()
    let cpuStart = processCPUSeconds()
    try step()
    let now = monotonicSeconds()
    let cpu = (processCPUSeconds() - cpuStart) * 1000
    let ms = (now - start) * 1000
    // Frame f was drawn; frame() is now f + 1.
    let firstPass = frame() <= pass + 1
    if firstPass {
      firstCPU.append(cpu)
      first.append(ms)
      var w = FrameWork(window, frame: frame() - 1, ms: ms) - before
      w.cpu = cpu
      work.append(w)
    } else {
      secondCPU.append(cpu)
      second.append(ms)
    }
    window.recordFrame(time: now, render: now - start, present: 0)
    // What a 60 Hz frame loop does with the rest of the frame's time (FrameLoop): idle work,
    // such as the collection view making and drawing the cells about to scroll in.
    let idleStart = monotonicSeconds()
    let a0 = allocationCount?() ?? 0
    window.performIdleWork(until: start + 1.0 / 60 - 0.002)
    AppAllocations.count += (allocationCount?() ?? 0) - a0
    let idle = (monotonicSeconds() - idleStart) * 1000
    if firstPass {
      idles.append(idle)
      if ms + idle > 1000.0 / 60 { overWithIdle += 1 }
      firstPassAllocations = AppAllocations.count - allocationsStart
      firstPassRows = window.rowsShown - rowsStart
    }
  }
  let wayBackAllocations = AppAllocations.count - allocationsStart - firstPassAllocations
  let wayBackRows = window.rowsShown - rowsStart - firstPassRows
  let stats = window.renderer.context.statistics
  let size = window.bounds.size
  print(
    String(
      format: "demo %dx%d, cold first pass, %d thread(s): launch frame %.2f ms, then %d frames to the end",
      Int(size.width), Int(size.height), window.renderer.threads, launchFrame * 1000, first.count))
  let c = percentiles(first)
  let w = percentiles(second)
  print(
    String(
      format: "  first pass  p50 %.3f ms, p95 %.3f ms, p99 %.3f ms, max %.3f ms", c.0, c.1, c.2,
      first.max() ?? 0))
  print(String(format: "  way back    p50 %.3f ms, p95 %.3f ms, p99 %.3f ms (warm)", w.0, w.1, w.2))
  let dropped = first.filter { $0 > 1000.0 / 60 }.count
  print(String(format: "dropped frames: %d of %d over 16.7 ms", dropped, first.count))
  let idle = percentiles(idles)
  print(
    String(
      format:
        "idle work after each frame (cells made and drawn ahead of scrolling, until 2 ms before the next frame is due): p50 %.3f ms, p99 %.3f ms, max %.3f ms; frames whose time plus that work went over 16.7 ms: %d",
      idle.0, idle.2, idles.max() ?? 0, overWithIdle))
  print(String(format: "first-pass p99 / warm p50: %.2f", c.2 / max(w.0, 1e-9)))
  let cc = percentiles(firstCPU)
  let wc = percentiles(secondCPU)
  print(
    String(
      format:
        "processor time: first pass p50 %.3f ms, p99 %.3f ms, max %.3f ms; way back p50 %.3f ms; first-pass p99 / warm p50: %.2f",
      cc.0, cc.2, firstCPU.max() ?? 0, wc.0, cc.2 / max(wc.0, 1e-9)))
  print(
    String(
      format: "work in both passes: blurs %d, analytic shadows %d, shape rasterizations %d", stats.blurs,
      stats.analyticShadows, stats.shapeRasterizations))
  if allocationCount != nil {
    print(
      String(
        format:
          "allocations per row coming into view (frames and idle work): first pass %.1f (%d rows), way back %.1f (%d rows)",
        Double(firstPassAllocations) / Double(max(1, firstPassRows)), firstPassRows,
        Double(wayBackAllocations) / Double(max(1, wayBackRows)), wayBackRows))
  }
  let cache = context.rasterCache
  if cache.storeHighWater > 0 {
    print(
      String(
        format:
          "raster cache: %d bitmaps made in frames, %d ahead in idle work; %.2f MB held at the end (%.2f MB of its store resident, %.2f MB reached, %.2f MB kept free for the swing of what it held, %d pages faulted in; %.2f MB canvas)",
        stats.rasterCacheMisses, stats.rasterCacheMadeAhead, Double(cache.bytes) / 1_048_576,
        Double(cache.storePages.resident) / 1_048_576,
        Double(cache.storeHighWater) / 1_048_576, Double(cache.storeSwingAllowance) / 1_048_576,
        cache.storePages.faulted,
        Double(cache.scratchBytes) / 1_048_576))
  }
  print("first-pass frames that took the most processor time:")
  for w in work.sorted(by: { $0.cpu > $1.cpu }).prefix(8) {
    print(
      String(
        format:
          "  frame %d: %.2f ms (%.2f ms of processor time), %d new rows, %d shapings, %d shape rasterizations, %d glyph rasterizations, %d image resamples, %d draw(_:) calls, %d blurs, %d bitmaps made (%d pixels)",
        w.frame, w.ms, w.cpu, w.rows, w.shapings, w.shapes, w.glyphs, w.images, w.draws, w.blurs, w.made,
        w.madePixels))
  }
}

/// Heap allocations made by the demo's own work in `benchDemo`'s frames (scrolling, rendering, idle
/// work), counted with the allocation counter preloaded.
private enum AppAllocations {
  nonisolated(unsafe) static var count: UInt64 = 0
}

/// Counters of the work a frame did (a difference of two readings).
private struct FrameWork {
  var frame: Int
  var ms: Double
  var cpu = 0.0
  var rows, shapings, shapes, glyphs, images, draws, blurs, made, madePixels: Int

  init(_ window: any DemoWindowing, frame: Int, ms: Double) {
    let s = window.renderer.context.statistics
    self.frame = frame
    self.ms = ms
    rows = window.rowsShown
    shapings = TextLayout.shapingCount
    shapes = s.shapeRasterizations
    glyphs = window.renderer.context.textRenderer.cache.statistics.rasterizations
    images = s.imageResamples
    draws = window.displayCount
    blurs = s.blurs
    made = s.rasterCacheMisses
    madePixels = s.rasterCachePixelsMade
  }

  static func - (a: FrameWork, b: FrameWork) -> FrameWork {
    var d = a
    d.rows -= b.rows
    d.shapings -= b.shapings
    d.shapes -= b.shapes
    d.glyphs -= b.glyphs
    d.images -= b.images
    d.draws -= b.draws
    d.blurs -= b.blurs
    d.made -= b.made
    d.madePixels -= b.madePixels
    return d
  }
}

/// The 50th, 95th and 99th percentiles (nearest rank).
func percentiles(_ values: [Double]) -> (Double, Double, Double) {
  let s = values.sorted()
  guard !s.isEmpty else { return (0, 0, 0) }
  func rank(_ p: Double) -> Double {
    s[min(s.count - 1, max(0, Int((p * Double(s.count)).rounded(.up)) - 1))]
  }
  return (rank(0.5), rank(0.95), rank(0.99))
}

/// Seconds since this process started (from /proc: its start time in clock ticks since boot).
func processAge() -> Double {
  guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
    let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return 0 }
  // Fields after the command name; starttime is field 22 overall, the 20th after it.
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  guard fields.count > 19, let start = Double(fields[19]),
    let up = Double(uptime.split(separator: " ").first ?? "")
  else { return 0 }
  let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
  return up - start / ticks
}

/// The CPU time this process used so far (user and system, all threads), in seconds: what the
/// first frame cost, whatever else the machine was doing.
func processCPUSeconds() -> Double {
  var t = timespec()
  guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0 else { return 0 }
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// The resident set size, in MB (VmRSS from /proc/self/status).
func residentMegabytes() -> Double {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
    return kb / 1024
  }
  return 0
}
