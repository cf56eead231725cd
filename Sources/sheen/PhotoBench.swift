import Foundation
import SheenLayers
import SheenRaster
import SheenText

/// `sheen bench photos`: a 1920x1080 screen of 16 cards (4 x 4), each with a photo in its header
/// (aspect fill, clipped by the card's corners) and a round photo avatar, against the same cards
/// with flat colour headers and avatars, in the same run: frames of the two alternate, both
/// scrolling by a pixel every frame after a warm-up, each with its own renderer.
func benchPhotoCards(runs: Int, threads: Int?) throws {
  let photos = try bundledPhotos()
  let screen = try Surface(width: 1920, height: 1080)
  let background = Color(hex: "#F2F2F7")!
  func tree(photos: [RasterImage]?) -> Layer {
    let root = Layer()
    // Five rows of four, so that a row scrolls in as one scrolls out: 16 cards on screen.
    for i in 0..<20 {
      let card = Layer()
      card.frame = Rect(x: 24 + Double(i % 4) * 472, y: 24 + Double(i / 4) * 264, width: 448, height: 240)
      card.backgroundColor = .white
      card.cornerRadius = 16
      card.masksToBounds = true
      let hue = Double(i * 37 % 360) / 360
      let header = Layer()
      header.frame = Rect(x: 0, y: 0, width: 448, height: 140)
      let avatar = Layer()
      avatar.frame = Rect(x: 16, y: 116, width: 48, height: 48)
      avatar.cornerRadius = 24
      avatar.masksToBounds = true
      avatar.borderWidth = 2
      avatar.borderColor = .white
      if let photos {
        // Cut at the header's bottom edge, as the demo's photo view (clipsToBounds): aspect fill
        // would otherwise spill over the whole card.
        header.masksToBounds = true
        header.contents = photos[i % photos.count]
        header.contentsGravity = .resizeAspectFill
        avatar.contents = photos[(i + 1) % photos.count]
        avatar.contentsGravity = .resizeAspectFill
      } else {
        header.backgroundColor = Color(red: 0.4 + 0.5 * hue, green: 0.6, blue: 0.9 - 0.5 * hue)
        avatar.backgroundColor = Color(red: 0.9 - 0.5 * hue, green: 0.5, blue: 0.4 + 0.5 * hue)
      }
      let title = TextLayer()
      title.frame = Rect(x: 76, y: 148, width: 356, height: 24)
      title.string = "Card \(i + 1): a photo in the header"
      title.fontSize = 17
      title.fontWeight = .bold
      let subtitle = TextLayer()
      subtitle.frame = Rect(x: 16, y: 176, width: 416, height: 48)
      subtitle.string =
        "Aspect fill, clipped by the rounded corners; the avatar is round. Scrolled a pixel a frame."
      subtitle.fontSize = 13
      subtitle.isWrapped = true
      subtitle.foregroundColor = Color(red: 0.38, green: 0.38, blue: 0.38)
      for l in [header, avatar, title, subtitle] { card.addSublayer(l) }
      // A shadow per card from its rounded rectangle.
      let cell = Layer()
      cell.frame = card.frame
      card.frame.origin = .zero
      cell.shadowPath = Path(roundedRect: card.bounds, radii: card.effectiveCornerRadii)
      cell.shadowOpacity = 0.18
      cell.shadowRadius = 8
      cell.shadowOffset = Size(width: 0, height: 4)
      cell.addSublayer(card)
      root.addSublayer(cell)
    }
    return root
  }
  let with = tree(photos: photos)
  let without = tree(photos: nil)
  let withRenderer = FrameRenderer(threads: threads)
  let withoutRenderer = FrameRenderer(threads: threads)
  let withRoots = [with]
  let withoutRoots = [without]
  var offset = 0.0
  func frame(_ root: Layer, _ roots: [Layer], _ renderer: FrameRenderer) {
    root.frame = Rect(x: 0, y: -(offset.truncatingRemainder(dividingBy: 264)), width: 1920, height: 1400)
    renderer.render(roots, into: screen, background: background)
  }
  // Warm-up over a whole period of the scroll, both trees: every shadow, glyph and resample made.
  for _ in 0..<264 {
    offset += 1
    frame(with, withRoots, withRenderer)
    frame(without, withoutRoots, withoutRenderer)
  }
  withRenderer.context.resetStatistics()
  let allocations = allocationsPerFrame(frames: 100) {
    offset += 1
    frame(with, withRoots, withRenderer)
  }
  var a: [Double] = []
  var b: [Double] = []
  a.reserveCapacity(runs)
  b.reserveCapacity(runs)
  for _ in 0..<runs {
    offset += 1
    var t0 = DispatchTime.now().uptimeNanoseconds
    frame(with, withRoots, withRenderer)
    a.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
    t0 = DispatchTime.now().uptimeNanoseconds
    frame(without, withoutRoots, withoutRenderer)
    b.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
  }
  a.sort()
  b.sort()
  let stats = withRenderer.context.statistics
  let timed = Double(runs + 100)
  var line = String(
    format:
      "photo cards 1920x1080, %d thread(s), %d interleaved frames each: with photos median %.3f ms (min %.3f), "
      + "without median %.3f ms (min %.3f); ratio %.2f (min %.2f); image resamples per frame %.2f",
    withRenderer.threads, runs, a[runs / 2], a[0], b[runs / 2], b[0], a[runs / 2] / b[runs / 2], a[0] / b[0],
    Double(stats.imageResamples) / timed)
  if let allocations { line += String(format: "; allocations per frame %.2f", allocations) }
  print(line)
  print(
    String(
      format: "images: %d decoded (%.1f MB), resampled and kept %.1f MB", photos.count,
      Double(photos.reduce(0) { $0 + $1.byteCount }) / 1_048_576,
      Double(withRenderer.context.imageCacheBytes) / 1_048_576))
}

/// The photos of the bundled assets (`Assets/Photos`).
func bundledPhotos() throws -> [RasterImage] {
  let fonts = try BundledAssets.fontsDirectory()
  let folder = (fonts as NSString).deletingLastPathComponent + "/Photos"
  return try ["astronaut", "coffee", "chelsea", "rocket"].map {
    try ImageFileCache.shared.image(atPath: "\(folder)/\($0).jpg")
  }
}
