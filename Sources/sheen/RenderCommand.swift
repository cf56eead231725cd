import Foundation
import SheenLayers
import SheenRaster

private let renderUsage = """
  usage: sheen render SCENE.json -o OUT.png [--scale S] [--repeat N]

  Renders a scene file (shared SCENE.md) to a PNG of width×scale by height×scale pixels.

  options:
    -o, --output OUT.png   where to write the PNG (required)
    --scale S              pixels per point, replacing the file's "scale"
    --repeat N             render the frame N times after parsing once, then print
                           `frame_ms median=<ms> min=<ms> n=<N>` as the last line

  exit status: 0 written; 1 the scene file cannot be read or the PNG cannot be written;
  2 the scene file is invalid (one line on stderr names the key path; nothing is written);
  64 bad usage.
  """

/// Options of `sheen render`.
struct RenderOptions {
  var scenePath = ""
  var outputPath = ""
  var scale: Double?
  var repeatCount: Int?

  /// Parses `args`: the options, nil for `--help`, or a usage error message.
  static func parse(_ args: [String]) -> Result<RenderOptions?, UsageError> {
    var o = RenderOptions()
    var scene: String?
    var output: String?
    var i = 0
    func value(_ flag: String) throws(UsageError) -> String {
      i += 1
      guard i < args.count else { throw UsageError("\(flag) needs a value") }
      return args[i]
    }
    do throws(UsageError) {
      while i < args.count {
        let arg = args[i]
        switch arg {
        case "-h", "--help": return .success(nil)
        case "-o", "--output":
          guard output == nil else { throw UsageError("-o given twice") }
          output = try value(arg)
        case "--scale":
          guard let s = Double(try value(arg)), s.isFinite, s > 0 else {
            throw UsageError("--scale needs a number > 0")
          }
          o.scale = s
        case "--repeat":
          guard let n = Int(try value(arg)), n >= 1 else {
            throw UsageError("--repeat needs a count ≥ 1")
          }
          o.repeatCount = n
        default:
          if arg.hasPrefix("-") { throw UsageError("unknown option '\(arg)'") }
          guard scene == nil else { throw UsageError("more than one scene file given") }
          scene = arg
        }
        i += 1
      }
      guard let scene else { throw UsageError("no scene file given") }
      guard let output else { throw UsageError("no output file given (-o OUT.png)") }
      o.scenePath = scene
      o.outputPath = output
      return .success(o)
    } catch {
      return .failure(error)
    }
  }
}

/// `sheen render SCENE.json -o OUT.png [--scale S] [--repeat N]`.
func runRender(_ args: [String]) -> Int32 {
  let options: RenderOptions
  switch RenderOptions.parse(args) {
  case .success(nil):
    print(renderUsage)
    return 0
  case .success(let o?):
    options = o
  case .failure(let e):
    renderFail("\(e.message)\n\(renderUsage)")
    return 64
  }

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
  let canvas = Canvas(surface: surface)
  let compositor = Compositor()
  let toPixels = Transform(scaleX: scene.scale, y: scene.scale)
  let frames = options.repeatCount ?? 1
  var frameMilliseconds: [Double] = []
  frameMilliseconds.reserveCapacity(frames)
  let clock = ContinuousClock()
  for _ in 0..<frames {
    let start = clock.now
    canvas.clear(scene.background ?? .clear)
    compositor.render(scene.layers, in: canvas, transform: toPixels)
    let elapsed = start.duration(to: clock.now)
    frameMilliseconds.append(
      Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15)
  }

  do {
    try surface.writePNG(to: options.outputPath)
  } catch {
    renderFail("\(error)")
    return 1
  }
  if let n = options.repeatCount {
    let sorted = frameMilliseconds.sorted()
    let median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    print(String(format: "frame_ms median=%.3f min=%.3f n=%d", median, sorted[0], n))
  }
  return 0
}

private func renderFail(_ message: String) {
  FileHandle.standardError.write(Data("sheen render: \(message)\n".utf8))
}
