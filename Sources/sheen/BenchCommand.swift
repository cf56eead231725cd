import Foundation
import SheenCommandLine
import SheenLayers
import SheenRaster
import SheenText

/// `sheen bench`, `sheen bench raster`, `sheen bench cards`, `sheen bench layout`.
func runBench(_ args: [String]) -> Int32 {
  var status: Int32 = 0
  switch args.first {
  case "raster":
    guard let parsed = parseCommandLine(BenchArgs.raster, Array(args.dropFirst()), status: &status) else {
      return status
    }
    return benchFailing { try benchRaster(runs: parsed[BenchArgs.runs] ?? 200) }
  case "text":
    guard let parsed = parseCommandLine(BenchArgs.text, Array(args.dropFirst()), status: &status) else {
      return status
    }
    return benchFailing { try benchText(runs: parsed[BenchArgs.runs] ?? 200) }
  case "cards":
    guard let parsed = parseCommandLine(BenchArgs.cards, Array(args.dropFirst()), status: &status) else {
      return status
    }
    let size = parsed[BenchArgs.size] ?? Dimensions(width: 1920, height: 1080)
    return benchFailing {
      try benchCards(
        runs: parsed[BenchArgs.runs] ?? 200, threads: parsed[SharedArgs.threads], width: size.width,
        height: size.height)
    }
  case "photos":
    guard let parsed = parseCommandLine(BenchArgs.photos, Array(args.dropFirst()), status: &status) else {
      return status
    }
    return benchFailing {
      try benchPhotoCards(runs: parsed[BenchArgs.runs] ?? 200, threads: parsed[SharedArgs.threads] ?? 1)
    }
  case "press":
    guard let parsed = parseCommandLine(BenchArgs.press, Array(args.dropFirst()), status: &status) else {
      return status
    }
    let size = parsed[BenchArgs.size] ?? Dimensions(width: 1920, height: 1080)
    return benchFailing {
      try benchPress(
        runs: parsed[BenchArgs.pressRuns] ?? 7, threads: parsed[SharedArgs.threads] ?? 1,
        width: size.width, height: size.height, ui: parsed[SharedArgs.ui] ?? .uikit,
        sections: parsed[BenchArgs.sections]?.map { $0 - 1 }, rasterCache: !parsed[SharedArgs.noRasterCache])
    }
  case "tap":
    guard let parsed = parseCommandLine(BenchArgs.tap, Array(args.dropFirst()), status: &status) else {
      return status
    }
    let size = parsed[BenchArgs.size] ?? Dimensions(width: 1920, height: 1080)
    return benchFailing {
      _ = try benchTap(
        runs: parsed[BenchArgs.tapRuns] ?? 7, threads: parsed[SharedArgs.threads] ?? 1,
        width: size.width, height: size.height, card: parsed[BenchArgs.card] ?? 0,
        rasterCache: !parsed[SharedArgs.noRasterCache])
    }
  case "layout":
    guard let parsed = parseCommandLine(BenchArgs.layout, Array(args.dropFirst()), status: &status) else {
      return status
    }
    benchLayout(runs: parsed[BenchArgs.runs] ?? 200)
    return 0
  case "draw":
    guard let parsed = parseCommandLine(BenchArgs.draw, Array(args.dropFirst()), status: &status) else {
      return status
    }
    return benchFailing { try benchDraw(runs: parsed[BenchArgs.runs] ?? 200) }
  default:
    return runDemoBench(args)
  }
}

private func benchFailing(_ body: () throws -> Void) -> Int32 {
  do {
    try body()
    return 0
  } catch {
    writeError("sheen bench: \(error)")
    return 1
  }
}

/// Heap allocations per call of `body` over `frames` calls, when the allocation counter is
/// preloaded (see AllocationCounter.swift); nil otherwise.
func allocationsPerFrame(frames: Int, _ body: () -> Void) -> Double? {
  guard let count = allocationCount else { return nil }
  let before = count()
  for _ in 0..<frames { body() }
  return Double(count() - before) / Double(frames)
}

/// Times `body` `runs` times (after a warm-up) and returns the median and minimum in ms.
func measure(runs: Int, _ body: () -> Void) -> (median: Double, min: Double) {
  for _ in 0..<max(3, runs / 20) { body() }
  var times: [Double] = []
  times.reserveCapacity(runs)
  for _ in 0..<runs {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
  }
  times.sort()
  return (times[times.count / 2], times[0])
}

private func benchRaster(runs: Int) throws {
  let screen = try Surface(width: 1920, height: 1080)
  let canvas = Canvas(surface: screen)
  let gradient = Gradient(colors: [Color(hex: "#FF5E3A")!, Color(hex: "#FF2A68")!])
  let big = Path(roundedRect: Rect(x: 100.25, y: 100.5, width: 256, height: 256), cornerRadius: 24)
  let small = Path(roundedRect: Rect(x: 40.5, y: 40.25, width: 32, height: 32), cornerRadius: 6)
  let fullRect = Rect(x: 0, y: 0, width: 1920, height: 1080)
  let translucent = Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.5)
  let mask = try AlphaMask(width: 512, height: 512)
  mask.fill(Path(roundedRect: Rect(x: 64, y: 64, width: 384, height: 384), cornerRadius: 32))

  var rows: [(String, Double, Double, Int)] = []
  func run(_ name: String, pixels: Int, _ body: () -> Void) {
    let r = measure(runs: runs, body)
    rows.append((name, r.median, r.min, pixels))
  }
  run("clear 1920x1080", pixels: 1920 * 1080) { screen.clear(0xFFF2_F2F7) }
  run("fill 1920x1080 opaque", pixels: 1920 * 1080) { canvas.fill(fullRect, paint: .solid(.white)) }
  run("fill 1920x1080 source-over (alpha 0.5)", pixels: 1920 * 1080) {
    canvas.fill(fullRect, paint: .solid(translucent))
  }
  run("fill 256x256 rounded rect, solid", pixels: 256 * 256) {
    canvas.fill(big, paint: .solid(.white))
  }
  run("fill 256x256 rounded rect, linear gradient", pixels: 256 * 256) {
    canvas.fill(big, paint: .linearGradient(gradient, start: Point(x: 0, y: 100), end: Point(x: 0, y: 356)))
  }
  run("fill 32x32 rounded rect, solid", pixels: 32 * 32) { canvas.fill(small, paint: .solid(.white)) }
  run("blur 512x512 mask, sigma 10", pixels: 512 * 512) { mask.blur(sigma: 10) }
  let shadowColor = Color(red: 0, green: 0, blue: 0, alpha: 0.3)
  run("composite 512x512 mask, translucent colour", pixels: 512 * 512) {
    canvas.draw(mask: mask, color: shadowColor)
  }
  // Images: a photo-sized picture copied at 1:1, resampled bilinear and trilinear, and rotated.
  let photo = try RasterImage(width: 512, height: 512) { c in
    c.fill(
      Rect(x: 0, y: 0, width: 512, height: 512),
      paint: .linearGradient(gradient, start: Point(x: 0, y: 0), end: Point(x: 512, y: 512)))
  }
  let header = Rect(x: 200, y: 300, width: 448, height: 140)
  run("image 448x140, copied at 1:1", pixels: 448 * 140) {
    canvas.drawImage(photo, source: Rect(x: 0, y: 0, width: 448, height: 140), in: header)
  }
  run("image 512x512 -> 448x140, bilinear", pixels: 448 * 140) {
    canvas.drawImage(photo, in: header)
  }
  run("image 512x512 -> 112x112, trilinear", pixels: 112 * 112) {
    canvas.drawImage(photo, in: Rect(x: 700, y: 300, width: 112, height: 112), minification: .trilinear)
  }
  run("image 512x512 -> 256x256 rotated 0.3, bilinear", pixels: 256 * 256) {
    canvas.save()
    canvas.translateBy(x: 1200, y: 500)
    canvas.rotate(by: 0.3)
    canvas.drawImage(photo, in: Rect(x: -128, y: -128, width: 256, height: 256))
    canvas.restore()
  }

  let clearPerPixel = rows[0].1 / Double(rows[0].3)
  print("operation                                    median ms    min ms   ns/pixel   x clear")
  for (name, median, minimum, pixels) in rows {
    let perPixel = median / Double(pixels)
    print(
      name.padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(
          format: " %9.4f %9.4f %9.3f %9.2f", median, minimum, perPixel * 1e6, perPixel / clearPerPixel))
  }
}

/// A 1920x1080 frame of sample cards scrolling by a fractional offset every frame.
private func benchCards(runs: Int, threads: Int?, width: Int, height: Int) throws {
  let screen = try Surface(width: width, height: height)
  let root = Layer()
  for row in 0..<6 {
    for column in 0..<5 {
      let cell = Layer()
      cell.frame = Rect(x: Double(column) * 390, y: Double(row) * 300, width: 390, height: 300)
      for l in sampleLayers() { cell.addSublayer(l) }
      root.addSublayer(cell)
    }
  }
  let renderer = FrameRenderer(threads: threads)
  let background = Color(hex: "#F2F2F7")!
  var offset = 0.0
  // Made once: `render` keeps the array while band threads draw, so a literal in the loop would
  // be a heap allocation per frame.
  let roots = [root]
  func frame() {
    offset += 1
    root.frame = Rect(x: 0, y: -(offset.truncatingRemainder(dividingBy: 600)), width: 1920, height: 1800)
    renderer.render(roots, into: screen, background: background)
  }
  // Warm up over a whole period of the scroll, so that every shadow and glyph is cached.
  for _ in 0..<600 { frame() }
  renderer.context.resetStatistics()
  let allocations = allocationsPerFrame(frames: 100, frame)
  let r = measure(runs: runs, frame)
  let frames = Double(100 + runs + max(3, runs / 20))
  var line = String(
    format: "cards frame %dx%d, %d thread(s): median %.3f ms, min %.3f ms; blurs per frame %.2f",
    width, height, renderer.threads, r.median, r.min, Double(renderer.context.statistics.blurs) / frames)
  if let allocations { line += String(format: "; allocations per frame %.2f", allocations) }
  print(line)
}

/// `sheen bench text`: TextBenchmark's figures, median and minimum over up to 50 runs (each with
/// fresh layout and glyph caches; the warm figures are each run's best of 10).
private func benchText(runs: Int) throws {
  let library = FontLibrary()
  for mixed in [false, true] {
    var results: [TextBenchmark.Result] = []
    for _ in 0..<min(runs, 50) {
      results.append(try TextBenchmark.run(mixedScripts: mixed, library: library))
    }
    func stat(_ f: (TextBenchmark.Result) -> Double) -> String {
      let v = results.map(f).sorted()
      return String(format: "%.3f / %.3f ms", v[v.count / 2], v[0])
    }
    let r = results[0]
    print("\(mixed ? "mixed scripts" : "English"): \(r.glyphs) glyphs, \(r.lines) lines, \(r.fonts) fonts")
    print("  layout + draw, cold: \(stat(\.coldMilliseconds)) (\(r.coldRasterizations) glyphs rasterized)")
    print(
      "    of which draw: \(stat(\.coldDrawMilliseconds)); processor time: \(stat(\.coldCPUMilliseconds))")
    print("  draw, warm: \(stat(\.warmMilliseconds)) (\(r.warmRasterizations) rasterized)")
    print("  layout again + draw: \(stat(\.relayoutMilliseconds))")
    print("  layout alone: \(stat(\.layoutMilliseconds))")
  }
  let setUp = library.setUpTime.components
  print(
    String(
      format: "fontconfig set-up: %.1f ms", Double(setUp.seconds) * 1000 + Double(setUp.attoseconds) / 1e15))
}
