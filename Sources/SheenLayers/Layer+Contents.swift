// A layer's image (`contents`): where the shown part goes (`contentsGravity`, `contentsScale`,
// `contentsRect`) and how nine-part stretching (`contentsCenter`) cuts it, as SCENE.md states
// and the Skia oracle draws.

import SheenRaster

/// How a layer places its image in its bounds: UIKit's content modes by Core Animation's names,
/// named as seen on screen (`top` is the top edge).
public enum ContentsGravity: String, Hashable, Sendable, CaseIterable {
  /// Stretched to the bounds.
  case resize
  /// Fitted inside the bounds, centred, keeping its aspect ratio (letterboxed).
  case resizeAspect
  /// Filling the bounds, centred, keeping its aspect ratio (what spills over shows unless
  /// `masksToBounds`).
  case resizeAspectFill
  /// At its natural size, placed so:
  case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
}

/// One rectangle of an image drawn over one rectangle of a layer.
public struct ContentsPart: Hashable, Sendable {
  /// Image pixels.
  public var source: Rect
  /// The layer's points.
  public var destination: Rect
  /// When set, the source is drawn at this size (points) from the destination's top-left corner
  /// and repeated over the destination, the last tiles cut (`contentsCenterTiles`); nil
  /// stretches it over the destination.
  public var tile: Size? = nil
}

extension Layer {
  /// The shown part of the image (image pixels: `contentsRect` clamped to the image) and where
  /// it goes in the bounds (points), placed by `contentsGravity`; nil when nothing shows.
  public var contentsGeometry: ContentsPart? {
    guard let image = contents else { return nil }
    let iw = Double(image.width)
    let ih = Double(image.height)
    let c = contentsRect
    let sx0 = max(0, c.minX * iw)
    let sy0 = max(0, c.minY * ih)
    let sx1 = min(iw, (c.minX + c.width) * iw)
    let sy1 = min(ih, (c.minY + c.height) * ih)
    let w = frame.width
    let h = frame.height
    guard sx1 > sx0, sy1 > sy0, w > 0, h > 0, contentsScale > 0, contentsScale.isFinite else { return nil }
    let src = Rect(x: sx0, y: sy0, width: sx1 - sx0, height: sy1 - sy0)
    let nw = src.width / contentsScale
    let nh = src.height / contentsScale
    let dst: Rect
    switch contentsGravity {
    case .resize:
      dst = Rect(x: 0, y: 0, width: w, height: h)
    case .resizeAspect, .resizeAspectFill:
      let k = contentsGravity == .resizeAspect ? min(w / nw, h / nh) : max(w / nw, h / nh)
      let dw = nw * k
      let dh = nh * k
      dst = Rect(x: (w - dw) / 2, y: (h - dh) / 2, width: dw, height: dh)
    default:
      let x: Double
      let y: Double
      switch contentsGravity {
      case .left, .topLeft, .bottomLeft: x = 0
      case .right, .topRight, .bottomRight: x = w - nw
      default: x = (w - nw) / 2
      }
      switch contentsGravity {
      case .top, .topLeft, .topRight: y = 0
      case .bottom, .bottomLeft, .bottomRight: y = h - nh
      default: y = (h - nh) / 2
      }
      dst = Rect(x: x, y: y, width: nw, height: nh)
    }
    guard dst.width.isFinite, dst.height.isFinite, dst.minX.isFinite, dst.minY.isFinite else { return nil }
    return ContentsPart(source: src, destination: dst)
  }

  /// Calls `body` with each part drawn: the shown part whole, or its nine parts when
  /// `contentsCenter` is not the unit rectangle (or `contentsCenterTiles`) and the gravity is
  /// `.resize` (nothing is
  /// allocated: this runs in every frame).
  public func forEachContentsPart(_ body: (ContentsPart) -> Void) {
    guard let whole = contentsGeometry else { return }
    // A tiled image without caps is one part repeated: nine parts of which only the centre shows.
    if contentsGravity != .resize
      || (contentsCenter == Rect(x: 0, y: 0, width: 1, height: 1) && !contentsCenterTiles)
    {
      body(whole)
      return
    }
    Layer.forEachNinePart(
      whole, center: contentsCenter, scale: contentsScale, tiles: contentsCenterTiles, body)
  }

  /// The parts `forEachContentsPart` draws.
  public var contentsParts: [ContentsPart] {
    var parts: [ContentsPart] = []
    forEachContentsPart { parts.append($0) }
    return parts
  }

  /// Core Animation's nine-part stretching of `whole` (a shown part and its destination): the
  /// centre rectangle `center` (unit coordinates of the part) stretches both ways, the edges
  /// along one axis, and the corners keep their natural size (image pixels / `scale`), shrunk
  /// in proportion where the destination is smaller than two corners. Empty parts are left out.
  /// With `tiles`, the centre and the edges repeat their part of the image at its natural size
  /// instead of stretching (UIKit's `.tile` resizing mode).
  public static func nineParts(
    _ whole: ContentsPart, center: Rect, scale: Double, tiles: Bool = false
  ) -> [ContentsPart] {
    var parts: [ContentsPart] = []
    forEachNinePart(whole, center: center, scale: scale, tiles: tiles) { parts.append($0) }
    return parts
  }

  static func forEachNinePart(
    _ whole: ContentsPart, center: Rect, scale: Double, tiles: Bool, _ body: (ContentsPart) -> Void
  ) {
    let s = whole.source
    let d = whole.destination
    let xs = SIMD4(
      s.minX, s.minX + center.minX * s.width, s.minX + (center.minX + center.width) * s.width, s.maxX)
    let ys = SIMD4(
      s.minY, s.minY + center.minY * s.height, s.minY + (center.minY + center.height) * s.height, s.maxY)
    func axis(_ v: SIMD4<Double>, _ lo: Double, _ hi: Double) -> SIMD4<Double> {
      var first = (v[1] - v[0]) / scale
      var last = (v[3] - v[2]) / scale
      let span = hi - lo
      if first + last > span && first + last > 0 {
        let k = span / (first + last)
        first *= k
        last *= k
      }
      return SIMD4(lo, lo + first, hi - last, hi)
    }
    let dxs = axis(xs, d.minX, d.maxX)
    let dys = axis(ys, d.minY, d.maxY)
    for j in 0..<3 {
      for i in 0..<3 {
        let src = Rect(x: xs[i], y: ys[j], width: xs[i + 1] - xs[i], height: ys[j + 1] - ys[j])
        let dst = Rect(x: dxs[i], y: dys[j], width: dxs[i + 1] - dxs[i], height: dys[j + 1] - dys[j])
        if src.width > 0 && src.height > 0 && dst.width > 0 && dst.height > 0 {
          // The middle column and row stretch, or repeat at their natural size when tiled.
          var tile: Size? = nil
          if tiles && (i == 1 || j == 1) {
            tile = Size(
              width: i == 1 ? src.width / scale : dst.width, height: j == 1 ? src.height / scale : dst.height)
          }
          body(ContentsPart(source: src, destination: dst, tile: tile))
        }
      }
    }
  }

  /// What the image can cover, in the layer's coordinates.
  var contentsExtent: Rect? { contentsGeometry?.destination }
}
