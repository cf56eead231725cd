import SheenRaster

// Occlusion (issue 15's "How", fourth bullet): pixels that later opaque layers cover in the same
// band are not drawn.
//
// Before a band (or a whole canvas) is drawn, the compositor lists its covers: in drawing order,
// the device rectangles that a layer's own opaque background certainly paints (the two
// rectangles of its rounded bounds between the corners, whole pixels only, under an
// axis-aligned transform), cut by the clips above it and by the band, for layers drawn straight
// onto the canvas (no group opacity or mask at or above them). A pixel such a background paints
// is replaced whatever was under it, so anything drawn there before it is not drawn:
// - a node all of whose reach (shadow and subtree) later covers hide is not drawn, and one
//   whose rows at the top or bottom are hidden is drawn clipped to the rows left;
// - its shadow and background skip the pixels covers after it hide (its background under its own
//   opaque sublayers too: the window's background under cards), text and the border too;
// - the band is cleared only where no cover hides it (`Canvas.clear(_:skipping:)`: whole rows
//   and, within a row, the spans between covers).
// Nothing is left out while a body is drawn offscreen for a shadow of its alpha (the blur would
// see it) or a mask is drawn.
extension Compositor {
  /// Lists the covers of the siblings from `first` (see the top of this file).
  func collectCovers(first: Int, stop: Int, clip: IntRect) {
    var j = first
    while j < stop {
      let n = node(j)
      let next = after(j)
      defer { j = next }
      guard n.pointee.kind == .drawn, n.pointee.opacity >= 1, !n.pointee.hasMask else { continue }
      let ctm = n.pointee.ctm
      if coverIndex.count < Compositor.maxCovers {
        if let a = n.pointee.coverAcross, let d = Compositor.deviceInterior(a, ctm) {
          addCover(j, d.intersection(clip))
        }
        if let b = n.pointee.coverDown, let d = Compositor.deviceInterior(b, ctm) {
          addCover(j, d.intersection(clip))
        }
      }
      guard n.pointee.childCount > 0 else { continue }
      var inner = clip
      if n.pointee.masksToBounds {
        let r = n.pointee.shape.radii
        let m = max(r.topLeft, r.topRight, r.bottomLeft, r.bottomRight)
        guard let box = Compositor.deviceInterior(n.pointee.bounds.insetBy(dx: m, dy: m), ctm) else {
          continue
        }
        inner = clip.intersection(box)
        if inner.isEmpty { continue }
      }
      if binned {
        collectCovers(first: binChild[j], stop: nodes.count, clip: inner)
      } else {
        collectCovers(first: n.pointee.childStart, stop: n.pointee.end, clip: inner)
      }
    }
  }

  @inline(__always) private func addCover(_ i: Int, _ r: IntRect) {
    if r.isEmpty { return }
    coverIndex.append(i)
    coverRect.append(r)
  }

  /// The most covers a band lists (a bounded cost per node).
  static let maxCovers = 512
  /// How many covers after a node are looked at for it.
  static let coverLookahead = 64

  /// The position in the covers of the first one painted by a node at or after `index`.
  func firstCover(atOrAfter index: Int) -> Int {
    var lo = 0
    var hi = coverIndex.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if coverIndex[mid] < index { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// Works out `coverWidest` for the covers listed.
  func measureCovers() {
    let n = coverRect.count
    coverWidest.removeAll(keepingCapacity: true)
    coverWidest.append(contentsOf: repeatElement(0, count: n))
    var widest = 0
    var k = n - 1
    while k >= 0 {
      widest = max(widest, coverRect[k].width)
      coverWidest[k] = widest
      k -= 1
    }
  }

  /// The rows of `reach` that the covers from position `from` do not hide: rows at the top or
  /// bottom that a cover spans across the whole width are taken off (empty when none is left).
  func visibleRows(_ reach: IntRect, from: Int) -> IntRect {
    var r = reach
    let end = min(coverRect.count, from + Compositor.coverLookahead)
    if from >= end || r.isEmpty { return r }
    // No cover from here on is as wide as the reach (small tiles' shadows and the like): none
    // spans it (a cover that does is at least as wide).
    if from < coverWidest.count && coverWidest[from] < r.width { return r }
    var changed = true
    var passes = 0
    while changed && passes < 4 {
      changed = false
      passes += 1
      for k in from..<end {
        let c = coverRect[k]
        guard c.x <= r.x, c.maxX >= r.maxX, c.y < r.maxY, c.maxY > r.y else { continue }
        if c.y <= r.y && c.maxY >= r.maxY { return IntRect(x: r.x, y: r.y, width: r.width, height: 0) }
        if c.y <= r.y {
          r = IntRect(x: r.x, y: c.maxY, width: r.width, height: r.maxY - c.maxY)
          changed = true
        } else if c.maxY >= r.maxY {
          r = IntRect(x: r.x, y: r.y, width: r.width, height: c.y - r.y)
          changed = true
        }
      }
    }
    return r
  }

  /// Appends to `holes` the covers from position `from` that meet `extent` (at most 16), and
  /// counts the pixels of `extent` they hide.
  func addHoles(_ holes: inout [IntRect], meeting extent: IntRect, from: Int) {
    if extent.isEmpty { return }
    let end = min(coverRect.count, from + Compositor.coverLookahead)
    if from >= end { return }
    let start = holes.count
    for k in from..<end where holes.count - start < 16 {
      let c = coverRect[k].intersection(extent)
      if !c.isEmpty { holes.append(c) }
    }
    if holes.count > start {
      counts.pixelsNotDrawn += Compositor.unionArea(
        holes[start...], scratch: &areaScratch, sorted: &areaRects)
    }
  }

  /// The number of pixels in the union of a few rectangles (slab by slab; `scratch` and `sorted`
  /// are kept storage).
  static func unionArea(_ rects: ArraySlice<IntRect>, scratch: inout [Int], sorted: inout [IntRect]) -> Int {
    if rects.count == 1 { return rects.first!.width * rects.first!.height }
    scratch.removeAll(keepingCapacity: true)
    sorted.removeAll(keepingCapacity: true)
    for r in rects {
      scratch.append(r.y)
      scratch.append(r.maxY)
      // Insertion by x (a few rectangles).
      var k = sorted.count
      sorted.append(r)
      while k > 0 && sorted[k - 1].x > r.x {
        sorted[k] = sorted[k - 1]
        k -= 1
      }
      sorted[k] = r
    }
    // Insertion sort (a few dozen edges; no buffer).
    for k in 1..<scratch.count {
      let v = scratch[k]
      var m = k
      while m > 0 && scratch[m - 1] > v {
        scratch[m] = scratch[m - 1]
        m -= 1
      }
      scratch[m] = v
    }
    var area = 0
    for k in 0..<scratch.count - 1 {
      let y0 = scratch[k]
      let y1 = scratch[k + 1]
      if y1 <= y0 { continue }
      var x = Int.min
      var covered = 0
      for r in sorted where r.y <= y0 && r.maxY >= y1 && r.maxX > x {
        covered += r.maxX - max(r.x, x)
        x = r.maxX
      }
      area += covered * (y1 - y0)
    }
    return area
  }

  /// Whether ops are left out now (not while a body is drawn offscreen for its shadow or a mask).
  var occludes: Bool { skipsOccludedLayers && offscreenDepth == 0 && !coverIndex.isEmpty }
}
