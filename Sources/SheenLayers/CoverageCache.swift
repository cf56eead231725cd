import SheenRaster
import Synchronization

/// The coverage of layer shapes (backgrounds, borders, clips, shape and gradient layers) kept
/// from frame to frame, so that a shape which moved by whole pixels is not rasterized again.
///
/// An entry is keyed by the layer and which of its shapes it is, the layer's content version
/// (any change to the shape bumps it; versions are never reused, so neither is a key of a layer
/// that has gone), the transform's linear part and where within a pixel the shape falls, in
/// 256ths of a pixel. It is recorded at that fraction and drawn moved by the whole pixels. So
/// what a frame shows depends only on the frame, never on which band or frame recorded an entry,
/// and a shape moves by at most 1/512 pixel (a fraction of a level of coverage). Keys are a few
/// words: hashing the paths themselves cost more than a third of what replaying saved.
///
/// Bands of one frame may be rendered on several threads: the table is locked, and recording
/// happens outside the lock with the band's own rasterizer.
final class CoverageCache: Sendable {
  /// Which of a layer's shapes.
  enum Shape: UInt8 {
    /// The rounded bounds: background, clip and gradient.
    case rounded
    case border
    /// A shape layer's path, filled.
    case path
    /// A shape layer's stroke outline.
    case stroke
  }

  struct Key: Hashable {
    let layer: ObjectIdentifier
    let version: UInt64
    let shape: Shape
    let a: Double, b: Double, c: Double, d: Double
    let fx: Int32, fy: Int32
  }

  private let table = FrameCache<Key, Coverage>(budget: 8 << 20, maxEntries: 8192)
  /// Shapes rasterized into the cache (each miss), since the last reset.
  let recordings = Atomic<Int>(0)
  static let steps = 256.0

  /// Fills `path`, the layer's `shape` (in the canvas' user space), with `paint`.
  func fill(
    _ path: Path, of layer: Layer, _ shape: Shape, rule: FillRule = .nonZero, paint: Paint, in canvas: Canvas
  ) {
    fill(of: layer, shape, rule: rule, paint: paint, in: canvas) { path }
  }

  /// Fills the layer's `shape` with `paint`; `path` makes the shape (in the canvas' user space)
  /// only when it is not cached, so that costly shapes (stroke outlines) need not be kept.
  func fill(
    of layer: Layer, _ shape: Shape, rule: FillRule = .nonZero, paint: Paint, in canvas: Canvas,
    path: () -> Path
  ) {
    guard let (coverage, dx, dy) = coverage(path, layer, shape, rule, canvas) else {
      canvas.fill(path(), paint: paint, rule: rule)
      return
    }
    canvas.fill(coverage, offsetX: dx, offsetY: dy, paint: paint)
  }

  /// Intersects the canvas' clip with the inside of `path`, the layer's `shape`.
  func clip(_ canvas: Canvas, to path: Path, of layer: Layer, _ shape: Shape) {
    // A rectangle on the pixel grid (or one waiting to be crossed) needs no coverage at all.
    if canvas.transform.isAxisAligned, path.axisAlignedRect != nil {
      canvas.clip(to: path)
      return
    }
    guard let (coverage, dx, dy) = coverage({ path }, layer, shape, .nonZero, canvas) else {
      canvas.clip(to: path)
      return
    }
    canvas.clip(to: coverage, offsetX: dx, offsetY: dy)
  }

  /// The recorded coverage of `path` under the canvas transform, and the whole pixels to move it
  /// by; nil for a shape too large to record (it is then drawn directly).
  private func coverage(
    _ path: () -> Path, _ layer: Layer, _ shape: Shape, _ rule: FillRule, _ canvas: Canvas
  ) -> (Coverage, Int, Int)? {
    let t = canvas.transform
    guard t.tx.isFinite, t.ty.isFinite, abs(t.tx) < 1e9, abs(t.ty) < 1e9 else { return nil }
    let (ix, fx) = snapTranslation(t.tx, steps: CoverageCache.steps)
    let (iy, fy) = snapTranslation(t.ty, steps: CoverageCache.steps)
    let key = Key(
      layer: ObjectIdentifier(layer), version: layer.contentVersion, shape: shape, a: t.a, b: t.b, c: t.c,
      d: t.d, fx: Int32(fx), fy: Int32(fy))
    if let hit = table.value(for: key) { return (hit, ix, iy) }
    var at = t
    at.tx = Double(key.fx) / CoverageCache.steps
    at.ty = Double(key.fy) / CoverageCache.steps
    guard let recorded = canvas.recordCoverage(path(), transform: at, rule: rule) else { return nil }
    recordings.add(1, ordering: .relaxed)
    table.store(recorded, bytes: recorded.byteCount, for: key)
    return (recorded, ix, iy)
  }

  /// Bytes of recordings held.
  var bytes: Int { table.bytes }

  /// Ends a frame: drops entries not used recently when over budget.
  func endFrame() { table.endFrame() }
}
