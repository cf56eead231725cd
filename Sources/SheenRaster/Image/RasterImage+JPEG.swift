import CJPEG

// JPEG files into images, through libjpeg-turbo's TurboJPEG API: baseline and progressive,
// greyscale, YCbCr and CMYK (Adobe's inverted CMYK too), with the EXIF orientation applied.
// A file cut short is refused (libjpeg would fill the rest with grey and call it a warning);
// other warnings (stray bytes between markers) are let through, as viewers do.

extension RasterImage {
  static func decodeJPEG(_ bytes: UnsafeRawBufferPointer, _ maxPixels: Int) throws -> Surface {
    guard let handle = tjInitDecompress() else { throw RasterError.imageIO("cannot start the JPEG decoder") }
    defer { tjDestroy(handle) }
    let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var w: Int32 = 0
    var h: Int32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    if tjDecompressHeader3(handle, base, UInt(bytes.count), &w, &h, &subsampling, &colorspace) != 0 {
      throw RasterError.imageIO("not a valid JPEG: \(String(cString: tjGetErrorStr2(handle)))")
    }
    try checkSize(Int(w), Int(h), maxPixels)
    let markers = JPEGMarkers(bytes)
    let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
    let surface = try Surface(width: Int(w), height: Int(h))
    let format = cmyk ? TJPF_CMYK : TJPF_BGRA
    let flags = TJFLAG_LIMITSCANS
    let status = surface.base.withMemoryRebound(to: UInt8.self, capacity: surface.width * surface.height * 4)
    {
      tjDecompress2(
        handle, base, UInt(bytes.count), $0, w, Int32(surface.bytesPerRow), h, format.rawValue, flags)
    }
    if status != 0 {
      let message = String(cString: tjGetErrorStr2(handle))
      let fatal = tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue)
      if fatal || message.contains("Premature end") {
        throw RasterError.imageIO(fatal ? "corrupt JPEG data: \(message)" : "truncated JPEG data: \(message)")
      }
    }
    if cmyk { cmykToRGB(surface, inverted: markers.adobe) }
    return oriented(surface, markers.orientation)
  }

  /// CMYK (in the pixels' four bytes, C first) to opaque RGB, as Pillow converts: each of red,
  /// green and blue is (255 - C) (255 - K) / 255 with C the matching ink. Adobe's files store
  /// the inks inverted.
  private static func cmykToRGB(_ s: Surface, inverted: Bool) {
    for y in 0..<s.height {
      let row = s.row(y)
      for x in 0..<s.width {
        let v = UInt32(littleEndian: row[x])
        var c = v & 0xFF
        var m = (v >> 8) & 0xFF
        var ye = (v >> 16) & 0xFF
        var k = v >> 24
        if !inverted {
          c = 255 - c
          m = 255 - m
          ye = 255 - ye
          k = 255 - k
        }
        let r = Pixel.div255(c * k)
        let g = Pixel.div255(m * k)
        let b = Pixel.div255(ye * k)
        row[x] = 0xFF00_0000 | r << 16 | g << 8 | b
      }
    }
  }

  /// The picture turned upright by an EXIF orientation (1...8); itself for 1 or anything else.
  static func oriented(_ s: Surface, _ orientation: Int) -> Surface {
    guard (2...8).contains(orientation) else { return s }
    let w = s.width
    let h = s.height
    let swaps = orientation >= 5
    let out = try! Surface(width: swaps ? h : w, height: swaps ? w : h)
    for y in 0..<out.height {
      let d = out.row(y)
      for x in 0..<out.width {
        let (sx, sy): (Int, Int)
        switch orientation {
        case 2: (sx, sy) = (w - 1 - x, y)
        case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
        case 4: (sx, sy) = (x, h - 1 - y)
        case 5: (sx, sy) = (y, x)
        case 6: (sx, sy) = (y, h - 1 - x)
        case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
        default: (sx, sy) = (w - 1 - y, x)
        }
        d[x] = s.base[sy * s.rowPixels + sx]
      }
    }
    return out
  }
}

/// What the markers before a JPEG's image data say: the EXIF orientation, and whether an Adobe
/// segment is there (CMYK stored inverted). Every read is bounds-checked; anything malformed
/// reads as "nothing said".
struct JPEGMarkers {
  var orientation = 1
  var adobe = false

  init(_ b: UnsafeRawBufferPointer) {
    var i = 2
    while i + 4 <= b.count, b[i] == 0xFF {
      let marker = b[i + 1]
      if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 || marker == 0xFF {
        i += marker == 0xFF ? 1 : 2
        continue
      }
      if marker == 0xDA || marker == 0xD9 { return }  // image data or the end
      let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
      guard length >= 2, i + 2 + length <= b.count else { return }
      let start = i + 4
      let end = i + 2 + length
      if marker == 0xE1, end - start >= 14, b[start] == 0x45, b[start + 1] == 0x78, b[start + 2] == 0x69,
        b[start + 3] == 0x66, b[start + 4] == 0, b[start + 5] == 0
      {
        if let o = JPEGMarkers.exifOrientation(b, tiff: start + 6, end: end) { orientation = o }
      }
      if marker == 0xEE, end - start >= 5, b[start] == 0x41, b[start + 1] == 0x64, b[start + 2] == 0x6F,
        b[start + 3] == 0x62, b[start + 4] == 0x65
      {
        adobe = true
      }
      i = end
    }
  }

  /// Tag 0x0112 of IFD0 of the TIFF structure at `tiff` (up to `end`).
  static func exifOrientation(_ b: UnsafeRawBufferPointer, tiff: Int, end: Int) -> Int? {
    guard end - tiff >= 8 else { return nil }
    let little: Bool
    if b[tiff] == 0x49 && b[tiff + 1] == 0x49 {
      little = true
    } else if b[tiff] == 0x4D && b[tiff + 1] == 0x4D {
      little = false
    } else {
      return nil
    }
    func u16(_ at: Int) -> Int? {
      guard at >= tiff, at + 2 <= end else { return nil }
      return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
    }
    func u32(_ at: Int) -> Int? {
      guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
      return hi << 16 | lo
    }
    guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4), ifd < end - tiff, let count = u16(tiff + ifd) else {
      return nil
    }
    for k in 0..<count {
      let e = tiff + ifd + 2 + 12 * k
      guard let tag = u16(e) else { return nil }
      if tag == 0x0112 {
        guard u16(e + 2) == 3, let v = u16(e + 8) else { return nil }
        return v
      }
    }
    return nil
  }
}
