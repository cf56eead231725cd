import Synchronization

/// A picture to draw: premultiplied BGRA8 pixels (as `Surface`), immutable once made, shared by
/// everything that shows it. Decoded files (`RasterImage(contentsOfFile:)`) and pictures drawn in
/// memory (a view's backing store) are both images: nothing here is tied to a file.
///
/// The mipmap chain that trilinear filtering reads is built once, the first time it is needed,
/// and kept with the image.
public final class RasterImage: @unchecked Sendable, CustomStringConvertible {
  /// The largest side, and the most pixels, of an image: SCENE.md's limits for decoded files.
  public static let maxSide = 16384
  public static let maxPixels = 1 << 28

  /// The pixels, premultiplied. Never drawn into once the image is made.
  public let surface: Surface
  public var width: Int { surface.width }
  public var height: Int { surface.height }
  /// Whether every pixel is opaque.
  public let isOpaque: Bool
  /// Unique among all images ever made in the process (caches key by it; object addresses are
  /// reused).
  public let id: UInt64
  private static let counter = Atomic<UInt64>(0)

  /// Levels 1... of the mipmap chain (level 0 is `surface`), built on first use.
  private let mips = Mutex<[Surface]?>(nil)

  /// An image of the pixels of `surface`, which must not be drawn into afterwards (make a new
  /// image for new pixels: caches key by the image).
  public init(surface: Surface) {
    self.surface = surface
    id = RasterImage.counter.wrappingAdd(1, ordering: .relaxed).newValue
    var opaque = true
    for y in 0..<surface.height where opaque {
      let r = surface.row(y)
      for x in 0..<surface.width where r[x] >> 24 != 255 {
        opaque = false
        break
      }
    }
    isOpaque = opaque
  }

  /// An image made by drawing: a transparent canvas of `width` × `height` pixels handed to
  /// `draw`.
  /// - Throws: `RasterError.invalidSize` for a size a surface cannot have.
  public convenience init(width: Int, height: Int, draw: (Canvas) throws -> Void) throws {
    let s = try Surface(width: width, height: height)
    try draw(Canvas(surface: s))
    self.init(surface: s)
  }

  /// Bytes of pixels held, mipmaps included.
  public var byteCount: Int {
    width * height * 4 + mips.withLock { m in (m ?? []).reduce(0) { $0 + $1.width * $1.height * 4 } }
  }

  public var description: String { "RasterImage(\(width)x\(height)\(isOpaque ? ", opaque" : ""))" }

  // MARK: Mipmaps

  /// The number of levels below the image itself: halving (rounded down, at least 1) until both
  /// sides are 1, as OpenGL and Skia count them.
  public var mipLevelCount: Int {
    let largest = max(width, height)
    return largest < 2 ? 0 : Int.bitWidth - largest.leadingZeroBitCount - 1
  }

  /// Mipmap level `level` (0 is the image itself, 1 half its size...), clamped to the chain.
  public func mipLevel(_ level: Int) -> Surface {
    if level <= 0 { return surface }
    let chain = mips.withLock { m -> [Surface] in
      if let m { return m }
      let built = buildMips()
      m = built
      return built
    }
    if chain.isEmpty { return surface }
    return chain[min(level, chain.count) - 1]
  }

  private func buildMips() -> [Surface] {
    var out: [Surface] = []
    var src = surface
    for _ in 0..<mipLevelCount {
      let next = RasterImage.halved(src)
      out.append(next)
      src = next
    }
    return out
  }

  /// One level down: each side halved (rounded down, at least 1). Two source pixels per output
  /// pixel along an even side (box), three along an odd one (weights 1, 2, 1), so that every
  /// source pixel counts and no level shifts against the one above (Skia's filters).
  static func halved(_ src: Surface) -> Surface {
    let w = max(1, src.width >> 1)
    let h = max(1, src.height >> 1)
    let dst = try! Surface(width: w, height: h)
    // Taps and weights along one axis for output index i: (first index, weights).
    func taps(_ n: Int) -> [(Int, UInt32)] {
      if n == 1 { return [(0, 4)] }  // a side of 1 stays
      if n & 1 == 0 { return [(0, 2), (1, 2)] }
      return [(0, 1), (1, 2), (2, 1)]
    }
    let tx = taps(src.width)
    let ty = taps(src.height)
    let sx = src.width == 1 ? 0 : 2
    let sy = src.height == 1 ? 0 : 2
    for y in 0..<h {
      let d = dst.row(y)
      for x in 0..<w {
        var rb: UInt64 = 0
        var ag: UInt64 = 0
        for (oy, wy) in ty {
          let r = src.row(min(src.height - 1, y * sy + oy))
          for (ox, wx) in tx {
            let p = UInt64(r[min(src.width - 1, x * sx + ox)])
            let k = UInt64(wx * wy)
            rb += (p & 0x00FF_00FF) * k
            ag += ((p >> 8) & 0x00FF_00FF) * k
          }
        }
        // The weights sum to 16: divide, truncating as Skia does.
        let rbv = (rb >> 4) & 0x00FF_00FF
        let agv = ((ag >> 4) & 0x00FF_00FF) << 8
        d[x] = UInt32(truncatingIfNeeded: rbv | agv)
      }
    }
    return dst
  }
}
