import Foundation

/// An image captured from the X server by `xwd`, parsed here (XWD version 7, ZPixmap, 32 bpp).
public struct XWDImage {
  public var width: Int
  public var height: Int
  /// Pixels in row order, as `0x00RRGGBB` (the depth-24 bits).
  public var pixels: [UInt32]

  public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

  public init(data: Data) throws {
    let bytes = [UInt8](data)
    guard bytes.count >= 100 else { throw TestFailure("XWD file too short") }
    func field(_ i: Int) -> Int {
      let o = i * 4
      return Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3])
    }
    let headerSize = field(0)
    let version = field(1)
    let format = field(2)
    width = field(4)
    height = field(5)
    let byteOrder = field(7)
    let bitsPerPixel = field(11)
    let bytesPerLine = field(12)
    let colors = field(19)
    guard version == 7, format == 2, bitsPerPixel == 32 else {
      throw TestFailure("unexpected XWD: version \(version), format \(format), \(bitsPerPixel) bpp")
    }
    let start = headerSize + colors * 12
    guard bytes.count >= start + bytesPerLine * height else { throw TestFailure("XWD file truncated") }
    var pixels = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        let o = start + y * bytesPerLine + x * 4
        let b = (UInt32(bytes[o]), UInt32(bytes[o + 1]), UInt32(bytes[o + 2]), UInt32(bytes[o + 3]))
        let v =
          byteOrder == 0 ? b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0 : b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3
        pixels[y * width + x] = v & 0xff_ffff
      }
    }
    self.pixels = pixels
  }

  /// Captures window `id` of `server` with `xwd -id`.
  public static func capture(window id: UInt, on server: Xvfb) throws -> XWDImage {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-\(getpid())-\(id).xwd")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try server.run("xwd", ["-silent", "-id", "0x" + String(id, radix: 16), "-out", path])
    return try XWDImage(data: Data(contentsOf: URL(fileURLWithPath: path)))
  }
}
