import SheenRaster

// Shadows whose blur reaches far beyond what the canvas shows (SCENE.md: "any radius must work,
// with memory bounded by the canvas").
//
// A shadow is normally blurred whole and kept: its mask is the shape grown by the blur's reach
// (about 3σ) on every side. A `shadowRadius` of 1,000 points on a 2x screen makes that 12,000
// pixels wider and taller than the shape, 150 million pixels for a shape of any size, whatever
// the canvas. Past `wideShadowPixels`, the shadow is instead worked out only where the canvas
// shows it, each frame, and not kept:
// - the output is the canvas' clip moved back by the shadow's offset; the input, the shape
//   within the blur's reach of that;
// - for a blur of 16 pixels or more, on a grid `step` times coarser than the device's (the
//   power of two that leaves 8 to 16 pixels of blur on it), as Skia does for wide blurs: the
//   shape is drawn there (area coverage, a box of `step` pixels), blurred by
//   √(σ² / step² − 1/4) coarse pixels, and read back bilinearly (a tent of `step` pixels), the
//   three together a Gaussian of σ in variance and, this wide, in shape too;
// - the blur is one sampled Gaussian (`exact`, at most 8 × 16 taps a coarse pixel), not three
//   boxes, whose flatter profile is up to 4.3/255 from the Gaussian at an edge (WideShadowTests:
//   within 4/255 of the exact Gaussian).
// So its work and memory follow the canvas (and the shape's part near it), not the blur's reach.
extension Compositor {
  /// The most pixels a shadow's whole mask may have before it is worked out where it shows.
  static let wideShadowPixels = 4 << 20

  /// Whether the whole mask of a shadow blurred by `sigma` device pixels, of a shape reaching
  /// `extent`, has more than `wideShadowPixels` pixels.
  static func isWideShadow(extent: IntRect, sigma: Double) -> Bool {
    let m = Double(AlphaMask.blurMargin(sigma: sigma) + 1)
    return (Double(extent.width) + 2 * m) * (Double(extent.height) + 2 * m) > Double(wideShadowPixels)
  }

  /// The coarser grid a blur of `sigma` device pixels is worked out on: 1 below 16 pixels, else
  /// the power of two that leaves 8 to 16 pixels of blur.
  static func wideShadowStep(sigma: Double) -> Int {
    var k = 1
    while Double(k) * 16 <= sigma && k < 1 << 20 { k *= 2 }
    return k
  }

  /// Draws the shadow of `path` (a `shadowPath`), or else of node `i`'s body, blurred by `sigma`
  /// device pixels and moved by (`dx`, `dy`), where the canvas shows it, when its whole mask
  /// would be too large (see above); false, having drawn nothing, when it would not.
  func drawWideShadow(
    _ i: Int, path: Path?, _ canvas: Canvas, _ ctm: Transform, sigma: Double, color: Color, dx: Int, dy: Int,
    holes: [IntRect]
  ) -> Bool {
    let shape = path.map { ctm.apply($0.controlBounds) } ?? bodyExtent(i, ctm)
    let full = IntRect(enclosing: shape)
    guard sigma.isFinite, sigma > 0, Compositor.isWideShadow(extent: full, sigma: sigma) else { return false }
    let m = AlphaMask.blurMargin(sigma: sigma) + 1
    let clip = canvas.clipBounds.intersection(canvas.surface.bounds)
    let reach = IntRect(x: full.x - m, y: full.y - m, width: full.width + 2 * m, height: full.height + 2 * m)
    let window = IntRect(x: clip.x - dx, y: clip.y - dy, width: clip.width, height: clip.height).intersection(
      reach)
    if window.isEmpty { return true }
    let step = Compositor.wideShadowStep(sigma: sigma)
    let k = Double(step)
    let coarseSigma = step == 1 ? sigma : (sigma * sigma / (k * k) - 0.25).squareRoot()
    // The coarse values the window's pixels read (bilinear: two per axis), and the coarse input
    // within the blur's reach of them.
    func coarse(_ lo: Int, _ hi: Int) -> (Int, Int) {
      if step == 1 { return (lo, hi) }
      let a = Int(((Double(lo) + 0.5) / k - 0.5).rounded(.down))
      let b = Int(((Double(hi) - 0.5) / k - 0.5).rounded(.down)) + 2
      return (a, b)
    }
    let (wx0, wx1) = coarse(window.x, window.maxX)
    let (wy0, wy1) = coarse(window.y, window.maxY)
    let coarseWindow = IntRect(x: wx0, y: wy0, width: wx1 - wx0, height: wy1 - wy0)
    let toCoarse = ctm.concatenating(Transform(scaleX: 1 / k, y: 1 / k))
    let cm = AlphaMask.blurMargin(sigma: coarseSigma, exact: true) + 1
    let input = IntRect(
      x: coarseWindow.x - cm, y: coarseWindow.y - cm, width: coarseWindow.width + 2 * cm,
      height: coarseWindow.height + 2 * cm
    ).intersection(
      IntRect(enclosing: path.map { toCoarse.apply($0.controlBounds) } ?? bodyExtent(i, toCoarse)))
    if input.isEmpty { return true }
    guard canvas.openGroupBytes + input.width * input.height * 4 <= offscreenBudget else { return true }
    var mask: AlphaMask?
    if let path {
      mask = try? AlphaMask(width: input.width, height: input.height, originX: input.x, originY: input.y)
      mask?.fill(path, transform: toCoarse)
    } else {
      // The body drawn offscreen on the coarse grid (nothing left out: the blur sees all of it).
      if let g = drawBodyOffscreen(i, canvas, toCoarse, bounds: input) {
        mask = try? g.alphaMask()
        canvas.recycle(g)
      }
    }
    guard let mask, let blurred = try? mask.blurred(sigma: coarseSigma, within: coarseWindow, exact: true)
    else {
      return true
    }
    counts.blurs += 1
    counts.blurredPixels += mask.width * mask.height
    let shadow = step == 1 ? blurred : try? blurred.magnified(by: step, within: window)
    guard let shadow else { return true }
    canvas.fill(Coverage(mask: shadow), offsetX: dx, offsetY: dy, paint: .solid(color), skipping: holes)
    return true
  }
}
