#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Image files: PNG and JPEG bytes, told apart by their first bytes, decoded once into
// premultiplied pixels.

extension RasterImage {
  /// Decodes a PNG or JPEG file's bytes.
  /// - Throws: `RasterError.imageIO` with the reason: not a PNG or JPEG, corrupt or truncated
  ///   data, or more than `maxSide` pixels on a side or `maxPixels` in all.
  ///
  /// - Parameter maxPixels: the most pixels accepted (at most `RasterImage.maxPixels`): a fuzzer
  ///   or a thumbnailer may ask for less.
  public convenience init(decoding bytes: [UInt8], maxPixels: Int = RasterImage.maxPixels) throws {
    let limit = min(maxPixels, RasterImage.maxPixels)
    let surface = try bytes.withUnsafeBytes { raw in try RasterImage.decodeSurface(raw, maxPixels: limit) }
    self.init(surface: surface)
  }

  /// Reads and decodes a PNG or JPEG file.
  /// - Throws: `RasterError.imageIO` naming nothing but the reason (the caller knows the path):
  ///   the system's reason it cannot be read, "is a folder", or a decoding reason.
  public convenience init(contentsOfFile path: String) throws {
    try self.init(decoding: try RasterImage.readFile(path))
  }

  static func decodeSurface(_ raw: UnsafeRawBufferPointer, maxPixels: Int) throws -> Surface {
    if raw.count >= 8 && raw.prefix(8).elementsEqual(pngSignature) { return try decodePNG(raw, maxPixels) }
    if raw.count >= 3 && raw[0] == 0xFF && raw[1] == 0xD8 && raw[2] == 0xFF {
      return try decodeJPEG(raw, maxPixels)
    }
    throw RasterError.imageIO("not a PNG or JPEG")
  }

  /// Refuses sizes over SCENE.md's limits.
  static func checkSize(_ w: Int, _ h: Int, _ maxPixels: Int) throws {
    if w > maxSide || h > maxSide {
      throw RasterError.imageIO("image of \(w)x\(h) pixels exceeds \(maxSide) on a side")
    }
    if w.multipliedReportingOverflow(by: h).partialValue > maxPixels {
      throw RasterError.imageIO("image of \(w)x\(h) pixels exceeds \(maxPixels) pixels")
    }
    if w <= 0 || h <= 0 { throw RasterError.imageIO("image of \(w)x\(h) pixels is empty") }
  }

  /// Premultiplies straight-alpha BGRA pixels in place.
  static func premultiplyInPlace(_ s: Surface) {
    for y in 0..<s.height {
      let p = s.row(y)
      for x in 0..<s.width {
        let v = UInt32(littleEndian: p[x])
        let a = v >> 24
        if a == 255 {
          p[x] = v
        } else if a == 0 {
          p[x] = 0
        } else {
          p[x] = Pixel.premultiplied(
            r: UInt8(truncatingIfNeeded: v >> 16), g: UInt8(truncatingIfNeeded: v >> 8),
            b: UInt8(truncatingIfNeeded: v), a: UInt8(a))
        }
      }
    }
  }

  /// The whole contents of a regular file (refusing folders and files over 1 GiB).
  static func readFile(_ path: String) throws -> [UInt8] {
    var st = stat()
    guard stat(path, &st) == 0 else { throw RasterError.imageIO(String(cString: strerror(errno))) }
    if (st.st_mode & S_IFMT) == S_IFDIR { throw RasterError.imageIO("is a folder") }
    guard (st.st_mode & S_IFMT) == S_IFREG else { throw RasterError.imageIO("not a regular file") }
    guard st.st_size <= 1 << 30 else { throw RasterError.imageIO("file over 1 GiB") }
    guard let f = fopen(path, "rb") else { throw RasterError.imageIO(String(cString: strerror(errno))) }
    defer { fclose(f) }
    var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
    let n = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
    if n < bytes.count {
      if ferror(f) != 0 { throw RasterError.imageIO(String(cString: strerror(errno))) }
      bytes.removeLast(bytes.count - n)
    }
    return bytes
  }
}
