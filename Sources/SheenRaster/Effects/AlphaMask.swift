/// An 8-bit coverage (alpha) image placed at an integer offset in device space.
///
/// Masks hold rasterized shapes (clips, glyphs, shadows). Outside its rectangle a mask is 0.
///
/// Its geometry is read for every span drawn through it, so its stored properties opt out of
/// dynamic exclusivity checks (each a call into the runtime and a thread-local access set): a
/// mask is changed only by whoever owns it, never while it is drawn with.
public final class AlphaMask: @unchecked Sendable {
  /// Where the mask's pixel (0, 0) sits in device space.
  @exclusivity(unchecked) public var originX: Int
  @exclusivity(unchecked) public var originY: Int
  @exclusivity(unchecked) public private(set) var width: Int
  @exclusivity(unchecked) public private(set) var height: Int
  /// `width * height` bytes, row after row.
  public let base: UnsafeMutablePointer<UInt8>
  /// How many bytes `base` holds (at least `width * height`).
  public let capacity: Int

  /// A mask cleared to 0, holding storage for at least `reserving` values and `reservingRows`
  /// rows (so that `reshape` can make it larger without allocating).
  /// - Throws: `RasterError.invalidSize` for zero, negative or absurd sizes.
  public init(
    width: Int, height: Int, originX: Int = 0, originY: Int = 0, reserving: Int = 0, reservingRows: Int = 0
  ) throws {
    try Surface.validate(width: width, height: height)
    self.width = width
    self.height = height
    self.originX = originX
    self.originY = originY
    capacity = max(width * height, reserving)
    base = .allocate(capacity: capacity)
    base.initialize(repeating: 0, count: capacity)
    runsCapacity = max(height, reservingRows)
    runs = .allocate(capacity: runsCapacity)
    runs.initialize(repeating: .zero, count: runsCapacity)
  }

  deinit {
    base.deallocate()
    runs.deallocate()
  }

  /// Gives the mask new dimensions within its capacity (for reuse), cleared to 0.
  public func reshape(width w: Int, height h: Int, originX x: Int, originY y: Int) {
    precondition(w > 0 && h > 0 && w * h <= capacity, "reshape beyond the mask's capacity")
    width = w
    height = h
    originX = x
    originY = y
    base.update(repeating: 0, count: w * h)
    if h > runsCapacity {
      // Twice what is asked: a pooled mask reshaped ever taller grows its rows seldom.
      runs.deallocate()
      runsCapacity = min(2 * h, capacity)
      runs = .allocate(capacity: runsCapacity)
    }
    runs.initialize(repeating: .zero, count: h)
  }

  /// Per row, a run of columns `[start, end)` known to hold 255 (empty when unknown), so that
  /// clipping through the mask can treat that run as no clip at all. Kept by whoever fills the
  /// mask; `findSolidRuns()` recomputes it from the values. Raw storage: it is read for every
  /// span drawn through a clip.
  @exclusivity(unchecked) private var runs: UnsafeMutablePointer<SIMD2<Int32>>
  @exclusivity(unchecked) private var runsCapacity: Int

  /// The known fully covered run of row `y` (mask coordinates), or an empty range.
  public func solidRun(_ y: Int) -> Range<Int> { view.solidRun(y) }

  /// Forgets every row's solid run.
  public func clearSolidRuns() {
    runs.update(repeating: .zero, count: height)
  }

  /// Records `[start, end)` as row `y`'s solid run when it is longer than the known one.
  @inline(__always) func noteSolidRun(_ y: Int, _ start: Int, _ end: Int) {
    let r = runs[y]
    if end - start > Int(r.y - r.x) { runs[y] = SIMD2(Int32(start), Int32(end)) }
  }

  /// The mask's geometry and storage as plain values, for the span loops: reading it costs no
  /// retain, release or exclusivity check. Valid while the mask lives and is not reshaped.
  var view: MaskView {
    MaskView(base: base, runs: runs, width: width, height: height, originX: originX, originY: originY)
  }

  /// Sets every row's solid run to its longest run of 255.
  public func findSolidRuns() {
    for y in 0..<height {
      let row = self.row(y)
      var best = (0, 0)
      var x = 0
      while x < width {
        if row[x] != 255 {
          x += 1
          continue
        }
        let start = x
        while x < width && row[x] == 255 { x += 1 }
        if x - start > best.1 - best.0 { best = (start, x) }
      }
      runs[y] = SIMD2(Int32(best.0), Int32(best.1))
    }
  }

  /// The device-space pixel rectangle the mask covers.
  @inlinable public var deviceBounds: IntRect {
    IntRect(x: originX, y: originY, width: width, height: height)
  }

  /// The bytes of row `y` (in mask coordinates).
  @inlinable public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
    assert(y >= 0 && y < height)
    return base + y * width
  }

  /// The value at mask coordinates (x, y); 0 outside.
  @inlinable public subscript(x: Int, y: Int) -> UInt8 {
    get {
      guard x >= 0, y >= 0, x < width, y < height else { return 0 }
      return base[y * width + x]
    }
    set {
      guard x >= 0, y >= 0, x < width, y < height else { return }
      base[y * width + x] = newValue
    }
  }

  /// Adds the coverage of `other`, moved by (`dx`, `dy`) device pixels, as a union
  /// (`c = a + b - a b / 255`, what drawing one after the other in one colour covers); what falls
  /// outside this mask is dropped.
  public func add(_ other: AlphaMask, dx: Int, dy: Int) {
    let placed = IntRect(
      x: other.originX + dx, y: other.originY + dy, width: other.width, height: other.height)
    let r = placed.intersection(deviceBounds)
    if r.isEmpty { return }
    for y in r.y..<r.maxY {
      let src = other.row(y - placed.y) + (r.x - placed.x)
      let dst = row(y - originY) + (r.x - originX)
      for i in 0..<r.width {
        let a = UInt32(dst[i])
        let b = UInt32(src[i])
        dst[i] = UInt8(a + b - Pixel.div255(a * b))
      }
    }
  }

  /// Sets every value to `v`.
  public func clear(_ v: UInt8 = 0) {
    base.update(repeating: v, count: width * height)
  }

  /// Sets the values inside `r` (device pixels) to 0.
  public func clear(_ r: IntRect) {
    let c = r.intersection(deviceBounds)
    if c.isEmpty { return }
    for y in c.y..<c.maxY { (row(y - originY) + (c.x - originX)).update(repeating: 0, count: c.width) }
  }

  /// The sum of all values (for tests: a blur must conserve it).
  public var total: Int {
    var s = 0
    for i in 0..<(width * height) { s += Int(base[i]) }
    return s
  }
}

extension Surface {
  /// Multiplies every pixel (all four premultiplied channels) by the mask's value at that device
  /// position; outside the mask the surface becomes transparent.
  public func multiplyAlpha(by mask: AlphaMask) {
    let inside = bounds.intersection(mask.deviceBounds)
    for y in 0..<height {
      let row = self.row(y)
      guard y >= inside.y, y < inside.maxY, !inside.isEmpty else {
        row.update(repeating: 0, count: width)
        continue
      }
      if inside.x > 0 { row.update(repeating: 0, count: inside.x) }
      if inside.maxX < width { (row + inside.maxX).update(repeating: 0, count: width - inside.maxX) }
      let m = mask.row(y - mask.originY) + (inside.x - mask.originX)
      for x in 0..<inside.width {
        let k = UInt32(m[x])
        if k != 255 { row[inside.x + x] = Pixel.scale(row[inside.x + x], by: k) }
      }
    }
  }
}

/// A borrowed view of an `AlphaMask` (see `AlphaMask.view`).
struct MaskView {
  let base: UnsafeMutablePointer<UInt8>
  let runs: UnsafeMutablePointer<SIMD2<Int32>>
  let width: Int
  let height: Int
  let originX: Int
  let originY: Int

  /// The bytes of row `y` (mask coordinates).
  @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * width }

  /// The known fully covered run of row `y` (mask coordinates), or an empty range.
  @inline(__always) func solidRun(_ y: Int) -> Range<Int> {
    guard y >= 0, y < height else { return 0..<0 }
    let r = runs[y]
    return Int(r.x)..<Int(max(r.x, r.y))
  }
}
