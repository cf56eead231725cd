import Foundation
import SheenRaster

extension UIImage {
  /// An image with no pixels (what a renderer of unusable size gives).
  static func empty() -> UIImage { UIImage(cgImage: nil, scale: 1, capInsets: .zero, resizingMode: .stretch) }

  /// The image as a PNG file (straight alpha, 8 bits per channel); nil for an empty image.
  public func pngData() -> Data? {
    guard let s = cgImage?.surface, let bytes = try? s.pngData() else { return nil }
    return Data(bytes)
  }

  /// The image as a JPEG file (baseline JFIF, 8-bit YCbCr); nil for an empty image. JPEG has no
  /// alpha: transparent parts come out black, as on iOS. `compressionQuality` runs from 0
  /// (smallest) to 1 (best), clamped; NaN counts as 0.75. Below 0.9 chroma is subsampled 4:2:0.
  public func jpegData(compressionQuality: CGFloat) -> Data? {
    let q = Surface.jpegQuality(compression: Double(compressionQuality))
    guard let s = cgImage?.surface, let bytes = try? s.jpegData(quality: q) else { return nil }
    return Data(bytes)
  }

  /// Draws the image upright with its top-left corner at `point` (points), at its size, in the
  /// current context.
  public func draw(at point: CGPoint) { draw(in: CGRect(origin: point, size: size)) }

  /// Draws the image upright, stretched over `rect`, in the current context.
  public func draw(in rect: CGRect) { draw(in: rect, blendMode: .normal, alpha: 1) }

  public func draw(in rect: CGRect, blendMode: CGBlendMode, alpha: CGFloat) {
    guard let c = UIGraphicsGetCurrentContext(), let s = cgImage?.surface else { return }
    c.drawUpright(s, in: rect.sheen, alpha: Double(alpha), blend: blendMode.sheen)
  }
}

/// How a renderer's bitmaps are made (UIKit's `UIGraphicsImageRendererFormat`).
public final class UIGraphicsImageRendererFormat: @unchecked Sendable {
  /// Pixels per point. The default is 1 (Sheen has no main screen; a window's scale is its own).
  /// Zero, negative, infinite or NaN draw at 1 (UIKit's 0 is the main screen's scale).
  public var scale: CGFloat = 1

  /// `scale`, or 1 when it is not a usable scale.
  var pixelsPerPoint: CGFloat { scale.isFinite && scale > 0 ? scale : 1 }
  /// Whether the bitmap starts opaque black instead of transparent (UIKit's `opaque`).
  public var opaque = false
  /// Stored; Sheen draws 8-bit sRGB.
  public var preferredRange = Range.standard

  public enum Range: Int, Sendable { case unspecified = -1, automatic, extended, standard }

  public init() {}
  public static func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
  public static func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// What a renderer's drawing block receives (UIKit's `UIGraphicsImageRendererContext`).
public final class UIGraphicsImageRendererContext {
  public let cgContext: CGContext
  public let format: UIGraphicsImageRendererFormat

  init(cgContext: CGContext, format: UIGraphicsImageRendererFormat) {
    self.cgContext = cgContext
    self.format = format
  }

  /// What has been drawn so far.
  public var currentImage: UIImage {
    guard let i = cgContext.makeImage(), cgContext.hasPixels else { return .empty() }
    return UIImage(cgImage: i, scale: format.pixelsPerPoint)
  }

  public func fill(_ rect: CGRect) { cgContext.fill(rect) }
  public func fill(_ rect: CGRect, blendMode: CGBlendMode) {
    cgContext.saveGState()
    cgContext.setBlendMode(blendMode)
    cgContext.fill(rect)
    cgContext.restoreGState()
  }
  public func stroke(_ rect: CGRect) { cgContext.stroke(rect, width: 1) }
  public func stroke(_ rect: CGRect, blendMode: CGBlendMode) {
    cgContext.saveGState()
    cgContext.setBlendMode(blendMode)
    cgContext.stroke(rect, width: 1)
    cgContext.restoreGState()
  }
  public func clip(to rect: CGRect) { cgContext.clip(to: rect) }
}

/// Draws into bitmaps of one size (UIKit's `UIGraphicsImageRenderer`): `image(actions:)` runs
/// the block with a fresh transparent context in UIKit's coordinates (origin top left, points)
/// made current, and returns what it drew.
///
/// Limits: a format scale that is zero, negative or not finite draws at 1; a size (or origin) that
/// is zero, negative or not finite, or that needs more than
/// `Surface.maxPixels` pixels (or a side over `Surface.maxDimension`) at the format's scale, gives
/// an empty image (`cgImage` nil, `pngData()` nil) after running the block on a context that
/// draws nowhere, and says so once on standard error.
open class UIGraphicsImageRenderer {
  public let format: UIGraphicsImageRendererFormat
  /// The drawing's bounds in points.
  public let bounds: CGRect

  public convenience init(size: CGSize) { self.init(size: size, format: .default()) }

  public convenience init(size: CGSize, format: UIGraphicsImageRendererFormat) {
    self.init(bounds: CGRect(origin: .zero, size: size), format: format)
  }

  public init(bounds: CGRect, format: UIGraphicsImageRendererFormat) {
    self.bounds = bounds
    self.format = format
  }

  /// The bitmap's size in pixels, or nil when it cannot be made.
  var pixelSize: (width: Int, height: Int)? {
    let s = Double(format.pixelsPerPoint)
    let w = (Double(bounds.width) * s).rounded(.up)
    let h = (Double(bounds.height) * s).rounded(.up)
    guard bounds.origin.x.isFinite, bounds.origin.y.isFinite, w >= 1, h >= 1,
      w <= Double(Surface.maxDimension),
      h <= Double(Surface.maxDimension)
    else { return nil }
    guard (try? Surface.validate(width: Int(w), height: Int(h))) != nil else { return nil }
    return (Int(w), Int(h))
  }

  /// A context for one drawing: over a new bitmap, or (when none can be made) over a 1-pixel
  /// one whose pixels are thrown away.
  func makeContext() -> (UIGraphicsImageRendererContext, Bool) {
    let size = pixelSize
    if size == nil {
      FileHandle.standardError.write(
        Data(
          "UIGraphicsImageRenderer: cannot draw \(bounds.width)x\(bounds.height) points at scale \(format.scale) (limit \(Surface.maxDimension) pixels a side, \(Surface.maxPixels) in all); the image is empty\n"
            .utf8))
    }
    let (w, h) = size ?? (1, 1)
    let surface = try! Surface(width: w, height: h)
    if format.opaque { surface.clear(0xFF00_0000) }
    let canvas = Canvas(surface: surface)
    let s = Double(format.pixelsPerPoint)
    let origin = bounds.origin.x.isFinite && bounds.origin.y.isFinite ? bounds.origin : .zero
    canvas.transform = Transform(translationX: -Double(origin.x), y: -Double(origin.y))
      .concatenating(Transform(scaleX: s, y: s))
    let cg = CGContext(canvas: canvas)
    cg.hasPixels = size != nil
    return (UIGraphicsImageRendererContext(cgContext: cg, format: format), size != nil)
  }

  /// Runs `actions` with a new context current and returns the picture.
  public func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage {
    let (context, ok) = makeContext()
    withCurrentContext(context.cgContext) { actions(context) }
    guard ok else { return .empty() }
    return UIImage(cgImage: CGImage(surface: context.cgContext.canvas.surface), scale: format.pixelsPerPoint)
  }

  /// The same picture as a PNG file (empty data for an empty picture).
  public func pngData(actions: (UIGraphicsImageRendererContext) -> Void) -> Data {
    image(actions: actions).pngData() ?? Data()
  }

  /// The same picture as a JPEG file (`UIImage.jpegData(compressionQuality:)`; empty data for an
  /// empty picture).
  public func jpegData(
    withCompressionQuality compressionQuality: CGFloat, actions: (UIGraphicsImageRendererContext) -> Void
  ) -> Data {
    image(actions: actions).jpegData(compressionQuality: compressionQuality) ?? Data()
  }
}

extension CGContext {
  /// Whether the context's pixels are kept (false for a renderer's stand-in context).
  var hasPixels: Bool {
    get { !discardsPixels }
    set { discardsPixels = !newValue }
  }
}
