/// Errors creating or reading surfaces and images.
public enum RasterError: Error, Equatable, CustomStringConvertible {
  /// A surface or mask of this size cannot be made (zero, negative or absurd).
  case invalidSize(width: Int, height: Int)
  /// Reading or writing an image file failed.
  case imageIO(String)

  public var description: String {
    switch self {
    case .invalidSize(let w, let h):
      return "invalid surface size \(w)x\(h) (each side must be 1...\(Surface.maxDimension))"
    case .imageIO(let m): return m
    }
  }
}

/// A rectangle of premultiplied BGRA8 pixels: each pixel a `UInt32` `0xAARRGGBB`, which on a
/// little-endian machine is the byte order of an X11 24/32-bit ZPixmap, so a frame goes to the
/// window without conversion.
///
/// A surface owns its memory, or wraps memory it does not own (a shared-memory framebuffer); in
/// both cases pixels are reached through `withPixels`/`row(_:)`.
public final class Surface: @unchecked Sendable {
  /// The largest width or height accepted (larger is refused as absurd).
  public static let maxDimension = 32768
  /// The largest pixel count accepted: a 16384 x 16384 canvas (1 GiB of pixels), the largest a
  /// scene file may ask for.
  public static let maxPixels = 1 << 28

  public let width: Int
  public let height: Int
  /// The distance between rows, in pixels (`bytesPerRow / 4`).
  public let rowPixels: Int
  /// The first pixel of the first row.
  public let base: UnsafeMutablePointer<UInt32>
  private let owned: Bool

  /// The distance between rows, in bytes.
  @inlinable public var bytesPerRow: Int { rowPixels * 4 }

  /// The pixel bounds, `0, 0, width, height`.
  @inlinable public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

  /// Checks a requested size; throws `RasterError.invalidSize` when it is unusable.
  public static func validate(width: Int, height: Int) throws {
    guard width > 0, height > 0, width <= maxDimension, height <= maxDimension,
      width.multipliedReportingOverflow(by: height).partialValue <= maxPixels
    else { throw RasterError.invalidSize(width: width, height: height) }
  }

  /// A new surface cleared to transparent.
  /// - Throws: `RasterError.invalidSize` for zero, negative or absurd sizes.
  public init(width: Int, height: Int) throws {
    try Surface.validate(width: width, height: height)
    self.width = width
    self.height = height
    rowPixels = width
    base = .allocate(capacity: width * height)
    base.initialize(repeating: 0, count: width * height)
    owned = true
  }

  /// A surface over memory owned elsewhere (for example a shared-memory framebuffer). The memory
  /// must hold `height` rows of `bytesPerRow` bytes and outlive the surface.
  public init(wrapping pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) throws {
    try Surface.validate(width: width, height: height)
    guard bytesPerRow >= width * 4, bytesPerRow % 4 == 0 else {
      throw RasterError.invalidSize(width: width, height: height)
    }
    self.width = width
    self.height = height
    rowPixels = bytesPerRow / 4
    base = pixels.bindMemory(to: UInt32.self, capacity: rowPixels * height)
    owned = false
  }

  deinit {
    if owned { base.deallocate() }
  }

  /// The pixels of row `y` (no bounds check beyond a debug assertion).
  @inlinable public func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
    assert(y >= 0 && y < height)
    return base + y * rowPixels
  }

  /// Calls `body` with every row in turn as a buffer of `width` pixels.
  @inlinable public func forEachRow(_ body: (Int, UnsafeMutableBufferPointer<UInt32>) throws -> Void) rethrows
  {
    for y in 0..<height {
      try body(y, UnsafeMutableBufferPointer(start: base + y * rowPixels, count: width))
    }
  }

  /// The pixel at (x, y); 0 outside the surface.
  @inlinable public subscript(x: Int, y: Int) -> UInt32 {
    get {
      guard x >= 0, y >= 0, x < width, y < height else { return 0 }
      return base[y * rowPixels + x]
    }
    set {
      guard x >= 0, y >= 0, x < width, y < height else { return }
      base[y * rowPixels + x] = newValue
    }
  }

  /// Fills every pixel with one premultiplied value (a plain store, no blending).
  public func clear(_ pixel: UInt32 = 0) {
    clear(pixel, in: bounds)
  }

  /// Fills a pixel rectangle with one premultiplied value (clipped to the surface).
  public func clear(_ pixel: UInt32, in r: IntRect) {
    let c = r.intersection(bounds)
    if c.isEmpty { return }
    if c.x == 0, c.width == width, rowPixels == width {
      (base + c.y * rowPixels).update(repeating: pixel, count: c.width * c.height)
      return
    }
    for y in c.y..<c.maxY {
      (base + y * rowPixels + c.x).update(repeating: pixel, count: c.width)
    }
  }

  /// A copy with its own memory.
  public func copy() -> Surface {
    let s = try! Surface(width: width, height: height)
    for y in 0..<height {
      s.row(y).update(from: row(y), count: width)
    }
    return s
  }

  /// Every pixel in row order, `width * height` values (for tests and image output).
  public var pixels: [UInt32] {
    var out = [UInt32]()
    out.reserveCapacity(width * height)
    for y in 0..<height {
      out.append(contentsOf: UnsafeBufferPointer(start: row(y), count: width))
    }
    return out
  }
}
