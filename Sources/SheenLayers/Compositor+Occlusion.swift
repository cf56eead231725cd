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
//
// The covers are listed once per band (`listBandCovers`, a walk of the band's nodes); each strip
// of it takes those that reach its rows (`takeCovers`), and files them by column of 64 pixels
// (`CoverColumns`), so that what a node asks of them (the rows they hide, the holes they make in
// its reach) looks only at the covers in the columns its reach crosses: a grid of small tiles
// asked each of the next 64 covers for each of its nodes. The answers are those of a walk of all
// the covers in order.
extension Compositor {
  /// Lists the covers of the band whose first sibling is `first`, within the canvas' clip (when
  /// occluding).
  func listBandCovers(first: Int, _ canvas: Canvas) {
    bandCoverIndex.removeAll(keepingCapacity: true)
    bandCoverRect.removeAll(keepingCapacity: true)
    guard skipsOccludedLayers else { return }
    let clip = canvas.clipBounds.intersection(canvas.surface.bounds)
    if clip.isEmpty { return }
    collectCovers(first: first, stop: nodes.count, clip: clip)
  }

  /// The band's covers that reach `clip`, cut to it, in order (at most `maxCovers`).
  func takeCovers(within clip: IntRect) {
    for k in 0..<bandCoverRect.count where coverIndex.count < Compositor.maxCovers {
      let r = bandCoverRect[k].intersection(clip)
      if r.isEmpty { continue }
      coverIndex.append(bandCoverIndex[k])
      coverRect.append(r)
    }
  }

  /// Lists the covers of the siblings from `first` (see the top of this file).
  func collectCovers(first: Int, stop: Int, clip: IntRect) {
    var j = first
    while j < stop {
      let n = node(j)
      let next = after(j)
      defer { j = next }
      guard n.pointee.kind == .drawn, n.pointee.opacity >= 1, !n.pointee.hasMask else { continue }
      let ctm = n.pointee.ctm
      if bandCoverIndex.count < Compositor.maxBandCovers {
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
    bandCoverIndex.append(i)
    bandCoverRect.append(r)
  }

  /// The most covers a strip (or a band drawn whole) takes (a bounded cost per node).
  static let maxCovers = 512
  /// The most covers a band lists for its strips.
  static let maxBandCovers = 8192
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
    // Only covers that meet the reach can hide its rows (and it only shrinks).
    coverColumns.meeting(r, from: from, end: end, covers: coverRect)
    if coverColumns.found.isEmpty { return r }
    var changed = true
    var passes = 0
    while changed && passes < 4 {
      changed = false
      passes += 1
      for k in coverColumns.found {
        let c = coverRect[Int(k)]
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
    coverColumns.meeting(extent, from: from, end: end, covers: coverRect)
    for k in coverColumns.found where holes.count - start < 16 {
      holes.append(coverRect[Int(k)].intersection(extent))
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

/// Covers filed by column of the clip (64 pixels each), to find those that meet a rectangle
/// without asking every cover in turn: for column c, `entries[starts[c]..<starts[c + 1]]` are the
/// positions (in drawing order, ascending) of the covers that reach into it.
struct CoverColumns {
  static let shift = 6
  private(set) var origin = 0
  private(set) var columns = 0
  private var starts: [Int32] = []
  private var fill: [Int32] = []
  private var entries: [Int32] = []
  /// What `meeting` found: positions, ascending.
  private(set) var found: [Int32] = []

  /// Files `covers` (each within `clip`).
  mutating func index(_ covers: [IntRect], within clip: IntRect) {
    origin = clip.x
    columns = max(1, (clip.width + (1 << CoverColumns.shift) - 1) >> CoverColumns.shift)
    starts.removeAll(keepingCapacity: true)
    starts.append(contentsOf: repeatElement(0, count: columns + 1))
    entries.removeAll(keepingCapacity: true)
    if covers.isEmpty { return }
    for r in covers {
      let (a, b) = span(r.x, r.maxX)
      if a > b { continue }
      for c in a...b { starts[c + 1] += 1 }
    }
    for c in 0..<columns { starts[c + 1] += starts[c] }
    fill.removeAll(keepingCapacity: true)
    fill.append(contentsOf: starts)
    entries.append(contentsOf: repeatElement(0, count: Int(starts[columns])))
    for (k, r) in covers.enumerated() {
      let (a, b) = span(r.x, r.maxX)
      if a > b { continue }
      for c in a...b {
        entries[Int(fill[c])] = Int32(k)
        fill[c] += 1
      }
    }
  }

  /// The columns that pixels `x0..<x1` cross, clamped to the clip's (a > b: none).
  @inline(__always) private func span(_ x0: Int, _ x1: Int) -> (Int, Int) {
    if x1 <= x0 { return (1, 0) }
    let a = max(0, (x0 - origin) >> CoverColumns.shift)
    let b = min(columns - 1, (x1 - 1 - origin) >> CoverColumns.shift)
    return (a, b)
  }

  /// Sets `found` to the positions in `from..<end` of the covers that meet `r`, ascending: the
  /// ones a walk of `covers[from..<end]` would find meeting it, in the same order.
  mutating func meeting(_ r: IntRect, from: Int, end: Int, covers: [IntRect]) {
    found.removeAll(keepingCapacity: true)
    if r.isEmpty || from >= end || columns == 0 { return }
    let (a, b) = span(r.x, r.maxX)
    if a > b { return }
    if Int(starts[b + 1] - starts[a]) >= end - from {
      // The columns hold no fewer entries than the walk has covers (large covers across many
      // columns): the walk.
      for k in from..<end {
        let q = covers[k]
        if q.x < r.maxX && q.maxX > r.x && q.y < r.maxY && q.maxY > r.y { found.append(Int32(k)) }
      }
      return
    }
    for c in a...b {
      // The first entry at or after `from` (entries are ascending).
      var lo = Int(starts[c])
      var hi = Int(starts[c + 1])
      while lo < hi {
        let mid = (lo + hi) >> 1
        if Int(entries[mid]) < from { lo = mid + 1 } else { hi = mid }
      }
      let stop = Int(starts[c + 1])
      while lo < stop {
        let k = Int(entries[lo])
        if k >= end { break }
        lo += 1
        let q = covers[k]
        guard q.x < r.maxX, q.maxX > r.x, q.y < r.maxY, q.maxY > r.y else { continue }
        // A cover across several columns is found once: in the column where it starts to meet r.
        if c != a && (max(q.x, r.x) - origin) >> CoverColumns.shift != c { continue }
        found.append(Int32(k))
      }
    }
    if b > a && found.count > 1 {
      // Insertion sort (a few positions).
      for i in 1..<found.count {
        let v = found[i]
        var j = i
        while j > 0 && found[j - 1] > v {
          found[j] = found[j - 1]
          j -= 1
        }
        found[j] = v
      }
    }
  }
}
