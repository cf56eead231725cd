import SheenRaster
import Synchronization

/// The coverage of layer shapes (backgrounds, borders, clips, shape and gradient layers, text) kept
/// from frame to frame, so that a shape which moved by whole pixels is not rasterized again.
///
/// An entry is keyed by what makes the shape: for rounded bounds and borders their size, radii
/// and border width (a list of equal cards shares one entry); for a layer's own shapes, the hash
/// of what makes them when the layer can say (`Layer.shapeSignature`: a text layer's string,
/// font and size, a shape layer's path and stroke style), so that a reused cell showing content
/// shown before, or two labels with the same text, find one entry; else the layer and its
/// content version (any change to the shape bumps it; versions are never reused, so neither is a
/// key of a layer that has gone); then the transform's linear part and where within a pixel the
/// shape falls, in 256ths of a pixel. It is recorded at that fraction and drawn moved by the
/// whole pixels. So what a frame shows depends only on the frame, never on which band or frame
/// recorded an entry, and a shape moves by at most 1/512 pixel (a fraction of a level of
/// coverage). Keys are a few words: hashing the paths themselves cost more than a third of what
/// replaying saved.
///
/// Bands of one frame may be rendered on several threads: the table is locked, and recording
/// happens outside the lock with the band's own rasterizer; bands that miss the same shape at
/// once record it once (`FrameCache.value(for:making:)`).
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
    /// A text layer's glyphs.
    case text
  }

  struct Key: Hashable {
    /// The layer and its content version, for shapes of its own (paths, strokes, text) without a
    /// signature; nil and zero for rounded bounds and borders, which are keyed by their geometry
    /// instead, and for shapes keyed by `signature`.
    let layer: ObjectIdentifier?
    let version: UInt64
    /// `Layer.shapeSignature` for the shapes of layers that have one, else zero.
    let signature: Int
    let shape: Shape
    /// The size, corner radii and border width of rounded bounds and borders (zero for other
    /// shapes): what their path is made from, so that every card of a list shares one entry.
    let size: Size
    let radii: CornerRadii
    let borderWidth: Double
    let a: Double, b: Double, c: Double, d: Double
    let fx: Int32, fy: Int32
  }

  private let table = FrameCache<Key, Coverage>(budget: 8 << 20, maxEntries: 8192)
  /// The bytes kept past which entries not drawn in the last two frames go.
  var budget: Int { table.budget }
  /// Shapes rasterized into the cache (each miss), since the last reset.
  let recordings = Atomic<Int>(0)
  static let steps = 256.0
  static let noRadii = CornerRadii(topLeft: 0, topRight: 0, bottomRight: 0, bottomLeft: 0)

  /// Fills `path`, the layer's `shape` (in the canvas' user space), with `paint`.
  func fill(
    _ path: Path, of id: ShapeID, _ shape: Shape, rule: FillRule = .nonZero, paint: Paint, in canvas: Canvas,
    skipping holes: [IntRect] = []
  ) {
    fill(of: id, shape, rule: rule, paint: paint, in: canvas, skipping: holes) { path }
  }

  /// Fills the layer's `shape` with `paint`; `path` makes the shape (in the canvas' user space)
  /// only when it is not cached, so that costly shapes (stroke outlines) need not be kept.
  func fill(
    of id: ShapeID, _ shape: Shape, rule: FillRule = .nonZero, paint: Paint, in canvas: Canvas,
    skipping holes: [IntRect] = [], path: () -> Path
  ) {
    let recorded = coverage(id, shape, canvas) { canvas.recordCoverage(path(), transform: $0, rule: rule) }
    guard let (coverage, dx, dy) = recorded else {
      canvas.fill(path(), paint: paint, rule: rule)
      return
    }
    canvas.fill(coverage, offsetX: dx, offsetY: dy, paint: paint, skipping: holes)
  }

  /// Fills the coverage that `record` makes of the layer's `shape` under a transform (the
  /// canvas' own, moved within a pixel) with `paint`; false, having drawn nothing, when `record`
  /// makes none.
  func fill(
    of id: ShapeID, _ shape: Shape, paint: Paint, in canvas: Canvas, record: (Transform) -> Coverage?
  ) -> Bool {
    guard let (coverage, dx, dy) = coverage(id, shape, canvas, record) else { return false }
    canvas.fill(coverage, offsetX: dx, offsetY: dy, paint: paint)
    return true
  }

  /// Intersects the canvas' clip with the inside of `path`, the layer's `shape`.
  func clip(_ canvas: Canvas, to path: Path, of id: ShapeID, _ shape: Shape) {
    // A rectangle on the pixel grid (or one waiting to be crossed) needs no coverage at all.
    if canvas.transform.isAxisAligned, path.axisAlignedRect != nil {
      canvas.clip(to: path)
      return
    }
    let recorded = coverage(id, shape, canvas) { canvas.recordCoverage(path, transform: $0) }
    guard let (coverage, dx, dy) = recorded else {
      canvas.clip(to: path)
      return
    }
    canvas.clip(to: coverage, offsetX: dx, offsetY: dy)
  }

  /// The coverage of the layer's `shape` under the canvas transform, and the whole pixels to
  /// move it by: recorded by `record` under the transform moved to within a pixel of the origin,
  /// unless kept. Nil when `record` makes none (a shape too large: it is then drawn directly).
  private func coverage(
    _ id: ShapeID, _ shape: Shape, _ canvas: Canvas, _ record: (Transform) -> Coverage?
  ) -> (Coverage, Int, Int)? {
    let t = canvas.transform
    guard let (ix, fx) = snapTranslation(t.tx, steps: CoverageCache.steps),
      let (iy, fy) = snapTranslation(t.ty, steps: CoverageCache.steps)
    else { return nil }
    let geometric = shape == .rounded || shape == .border
    let signature = geometric ? nil : id.signature
    let byLayer = !geometric && signature == nil
    let key = Key(
      layer: byLayer ? id.layer : nil, version: byLayer ? id.version : 0,
      signature: signature ?? 0, shape: shape, size: geometric ? id.size : Size.zero,
      radii: geometric ? id.radii : CoverageCache.noRadii,
      borderWidth: shape == .border ? id.borderWidth : 0,
      a: t.a, b: t.b, c: t.c, d: t.d, fx: Int32(fx), fy: Int32(fy))
    let kept = table.value(for: key) { () -> (value: Coverage, bytes: Int)? in
      var at = t
      at.tx = Double(key.fx) / CoverageCache.steps
      at.ty = Double(key.fy) / CoverageCache.steps
      guard let recorded = record(at) else { return nil }
      recordings.add(1, ordering: .relaxed)
      return (recorded, recorded.byteCount)
    }
    guard let kept else { return nil }
    return (kept, ix, iy)
  }

  /// Bytes of recordings held.
  var bytes: Int { table.bytes }

  /// Ends a frame: drops entries not used recently when over budget.
  func endFrame() { table.endFrame() }
}

extension CoverageCache.Key {
  /// The key's fields folded into one word before the hasher sees it: a fill of a small shape
  /// looks its key up once a band, and hashing fourteen fields cost several hundred instructions
  /// each time (200 tiles' backgrounds, icons and labels per strip). Equality still compares
  /// every field; equal keys fold alike (a zero of either sign counts as +0).
  func hash(into hasher: inout Hasher) {
    @inline(__always) func word(_ d: Double) -> UInt64 { (d + 0).bitPattern }
    var h: UInt64 = layer.map { UInt64(UInt(bitPattern: $0)) } ?? 0x5151
    @inline(__always) func fold(_ v: UInt64) {
      h = (h ^ v) &* 0x9E37_79B9_7F4A_7C15
      h ^= h >> 29
    }
    fold(version)
    fold(UInt64(UInt(bitPattern: signature)))
    fold(UInt64(shape.rawValue))
    fold(word(size.width))
    fold(word(size.height))
    fold(word(radii.topLeft))
    fold(word(radii.topRight))
    fold(word(radii.bottomRight))
    fold(word(radii.bottomLeft))
    fold(word(borderWidth))
    fold(word(a))
    fold(word(b))
    fold(word(c))
    fold(word(d))
    fold(UInt64(UInt32(bitPattern: fx)) | UInt64(UInt32(bitPattern: fy)) << 32)
    hasher.combine(h)
  }
}
