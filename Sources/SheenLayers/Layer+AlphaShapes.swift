import Foundation
import SheenRaster
import Synchronization

/// A rounded rectangle in a layer's coordinates outside which the layer draws nothing.
struct AlphaSupport {
  var rect: Rect
  var radii: CornerRadii

  /// Whether every point of `inner` (a rounded rectangle) lies inside this one, give or take a
  /// hundredth of a unit.
  func contains(_ inner: AlphaSupport) -> Bool {
    let e = 1e-6
    let a = inner.rect
    let b = rect
    guard a.minX >= b.minX - e, a.minY >= b.minY - e, a.maxX <= b.maxX + e, a.maxY <= b.maxY + e else {
      return false
    }
    let rb = radii.clamped(to: b.size)
    let ra = inner.radii.clamped(to: a.size)
    // Corner by corner, in a frame where the corner is at the origin and the shapes extend to +x
    // and +y: the inner shape's points within the outer corner square must lie within the arc.
    let left = a.minX - b.minX
    let top = a.minY - b.minY
    let right = b.maxX - a.maxX
    let bottom = b.maxY - a.maxY
    // Four corners as a tuple, not an array (this runs for every layer prepared: no allocation).
    let corners = (
      (rb.topLeft, ra.topLeft, left, top), (rb.topRight, ra.topRight, right, top),
      (rb.bottomRight, ra.bottomRight, right, bottom), (rb.bottomLeft, ra.bottomLeft, left, bottom)
    )
    for k in 0..<4 {
      let (r, q, dx, dy) = k == 0 ? corners.0 : k == 1 ? corners.1 : k == 2 ? corners.2 : corners.3
      guard r > 0 else { continue }
      // The inner corner's arc (a point when q = 0), sampled with its ends.
      for i in 0...32 {
        let t = Double(i) / 32 * Double.pi / 2
        let x = dx + q - q * cos(t)
        let y = dy + q - q * sin(t)
        if x < r && y < r {
          let ux = r - x
          let uy = r - y
          if ux * ux + uy * uy > (r + 0.01) * (r + 0.01) { return false }
        }
        if q == 0 { break }
      }
    }
    return true
  }

  /// The support mapped into a superlayer by `t`: exact under a scale and translation (its radii
  /// the smaller scale's, which only grows it), the bounding box otherwise.
  func mapped(by t: Transform) -> AlphaSupport {
    let r = t.apply(rect)
    guard t.isAxisAligned else { return AlphaSupport(rect: r, radii: CornerRadii(all: 0)) }
    let k = min(abs(t.a), abs(t.d))
    // Under a flip, corners change places.
    var c = radii.clamped(to: rect.size)
    if t.a < 0 {
      c = CornerRadii(
        topLeft: c.topRight, topRight: c.topLeft, bottomRight: c.bottomLeft, bottomLeft: c.bottomRight)
    }
    if t.d < 0 {
      c = CornerRadii(
        topLeft: c.bottomLeft, topRight: c.bottomRight, bottomRight: c.topRight, bottomLeft: c.topLeft)
    }
    return AlphaSupport(
      rect: r,
      radii: CornerRadii(
        topLeft: c.topLeft * k, topRight: c.topRight * k, bottomRight: c.bottomRight * k,
        bottomLeft: c.bottomLeft * k))
  }
}

extension Path {
  /// The rectangle and radii when the path is exactly `Path(roundedRect:radii:)` of them (or
  /// `Path(rect:)`).
  public var roundedRectGeometry: (rect: Rect, radii: CornerRadii)? {
    guard elements.count >= 5, elements.count <= 10, case .move(let m) = elements[0],
      case .close = elements[elements.count - 1]
    else { return nil }
    // The first three line ends, and how many lines (no array: this runs as layers are prepared).
    var lines = (Point.zero, Point.zero, Point.zero)
    var lineCount = 0
    for e in elements.dropFirst() {
      guard case .line(let p) = e else { continue }
      if lineCount == 0 {
        lines.0 = p
      } else if lineCount == 1 {
        lines.1 = p
      } else if lineCount == 2 {
        lines.2 = p
      }
      lineCount += 1
    }
    let r = controlBounds
    var radii = CornerRadii(all: 0)
    if lineCount == 4 {
      radii = CornerRadii(
        topLeft: m.x - r.minX, topRight: r.maxX - lines.0.x, bottomRight: r.maxY - lines.1.y,
        bottomLeft: lines.2.x - r.minX)
    } else if lineCount != 3 {
      return nil
    }
    // Rebuilt in storage kept for it.
    return Path.geometryScratch.withLock { rebuilt in
      rebuilt.removeAllKeepingCapacity()
      rebuilt.addRoundedRect(r, radii: radii)
      return rebuilt.elements == elements ? (r, radii) : nil
    }
  }

  /// Where `roundedRectGeometry` rebuilds the rounded rectangle it compares with.
  private static let geometryScratch = Mutex(Path())
}

extension Layer {
  /// Shapes a layer's alpha may be made of, at most.
  static let maxAlphaShapes = 64

  /// The alpha of the layer's own content over its rounded bounds, when the content fills them
  /// evenly (a gradient of opaque colours); nil when it draws some other shape, 0 when nothing.
  private var roundedContentAlpha: Double? {
    if !hasContent { return 0 }
    if let g = self as? GradientLayer {
      return g.colors.allSatisfy { $0.alpha >= 1 } ? 1 : nil
    }
    return nil
  }

  /// Where the layer's own content can draw (own coordinates), when it is not the rounded bounds.
  private var contentSupport: AlphaSupport {
    if let s = self as? ShapeLayer, let path = s.path {
      let stroked = s.strokeColor != nil && s.lineWidth > 0
      if let g = path.roundedRectGeometry {
        if !stroked { return AlphaSupport(rect: g.rect, radii: g.radii) }
        // A stroked rounded rectangle reaches half the line out: a rounded arc's outer edge is
        // the arc of radius r + w/2, a square corner's (any join) stays inside the square.
        if s.lineWidth.isFinite {
          let h = s.lineWidth / 2
          let c = g.radii.clamped(to: g.rect.size)
          func grow(_ r: Double) -> Double { r > 0 ? r + h : 0 }
          return AlphaSupport(
            rect: g.rect.insetBy(dx: -h, dy: -h),
            radii: CornerRadii(
              topLeft: grow(c.topLeft), topRight: grow(c.topRight), bottomRight: grow(c.bottomRight),
              bottomLeft: grow(c.bottomLeft)))
        }
      }
      let grow = s.strokeColor == nil ? 0 : s.lineWidth * max(1, s.miterLimit) / 2
      return AlphaSupport(rect: path.controlBounds.insetBy(dx: -grow, dy: -grow), radii: CornerRadii(all: 0))
    }
    return AlphaSupport(rect: contentExtent, radii: CornerRadii(all: 0))
  }

  /// A shape layer's filled path as one rounded rectangle of even alpha, if it is one.
  private var filledRoundedPath: ShadowShape? {
    guard let s = self as? ShapeLayer, let path = s.path, let fill = s.fillColor,
      s.strokeColor == nil || !(s.lineWidth > 0) || (s.strokeColor?.alpha ?? 0) <= 0,
      let g = path.roundedRectGeometry
    else { return nil }
    return ShadowShape(rect: g.rect, radii: g.radii, weight: fill.alpha)
  }

  /// Sets `alphaShapes` and `alphaSupport`, unless up to date, from the layer's own drawing and
  /// its sublayers' (already prepared). The alpha is a sum of rounded rectangles when what the
  /// layer draws is: rounded rectangles of even alpha (backgrounds, opaque gradients, filled
  /// rounded paths) that do not overlap, and anything else only where an opaque one covers it.
  func resolveAlphaShapes() {
    if alphaShapesResolved { return }
    alphaShapesResolved = true
    let own = AlphaSupport(rect: bounds, radii: effectiveCornerRadii)
    // Clipped to opaque rounded bounds, the alpha is those bounds whatever else is drawn.
    let bg = backgroundColor.map { $0.alpha } ?? 0
    if mask == nil, masksToBounds, bg >= 1 || roundedContentAlpha == 1 {
      alphaSupport = own
      let one = ShadowShape(rect: bounds, radii: effectiveCornerRadii)
      if alphaShapes?.count == 1 {
        // In place: a resized layer's one shape changes without a new array.
        if alphaShapes![0] != one { alphaShapes![0] = one }
      } else {
        alphaShapes = [one]
      }
      return
    }
    // Pieces: shapes with an alpha, and supports of things of unknown alpha, in storage kept by
    // the layer (a layer prepared again in a steady frame, as its cells scroll, allocates nothing).
    let scratch = alphaScratch ?? AlphaScratch()
    alphaScratch = scratch
    scratch.shapes.removeAll(keepingCapacity: true)
    scratch.unknown.removeAll(keepingCapacity: true)
    scratch.covers.removeAll(keepingCapacity: true)
    scratch.kept.removeAll(keepingCapacity: true)
    var exact = mask == nil
    let bgAlpha = backgroundColor.map { $0.alpha } ?? 0
    var ownAlpha = bgAlpha
    if let c = roundedContentAlpha {
      ownAlpha = 1 - (1 - bgAlpha) * (1 - c)
      if ownAlpha > 0 {
        scratch.shapes.append(ShadowShape(rect: bounds, radii: effectiveCornerRadii, weight: ownAlpha))
      }
    } else {
      if bgAlpha > 0 {
        scratch.shapes.append(ShadowShape(rect: bounds, radii: effectiveCornerRadii, weight: bgAlpha))
      }
      if let f = filledRoundedPath {
        if f.weight > 0 { scratch.shapes.append(f) }
      } else {
        scratch.unknown.append(contentSupport)
      }
    }
    if contents != nil, let d = contentsExtent {
      scratch.unknown.append(AlphaSupport(rect: d, radii: CornerRadii(all: 0)))
    }
    if borderWidth > 0, (borderColor?.alpha ?? 0) > 0 { scratch.unknown.append(own) }
    for sub in sublayers where !sub.isHidden && sub.opacity > 0 {
      sub.resolveAlphaShapes()
      let t = sub.transformToSuperlayer
      if sub.shadowVisible {
        scratch.unknown.append(AlphaSupport(rect: t.apply(sub.localFullExtent), radii: CornerRadii(all: 0)))
      } else if let a = sub.alphaShapes {
        for x in a { scratch.shapes.append(x.mapped(by: t, alpha: min(1, sub.opacity))) }
      } else {
        scratch.unknown.append(sub.alphaSupport.mapped(by: t))
      }
    }
    // Clipped to its rounded bounds, which an opaque piece covers: the alpha is those bounds,
    // whatever else is drawn inside (a clipped card whose white fill is a sublayer, the
    // gradient of a button under its label).
    if mask == nil, masksToBounds,
      scratch.shapes.contains(where: {
        $0.weight >= 1 && $0.transform.isAxisAligned && AlphaSupport(shape: $0).contains(own)
      })
    {
      alphaSupport = own
      let one = ShadowShape(rect: bounds, radii: effectiveCornerRadii)
      if alphaShapes?.count != 1 || alphaShapes?[0] != one { alphaShapes = [one] }
      return
    }
    // The support: the rounded bounds when everything lies within them (or is clipped to them),
    // else the bounding box of what is drawn; seen through a mask, no more than the mask's.
    var support = own
    if !masksToBounds {
      for x in scratch.shapes where !own.contains(AlphaSupport(shape: x)) { support = boxSupport }
      for u in scratch.unknown where !own.contains(u) { support = boxSupport }
    }
    // A few pieces, one of which holds the others: its support, when tighter (a stroked
    // rounded rectangle's reach rather than the layer's square bounds).
    let pieces = scratch.shapes.count + scratch.unknown.count
    if pieces > 0 && pieces <= 8 {
      func holdsAll(_ c: AlphaSupport) -> Bool {
        support.contains(c) && scratch.shapes.allSatisfy { c.contains(AlphaSupport(shape: $0)) }
          && scratch.unknown.allSatisfy { c.contains($0) }
      }
      if let c = scratch.unknown.first(where: holdsAll) {
        support = c
      } else if let x = scratch.shapes.first(where: { holdsAll(AlphaSupport(shape: $0)) }) {
        support = AlphaSupport(shape: x)
      }
    }
    if let m = mask {
      m.resolveAlphaShapes()
      let ms = m.alphaSupport.mapped(by: m.transformToSuperlayer)
      // Either holds everything drawn: the one inside the other, else the smaller.
      func area(_ a: AlphaSupport) -> Double { a.rect.width * a.rect.height }
      if support.contains(ms) || (!ms.contains(support) && area(ms) < area(support)) { support = ms }
    }
    alphaSupport = support
    // Opaque shapes under a scale and translation cover what lies inside them.
    for x in scratch.shapes where x.weight >= 1 && x.transform.isAxisAligned {
      scratch.covers.append(AlphaSupport(shape: x))
    }
    if exact { exact = scratch.unknown.allSatisfy { u in scratch.covers.contains { $0.contains(u) } } }
    if exact {
      for x in scratch.shapes {
        let sx = AlphaSupport(shape: x)
        // Inside another opaque shape, or the same as an opaque one already kept: adds nothing.
        if scratch.covers.contains(where: { $0 != sx && $0.contains(sx) }) { continue }
        if scratch.kept.contains(where: { $0.weight >= 1 && AlphaSupport(shape: $0) == sx }) { continue }
        scratch.kept.append(x)
      }
      swap(&scratch.shapes, &scratch.kept)
      exact = scratch.shapes.count <= Layer.maxAlphaShapes
    }
    if exact {
      // What is left must not overlap.
      let shapes = scratch.shapes
      outer: for i in shapes.indices {
        for j in shapes.indices where j > i && !shapes[i].bounds.intersection(shapes[j].bounds).isEmpty {
          exact = false
          break outer
        }
      }
    }
    if exact && masksToBounds {
      // The clip must not cut any of them.
      exact = scratch.shapes.allSatisfy { own.contains(AlphaSupport(shape: $0)) }
    }
    // Kept as they were when nothing changed (a copy is made only when they did).
    if !exact {
      alphaShapes = nil
    } else if alphaShapes != scratch.shapes {
      if alphaShapes == nil {
        alphaShapes = scratch.shapes.map { $0 }
      } else {
        // In the storage they had (allocating only if it is too small or shared).
        alphaShapes!.removeAll(keepingCapacity: true)
        alphaShapes!.append(contentsOf: scratch.shapes)
      }
    }
  }

  private var boxSupport: AlphaSupport {
    AlphaSupport(rect: localBodyExtent, radii: CornerRadii(all: 0))
  }
}

extension AlphaSupport: Equatable {
  /// The support of a shape: exact under a scale and translation, its bounding box otherwise.
  init(shape: ShadowShape) {
    self = AlphaSupport(rect: shape.rect, radii: shape.radii).mapped(by: shape.transform)
  }
}

/// Storage `resolveAlphaShapes` works in, kept by the layer between preparations.
final class AlphaScratch {
  var shapes: [ShadowShape] = []
  var unknown: [AlphaSupport] = []
  var covers: [AlphaSupport] = []
  var kept: [ShadowShape] = []
}
