import Foundation
import SheenCommandLine
import SheenLayers
import SheenRaster

/// `sheen render SCENE.json -o OUT.png [--scale S] [--repeat N] [--threads N] [--no-occlusion]
/// [--strip-pixels N]`.
func runRender(_ args: [String]) -> Int32 {
  var status: Int32 = 0
  guard let parsed = parseCommandLine(RenderArgs.command, args, status: &status) else { return status }
  guard let outputPath = parsed[RenderArgs.output] else {
    writeError("sheen render: no output file given (-o OUT.png)\n\(RenderArgs.command.shortUsage)")
    return 64
  }
  let options = (
    scenePath: parsed.positionals[0], outputPath: outputPath, scale: parsed[RenderArgs.scale],
    repeatCount: parsed[RenderArgs.repeatCount]
  )

  let scene: Scene
  do {
    scene = try Scene.decode(contentsOfFile: options.scenePath, scale: options.scale)
  } catch let e as SceneError {
    renderFail(e.description)
    return 2
  } catch {
    renderFail("\(error)")
    return 1
  }

  let surface: Surface
  do {
    surface = try Surface(width: scene.pixelWidth, height: scene.pixelHeight)
  } catch {
    renderFail("cannot make a \(scene.pixelWidth)×\(scene.pixelHeight) pixel canvas: \(error)")
    return 1
  }
  // The path a window's frames take: the tree made into a display list, binned into bands (one
  // unless told) and replayed.
  let renderer = FrameRenderer(threads: parsed[RenderArgs.threads] ?? 1)
  renderer.skipsOccludedLayers = !parsed[SharedArgs.noOcclusion]
  if let n = parsed[SharedArgs.stripPixels] { renderer.stripPixels = n }
  let toPixels = Transform(scaleX: scene.scale, y: scene.scale)
  let frames = options.repeatCount ?? 1
  var frameMilliseconds: [Double] = []
  frameMilliseconds.reserveCapacity(frames)
  let clock = ContinuousClock()
  for _ in 0..<frames {
    let start = clock.now
    renderer.render(scene.layers, into: surface, transform: toPixels, background: scene.background ?? .clear)
    let elapsed = start.duration(to: clock.now)
    frameMilliseconds.append(
      Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15)
  }

  do {
    if options.outputPath == "-" {
      try surface.writePNG(toDescriptor: STDOUT_FILENO)
    } else {
      try surface.writePNG(to: options.outputPath)
    }
  } catch {
    renderFail("\(error)")
    return 1
  }
  if let n = options.repeatCount {
    // With the PNG on standard output, the timing line goes to standard error.
    let sorted = frameMilliseconds.sorted()
    let median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    let line = String(format: "frame_ms median=%.3f min=%.3f n=%d", median, sorted[0], n)
    if options.outputPath == "-" { writeError(line) } else { print(line) }
  }
  return 0
}

private func renderFail(_ message: String) {
  writeError("sheen render: \(oneLineForMessage(message, maxBytes: 1000))")
}
