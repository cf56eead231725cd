// The raster cache (issue 17): a subtree whose drawing does not change from frame to frame is
// drawn once into a premultiplied bitmap and then composited as one image each frame (a fill
// where it is one opaque colour, a row copy where it is opaque, a blend at its edges and
// shadow), instead of replaying every shape, glyph run, shadow and photo of it. Flutter's raster
// cache, Chromium's tiles and Core Animation's `shouldRasterize` do the same.
//
// Which subtrees:
// - a layer with `shouldRasterize` (Core Animation's meaning), on the first frame it shows: its
//   bitmap is made at `rasterizationScale` pixels per point and drawn with the layer's transform
//   (magnified, and so blurry, when the scale is below the one it is shown at, as on iOS), or
//   one pixel for one when it is shown at exactly that scale, unturned;
// - automatically (`FrameRenderer.rasterizesAutomatically`), a subtree with enough in it to be
//   worth it, nothing of it culled, and at most a tenth of the frame's pixels (`makeFraction`):
//   - shown for the first time (launch, a row that came wholly into view, a new screen), it is
//     kept the first frame it is drawn whole;
//   - one whose layer was made into a bitmap lately (within `recentFrames`) is kept once drawn
//     the same way (same drawing, same linear transform, same place within a device pixel) for
//     `stableFrames` consecutive frames, and so are its sublayers;
//   - one that was kept and then changed in place (a pressed card) is not made whole again while
//     it stays on screen: its still sublayers, and runs of its small still siblings, are kept
//     instead, and the changing part drawn as it is. One that changes every frame (an
//     animation) is never kept.
//   At most a tenth of the frame's pixels are made into bitmaps per frame (`makeFraction`; no
//   bound while the cache holds nothing, as at launch): the rest is drawn directly and made in a
//   later frame, so filling the cache costs no frame much more than drawing it directly. A list
//   scrolled by whole pixels composites its cards from the cache;
// - ahead of showing: views drawn in the idle time between frames where they will show (the
//   cells a collection view makes ahead of scrolling, `UIWindow.warmRendererCaches`, through a
//   renderer that `rendersAhead`) have their subtrees made into bitmaps there, as if shown for
//   the first time, and kept `aheadFrames` frames unused: a row scrolling into view then costs
//   its frames a composite, not a drawing and a making (`prepare(ahead:)`).
// A subtree the frame culls in part (a row at the top or bottom edge) is not all in the list, so
// its key cannot be worked out; while its layer's `preparedStamp` is the one it had when its
// bitmap was made (nothing in the subtree changed), that bitmap is composited, clipped by the
// frame.
//
// What a subtree draws is a hash of the display list's nodes (as `DrawKey`, but of everything,
// sublayers on an opaque background included), so any change below (a colour, text, an image,
// a shadow, a hidden sublayer) makes another key and another bitmap; moving the subtree by whole
// pixels does not. Bitmaps are made on the thread that prepares the frame, before the bands draw,
// into a canvas of their own: the pixels do not depend on the number of threads or the bands.
// A composited bitmap differs from drawing the subtree directly only by source-over rounding where
// its translucent pixels (anti-aliased edges, shadows) meet what is below: at most 1/255 per
// channel where one layer's edge or shadow is translucent (opaque pixels are the same bytes).
//
// Bitmaps are kept as runs (`RunImage`) in one mapping of the budget's size (`RunStore`), the
// least recently used let go, and any not composited for a few frames (rows scrolled away): the
// cache holds what is on screen. Making one draws into a kept canvas and writes its runs into a
// block of the store: a frame that makes bitmaps allocates nothing (AllocationTests).

import SheenRaster
import Synchronization

/// What a node draws instead of its subtree: a kept bitmap.
enum RasterPlacement: @unchecked Sendable {
  /// Runs composited one pixel for one, their pixel (0, 0) at device pixel (x, y).
  case device(RunImage, x: Int, y: Int)
  /// A bitmap of the layer at its rasterization scale, drawn with `transform` (bitmap pixels to
  /// device pixels), sampled bilinearly.
  case scaled(Surface, Transform)
}

/// The raster cache's drawing canvas, used only under its lock.
struct KeptCanvas: @unchecked Sendable {
  let canvas: Canvas
}

/// Bitmaps of unchanged subtrees (see the top of this file). Used on the thread that prepares
/// frames (`prepare`); the bands only read what it placed in the display list.
public final class RasterCache: Sendable {
  /// Bytes of bitmaps kept, by default: what the demo's visible cards need at 1920x1080.
  public static let defaultBudget = 8 << 20
  /// Consecutive frames a subtree must be drawn unchanged before it is kept automatically, when
  /// its layer's subtree was made into a bitmap lately (it changes: a pressed card, an
  /// animation). One shown for the first time (a row coming into view, a new screen), or whose
  /// last bitmap is older than `recentFrames`, is kept the first frame it is drawn whole.
  public static let stableFrames = 3
  /// Frames after making a layer's bitmap during which another of it waits `stableFrames`.
  static let recentFrames = 30
  /// The most pixels of bitmaps made automatically in one frame, as a fraction of the frame's
  /// pixels (1 / this, and at least `fewestMadePixels`), which is also the largest subtree kept
  /// automatically: what a frame costs more than one drawing everything directly is bounded
  /// (making a bitmap costs about twice drawing its subtree), and filling the cache is spread
  /// over frames; what is left waits for the next frame, drawn directly. At 1920x1080 that is
  /// 207,360 pixels: a card of the demo (364x204) but not a row of five. While the cache holds
  /// nothing (the first frame after launch, or after nothing was kept on screen for
  /// `unusedFrames` frames), a frame makes every bitmap it finds worth making: the frames after
  /// it would otherwise each draw directly most of what it drew, and a first frame costs more
  /// than the others anyway (layout, text, images). Measured with `sheen bench press` and `sheen
  /// bench --cold` (README, "Raster cache").
  public static let makeFraction = 10
  /// The least of the pixels made per frame (and largest subtree) however small the frame.
  public static let fewestMadePixels = 1 << 16
  /// The fewest layers in a subtree kept automatically (one layer is drawn about as fast as
  /// its bitmap is composited).
  static let fewestLayers = 3
  /// Frames after which a bitmap not composited is let go (what scrolled off screen).
  static let unusedFrames = 4
  /// Frames a bitmap made ahead of showing (idle work, `prepare(ahead:)`) is kept unused: a
  /// second at 60 Hz, time for the rows made ahead (half a screen) to scroll into view.
  static let aheadFrames = 60
  /// The most pixels of a subtree kept automatically (its drawing canvas is kept at up to that
  /// size): 2 MB, a wide row of cards at 1920x1080.
  static let largestAutomatic = 1 << 19

  struct Key: Hashable {
    var content: Int
    /// The linear part of the transform to device pixels, and where the layer's origin falls
    /// within a device pixel; or for a scaled bitmap, its scale (and zeros).
    var a: Double, b: Double, c: Double, d: Double, fx: Double, fy: Double
    var scale: Double
  }

  struct Entry {
    var device: RunImage?
    /// The device image's block in the store (-1: its own memory).
    var offset: Int
    var scaled: Surface?
    /// Where the bitmap's pixel (0, 0) is: from the whole part of the layer's device origin, or
    /// in bitmap pixels of the layer's coordinates at its scale.
    var dx: Int
    var dy: Int
    var bytes: Int
    var lastUsed: Int
  }

  /// When a layer's subtree was last made into a bitmap automatically (or last found changed in
  /// place since: it is then kept in parts), when it was last seen, and what it drew when made.
  struct Made {
    var frame: Int
    var seen: Int
    var content: Int
    /// The layer's `preparedStamp` when made: while it is the same, the subtree draws `content`
    /// even where the frame culls part of it (a row scrolling in or out at an edge).
    var stamp: UInt64
    /// When made ahead (`prepare(ahead:)`), the frame until which the record is kept unseen.
    var aheadUntil = 0
  }

  /// How long a subtree has been drawn the same way.
  struct Track {
    var frames: Int
    var lastFrame: Int
  }

  struct State {
    var entries: [Key: Entry] = [:]
    var bytes = 0
    var budget = RasterCache.defaultBudget
    var frame = 0
    var tracks: [Key: Track] = [:]
    /// Keys let go of at once (storage kept).
    var doomed: [Key] = []
    /// Layers whose subtrees were made into bitmaps automatically (forgotten `recentFrames`
    /// frames after they were last seen).
    var made: [ObjectIdentifier: Made] = [:]
    var doomedLayers: [ObjectIdentifier] = []
    /// Pixels of bitmaps made automatically this frame, and the most it may make (0: no bound).
    var madePixels = 0
    var makeLimit = 0
    /// `makeFraction`, or 0 for no bound (see `pixelsMadePerFrameFraction`).
    var fraction = RasterCache.makeFraction
    /// Whether the last subtree `automatically` looked at waits for room in this frame's making
    /// (`mayMake`): its sublayers are not kept in runs meanwhile.
    var deferred = false
    /// The most pixels of one subtree kept automatically in this frame.
    var largest = RasterCache.largestAutomatic
    /// Where device bitmaps' runs are kept (made with the first one, the budget's size).
    var store: RunStore?
    /// The canvas bitmaps are drawn with (kept, pointed at `scratch`; only used under the lock).
    var canvas: KeptCanvas?
    /// Per node of the list being prepared: what its subtree draws, and with its place.
    var inner: [Int] = []
    var placed: [Int] = []
    var stats = RenderContext.Statistics()
    /// Where bitmaps are drawn before they are made into runs (kept; see `canvas(_:_:_:)`):
    /// memory for as many pixels as the largest bitmap drawn, and surfaces of the widths drawn
    /// lately over it (at most `scratchShapes`).
    var scratch: Surface?
    var shaped: [Surface] = []
    /// Whether the list being prepared is drawn ahead (idle work), not a frame.
    var ahead = false
    /// What bitmaps used now are marked as last used in: this frame, or for bitmaps made ahead
    /// a frame `aheadFrames` later (kept until they show).
    var usedAt = 0
    /// The largest subtree kept automatically in the last frame (what a list drawn ahead keeps).
    var frameLargest = RasterCache.largestAutomatic
    /// The bitmaps placed while walking the list (storage kept): the node, its bitmap, and for
    /// a run of siblings the index after the run and the device pixels it reaches.
    var placements: [(node: Int, raster: RasterPlacement, spanEnd: Int, reach: IntRect)] = []
  }

  private let state: Mutex<State>

  public init() {
    var s = State()
    s.entries.reserveCapacity(256)
    s.tracks.reserveCapacity(1024)
    s.doomed.reserveCapacity(1024)
    s.made.reserveCapacity(1024)
    s.doomedLayers.reserveCapacity(1024)
    s.placements.reserveCapacity(256)
    s.shaped.reserveCapacity(RasterCache.scratchShapes)
    state = Mutex(s)
  }

  /// Bytes of bitmaps held.
  public var bytes: Int { state.withLock { $0.bytes } }

  /// The most pixels made into bitmaps automatically per frame (and of one subtree), as a
  /// fraction of the frame's pixels: 1 / this (`makeFraction` unless set); 0 sets no bound.
  public var pixelsMadePerFrameFraction: Int {
    get { state.withLock { $0.fraction } }
    set { state.withLock { $0.fraction = max(0, newValue) } }
  }

  /// How many bitmaps are held.
  public var count: Int { state.withLock { $0.entries.count } }

  /// Bytes of the store's mapping ever written (what it can hold resident): at most the budget.
  public var storeHighWater: Int { state.withLock { $0.store?.highWater ?? 0 } }

  /// Free bytes the store keeps resident for the swing of what it held lately
  /// (`RunStore.swingAllowance`).
  public var storeSwingAllowance: Int { state.withLock { $0.store?.swingAllowance ?? 0 } }

  /// The store's pages: bytes resident (written and not given back) and pages faulted in.
  public var storePages: (resident: Int, faulted: Int) {
    state.withLock { s in (s.store?.residentBytes ?? 0, s.store?.pagesFaulted ?? 0) }
  }

  /// The store (nil until the first device bitmap is kept).
  var store: RunStore? { state.withLock { $0.store } }

  /// Bytes of the kept canvas's surface that bitmaps are drawn in (at most `largestAutomatic`
  /// pixels).
  public var scratchBytes: Int { state.withLock { s in s.scratch.map { $0.width * $0.height * 4 } ?? 0 } }

  /// The most bytes of bitmaps held at once; lowering it lets go of the least recently used.
  public var budget: Int {
    get { state.withLock { $0.budget } }
    set {
      state.withLock { s in
        s.budget = max(0, newValue)
        RasterCache.evict(&s, toFit: 0, keepingFrame: Int.max)
        if let k = s.scratch, k.width * k.height * 4 > s.budget / 2 {
          s.shaped.removeAll(keepingCapacity: true)
          s.scratch = nil
          s.canvas = nil
        }
        // The store is the budget's size: made again, empty, at the new one.
        if let store = s.store, store.capacity != RasterCache.storeCapacity(s.budget) {
          RasterCache.removeEntries(&s)
          s.store = nil
        }
      }
    }
  }

  /// Lets go of every bitmap.
  public func removeAll() {
    state.withLock { s in
      RasterCache.removeEntries(&s)
      s.tracks.removeAll(keepingCapacity: true)
      s.shaped.removeAll(keepingCapacity: true)
      s.scratch = nil
      s.canvas = nil
      s.store = nil
    }
  }

  /// Places kept bitmaps in `list` (made now where missing) for the layers that are rasterized
  /// (`shouldRasterize`) and, with `automatic`, for subtrees drawn unchanged for a few frames.
  /// `compositor` draws the missing bitmaps (it must not be drawing anything else).
  /// `framePixels` (the frame's size) bounds the pixels made automatically per frame.
  ///
  /// With `ahead`, `list` is not a frame but views drawn before they show, where they will show
  /// (idle work: `FrameRenderer.rendersAhead`, the cells a collection view makes ahead of
  /// scrolling): every subtree worth keeping that it holds whole is made now, as one shown for
  /// the first time would be in a frame, with no bound per frame (it costs no frame), and kept
  /// `aheadFrames` frames for the frames that show it. No frame is counted.
  func prepare(
    _ list: inout DisplayList, compositor: Compositor, automatic: Bool, framePixels: Int = 0,
    ahead: Bool = false
  ) {
    if !automatic && list.rasterizedCount == 0 { return }
    let stats = state.withLock { s -> RenderContext.Statistics in
      s.ahead = ahead
      if !ahead { s.frame += 1 }
      s.usedAt = ahead ? s.frame + RasterCache.aheadFrames : s.frame
      s.stats = RenderContext.Statistics()
      s.madePixels = 0
      if ahead {
        s.makeLimit = 0
        s.largest = s.frameLargest
      } else {
        let limit =
          framePixels > 0 && s.fraction > 0 ? max(RasterCache.fewestMadePixels, framePixels / s.fraction) : 0
        // No bound while the cache holds nothing, or when none is set (`limit` 0: a fraction of
        // 0, or no frame size given).
        s.makeLimit = s.entries.isEmpty ? 0 : limit
        s.largest = limit > 0 ? min(RasterCache.largestAutomatic, limit) : RasterCache.largestAutomatic
        s.frameLargest = s.largest
      }
      RasterCache.computeKeys(list, &s)
      s.placements.removeAll(keepingCapacity: true)
      list.nodes.withUnsafeBufferPointer { nodes in
        let p = Preparation(nodes: nodes, list: list, automatic: automatic, compositor: compositor)
        p.walk(first: 0, count: list.rootCount, parent: list.transform, &s)
      }
      for p in s.placements {
        list.nodes[p.node].raster = p.raster
        if p.spanEnd > 0 {
          // A run of siblings: its first node stands for all of them (and is binned so).
          list.nodes[p.node].spanEnd = p.spanEnd
          list.nodes[p.node].deviceExtent = p.reach
        }
      }
      s.placements.removeAll(keepingCapacity: true)
      if ahead {
        // Not a frame: what was made is counted apart, and nothing ages.
        s.stats.rasterCacheMadeAhead = s.stats.rasterCacheMisses
        s.stats.rasterCacheMisses = 0
        s.stats.rasterCacheHits = 0
        s.stats.rasterCachePixelsMade = 0
        s.ahead = false
        return s.stats
      }
      RasterCache.age(&s)
      // The store gives back pages free for a while (RunStore.swift).
      s.store?.tick()
      // Tracks of subtrees not seen for a few frames are forgotten (in place: no allocation).
      if s.frame % 16 == 0 {
        let frame = s.frame
        s.doomed.removeAll(keepingCapacity: true)
        for (k, t) in s.tracks where frame - t.lastFrame > 2 { s.doomed.append(k) }
        for k in s.doomed { s.tracks[k] = nil }
        s.doomed.removeAll(keepingCapacity: true)
        s.doomedLayers.removeAll(keepingCapacity: true)
        for (k, m) in s.made where frame - m.seen > RasterCache.recentFrames && frame > m.aheadUntil {
          s.doomedLayers.append(k)
        }
        for k in s.doomedLayers { s.made[k] = nil }
        s.doomedLayers.removeAll(keepingCapacity: true)
      }
      return s.stats
    }
    compositor.context.add(stats)
  }

  // MARK: Keys

  /// Works out `inner` (what each node's subtree draws, where it is) and `placed` (that and its
  /// place in its parent) for every node, last to first: sublayers come after their parent.
  private static func computeKeys(_ list: DisplayList, _ s: inout State) {
    let n = list.nodes.count
    s.inner.removeAll(keepingCapacity: true)
    s.placed.removeAll(keepingCapacity: true)
    s.inner.append(contentsOf: repeatElement(0, count: n))
    s.placed.append(contentsOf: repeatElement(0, count: n))
    list.nodes.withUnsafeBufferPointer { nodes in
      var i = n - 1
      while i >= 0 {
        let node = nodes.baseAddress! + i
        if node.pointee.kind != .drawn {
          s.placed[i] = DrawKey.notDrawn(node.pointee.kind, node.pointee.relative)
          i -= 1
          continue
        }
        var h = Hasher()
        body(of: node, list, into: &h)
        if node.pointee.hasMask { h.combine(s.placed[i + 1]) }
        var j = node.pointee.childStart
        for _ in 0..<node.pointee.childCount {
          h.combine(s.placed[j])
          j = nodes[j].end
        }
        h.combine(node.pointee.opacity)
        h.combine(node.pointee.shadowVisible)
        if node.pointee.shadowVisible {
          h.combine(node.pointee.shadowColor)
          h.combine(node.pointee.shadowOpacity)
          h.combine(node.pointee.shadowRadius)
          h.combine(node.pointee.shadowOffset)
          h.combine(node.pointee.shadowPath)
        }
        let inner = h.finalize()
        s.inner[i] = inner
        var p = Hasher()
        p.combine(inner)
        p.combine(node.pointee.relative)
        s.placed[i] = p.finalize()
        i -= 1
      }
    }
  }

  /// What a node draws itself, in its own coordinates (as `DrawKey.body`, read from the list).
  private static func body(of n: UnsafePointer<DisplayNode>, _ list: DisplayList, into h: inout Hasher) {
    h.combine(n.pointee.shape.size)
    h.combine(n.pointee.shape.radii)
    h.combine(n.pointee.masksToBounds)
    h.combine(n.pointee.background)
    if n.pointee.border != nil {
      h.combine(n.pointee.shape.borderWidth)
      h.combine(n.pointee.borderColor)
    }
    if let image = n.pointee.image {
      h.combine(image.id)
      h.combine(n.pointee.minification)
      h.combine(n.pointee.magnification)
      h.combine(n.pointee.partEnd - n.pointee.partStart)
      for k in n.pointee.partStart..<n.pointee.partEnd { h.combine(list.parts[k]) }
    }
    DrawKey.content(of: n.pointee, into: &h)
  }

  // MARK: Placing and making bitmaps

  private struct Preparation {
    let nodes: UnsafeBufferPointer<DisplayNode>
    let list: DisplayList
    let automatic: Bool
    let compositor: Compositor

    /// Visits `count` siblings from `first` (their parent's transform to device pixels is
    /// `parent`), placing bitmaps, and goes down into the subtrees not kept whole. With `spans`
    /// (the siblings of a subtree that would be kept but changes: a pressed card), runs of small
    /// siblings drawn unchanged for `stableFrames` frames are kept as one bitmap each, and the
    /// changing ones drawn as they are (source-over is associative: the same pixels within
    /// rounding).
    func walk(
      first: Int, count: Int, parent: Transform, spans: Bool = false, fresh: Bool = true, _ s: inout State
    ) {
      var j = first
      var left = count
      while left > 0 {
        if spans && automatic {
          // The run of still siblings from j, each too small to be kept on its own (larger
          // ones are kept one by one: a run is made again whenever one of it changes).
          var e = j
          var members = 0
          while members < left && nodes[e].end - e < RasterCache.fewestLayers && still(e, parent, &s) {
            e = nodes[e].end
            members += 1
          }
          if members >= 2, e - j >= RasterCache.fewestLayers, let r = span(j, e, parent, &s) {
            s.placements.append(r)
            j = e
            left -= members
            continue
          }
        }
        let n = nodes.baseAddress! + j
        j = n.pointee.end
        left -= 1
        guard n.pointee.kind == .drawn, !n.pointee.invisible else { continue }
        s.deferred = false
        if n.pointee.rasterScale > 0 {
          if let r = rasterized(n - nodes.baseAddress!, n, parent, &s) {
            s.placements.append((n - nodes.baseAddress!, r, 0, IntRect(x: 0, y: 0, width: 0, height: 0)))
            continue
          }
        } else if automatic, let r = automatically(n - nodes.baseAddress!, n, parent, fresh: fresh, &s) {
          s.placements.append((n - nodes.baseAddress!, r, 0, IntRect(x: 0, y: 0, width: 0, height: 0)))
          continue
        }
        // Not kept: its sublayers, in runs where it would be kept but for a changing part (not
        // where it waits for room in this frame's making: it is made whole in a later one).
        let runs =
          !s.ahead && !s.deferred && automatic
          && n.pointee.end - (n - nodes.baseAddress!) >= RasterCache.fewestLayers
          && n.pointee.childCount >= 2 && Preparation.small(n.pointee, s.largest) && !n.pointee.hasMask
          && n.pointee.opacity >= 1 && !(n.pointee.shadowVisible && n.pointee.shadowPath == nil)
        // Below a layer made into a bitmap lately (which now changes), nothing is new: its
        // sublayers wait to be drawn unchanged for a few frames too.
        // (No closure reads `s` here: one would copy the state, and the next change to a
        // dictionary of it would copy that dictionary.)
        var recent = false
        if let m = s.made[n.pointee.shape.layer] { recent = s.frame - m.frame <= RasterCache.recentFrames }
        walk(
          first: n.pointee.childStart, count: n.pointee.childCount, parent: n.pointee.ctm, spans: runs,
          fresh: s.ahead || (fresh && !recent), &s)
      }
    }

    /// Whether a node's subtree is small enough to keep automatically.
    static func small(_ n: DisplayNode, _ largest: Int) -> Bool {
      let e = n.deviceExtent
      return !e.isEmpty && e.width <= RunImage.maxWidth && e.width * e.height <= largest
    }

    /// The key of sibling `j` drawn where it is in its parent, its parent's transform being
    /// `parent`: a sibling moved within its parent is another drawing of the run.
    func siblingKey(_ j: Int, _ parent: Transform, _ s: State) -> Key? {
      guard parent.tx.magnitude < 1e9, parent.ty.magnitude < 1e9 else { return nil }
      return Key(
        content: s.placed[j], a: parent.a, b: parent.b, c: parent.c, d: parent.d,
        fx: RasterCache.phase(parent.tx), fy: RasterCache.phase(parent.ty), scale: -2)
    }

    /// Counts one more frame of a subtree drawn as `key` (once per frame) and returns how many in
    /// a row.
    func track(_ key: Key, _ s: inout State) -> Int {
      var t = s.tracks[key] ?? Track(frames: 0, lastFrame: s.frame - 1)
      if t.lastFrame != s.frame {
        t.frames = t.lastFrame == s.frame - 1 ? t.frames + 1 : 1
        t.lastFrame = s.frame
        s.tracks[key] = t
      }
      return t.frames
    }

    /// Whether sibling `j` may be part of a kept run: nothing drawn (hidden), or drawn unchanged
    /// for `stableFrames` frames with nothing of it culled.
    func still(_ j: Int, _ parent: Transform, _ s: inout State) -> Bool {
      let n = nodes[j]
      if n.kind == .hidden || (n.kind == .drawn && n.invisible) { return true }
      guard n.kind == .drawn, n.rasterScale == 0, let k = siblingKey(j, parent, s),
        track(k, &s) >= RasterCache.stableFrames
      else { return false }
      for c in j + 1..<n.end where nodes[c].kind == .culled { return false }
      return true
    }

    /// A kept bitmap of siblings `j..<e` (each drawn unchanged for a while), made now if missing.
    func span(_ j: Int, _ e: Int, _ parent: Transform, _ s: inout State)
      -> (node: Int, raster: RasterPlacement, spanEnd: Int, reach: IntRect)?
    {
      guard parent.tx.magnitude < 1e9, parent.ty.magnitude < 1e9 else { return nil }
      var h = Hasher()
      var reach: IntRect? = nil
      var c = j
      while c < e {
        h.combine(s.placed[c])
        if nodes[c].kind == .drawn && !nodes[c].invisible {
          let r = IntRect(enclosing: nodes[c].ctm.apply(nodes[c].localFullExtent).insetBy(dx: -2, dy: -2))
          reach = reach.map { $0.union(r) } ?? r
        }
        c = nodes[c].end
      }
      guard let area = reach else { return nil }
      let ox = RasterCache.whole(parent.tx)
      let oy = RasterCache.whole(parent.ty)
      let key = Key(
        content: h.finalize(), a: parent.a, b: parent.b, c: parent.c, d: parent.d,
        fx: RasterCache.phase(parent.tx), fy: RasterCache.phase(parent.ty), scale: -1)
      let ix = Int(ox)
      let iy = Int(oy)
      if let entry = s.entries[key], let image = entry.device {
        s.entries[key]!.lastUsed = s.usedAt
        s.stats.rasterCacheHits += 1
        let x = ix + entry.dx
        let y = iy + entry.dy
        return (
          j, .device(image, x: x, y: y), e, IntRect(x: x, y: y, width: image.width, height: image.height)
        )
      }
      // Found no room lately: not tried again yet.
      if let t = s.tracks[key], t.frames < 0 {
        _ = track(key, &s)
        return nil
      }
      guard area.width <= RunImage.maxWidth, area.height <= 8192,
        area.width * area.height <= s.largest,
        RasterCache.mayMake(area, &s),
        let canvas = RasterCache.canvas(area.width, area.height, &s)
      else { return nil }
      canvas.clip(to: Rect(x: 0, y: 0, width: Double(area.width), height: Double(area.height)))
      compositor.drawSiblings(
        j, e, of: list, in: canvas,
        parent: parent.concatenating(Transform(translationX: Double(-area.x), y: Double(-area.y))))
      s.stats.rasterCacheMisses += 1
      s.stats.rasterCachePixelsMade += area.width * area.height
      guard let made = RasterCache.keep(canvas.surface, area, key, dx: area.x - ix, dy: area.y - iy, &s)
      else { return nil }
      return (j, .device(made, x: area.x, y: area.y), e, area)
    }

    /// Whether a node's device transform is its rasterization scale, unturned (a bitmap made in
    /// device pixels then serves).
    static func showsAtScale(_ ctm: Transform, _ r: Double) -> Bool {
      ctm.b == 0 && ctm.c == 0 && (ctm.a - r).magnitude < 1e-9 && (ctm.d - r).magnitude < 1e-9
    }

    /// A layer with `shouldRasterize`: its bitmap, made now if missing.
    func rasterized(_ j: Int, _ n: UnsafePointer<DisplayNode>, _ parent: Transform, _ s: inout State)
      -> RasterPlacement?
    {
      if Preparation.showsAtScale(n.pointee.ctm, n.pointee.rasterScale) {
        return device(j, n, parent, &s, force: true)
      }
      let key = Key(content: s.inner[j], a: 0, b: 0, c: 0, d: 0, fx: 0, fy: 0, scale: n.pointee.rasterScale)
      if let e = s.entries[key], let image = e.scaled {
        s.entries[key]!.lastUsed = s.usedAt
        s.stats.rasterCacheHits += 1
        return .scaled(image, RasterCache.scaledPlacement(n.pointee, e.dx, e.dy))
      }
      let r = n.pointee.rasterScale
      let local = Transform(scaleX: r, y: r)
      let area = IntRect(enclosing: local.apply(n.pointee.localFullExtent).insetBy(dx: -2, dy: -2))
      guard !area.isEmpty, area.width <= 8192, area.height <= 8192, area.width * area.height <= 1 << 24,
        let inverse = n.pointee.relative.inverted,
        let surface = try? Surface(width: area.width, height: area.height)
      else { return nil }
      let toBitmap = local.concatenating(Transform(translationX: Double(-area.x), y: Double(-area.y)))
      let canvas = Canvas(surface: surface)
      compositor.drawSubtree(j, of: list, in: canvas, parent: inverse.concatenating(toBitmap))
      let bytes = surface.width * surface.height * 4
      s.stats.rasterCacheMisses += 1
      s.stats.rasterCachePixelsMade += surface.width * surface.height
      RasterCache.evict(&s, toFit: bytes, keepingFrame: s.frame)
      if s.bytes + bytes <= s.budget {
        s.entries[key] = Entry(
          device: nil, offset: -1, scaled: surface, dx: area.x, dy: area.y, bytes: bytes, lastUsed: s.usedAt)
        s.bytes += bytes
      }
      return .scaled(surface, RasterCache.scaledPlacement(n.pointee, area.x, area.y))
    }

    /// A subtree kept without being asked: placed if kept, made if drawn unchanged long enough.
    func automatically(
      _ j: Int, _ n: UnsafePointer<DisplayNode>, _ parent: Transform, fresh: Bool, _ s: inout State
    ) -> RasterPlacement? {
      s.deferred = false
      guard n.pointee.end - j >= RasterCache.fewestLayers else { return nil }
      return device(j, n, parent, &s, force: false, fresh: fresh)
    }

    /// A bitmap in device pixels: kept, or made now (`force`, or once drawn unchanged for
    /// `stableFrames` frames with nothing culled).
    func device(
      _ j: Int, _ n: UnsafePointer<DisplayNode>, _ parent: Transform, _ s: inout State, force: Bool,
      fresh: Bool = false
    ) -> RasterPlacement? {
      let ctm = n.pointee.ctm
      guard ctm.tx.magnitude < 1e9, ctm.ty.magnitude < 1e9 else { return nil }
      let ox = RasterCache.whole(ctm.tx)
      let oy = RasterCache.whole(ctm.ty)
      // Part of the subtree culled (off the frame): what it draws is not in the list, but a
      // bitmap made of it whole serves while nothing in it changed (its layer's stamp).
      var content = s.inner[j]
      var culled = false
      if !force {
        for k in j + 1..<n.pointee.end where nodes[k].kind == .culled {
          culled = true
          break
        }
        if culled, let m = s.made[n.pointee.shape.layer], m.stamp == n.pointee.stamp { content = m.content }
      }
      let key = Key(
        content: content, a: ctm.a, b: ctm.b, c: ctm.c, d: ctm.d, fx: RasterCache.phase(ctm.tx),
        fy: RasterCache.phase(ctm.ty), scale: 0)
      let ix = Int(ox)
      let iy = Int(oy)
      if let e = s.entries[key], let image = e.device {
        s.entries[key]!.lastUsed = s.usedAt
        s.stats.rasterCacheHits += 1
        if !force {
          let layer = n.pointee.shape.layer
          if let m = s.made.index(forKey: layer) {
            s.made.values[m].seen = s.frame
            if !culled {
              s.made.values[m].content = content
              s.made.values[m].stamp = n.pointee.stamp
            }
          } else if !culled {
            // A bitmap made of another layer that draws the same: this one's record (not made
            // lately), so that it too is found when culled in part.
            s.made[layer] = Made(
              frame: s.frame - RasterCache.recentFrames - 1, seen: s.frame, content: content,
              stamp: n.pointee.stamp)
          }
        }
        return .device(image, x: ix + e.dx, y: iy + e.dy)
      }
      // Culled in part and unchanged since made: drawn as it is (its bitmap was let go), the
      // record kept.
      if culled && content != s.inner[j] { return nil }
      if !force && !s.ahead {
        // Shown for the first time, or unchanged since long: kept now; else once drawn the same
        // way for a few frames. (Drawn ahead, everything is shown for the first time.)
        let layer = n.pointee.shape.layer
        let frame = s.frame
        var new = fresh
        if let m = s.made.index(forKey: layer) {
          let was = s.made.values[m]
          if was.content != s.inner[j] && was.seen >= frame - 1 {
            // Made before and changed in place since (a pressed card): kept in parts while it
            // stays on screen (its still sublayers and runs of them), not made whole again each
            // time it rests. (A layer reused off screen for other content is new.)
            s.made.values[m].frame = frame
            s.made.values[m].seen = frame
            return nil
          }
          // New: made long ago, or not seen last frame (back on screen, or a layer reused for
          // other content).
          new = fresh && (frame - was.frame > RasterCache.recentFrames || was.seen < frame - 1)
          s.made.values[m].seen = frame
        }
        let frames = track(key, &s)
        guard new || frames >= RasterCache.stableFrames else { return nil }
      }
      // Part of it culled (off the frame): its bitmap would miss that part.
      if culled { return nil }
      let area = IntRect(enclosing: ctm.apply(n.pointee.localFullExtent).insetBy(dx: -2, dy: -2))
      guard !area.isEmpty, area.width <= RunImage.maxWidth, area.height <= 8192,
        force || area.width * area.height <= s.largest,
        force || RasterCache.mayMake(area, &s),
        let canvas = RasterCache.canvas(area.width, area.height, &s)
      else { return nil }
      canvas.clip(to: Rect(x: 0, y: 0, width: Double(area.width), height: Double(area.height)))
      compositor.drawSubtree(
        j, of: list, in: canvas,
        parent: parent.concatenating(Transform(translationX: Double(-area.x), y: Double(-area.y))))
      s.stats.rasterCacheMisses += 1
      s.stats.rasterCachePixelsMade += area.width * area.height
      s.tracks[key] = nil
      if !force {
        s.made[n.pointee.shape.layer] = Made(
          frame: s.frame, seen: s.frame, content: s.inner[j], stamp: n.pointee.stamp,
          aheadUntil: s.ahead ? s.frame + RasterCache.aheadFrames : 0)
      }
      if let made = RasterCache.keep(canvas.surface, area, key, dx: area.x - ix, dy: area.y - iy, &s) {
        return .device(made, x: area.x, y: area.y)
      }
      // No room: a layer that asked for it is drawn from a bitmap of its own, kept for this
      // frame only; a subtree kept automatically is drawn as it is.
      guard force else { return nil }
      return .device(
        RunImage(canvas.surface, area: IntRect(x: 0, y: 0, width: area.width, height: area.height)),
        x: area.x,
        y: area.y)
    }
  }

  /// Bitmap pixels to device pixels for a scaled bitmap whose pixel (0, 0) is at (`dx`, `dy`) in
  /// the layer's coordinates times its scale.
  static func scaledPlacement(_ n: DisplayNode, _ dx: Int, _ dy: Int) -> Transform {
    let r = n.rasterScale
    return Transform(translationX: Double(dx), y: Double(dy))
      .concatenating(Transform(scaleX: 1 / r, y: 1 / r))
      .concatenating(n.ctm)
  }

  /// Keeps the runs of `surface`'s top left `area.width` × `area.height` pixels under `key`, in
  /// a block of the store (room made by letting go of the least recently used bitmaps not
  /// composited this frame); nil when they do not fit in the budget.
  static func keep(_ surface: Surface, _ area: IntRect, _ key: Key, dx: Int, dy: Int, _ s: inout State)
    -> RunImage?
  {
    let m = RunImage.Measure(surface, area: IntRect(x: 0, y: 0, width: area.width, height: area.height))
    if s.store == nil { s.store = RunStore(capacity: RasterCache.storeCapacity(s.budget)) }
    // Bitmaps composited this frame or the last stay: a screen that needs more than the budget
    // keeps what it has and draws the rest as it is, instead of making bitmaps in turn.
    let keeping = s.frame - 1
    if let store = s.store, m.bytes <= s.budget {
      RasterCache.evict(&s, toFit: m.bytes, keepingFrame: keeping)
      while s.bytes + m.bytes <= s.budget {
        if let made = store.make(surface, m) {
          s.entries[key] = Entry(
            device: made.image, offset: made.offset, scaled: nil, dx: dx, dy: dy, bytes: m.bytes,
            lastUsed: s.usedAt)
          s.bytes += m.bytes
          return made.image
        }
        if !RasterCache.evictOldest(&s, keepingFrame: keeping) { break }
      }
    }
    // No room: not tried again for a while (drawing it to find that out each frame would cost
    // more than drawing it).
    s.tracks[key] = Track(frames: -RasterCache.retryFrames, lastFrame: s.frame)
    return nil
  }

  /// Where `t` falls within a device pixel, in 1/4096ths (a whole-pixel move that adds a
  /// floating-point error, 3.4 - 3 against 0.4, is the same place).
  static func phase(_ t: Double) -> Double {
    let q = (t * 4096).rounded()
    return q - (q / 4096).rounded(.down) * 4096
  }

  /// The whole pixel `t` falls in, as `phase` sees it (the two add up to `t` in 1/4096ths).
  static func whole(_ t: Double) -> Double { ((t * 4096).rounded() / 4096).rounded(.down) }

  /// Whether a bitmap of `area` may be made automatically in this frame (`makeFraction`); if so,
  /// counts its pixels.
  static func mayMake(_ area: IntRect, _ s: inout State) -> Bool {
    let pixels = area.width * area.height
    guard s.makeLimit == 0 || s.madePixels + pixels <= s.makeLimit else {
      s.deferred = true
      return false
    }
    s.madePixels += pixels
    return true
  }

  /// Frames before a bitmap that found no room in the budget is tried again.
  static let retryFrames = 30

  /// The store's size for a budget: the budget, rounded to pages.
  static func storeCapacity(_ budget: Int) -> Int { max(4096, (budget + 4095) / 4096 * 4096) }

  /// Widths of the surfaces kept over the scratch memory: how many there are at most (the least
  /// lately used is let go), and the multiple of pixels they are rounded up to (a bitmap is drawn
  /// in the top left corner of a surface at least as wide, so a list's bitmaps, whatever their
  /// sizes, share a few surfaces made once).
  static let scratchShapes = 16
  static let scratchStride = 64
  /// Rows of the scratch memory's surface (`scratchRow` pixels each).
  static let scratchRow = 1024

  /// The kept canvas, pointed at a surface of at least `w` × `h` pixels, cleared in its top left
  /// `w` × `h`, to draw a bitmap in: over memory kept and reused (a surface a miss made and freed
  /// each time would allocate every time and scatter the allocator's heap) as large as the most
  /// pixels drawn (rows rounded up to `scratchStride`), not the widest by the tallest (a row of
  /// headers 1920 wide then cards 243 tall took 1.87 MB where a card needs 0.3), while that stays
  /// within `largestAutomatic` pixels; else one for this bitmap only. The surfaces over the
  /// memory are kept, one per rounded width, so a steady scroll makes none.
  private static func canvas(_ w: Int, _ h: Int, _ s: inout State) -> Canvas? {
    var surface: Surface
    let stride = (w + RasterCache.scratchStride - 1) / RasterCache.scratchStride * RasterCache.scratchStride
    if w * h <= RasterCache.largestAutomatic {
      if s.scratch.map({ $0.width * $0.height < stride * h }) ?? true {
        // More memory: the surfaces over the old are let go with it.
        s.shaped.removeAll(keepingCapacity: true)
        s.scratch = nil
        let rows = (stride * h + RasterCache.scratchRow - 1) / RasterCache.scratchRow
        guard let k = try? Surface(width: RasterCache.scratchRow, height: rows) else { return nil }
        s.scratch = k
      }
      guard let memory = s.scratch else { return nil }
      if let k = s.shaped.firstIndex(where: { $0.width == stride }) {
        surface = s.shaped[k]
        if k != s.shaped.count - 1 {
          s.shaped.remove(at: k)
          s.shaped.append(surface)
        }
      } else {
        let rows = min(memory.width * memory.height / stride, Surface.maxDimension)
        guard
          let k = try? Surface(
            wrapping: UnsafeMutableRawPointer(memory.base), width: stride, height: rows,
            bytesPerRow: stride * 4)
        else { return nil }
        if s.shaped.count == RasterCache.scratchShapes { s.shaped.removeFirst() }
        s.shaped.append(k)
        surface = k
      }
    } else {
      guard let k = try? Surface(width: w, height: h) else { return nil }
      surface = k
    }
    surface.clear(0, in: IntRect(x: 0, y: 0, width: w, height: h))
    if let c = s.canvas?.canvas {
      c.reset(surface: surface)
      return c
    }
    let c = Canvas(surface: surface)
    s.canvas = KeptCanvas(canvas: c)
    return c
  }

  /// Lets go of every bitmap.
  private static func removeEntries(_ s: inout State) {
    for (_, e) in s.entries where e.offset >= 0 { s.store?.release(e.offset, bytes: e.bytes) }
    s.entries.removeAll(keepingCapacity: true)
    s.bytes = 0
  }

  /// Lets go of one bitmap.
  private static func remove(_ k: Key, _ s: inout State) {
    guard let e = s.entries.removeValue(forKey: k) else { return }
    s.bytes -= e.bytes
    if e.offset >= 0 { s.store?.release(e.offset, bytes: e.bytes) }
  }

  /// Lets go of bitmaps not used for `unusedFrames` frames (rows scrolled away).
  private static func age(_ s: inout State) {
    while let k = s.entries.first(where: { s.frame - $0.value.lastUsed > RasterCache.unusedFrames })?.key {
      remove(k, &s)
    }
  }

  /// Lets go of the least recently used bitmaps (none used in `keepingFrame`) until `bytes` more
  /// fit in the budget.
  private static func evict(_ s: inout State, toFit bytes: Int, keepingFrame: Int) {
    while s.bytes + bytes > s.budget {
      if !evictOldest(&s, keepingFrame: keepingFrame) { return }
    }
  }

  /// Lets go of the least recently used bitmap not used in `keepingFrame`; false if none.
  private static func evictOldest(_ s: inout State, keepingFrame: Int) -> Bool {
    var oldest: Key? = nil
    var age = Int.max
    for (k, e) in s.entries where e.lastUsed < keepingFrame && e.lastUsed < age {
      oldest = k
      age = e.lastUsed
    }
    guard let k = oldest else { return false }
    remove(k, &s)
    return true
  }
}

extension Compositor {
  /// Draws node `i` of `list` and its subtree onto `canvas`, its parent's transform being
  /// `parent` (a raster cache's bitmap).
  func drawSubtree(_ i: Int, of list: DisplayList, in canvas: Canvas, parent: Transform) {
    let saved = counts
    counts = RenderContext.Statistics()
    list.nodes.withUnsafeBufferPointer { n in
      list.parts.withUnsafeBufferPointer { p in
        list.opaqueParts.withUnsafeBufferPointer { o in
          let outer = (nodes, parts, opaque)
          nodes = n
          parts = p
          opaque = o
          draw(i, canvas, parent)
          (nodes, parts, opaque) = outer
        }
      }
    }
    context.add(counts)
    counts = saved
  }

  /// Draws siblings `first..<stop` of `list` and their subtrees onto `canvas`, their parent's
  /// transform being `parent` (a raster cache's bitmap of a run of them).
  func drawSiblings(_ first: Int, _ stop: Int, of list: DisplayList, in canvas: Canvas, parent: Transform) {
    var j = first
    while j < stop {
      drawSubtree(j, of: list, in: canvas, parent: parent)
      j = list.nodes[j].end
    }
  }

  /// Composites a kept bitmap of a subtree.
  func drawRaster(_ r: RasterPlacement, _ canvas: Canvas) {
    switch r {
    case .device(let image, let x, let y):
      canvas.draw(image, x: x, y: y)
    case .scaled(let surface, let t):
      canvas.save()
      canvas.transform = .identity
      canvas.draw(surface, transform: t)
      canvas.restore()
    }
  }
}
