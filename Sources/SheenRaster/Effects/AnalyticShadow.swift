// Shadows of rounded rectangles worked out per pixel, with no blur and no mask (the approach of
// browsers' box-shadow fast paths and vello_cpu's blurred rounded rectangle).
//
// A Gaussian of standard deviation σ blurring a rectangle is a product of two differences of the
// normal distribution function Φ, one per axis. A rounded rectangle is that rectangle less its
// four corner cut-outs (the part of each r×r corner square outside the arc); each cut-out's blur
// is an integral along one axis of Φ differences along the other, worked out with Gauss-Legendre
// quadrature once per (radii, σ) into a small table (`CornerProfile`) that any position, offset
// and transform reads by bilinear interpolation. Pixels are area samples, so the blur applied is
// the Gaussian of σ convolved with the pixel's box, which for σ ≥ 0.5 is the Gaussian of
// √(σ² + 1/12) within half a level.
//
// Shapes whose blurs add up (the cards of a clear row: blur is linear, and shapes that do not
// overlap add their alphas) are summed per pixel before the shadow's colour is blended once.

import Foundation
import Synchronization

/// One rounded rectangle of a shadow: `rect` with `radii` in its own coordinates, placed on the
/// device by `transform`, with alpha `weight` (0...1).
public struct ShadowShape: Hashable, Sendable {
  public var rect: Rect
  public var radii: CornerRadii
  public var transform: Transform
  public var weight: Double

  public init(rect: Rect, radii: CornerRadii, transform: Transform = .identity, weight: Double = 1) {
    self.rect = rect
    self.radii = radii
    self.transform = transform
    self.weight = weight
  }

  /// The same shape with `t` applied after its transform, and its weight times `alpha`.
  public func mapped(by t: Transform, alpha: Double = 1) -> ShadowShape {
    ShadowShape(rect: rect, radii: radii, transform: transform.concatenating(t), weight: weight * alpha)
  }

  /// Its bounding box after the transform.
  public var bounds: Rect { transform.apply(rect) }

  /// Whether a transform keeps it a rounded rectangle with elliptical corners (no shear): the
  /// images of its axes are perpendicular.
  static func isRigidEnough(_ t: Transform) -> Bool {
    let dot = t.a * t.c + t.b * t.d
    let n = (t.a * t.a + t.b * t.b) * (t.c * t.c + t.d * t.d)
    return n > 0 && dot * dot <= 1e-12 * n
  }
}

/// The normal distribution function Φ and Gauss-Legendre nodes, tabulated once.
enum Gaussian {
  /// Φ at z = -8 + i / 256.
  static let phiTable: [Float] = {
    (0...4096).map { i in
      let z = -8 + Double(i) / 256
      return Float(0.5 * erfc(-z / 2.0.squareRoot()))
    }
  }()

  @inline(__always) static func phi(_ z: Double, _ t: UnsafePointer<Float>) -> Float {
    let p = (z + 8) * 256
    if !(p > 0) { return 0 }
    if p >= 4096 { return 1 }
    let i = Int(p)
    let f = Float(p - Double(i))
    return t[i] + (t[i + 1] - t[i]) * f
  }

  /// 16-point Gauss-Legendre nodes and weights on [-1, 1] (Newton's method on P16).
  static let legendre: [(x: Double, w: Double)] = {
    let n = 16
    var out: [(Double, Double)] = []
    for i in 1...n {
      var x = cos(Double.pi * (Double(i) - 0.25) / (Double(n) + 0.5))
      var dp = 0.0
      for _ in 0..<100 {
        var p0 = 1.0
        var p1 = x
        for k in 2...n {
          let p2 = ((2 * Double(k) - 1) * x * p1 - Double(k - 1) * p0) / Double(k)
          p0 = p1
          p1 = p2
        }
        dp = Double(n) * (x * p1 - p0) / (x * x - 1)
        let dx = p1 / dp
        x -= dx
        if abs(dx) < 1e-15 { break }
      }
      out.append((x, 2 / ((1 - x * x) * dp * dp)))
    }
    return out
  }()
}

/// The blur of one corner cut-out of a rounded rectangle: the region of the `rx`×`ry` corner
/// square at the origin (the rectangle extends to +x and +y) outside the ellipse arc, blurred by
/// σ, tabulated on a grid of σ/3 over the cut-out and 4σ around it.
public final class CornerProfile: @unchecked Sendable {
  let rx: Double, ry: Double, sigma: Double
  let u0: Double, v0: Double, step: Double
  let nu: Int, nv: Int
  /// nv rows of nu values; written only by `init`.
  let values: UnsafeMutablePointer<Float>
  var count: Int { nu * nv }

  deinit { values.deallocate() }

  /// Grid points a profile may have; beyond, the shape is drawn with a blur instead.
  static let maxPoints = 160_000

  static func points(rx: Double, ry: Double, sigma: Double) -> Int {
    let step = sigma / 3
    let nu = Int(((rx + 8 * sigma) / step).rounded(.up)) + 2
    let nv = Int(((ry + 8 * sigma) / step).rounded(.up)) + 2
    return nu * nv
  }

  init(rx: Double, ry: Double, sigma: Double) {
    let step = sigma / 3
    let u0 = -4 * sigma
    let v0 = -4 * sigma
    let nu = Int(((rx + 8 * sigma) / step).rounded(.up)) + 2
    let nv = Int(((ry + 8 * sigma) / step).rounded(.up)) + 2
    let values = UnsafeMutablePointer<Float>.allocate(capacity: nu * nv)
    values.initialize(repeating: 0, count: nu * nv)
    let nodes = Gaussian.legendre
    let s = sigma
    let norm = 1 / (s * (2 * Double.pi).squareRoot())
    var weights = [Double](repeating: 0, count: nodes.count)
    var reach = [Double](repeating: 0, count: nodes.count)
    Gaussian.phiTable.withUnsafeBufferPointer { tb in
      let t = tb.baseAddress!
      for j in 0..<nv {
        let v = v0 + Double(j) * step
        // Rows of the cut-out within 5σ of v; t = ry (1 - sin θ), a(θ) = rx (1 - cos θ).
        let tLo = max(0, v - 5 * s)
        let tHi = min(ry, v + 5 * s)
        if !(tHi > tLo) { continue }
        let thA = asin(max(-1, min(1, 1 - tHi / ry)))
        let thB = asin(max(-1, min(1, 1 - tLo / ry)))
        let half = (thB - thA) / 2
        let mid = (thB + thA) / 2
        var total = 0.0
        for (k, n) in nodes.enumerated() {
          let th = mid + half * n.x
          let tk = ry * (1 - sin(th))
          let g = norm * exp(-0.5 * (v - tk) * (v - tk) / (s * s))
          weights[k] = n.w * half * g * ry * cos(th)
          reach[k] = rx * (1 - cos(th))
          total += weights[k]
        }
        for i in 0..<nu {
          let u = u0 + Double(i) * step
          var c = -Double(Gaussian.phi(-u / s, t)) * total
          for k in 0..<nodes.count { c += weights[k] * Double(Gaussian.phi((reach[k] - u) / s, t)) }
          values[j * nu + i] = Float(max(0, c))
        }
      }
    }
    self.rx = rx
    self.ry = ry
    self.sigma = sigma
    self.step = step
    self.u0 = u0
    self.v0 = v0
    self.nu = nu
    self.nv = nv
    self.values = values
  }
}

/// A corner profile's grid as plain values (read per pixel with no reference counting); the
/// profile must outlive it. `nu` 0 stands for a square corner.
struct CornerTable {
  var values: UnsafePointer<Float>? = nil
  var u0 = 0.0, v0 = 0.0, step = 1.0
  var nu = 0, nv = 0
  var rx = 0.0, ry = 0.0

  init() {}

  init(_ p: CornerProfile?) {
    guard let p else { return }
    values = UnsafePointer(p.values)
    u0 = p.u0
    v0 = p.v0
    step = p.step
    nu = p.nu
    nv = p.nv
    rx = p.rx
    ry = p.ry
  }

  /// The cut-out's blur at (u, v) from the corner, inwards positive; 0 beyond the table.
  @inline(__always) func value(_ u: Double, _ v: Double) -> Float {
    guard let p = values else { return 0 }
    let fu = (u - u0) / step
    let fv = (v - v0) / step
    if !(fu >= 0 && fv >= 0) { return 0 }
    let i = Int(fu)
    let j = Int(fv)
    if i >= nu - 1 || j >= nv - 1 { return 0 }
    let a = Float(fu - Double(i))
    let b = Float(fv - Double(j))
    let r0 = p + j * nu + i
    let r1 = r0 + nu
    let top = r0[0] + (r0[1] - r0[0]) * a
    let bottom = r1[0] + (r1[1] - r1[0]) * a
    return top + (bottom - top) * b
  }
}

/// Corner profiles by radii and σ, shared by every band and frame: a pure function of its key,
/// so what a frame shows never depends on which profiles were made before.
public final class ShadowProfiles: Sendable {
  struct Key: Hashable {
    let rx: Double, ry: Double, sigma: Double
  }
  private let table = Mutex<(entries: [Key: CornerProfile], points: Int)>(([:], 0))
  /// Grid points kept before the table starts afresh (16 MB of profiles at most).
  static let budget = 4 << 20

  public init() {}

  /// The profile for a corner of radii (rx, ry) under a blur of σ (device pixels); nil for a
  /// square corner, or one too large to tabulate.
  func profile(rx: Double, ry: Double, sigma: Double) -> CornerProfile? {
    if !(rx > 1e-6 && ry > 1e-6) { return nil }
    let k = Key(rx: rx, ry: ry, sigma: sigma)
    if let p = table.withLock({ $0.entries[k] }) { return p }
    let p = CornerProfile(rx: rx, ry: ry, sigma: sigma)
    table.withLock {
      if $0.points + p.count > ShadowProfiles.budget {
        $0.entries.removeAll()
        $0.points = 0
      }
      $0.entries[k] = p
      $0.points += p.count
    }
    return p
  }

  /// Whether a corner of these radii can be tabulated.
  static func fits(rx: Double, ry: Double, sigma: Double) -> Bool {
    !(rx > 1e-6 && ry > 1e-6) || CornerProfile.points(rx: rx, ry: ry, sigma: sigma) <= CornerProfile.maxPoints
  }

  /// Profiles held.
  public var count: Int { table.withLock { $0.entries.count } }
}

/// A shadow shape placed on the device: its origin, unit axes, size along them (device pixels),
/// and the pixels it reaches.
struct PlacedShadowShape {
  var ox: Double, oy: Double
  var exx: Double, exy: Double, eyx: Double, eyy: Double
  var w: Double, h: Double
  var weight: Float
  var box: IntRect
  var axisAligned: Bool
  /// Top-left, top-right, bottom-right, bottom-left.
  var c0: CornerTable, c1: CornerTable, c2: CornerTable, c3: CornerTable
  /// Where its per-column factors start in the scratch (axis-aligned shapes).
  var column = 0
}

/// Storage reused by analytic shadows of one canvas.
final class ShadowScratch {
  /// Whether the `count` bytes at `p` are all 0.
  @inline(__always) static func allZero(_ p: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
    for i in 0..<count where p[i] != 0 { return false }
    return true
  }

  var placed: [PlacedShadowShape] = []
  /// The profiles the placed shapes read, kept alive while they draw.
  var profiles: [CornerProfile] = []
  var segments: [(Int, Int)] = []
  /// Per-column factors, a row of summed alphas and the same as bytes.
  private(set) var columns = UnsafeMutablePointer<Float>.allocate(capacity: 1)
  private(set) var row = UnsafeMutablePointer<Float>.allocate(capacity: 1)
  private(set) var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
  private var columnCapacity = 1
  private var rowCapacity = 1

  /// Makes room for `columns` column factors and rows of `width` pixels.
  func reserve(columns n: Int, width: Int) {
    if n > columnCapacity {
      columns.deallocate()
      columnCapacity = n * 2
      columns = .allocate(capacity: columnCapacity)
    }
    if width > rowCapacity {
      row.deallocate()
      bytes.deallocate()
      rowCapacity = width * 2
      row = .allocate(capacity: rowCapacity)
      bytes = .allocate(capacity: rowCapacity)
    }
  }

  deinit {
    columns.deallocate()
    row.deallocate()
    bytes.deallocate()
  }
}

extension Canvas {
  /// Whether `shapes` mapped by `transform` can be worked out per pixel under a blur of `sigma`
  /// device pixels: no shear, and corners small enough for their blur to tabulate.
  public static func canShadeShadow(_ shapes: [ShadowShape], transform: Transform, sigma: Double) -> Bool {
    let s = (sigma * sigma + 1.0 / 12).squareRoot()
    guard s.isFinite else { return false }
    for sh in shapes where sh.weight > 0 {
      let t = sh.transform.concatenating(transform)
      guard ShadowShape.isRigidEnough(t) else { return false }
      let sx = (t.a * t.a + t.b * t.b).squareRoot()
      let sy = (t.c * t.c + t.d * t.d).squareRoot()
      let r = sh.radii.clamped(to: sh.rect.size)
      guard ShadowProfiles.fits(rx: r.topLeft * sx, ry: r.topLeft * sy, sigma: s),
        ShadowProfiles.fits(rx: r.topRight * sx, ry: r.topRight * sy, sigma: s),
        ShadowProfiles.fits(rx: r.bottomRight * sx, ry: r.bottomRight * sy, sigma: s),
        ShadowProfiles.fits(rx: r.bottomLeft * sx, ry: r.bottomLeft * sy, sigma: s)
      else { return false }
    }
    return true
  }

  /// Fills the blurred alpha of `shapes` (their weights summed per pixel, at most 1) mapped by
  /// `transform`, offset by (`dx`, `dy`) device pixels and blurred by a Gaussian of `sigma`
  /// device pixels, with `color`; pixels in `holes` are left alone (the caller covers them with
  /// opaque colour). Returns false, drawing nothing, when a shape cannot be worked out this way
  /// (`canShadeShadow`); the caller then blurs a mask.
  public func fillShadow(
    _ shapes: [ShadowShape], transform: Transform = .identity, sigma: Double, dx: Double, dy: Double,
    color: Color, skipping holes: [IntRect], profiles: ShadowProfiles
  ) -> Bool {
    guard dx.isFinite, dy.isFinite, Canvas.canShadeShadow(shapes, transform: transform, sigma: sigma) else {
      return false
    }
    let clip = state.clipBounds.intersection(target.bounds)
    if clip.isEmpty || state.globalAlpha <= 0 || color.alpha <= 0 { return true }
    let t = transform.concatenating(Transform(translationX: dx, y: dy))
    guard let area = placeShadow(shapes, transform: t, sigma: sigma, within: clip, profiles: profiles) else {
      return true
    }
    resolveClip(for: Rect(area))
    let sink = makeSink(Shader(.solid(color), ctm: state.transform))
    shadeShadow(area: area, sigma: sigma, cuts: cuts(holes, within: area), into: sink)
    return true
  }

  /// The blurred alpha of `shapes` mapped by `transform` (device pixels), as a recording to
  /// fill anywhere moved by whole pixels; nil when they cannot be worked out per pixel, reach
  /// nothing, or reach more than `maxRecordedArea` pixels. Coverage under `floor` is left out
  /// (a shadow colour of alpha A blends nothing where coverage × A rounds to zero), and so are
  /// the pixels inside `cuts` (device rectangles of the recording's grid: what the caller's body
  /// covers with opaque colour).
  public func recordShadow(
    _ shapes: [ShadowShape], transform: Transform, sigma: Double, floor: UInt8 = 1,
    skipping cuts: [IntRect] = [], profiles: ShadowProfiles
  ) -> Coverage? {
    guard Canvas.canShadeShadow(shapes, transform: transform, sigma: sigma),
      let area = placeShadow(shapes, transform: transform, sigma: sigma, within: nil, profiles: profiles),
      area.width <= Coverage.maxWidth, area.width * area.height <= Canvas.maxRecordedArea
    else { return nil }
    let recorder = CoverageRecorder(bounds: area)
    shadeShadow(area: area, sigma: sigma, cuts: self.cuts(cuts, within: area), floor: floor, into: recorder)
    return recorder.finish()
  }

  /// Places the shapes on the device (the scratch's `placed`), each limited to `clip` if given;
  /// returns the pixels they reach together, nil for none.
  private func placeShadow(
    _ shapes: [ShadowShape], transform: Transform, sigma: Double, within clip: IntRect?,
    profiles: ShadowProfiles
  ) -> IntRect? {
    let s = (sigma * sigma + 1.0 / 12).squareRoot()
    let scratch = shadowScratch
    scratch.placed.removeAll(keepingCapacity: true)
    scratch.profiles.removeAll(keepingCapacity: true)
    var area = IntRect(x: 0, y: 0, width: 0, height: 0)
    let reach = 4 * s + 1
    var columns = 0
    for sh in shapes where sh.weight > 0 {
      let t = sh.transform.concatenating(transform)
      let o = t.apply(sh.rect.origin)
      let sx = (t.a * t.a + t.b * t.b).squareRoot()
      let sy = (t.c * t.c + t.d * t.d).squareRoot()
      let r = sh.radii.clamped(to: sh.rect.size)
      let bx = t.apply(sh.rect).insetBy(dx: -reach, dy: -reach)
      guard abs(bx.minX) < 1e9, abs(bx.minY) < 1e9, abs(bx.maxX) < 1e9, abs(bx.maxY) < 1e9 else { continue }
      var box = IntRect(enclosing: bx)
      if let clip { box = box.intersection(clip) }
      if box.isEmpty { continue }
      let aligned = t.isAxisAligned
      var p = PlacedShadowShape(
        ox: o.x, oy: o.y, exx: t.a / sx, exy: t.b / sx, eyx: t.c / sy, eyy: t.d / sy,
        w: sh.rect.width * sx, h: sh.rect.height * sy, weight: Float(min(1, sh.weight)), box: box,
        axisAligned: aligned, c0: CornerTable(), c1: CornerTable(), c2: CornerTable(), c3: CornerTable())
      func table(_ rr: Double) -> CornerTable {
        guard let pr = profiles.profile(rx: rr * sx, ry: rr * sy, sigma: s) else { return CornerTable() }
        scratch.profiles.append(pr)
        return CornerTable(pr)
      }
      p.c0 = table(r.topLeft)
      p.c1 = table(r.topRight)
      p.c2 = table(r.bottomRight)
      p.c3 = table(r.bottomLeft)
      if aligned {
        p.column = columns
        columns += box.width
      }
      scratch.placed.append(p)
      area = area.isEmpty ? box : area.union(box)
    }
    if scratch.placed.isEmpty { return nil }
    scratch.reserve(columns: columns, width: area.width)
    return area
  }

  /// Works out the placed shapes' summed alpha over `area`, row by row, less `cuts`, into `sink`.
  private func shadeShadow<S: SpanSink>(
    area: IntRect, sigma: Double, cuts: [IntRect], floor: UInt8 = 1, into sink: S
  ) {
    let s = (sigma * sigma + 1.0 / 12).squareRoot()
    let scratch = shadowScratch
    defer { scratch.profiles.removeAll(keepingCapacity: true) }
    Gaussian.phiTable.withUnsafeBufferPointer { tb in
      let pt = tb.baseAddress!
      // Per-column factors of axis-aligned shapes: Φ((w - q) / σ) + Φ(q / σ) - 1.
      let cb = scratch.columns
      for p in scratch.placed where p.axisAligned {
        for i in 0..<p.box.width {
          let q = (Double(p.box.x + i) + 0.5 - p.ox) * p.exx
          cb[p.column + i] = Gaussian.phi((p.w - q) / s, pt) + Gaussian.phi(q / s, pt) - 1
        }
      }
      let placed = scratch.placed
      placed.withUnsafeBufferPointer { placedBuffer in
        let row = scratch.row - area.x
        let columns = UnsafePointer(scratch.columns)
        for y in area.y..<area.maxY {
          // The parts of the row to draw: where a shape reaches, less the holes.
          scratch.segments.removeAll(keepingCapacity: true)
          var lo = Int.max
          var hi = Int.min
          for k in 0..<placedBuffer.count where y >= placedBuffer[k].box.y && y < placedBuffer[k].box.maxY {
            lo = min(lo, placedBuffer[k].box.x)
            hi = max(hi, placedBuffer[k].box.maxX)
          }
          if lo >= hi { continue }
          var x = lo
          for h in cuts where y >= h.y && y < h.maxY && h.maxX > x && h.x < hi {
            if h.x > x { scratch.segments.append((x, h.x)) }
            x = max(x, h.maxX)
          }
          if x < hi { scratch.segments.append((x, hi)) }
          if scratch.segments.isEmpty { continue }
          for (a, b) in scratch.segments { (row + a).update(repeating: 0, count: b - a) }
          for k in 0..<placedBuffer.count where y >= placedBuffer[k].box.y && y < placedBuffer[k].box.maxY {
            for (a, b) in scratch.segments {
              let lo = max(a, placedBuffer[k].box.x)
              let hi = min(b, placedBuffer[k].box.maxX)
              if hi <= lo { continue }
              accumulate(
                placedBuffer[k], y: y, from: lo, to: hi, sigma: s, into: row, columns: columns, phi: pt)
            }
          }
          emitShadowRow(y: y, row: row, floor: floor, into: sink)
        }
      }
    }
  }

  private var shadowScratch: ShadowScratch {
    if let s = analyticShadowScratch { return s }
    let s = ShadowScratch()
    analyticShadowScratch = s
    return s
  }

  /// Adds one shape's weighted blur over pixels `lo..<hi` of row `y`.
  @inline(__always) private func accumulate(
    _ p: PlacedShadowShape, y: Int, from lo: Int, to hi: Int, sigma s: Double,
    into row: UnsafeMutablePointer<Float>, columns: UnsafePointer<Float>, phi pt: UnsafePointer<Float>
  ) {
    let cy = Double(y) + 0.5
    let reach = 5 * s
    if p.axisAligned {
      let qy = (cy - p.oy) * p.eyy
      let fy = Gaussian.phi((p.h - qy) / s, pt) + Gaussian.phi(qy / s, pt) - 1
      if fy <= 0 { return }
      let col = columns + p.column - p.box.x
      // Corners reach rows near the top (0, 1) or the bottom (2, 3) edge.
      let nearTop = qy < max(p.c0.ry, p.c1.ry) + reach
      let nearBottom = p.h - qy < max(p.c2.ry, p.c3.ry) + reach
      let wf = p.weight
      if !nearTop && !nearBottom {
        let k = fy * wf
        for x in lo..<hi { row[x] += col[x] * k }
        return
      }
      // Within a corner row only the columns near the left and right edges meet a corner.
      let k = fy * wf
      let leftReach = max(nearTop ? p.c0.rx : 0, nearBottom ? p.c3.rx : 0) + reach
      let rightReach = max(nearTop ? p.c1.rx : 0, nearBottom ? p.c2.rx : 0) + reach
      // Columns where q < leftReach, and where w - q < rightReach (q grows with x when exx > 0).
      let e0 = p.exx > 0 ? p.ox + leftReach : p.ox - (p.w - rightReach)
      let e1 = p.exx > 0 ? p.ox + (p.w - rightReach) : p.ox - leftReach
      let m0 = max(lo, min(hi, Int((e0 - 0.5).rounded(.up))))
      let m1 = max(m0, min(hi, Int((e1 - 0.5).rounded(.down)) + 1))
      for x in m0..<m1 { row[x] += col[x] * k }
      for x in lo..<m0 {
        let qx = (Double(x) + 0.5 - p.ox) * p.exx
        let v = col[x] * fy - cornerValue(p, qx, qy)
        if v > 0 { row[x] += v * wf }
      }
      for x in m1..<hi {
        let qx = (Double(x) + 0.5 - p.ox) * p.exx
        let v = col[x] * fy - cornerValue(p, qx, qy)
        if v > 0 { row[x] += v * wf }
      }
      return
    }
    for x in lo..<hi {
      let ux = Double(x) + 0.5 - p.ox
      let uy = cy - p.oy
      let qx = ux * p.exx + uy * p.exy
      let qy = ux * p.eyx + uy * p.eyy
      if qx < -reach || qy < -reach || qx > p.w + reach || qy > p.h + reach { continue }
      var v =
        (Gaussian.phi((p.w - qx) / s, pt) + Gaussian.phi(qx / s, pt) - 1)
        * (Gaussian.phi((p.h - qy) / s, pt) + Gaussian.phi(qy / s, pt) - 1)
      v -= cornerValue(p, qx, qy)
      if v > 0 { row[x] += v * p.weight }
    }
  }

  /// The blurred cut-outs of the four corners at (qx, qy) in the shape's frame.
  @inline(__always) private func cornerValue(_ p: PlacedShadowShape, _ qx: Double, _ qy: Double) -> Float {
    p.c0.value(qx, qy) + p.c1.value(p.w - qx, qy) + p.c2.value(p.w - qx, p.h - qy) + p.c3.value(qx, p.h - qy)
  }

  /// Blends row `y`'s summed alphas (scratch row) over its segments: zeros skipped, full alpha
  /// as solid spans. A span of partial alphas takes in up to three zeros beside it (after it, else
  /// before it, within its segment) to be a whole number of quads long: blended four pixels at a
  /// time, a zero leaves its pixel as it is, and the span then ends with no shorter piece (which
  /// took a quad of its own, overlapping the one before it: a load that waited for that store).
  private func emitShadowRow<S: SpanSink>(
    y: Int, row: UnsafeMutablePointer<Float>, floor: UInt8, into sink: S
  ) {
    let scratch = shadowScratch
    let x0 = scratch.segments[0].0
    do {
      do {
        let bytes = scratch.bytes - x0
        for (a, b) in scratch.segments {
          for x in a..<b {
            let v = UInt8(min(255, max(0, row[x] * 255 + 0.5)))
            bytes[x] = v < floor ? 0 : v
          }
          var x = a
          // The end of the last span given (zeros before it may not be taken in again).
          var given = a
          while x < b {
            let v = bytes[x]
            var e = x + 1
            if v == 0 || v == 255 {
              while e < b && bytes[e] == v { e += 1 }
              if v == 255 {
                sink.solidSpan(y: y, x: x, count: e - x, alpha: 255)
                given = e
              }
            } else {
              while e < b && bytes[e] != 0 && bytes[e] != 255 { e += 1 }
              var start = x
              let short = (4 - (e - x) & 3) & 3
              if short > 0 {
                if e + short <= b && ShadowScratch.allZero(bytes + e, short) {
                  e += short
                } else if x - short >= given && ShadowScratch.allZero(bytes + x - short, short) {
                  start = x - short
                }
              }
              sink.maskSpan(y: y, x: start, alphas: bytes + start, count: e - start)
              given = e
            }
            x = e
          }
        }
      }
    }
  }
}
