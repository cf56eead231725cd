import CPNG
import Glibc

// PNG files through libpng's simplified API (`png_image`).
//
// libpng's classic API reports errors by `longjmp`, which must never cross Swift frames. The
// simplified API catches its own errors inside libpng and returns 0 with a message in
// `png_image.message`, so nothing jumps over Swift code.
//
// Surfaces are premultiplied and PNG stores straight alpha: pixels are unpremultiplied on the
// way out (into a temporary copy) and premultiplied on the way in, both rounding to nearest, so
// every valid premultiplied pixel (no channel above alpha) survives a round trip exactly.
// Colour values are taken as sRGB both ways, untouched.

extension Surface {
  /// Writes the surface as an 8-bit RGBA PNG file, safely (see `writeFileSafely`): into a
  /// temporary file beside `path`, renamed over it only once complete, so that a failure or a
  /// signal mid-write leaves what was at `path` as it was; a symbolic link keeps pointing where
  /// it did; a device or a pipe is written in place.
  /// - Throws: `RasterError.imageIO` naming the file and the reason.
  public func writePNG(to path: String) throws {
    try writeFileSafely(path) { file in try encodePNG(to: file, name: "'\(path)'") }
  }

  /// Writes the surface as an 8-bit RGBA PNG to an open file descriptor (standard output, for
  /// `-o -`), which stays open.
  /// - Throws: `RasterError.imageIO` with the reason.
  public func writePNG(toDescriptor fd: Int32) throws {
    let copy = dup(fd)
    guard copy >= 0, let file = fdopen(copy, "wb") else {
      throw RasterError.imageIO("cannot write PNG: \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    try encodePNG(to: file, name: "to descriptor \(fd)")
    guard fflush(file) == 0, ferror(file) == 0 else {
      throw RasterError.imageIO("cannot write PNG: \(String(cString: strerror(errno)))")
    }
  }

  private func encodePNG(to file: UnsafeMutablePointer<FILE>, name: String) throws {
    var image = pngImage(width: width, height: height, format: UInt32(PNG_FORMAT_BGRA))
    let ok = withStraightPixels { pixels, stride in
      png_image_write_to_stdio(&image, file, 0, pixels, stride, nil)
    }
    if ok == 0 { throw pngError("cannot write PNG \(name)", &image) }
  }

  /// The surface encoded as an 8-bit RGBA PNG file.
  /// - Throws: `RasterError.imageIO` with libpng's reason.
  public func pngData() throws -> [UInt8] {
    var image = pngImage(width: width, height: height, format: UInt32(PNG_FORMAT_BGRA))
    return try withStraightPixels { pixels, stride in
      // A first call without memory measures; the second writes.
      var size = 0
      if png_image_write_to_memory(&image, nil, &size, 0, pixels, stride, nil) == 0 {
        throw pngError("cannot encode PNG", &image)
      }
      var data = [UInt8](repeating: 0, count: size)
      let ok = data.withUnsafeMutableBytes { out in
        png_image_write_to_memory(&image, out.baseAddress, &size, 0, pixels, stride, nil)
      }
      if ok == 0 { throw pngError("cannot encode PNG", &image) }
      data.removeLast(data.count - size)
      return data
    }
  }

  /// Reads a PNG file of any colour type and depth into a new premultiplied surface.
  /// - Throws: `RasterError.imageIO` naming the file and libpng's reason (missing, not a PNG,
  ///   corrupt, too large).
  public convenience init(contentsOfPNG path: String) throws {
    var image = pngImage(width: 0, height: 0, format: 0)
    defer { png_image_free(&image) }
    if png_image_begin_read_from_file(&image, path) == 0 {
      throw pngError("cannot read PNG '\(path)'", &image)
    }
    try self.init(decoding: &image, source: "'\(path)'")
  }

  /// Decodes PNG bytes into a new premultiplied surface.
  /// - Throws: `RasterError.imageIO` with libpng's reason.
  public convenience init(pngData: [UInt8]) throws {
    // libpng reads the bytes until the image is finished: keep a copy whose address is stable.
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(1, pngData.count), alignment: 1)
    defer { bytes.deallocate() }
    bytes.copyMemory(from: pngData, byteCount: pngData.count)
    var image = pngImage(width: 0, height: 0, format: 0)
    defer { png_image_free(&image) }
    if png_image_begin_read_from_memory(&image, bytes, pngData.count) == 0 {
      throw pngError("cannot read PNG data", &image)
    }
    try self.init(decoding: &image, source: "data")
  }

  /// Finishes reading a PNG whose header `image` holds, into a new surface.
  private convenience init(decoding image: inout png_image, source: String) throws {
    let w = Int(image.width)
    let h = Int(image.height)
    do {
      try self.init(width: w, height: h)
    } catch {
      throw RasterError.imageIO("cannot read PNG \(source): \(w)x\(h) is too large")
    }
    image.format = UInt32(PNG_FORMAT_BGRA)
    if png_image_finish_read(&image, nil, base, Int32(bytesPerRow), nil) == 0 {
      throw pngError("cannot read PNG \(source)", &image)
    }
    // Bytes B, G, R, A in memory are 0xAARRGGBB read little-endian; premultiply in place.
    for y in 0..<height {
      let p = row(y)
      for x in 0..<width {
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

  /// Calls `body` with a straight-alpha BGRA copy of the pixels and its row stride in bytes.
  private func withStraightPixels<R>(_ body: (UnsafeRawPointer, Int32) throws -> R) rethrows -> R {
    let straight = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
    defer { straight.deallocate() }
    for y in 0..<height {
      let src = row(y)
      let dst = straight + y * width
      for x in 0..<width {
        let p = src[x]
        let a = p >> 24
        var v = p
        if a == 0 {
          v = 0
        } else if a != 255 {
          let (r, g, b, _) = Pixel.unpremultiplied(p)
          v = a << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
        // Bytes B, G, R, A whatever the machine's byte order.
        (dst + x).initialize(to: v.littleEndian)
      }
    }
    return try body(UnsafeRawPointer(straight), Int32(width * 4))
  }
}

extension AlphaMask {
  /// Writes the mask as an 8-bit greyscale PNG file (0 black, 255 white), for debugging.
  /// - Throws: `RasterError.imageIO` naming the file and libpng's reason.
  public func writePNG(to path: String) throws {
    try writeFileSafely(path) { file in
      var image = pngImage(width: width, height: height, format: UInt32(PNG_FORMAT_GRAY))
      if png_image_write_to_stdio(&image, file, 0, base, Int32(width), nil) == 0 {
        throw pngError("cannot write PNG '\(path)'", &image)
      }
    }
  }
}

/// A `png_image` set up for libpng: zeroed, with the API version and the given description.
private func pngImage(width: Int, height: Int, format: UInt32) -> png_image {
  var image = png_image()
  image.version = UInt32(PNG_IMAGE_VERSION)
  image.width = UInt32(width)
  image.height = UInt32(height)
  image.format = format
  return image
}

/// An `imageIO` error: `context`, then libpng's message.
private func pngError(_ context: String, _ image: inout png_image) -> RasterError {
  let reason = withUnsafeBytes(of: &image.message) { raw in
    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
  }
  png_image_free(&image)
  return .imageIO(reason.isEmpty ? context : "\(context): \(reason)")
}
