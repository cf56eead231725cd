import SheenRaster
import Synchronization

/// Images resampled to the size they are shown at, kept from frame to frame as Core Animation
/// keeps contents in a texture: an image shown scaled on the device axes (a photo filling a card
/// header) is filtered once, and then each frame copies (or blends) its rows, wherever it moves
/// by whole pixels.
///
/// An entry is keyed by the image, the part shown, the filters, and where the destination falls
/// in device pixels relative to whole pixels (in 256ths of a pixel, as `CoverageCache`), so that
/// a frame's pixels never depend on which band or frame resampled. Rotated and skewed images, and
/// very large destinations, are filtered as they are drawn (counted as resamples too).
final class ImageCache: Sendable {
  struct Key: Hashable {
    let image: UInt64
    let source: Rect
    /// The destination in device pixels, moved to within a pixel of the origin.
    let device: Rect
    let minification: ImageFilter
    let magnification: ImageFilter
    /// A tiled part's tile size (points) and the device size of its first tile.
    let tile: Size?
    let firstTile: Size
  }

  private let table = FrameCache<Key, RasterImage>(budget: 16 << 20, maxEntries: 2048)
  /// The bytes kept past which entries not drawn in the last two frames go.
  var budget: Int { table.budget }
  /// Images filtered for drawing (each miss of the table, and each draw filtered directly), since
  /// the last reset.
  let resamples = Atomic<Int>(0)
  /// The largest destination kept, in device pixels.
  static let maxPixels = 2048 * 2048

  /// Draws `part` of `image` through the canvas' transform.
  func draw(
    _ image: RasterImage, _ part: ContentsPart, minification: ImageFilter, magnification: ImageFilter,
    in canvas: Canvas
  ) {
    let t = canvas.transform
    let first = RasterImage.firstTile(of: part.destination, tile: part.tile)
    let repeats = RasterImage.repeats(part.destination, tile: part.tile)
    let placement = RasterImage.placement(source: part.source, destination: first, transform: t)
    if RasterImage.placementIsCopy(placement) && !repeats.x && !repeats.y {
      canvas.drawImage(
        image, source: part.source, in: part.destination, minification: minification,
        magnification: magnification)
      return
    }
    guard t.isAxisAligned, let (ix, fx) = snapTranslation(t.tx, steps: CoverageCache.steps),
      let (iy, fy) = snapTranslation(t.ty, steps: CoverageCache.steps)
    else {
      direct(image, part, minification, magnification, canvas)
      return
    }
    var at = t
    at.tx = Double(fx) / CoverageCache.steps
    at.ty = Double(fy) / CoverageCache.steps
    let device = at.apply(part.destination)
    let area = IntRect(enclosing: device)
    guard !area.isEmpty, area.width * area.height <= ImageCache.maxPixels else {
      direct(image, part, minification, magnification, canvas)
      return
    }
    let firstDevice = at.apply(first)
    let key = Key(
      image: image.id, source: part.source, device: device, minification: minification,
      magnification: magnification, tile: part.tile, firstTile: firstDevice.size)
    let pixels = table.value(for: key) { () -> (value: RasterImage, bytes: Int)? in
      guard
        let p = image.resampled(
          source: part.source,
          placement: RasterImage.placement(source: part.source, destination: first, transform: at),
          minification: minification, magnification: magnification, area: area, repeats: repeats)
      else { return nil }
      resamples.add(1, ordering: .relaxed)
      return (p, p.width * p.height * 4 + 64)
    }
    guard let pixels else { return }
    canvas.drawImagePixels(pixels, deviceX: area.x + ix, deviceY: area.y + iy, in: part.destination)
  }

  private func direct(
    _ image: RasterImage, _ part: ContentsPart, _ minification: ImageFilter, _ magnification: ImageFilter,
    _ canvas: Canvas
  ) {
    resamples.add(1, ordering: .relaxed)
    canvas.drawImage(
      image, source: part.source, in: part.destination, minification: minification,
      magnification: magnification, tile: part.tile)
  }

  /// Bytes of resampled images held.
  var bytes: Int { table.bytes }

  func endFrame() { table.endFrame() }
}
