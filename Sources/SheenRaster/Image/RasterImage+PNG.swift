import CPNG

// PNG files into images, through libpng's simplified API (errors come back as messages, nothing
// jumps over Swift frames). SCENE.md's reading: sRGB bytes with straight alpha, every colour
// type and bit depth, palettes with transparency, interlaced; gamma, chromaticities and ICC
// profiles are ignored (the chunks that carry them are left out before libpng sees the file, so
// that it converts nothing), and 16-bit samples are taken as sRGB.

extension RasterImage {
  /// The PNG signature.
  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Width and height from a PNG's header (its IHDR chunk), or nil when there is none.
  static func pngSize(_ bytes: UnsafeRawBufferPointer) -> (Int, Int)? {
    guard bytes.count >= 24, bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52
    else { return nil }
    func be32(_ i: Int) -> Int {
      Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
    }
    return (be32(16), be32(20))
  }

  /// The file without its colour-space chunks (gAMA, cHRM, sRGB, iCCP), so that libpng hands
  /// the samples over as they are. Anything it cannot walk is kept as it is, for libpng to refuse.
  static func pngWithoutColorSpace(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    out.append(contentsOf: bytes.prefix(8))
    var i = 8
    while i + 12 <= bytes.count {
      let length =
        Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
      guard length <= bytes.count - i - 12 else { break }
      let type = (bytes[i + 4], bytes[i + 5], bytes[i + 6], bytes[i + 7])
      let skip =
        type == (0x67, 0x41, 0x4D, 0x41)  // gAMA
        || type == (0x63, 0x48, 0x52, 0x4D)  // cHRM
        || type == (0x73, 0x52, 0x47, 0x42)  // sRGB
        || type == (0x69, 0x43, 0x43, 0x50)  // iCCP
      if !skip { out.append(contentsOf: bytes[i..<(i + 12 + length)]) }
      i += 12 + length
    }
    if i < bytes.count { out.append(contentsOf: bytes[i...]) }
    return out
  }

  /// Decodes a whole PNG file's bytes.
  static func decodePNG(_ bytes: UnsafeRawBufferPointer, _ maxPixels: Int) throws -> Surface {
    if let (w, h) = pngSize(bytes) { try checkSize(w, h, maxPixels) }
    var data = pngWithoutColorSpace(bytes)
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    defer { png_image_free(&image) }
    let begun = data.withUnsafeMutableBytes { raw in
      png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
    }
    if begun == 0 { throw RasterError.imageIO(pngMessage(&image, "not a valid PNG")) }
    let w = Int(image.width)
    let h = Int(image.height)
    try checkSize(w, h, maxPixels)
    let surface = try Surface(width: w, height: h)
    let sixteen = bytes.count > 24 && bytes[24] == 16
    if sixteen {
      try read16(&image, into: surface)
      return surface
    }
    image.format = UInt32(PNG_FORMAT_BGRA)
    let ok = data.withUnsafeMutableBytes { _ in
      png_image_finish_read(&image, nil, surface.base, Int32(surface.bytesPerRow), nil)
    }
    if ok == 0 { throw RasterError.imageIO(pngMessage(&image, "corrupt PNG data")) }
    premultiplyInPlace(surface)
    return surface
  }

  /// A 16-bit file, keeping the high byte of each sample (SCENE.md): libpng's own 8-bit output
  /// rounds (v / 257). Asked for 16-bit "linear" output of a file it takes as linear (16-bit,
  /// no colour-space chunk left), libpng converts nothing, but premultiplies where there is
  /// alpha: the straight value is recovered (exact for opaque pixels) before its high byte is
  /// taken.
  private static func read16(_ image: inout png_image, into surface: Surface) throws {
    let alpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
    image.format = UInt32(PNG_FORMAT_LINEAR_RGB) | (alpha ? UInt32(PNG_FORMAT_FLAG_ALPHA) : 0)
    let channels = alpha ? 4 : 3
    let w = surface.width
    let row16 = w * channels
    let buffer = UnsafeMutablePointer<UInt16>.allocate(capacity: row16 * surface.height)
    defer { buffer.deallocate() }
    if png_image_finish_read(&image, nil, buffer, Int32(row16), nil) == 0 {
      throw RasterError.imageIO(pngMessage(&image, "corrupt PNG data"))
    }
    for y in 0..<surface.height {
      let src = buffer + y * row16
      let dst = surface.row(y)
      for x in 0..<w {
        let p = src + x * channels
        var r = UInt32(p[0])
        var g = UInt32(p[1])
        var b = UInt32(p[2])
        let a = alpha ? UInt32(p[3]) : 65535
        if alpha && a != 65535 {
          if a == 0 {
            dst[x] = 0
            continue
          }
          r = min(65535, (r * 65535 + a / 2) / a)
          g = min(65535, (g * 65535 + a / 2) / a)
          b = min(65535, (b * 65535 + a / 2) / a)
        }
        dst[x] = Pixel.premultiplied(
          r: UInt8(r >> 8), g: UInt8(g >> 8), b: UInt8(b >> 8), a: UInt8(a >> 8))
      }
    }
  }

  /// libpng's message, or `fallback` when it gave none.
  private static func pngMessage(_ image: inout png_image, _ fallback: String) -> String {
    let m = withUnsafeBytes(of: &image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return m.isEmpty ? fallback : m
  }
}
