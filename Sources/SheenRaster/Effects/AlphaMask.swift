/// An 8-bit coverage (alpha) image placed at an integer offset in device space.
///
/// Masks hold rasterized shapes (clips, glyphs, shadows). Outside its rectangle a mask is 0.
public final class AlphaMask: @unchecked Sendable {
  /// Where the mask's pixel (0, 0) sits in device space.
  public var originX: Int
  public var originY: Int
  public let width: Int
  public let height: Int
  /// `width * height` bytes, row after row.
  public let base: UnsafeMutablePointer<UInt8>

  /// A mask cleared to 0.
  /// - Throws: `RasterError.invalidSize` for zero, negative or absurd sizes.
  public init(width: Int, height: Int, originX: Int = 0, originY: Int = 0) throws {
    try Surface.validate(width: width, height: height)
    self.width = width
    self.height = height
    self.originX = originX
    self.originY = originY
    base = .allocate(capacity: width * height)
    base.initialize(repeating: 0, count: width * height)
  }

  deinit { base.deallocate() }

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

  /// Sets every value to `v`.
  public func clear(_ v: UInt8 = 0) {
    base.update(repeating: v, count: width * height)
  }

  /// The sum of all values (for tests: a blur must conserve it).
  public var total: Int {
    var s = 0
    for i in 0..<(width * height) { s += Int(base[i]) }
    return s
  }
}
