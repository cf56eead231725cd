import Foundation
import SheenLayers
import SheenRaster
import SheenText

/// A bitmap (Core Graphics' `CGImage`): decoded, premultiplied pixels, immutable, shared by every
/// layer that shows it. Set a layer's `contents` to one.
public final class CGImage: Hashable, @unchecked Sendable {
  /// The pixels SheenRaster draws.
  public let rasterImage: RasterImage

  public init(_ image: RasterImage) { rasterImage = image }

  public var width: Int { rasterImage.width }
  public var height: Int { rasterImage.height }
  /// 8 bits per component, premultiplied BGRA.
  public var bitsPerComponent: Int { 8 }
  public var bitsPerPixel: Int { 32 }
  public var bytesPerRow: Int { rasterImage.width * 4 }

  /// The part `rect` (pixels, clamped to the image) as an image of its own, or nil when empty.
  public func cropping(to rect: CGRect) -> CGImage? {
    let r = rect.sheen.intersection(Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
    let px = IntRect(enclosing: r)
    guard !px.isEmpty, let s = try? Surface(width: px.width, height: px.height) else { return nil }
    for y in 0..<px.height {
      s.row(y).update(from: rasterImage.surface.row(px.y + y) + px.x, count: px.width)
    }
    return CGImage(RasterImage(surface: s))
  }

  public static func == (a: CGImage, b: CGImage) -> Bool { a.rasterImage === b.rasterImage }
  public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(rasterImage)) }
}

/// A picture with a scale (UIKit's `UIImage`): its `size` is in points, the pixels divided by
/// `scale`. Made from the bundled assets (`init(named:)`), a PNG or JPEG file, or pixels; decoded
/// files are shared through `ImageFileCache.shared`.
///
/// Unlike UIKit: `imageOrientation` is always `.up` (EXIF orientation is applied when decoding).
/// A resizable image (`resizableImage(withCapInsets:resizingMode:)`) shown by a `UIImageView`
/// keeps its caps at their size; its centre and edges stretch (`.stretch`) or repeat at their
/// natural size from the top-left, the last tiles cut (`.tile`, the default, as UIKit).
open class UIImage: Hashable, @unchecked Sendable {
  public enum ResizingMode: Int, Sendable {
    case tile, stretch
  }

  public enum Orientation: Int, Sendable {
    case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
  }

  /// The pixels (Core Graphics' image).
  public let cgImage: CGImage?
  /// Pixels per point.
  public let scale: CGFloat
  /// The parts of a resizable image that keep their size (points); zero for others.
  public let capInsets: UIEdgeInsets
  public let resizingMode: ResizingMode
  /// Whether the image was made by `resizableImage` (only such images tile: a plain image
  /// stretches whatever its `resizingMode`).
  let isResizable: Bool
  public var imageOrientation: Orientation { .up }

  public init(cgImage: CGImage, scale: CGFloat = 1, orientation: Orientation = .up) {
    self.cgImage = cgImage
    self.scale = scale > 0 ? scale : 1
    capInsets = .zero
    resizingMode = .tile
    isResizable = false
  }

  init(
    cgImage: CGImage?, scale: CGFloat, capInsets: UIEdgeInsets, resizingMode: ResizingMode,
    isResizable: Bool = false
  ) {
    self.cgImage = cgImage
    self.scale = scale
    self.capInsets = capInsets
    self.resizingMode = resizingMode
    self.isResizable = isResizable
  }

  /// An image of the pixels drawn by SheenRaster (a backing store, a picture made in memory).
  public convenience init(rasterImage: RasterImage, scale: CGFloat = 1) {
    self.init(cgImage: CGImage(rasterImage), scale: scale)
  }

  /// The PNG or JPEG file at `path`, or nil when it cannot be read or decoded. A name ending in
  /// `@2x` or `@3x` (before the extension) gives that scale.
  public convenience init?(contentsOfFile path: String) {
    guard let image = try? ImageFileCache.shared.image(atPath: path) else { return nil }
    self.init(cgImage: CGImage(image), scale: UIImage.scale(ofFile: path))
  }

  /// PNG or JPEG bytes, or nil when they do not decode.
  public convenience init?(data: Data, scale: CGFloat = 1) {
    guard let image = try? RasterImage(decoding: [UInt8](data)) else { return nil }
    self.init(cgImage: CGImage(image), scale: scale)
  }

  /// A bundled image: `name` (with or without its extension, `.png`, `.jpg` or `.jpeg`) in the
  /// assets' `Images` or `Photos` folder (`BundledAssets`); the `@3x` and `@2x` variants are
  /// preferred, as UIKit's on a screen of that scale, when they exist. Nil when there is none.
  public convenience init?(named name: String) {
    guard let path = UIImage.bundledPath(name), let image = try? ImageFileCache.shared.image(atPath: path)
    else {
      return nil
    }
    self.init(cgImage: CGImage(image), scale: UIImage.scale(ofFile: path))
  }

  /// The size in points.
  open var size: CGSize {
    guard let c = cgImage else { return .zero }
    return CGSize(width: CGFloat(c.width) / scale, height: CGFloat(c.height) / scale)
  }

  /// The same image, whose `capInsets` keep their size when a view stretches it (nine parts).
  open func resizableImage(withCapInsets insets: UIEdgeInsets, resizingMode: ResizingMode = .tile) -> UIImage
  {
    UIImage(cgImage: cgImage, scale: scale, capInsets: insets, resizingMode: resizingMode, isResizable: true)
  }

  /// Whether a view showing the image repeats its centre and edges instead of stretching them.
  var tiles: Bool { isResizable && resizingMode == .tile }

  open func resizableImage(withCapInsets insets: UIEdgeInsets) -> UIImage {
    resizableImage(withCapInsets: insets, resizingMode: .tile)
  }

  /// `contentsCenter` for this image: the middle between the cap insets, in unit coordinates.
  var contentsCenter: CGRect {
    let s = size
    guard capInsets != .zero, s.width > 0, s.height > 0 else {
      return CGRect(x: 0, y: 0, width: 1, height: 1)
    }
    let l = capInsets.left / s.width
    let t = capInsets.top / s.height
    let w = max(0, 1 - l - capInsets.right / s.width)
    let h = max(0, 1 - t - capInsets.bottom / s.height)
    return CGRect(x: l, y: t, width: w, height: h)
  }

  public static func == (a: UIImage, b: UIImage) -> Bool {
    a === b
      || (a.cgImage == b.cgImage && a.scale == b.scale && a.capInsets == b.capInsets
        && a.resizingMode == b.resizingMode && a.isResizable == b.isResizable)
  }

  public func hash(into h: inout Hasher) {
    h.combine(cgImage)
    h.combine(scale)
  }

  // MARK: Finding files

  static func scale(ofFile path: String) -> CGFloat {
    let base = (path as NSString).deletingPathExtension
    if base.hasSuffix("@3x") { return 3 }
    if base.hasSuffix("@2x") { return 2 }
    return 1
  }

  /// The folders searched by `init(named:)`, in order.
  static func bundledFolders() -> [String] {
    var roots: [String] = []
    if let env = ProcessInfo.processInfo.environment[BundledAssets.environmentVariable], !env.isEmpty {
      roots = [env]
    } else {
      // The fonts' search, one level up: each candidate `.../Assets/Fonts` names an assets folder.
      roots = BundledAssets.candidateFontDirectories().map { ($0 as NSString).deletingLastPathComponent }
    }
    return roots.flatMap { [$0 + "/Images", $0 + "/Photos"] }
  }

  static func bundledPath(_ name: String) -> String? {
    guard !name.isEmpty, !name.contains(".."), !name.hasPrefix("/") else { return nil }
    let ext = (name as NSString).pathExtension.lowercased()
    let hasExtension = ["png", "jpg", "jpeg"].contains(ext)
    let stem = hasExtension ? (name as NSString).deletingPathExtension : name
    let extensions = hasExtension ? [ext] : ["png", "jpg", "jpeg"]
    let fm = FileManager.default
    for folder in bundledFolders() {
      for suffix in ["@3x", "@2x", ""] {
        for e in extensions {
          let p = "\(folder)/\(stem)\(suffix).\(e)"
          if fm.isReadableFile(atPath: p) { return p }
        }
      }
    }
    return nil
  }
}
