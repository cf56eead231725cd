// The display list binned into a frame's bands (issue 15's "How", third bullet: "binned into
// bands once (coarse), and each band replays its bin (fine)").
//
// Once per frame, on the caller's thread and before any band starts, every node of the list is
// given the set of bands its device pixels can touch: its extent (shadow and subtree included,
// as the compositor culls it) cut by the boxes of the clips above it (`masksToBounds`). A band's
// bin is then the nodes whose set holds it, linked sibling to sibling: the first member of the
// top-level nodes, and for each node its first member child and its next member sibling. A band
// replays only that chain, so a node or a subtree that does not reach it is never visited (not
// even to be culled). Below a layer whose shadow is made from its alpha, or inside a mask, the
// whole subtree is drawn offscreen wherever it lies: it is in every bin of its top node.
//
// The storage (a band mask and two links per node and band) is kept from frame to frame: a steady
// frame allocates nothing.

import SheenRaster

/// A display list's bins for one frame's bands (see the top of this file).
struct DisplayBins: Sendable {
  /// How many bands, and nodes, the bins were made for.
  private(set) var bandCount = 0
  private(set) var nodeCount = 0
  /// The rows of band b are `edges[b]..<edges[b + 1]`.
  private var edges: [Int] = []
  /// Bit b of `mask[i]`: node i is in band b's bin (at most 64 bands).
  private(set) var mask: [UInt64] = []
  /// The index of node i's next sibling, or `nodeCount` (scratch for the links).
  private var sibling: [Int] = []
  /// `next[b * nodeCount + i]`: node i's next sibling in band b's bin, or `nodeCount` when none.
  private(set) var next: [Int] = []
  /// `child[b * nodeCount + i]`: node i's first child in band b's bin, or `nodeCount`.
  private(set) var child: [Int] = []
  /// `roots[b]`: the first top-level node in band b's bin, or `nodeCount`.
  private(set) var roots: [Int] = []

  /// The most bands a frame is binned into.
  static let maxBands = 64

  /// Bins `list` into bands of `rows` (consecutive, top to bottom) of a surface `width` pixels
  /// wide, in place.
  mutating func make(_ list: DisplayList, rows: [Range<Int>], width: Int) {
    precondition(rows.count <= DisplayBins.maxBands)
    let n = list.nodes.count
    bandCount = rows.count
    nodeCount = n
    edges.removeAll(keepingCapacity: true)
    for r in rows { edges.append(r.lowerBound) }
    edges.append(rows.last?.upperBound ?? 0)
    mask.removeAll(keepingCapacity: true)
    mask.append(contentsOf: repeatElement(0, count: n))
    sibling.removeAll(keepingCapacity: true)
    sibling.append(contentsOf: repeatElement(n, count: n))
    let top = edges.first ?? 0
    let frame = IntRect(x: 0, y: top, width: width, height: (edges.last ?? 0) - top)
    list.nodes.withUnsafeBufferPointer { nodes in
      mark(nodes, first: 0, stop: n, clip: frame, forced: nil)
    }
    // The links, band by band, from the last node back: a node's next sibling (and first child)
    // in the bin is that sibling (child) if it is a member, else that one's next in the bin.
    next.removeAll(keepingCapacity: true)
    next.append(contentsOf: repeatElement(n, count: n * bandCount))
    child.removeAll(keepingCapacity: true)
    child.append(contentsOf: repeatElement(n, count: n * bandCount))
    roots.removeAll(keepingCapacity: true)
    list.nodes.withUnsafeBufferPointer { nodes in
      for b in 0..<bandCount {
        let bit = UInt64(1) << UInt64(b)
        let base = b * n
        var i = n - 1
        while i >= 0 {
          let s = sibling[i]
          if s < n { next[base + i] = mask[s] & bit != 0 ? s : next[base + s] }
          let c = nodes[i].childStart
          if nodes[i].childCount > 0, c < n { child[base + i] = mask[c] & bit != 0 ? c : next[base + c] }
          i -= 1
        }
        roots.append(n == 0 ? n : (mask[0] & bit != 0 ? 0 : next[base]))
      }
    }
  }

  /// Gives the siblings `first..<stop` (and their subtrees) their bands: those their extent
  /// within `clip` touches, or `forced`'s (below an alpha shadow or in a mask).
  private mutating func mark(
    _ nodes: UnsafeBufferPointer<DisplayNode>, first: Int, stop: Int, clip: IntRect, forced: UInt64?
  ) {
    var j = first
    while j < stop {
      let e = nodes[j].end
      sibling[j] = e < stop ? e : nodeCount
      guard nodes[j].kind == .drawn else {
        // Hidden nodes draw nothing and culled ones are drawn by no band; neither has a subtree.
        if let f = forced { mask[j] = f }
        j = e
        continue
      }
      let bits = forced ?? bands(touching: nodes[j].deviceExtent.intersection(clip))
      mask[j] = bits
      if bits != 0 && e > j + 1 {
        // Below a shadow of the layer's alpha the body is drawn offscreen whole; so is a mask.
        let alphaShadow = nodes[j].shadowVisible && nodes[j].shadowPath == nil
        let c = nodes[j].childStart
        if nodes[j].hasMask { mark(nodes, first: j + 1, stop: c, clip: clip, forced: bits) }
        var inner = clip
        if nodes[j].masksToBounds {
          inner = clip.intersection(
            IntRect(enclosing: nodes[j].ctm.apply(nodes[j].bounds).insetBy(dx: -1, dy: -1)))
        }
        mark(nodes, first: c, stop: e, clip: inner, forced: alphaShadow ? bits : forced)
      }
      j = e
    }
  }

  /// The bands whose rows `r` (device pixels) meets.
  private func bands(touching r: IntRect) -> UInt64 {
    if r.isEmpty { return 0 }
    var bits: UInt64 = 0
    for b in 0..<bandCount where edges[b] < r.maxY && edges[b + 1] > r.y {
      bits |= UInt64(1) << UInt64(b)
    }
    return bits
  }

  /// The nodes in band `b`'s bin, in drawing order (for tests).
  func members(ofBand b: Int) -> [Int] {
    (0..<nodeCount).filter { mask[$0] & (UInt64(1) << UInt64(b)) != 0 }
  }
}
