import CJPEG

// Surfaces into JPEG files through libjpeg-turbo's TurboJPEG compressor (the library that
// already decodes them). JPEG has no alpha channel: the premultiplied colour channels are
// encoded as they are, so transparent parts come out black (a picture composited over black),
// as UIKit's `jpegData(compressionQuality:)` gives them.

extension Surface {
  /// The JPEG quality (1...100) for UIKit's compression quality (0...1): 0 is the smallest
  /// file, 1 the best picture. Below 0 counts as 0, above 1 as 1; NaN as UIKit's usual 0.75.
  public static func jpegQuality(compression q: Double) -> Int {
    let v = q.isNaN ? 0.75 : min(max(q, 0), 1)
    return max(1, min(100, Int((v * 100).rounded())))
  }

  /// The surface encoded as a baseline JFIF file: 8-bit YCbCr, chroma subsampled 4:2:0 below
  /// quality 90 and kept whole (4:4:4) from 90 up, colour channels taken as they are
  /// (transparent pixels black).
  /// - Parameter quality: 1...100 (clamped), libjpeg's scale.
  /// - Throws: `RasterError.imageIO` with libjpeg-turbo's reason.
  public func jpegData(quality: Int) throws -> [UInt8] {
    guard let handle = tjInitCompress() else { throw RasterError.imageIO("cannot start the JPEG encoder") }
    defer { tjDestroy(handle) }
    let q = Int32(min(max(quality, 1), 100))
    let subsampling = q >= 90 ? TJSAMP_444 : TJSAMP_420
    var out: UnsafeMutablePointer<UInt8>? = nil
    var size: UInt = 0
    defer { if out != nil { tjFree(out) } }
    let status = base.withMemoryRebound(to: UInt8.self, capacity: rowPixels * height * 4) { pixels in
      tjCompress2(
        handle, pixels, Int32(width), Int32(bytesPerRow), Int32(height), TJPF_BGRX.rawValue, &out, &size,
        Int32(subsampling.rawValue), q, 0)
    }
    guard status == 0, let out else {
      throw RasterError.imageIO("cannot encode JPEG: \(String(cString: tjGetErrorStr2(handle)))")
    }
    return Array(UnsafeBufferPointer(start: out, count: Int(size)))
  }
}
