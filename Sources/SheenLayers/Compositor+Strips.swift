import SheenRaster

// A band drawn a strip of rows at a time.
//
// A 1080p band on one thread is 8 MB of pixels: cleared first, then every shadow, background and
// glyph reads and writes it again, by which time the rows it touches have left the processor's
// caches (2 MB of L2 per core here), so each blend waits on memory (a tile's faint shadow ring
// spent most of its time loading the pixels under it). Drawn in strips of about 1 MB, a strip is
// cleared and drawn over while it stays in cache. A strip is a band of its own: the list is
// replayed clipped to its rows (nodes outside them are culled at their extent), so the pixels are
// those of any other split into bands (FrameRendererTests, BinningTests, StripTests).
extension Compositor {
  /// Runs `draw` once per strip of the canvas' clip (or once, for a clip of a few strips' rows or
  /// one that is not a rectangle), with the clip cut to the strip.
  @inline(__always) func inStrips(_ canvas: Canvas, _ draw: () -> Void) {
    let clip = canvas.clipBounds.intersection(canvas.surface.bounds)
    let count = Compositor.stripCount(rows: clip.height, width: clip.width, pixels: stripPixels)
    if count <= 1 || canvas.hasSoftClip {
      draw()
      return
    }
    var y = clip.y
    for k in 1...count {
      let next = clip.y + clip.height * k / count
      canvas.save()
      canvas.transform = .identity
      canvas.clip(to: Rect(IntRect(x: clip.x, y: y, width: clip.width, height: next - y)))
      draw()
      canvas.restore()
      y = next
    }
  }

  /// How many strips of at most `pixels` pixels (and at least 16 rows) a clip of `rows` rows of
  /// `width` pixels is drawn in (1: whole).
  static func stripCount(rows: Int, width: Int, pixels: Int) -> Int {
    guard pixels > 0, width > 0, rows > 0 else { return 1 }
    let per = max(16, pixels / width)
    return (rows + per - 1) / per
  }
}
