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
// - automatically (`FrameRenderer.rasterizesAutomatically`), a subtree drawn the same way (same
//   drawing, same linear transform, same place within a device pixel) for `stableFrames`
//   consecutive frames, with enough in it to be worth it, and nothing of it culled: a list
//   scrolled by whole pixels composites its rows from the cache. One that changes every frame
//   (a pressed button's card, an animation) is never kept; its unchanging sublayers are instead.
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
// Bitmaps are kept as runs (`RunImage`) within a byte budget, the least recently used let go.

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

/// Bitmaps of unchanged subtrees (see the top of this file). Used on the thread that prepares
/// frames (`prepare`); the bands only read what it placed in the display list.
public final class RasterCache: Sendable {
  /// Bytes of bitmaps kept, by default: what the demo's visible cards need at 1920x1080.
  public static let defaultBudget = 8 << 20
  /// Consecutive frames a subtree must be drawn unchanged before it is kept automatically.
  public static let stableFrames = 3
  /// The fewest layers in a subtree kept automatically (one layer is drawn about as fast as
  /// its bitmap is composited).
  static let fewestLayers = 3
  /// Frames after which a bitmap not composited is let go.
  static let unusedFrames = 30

  struct Key: Hashable {
    var content: Int
    /// The linear part of the transform to device pixels, and where the layer's origin falls
    /// within a device pixel; or for a scaled bitmap, its scale (and zeros).
    var a: Double, b: Double, c: Double, d: Double, fx: Double, fy: Double
    var scale: Double
  }

  struct Entry {
    var device: RunImage?
    var scaled: Surface?
    /// Where the bitmap's pixel (0, 0) is: from the whole part of the layer's device origin, or
    /// in bitmap pixels of the layer's coordinates at its scale.
    var dx: Int
    var dy: Int
    var bytes: Int
    var lastUsed: Int
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
    /// Per node of the list being prepared: what its subtree draws, and with its place.
    var inner: [Int] = []
    var placed: [Int] = []
    var stats = RenderContext.Statistics()
    /// Where bitmaps are drawn before they are made into runs (kept; see `scratch`).
    var scratch: Surface?
    /// The bitmaps placed while walking the list (storage kept).
    var placements: [(Int, RasterPlacement)] = []
  }

  private let state = Mutex(State())

  public init() {}

  /// Bytes of bitmaps held.
  public var bytes: Int { state.withLock { $0.bytes } }

  /// How many bitmaps are held.
  public var count: Int { state.withLock { $0.entries.count } }

  /// The most bytes of bitmaps held at once; lowering it lets go of the least recently used.
  public var budget: Int {
    get { state.withLock { $0.budget } }
    set {
      state.withLock { s in
        s.budget = max(0, newValue)
        RasterCache.evict(&s, toFit: 0, keepingFrame: Int.max)
        if let k = s.scratch, k.width * k.height * 4 > s.budget / 2 { s.scratch = nil }
      }
    }
  }

  /// Lets go of every bitmap.
  public func removeAll() {
    state.withLock { s in
      s.entries.removeAll()
      s.tracks.removeAll()
      s.bytes = 0
      s.scratch = nil
    }
  }

  /// Places kept bitmaps in `list` (made now where missing) for the layers that are rasterized
  /// (`shouldRasterize`) and, with `automatic`, for subtrees drawn unchanged for a few frames.
  /// `compositor` draws the missing bitmaps (it must not be drawing anything else).
  func prepare(_ list: inout DisplayList, compositor: Compositor, automatic: Bool) {
    if !automatic && !list.hasRasterizedNodes { return }
    let stats = state.withLock { s -> RenderContext.Statistics in
      s.frame += 1
      s.stats = RenderContext.Statistics()
      RasterCache.computeKeys(list, &s)
      s.placements.removeAll(keepingCapacity: true)
      list.nodes.withUnsafeBufferPointer { nodes in
        let p = Preparation(nodes: nodes, list: list, automatic: automatic, compositor: compositor)
        p.walk(first: 0, count: list.rootCount, parent: list.transform, &s)
      }
      for (i, r) in s.placements { list.nodes[i].raster = r }
      s.placements.removeAll(keepingCapacity: true)
      if s.frame % 8 == 0 { RasterCache.age(&s) }
      // Tracks of subtrees not seen for a second are forgotten.
      if s.frame % 60 == 0 {
        let frame = s.frame
        if s.tracks.contains(where: { frame - $0.value.lastFrame >= 60 }) {
          s.tracks = s.tracks.filter { frame - $0.value.lastFrame < 60 }
        }
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
    /// `parent`), placing bitmaps, and goes down into the subtrees not kept whole.
    func walk(first: Int, count: Int, parent: Transform, _ s: inout State) {
      var j = first
      for _ in 0..<count {
        let n = nodes.baseAddress! + j
        j = n.pointee.end
        guard n.pointee.kind == .drawn, !n.pointee.invisible else { continue }
        if n.pointee.rasterScale > 0 {
          if let r = rasterized(n - nodes.baseAddress!, n, parent, &s) {
            s.placements.append((n - nodes.baseAddress!, r))
            continue
          }
        } else if automatic, let r = automatically(n - nodes.baseAddress!, n, parent, &s) {
          s.placements.append((n - nodes.baseAddress!, r))
          continue
        }
        walk(first: n.pointee.childStart, count: n.pointee.childCount, parent: n.pointee.ctm, &s)
      }
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
        s.entries[key]!.lastUsed = s.frame
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
      RasterCache.evict(&s, toFit: bytes, keepingFrame: s.frame)
      if s.bytes + bytes <= s.budget {
        s.entries[key] = Entry(
          device: nil, scaled: surface, dx: area.x, dy: area.y, bytes: bytes, lastUsed: s.frame)
        s.bytes += bytes
      }
      return .scaled(surface, RasterCache.scaledPlacement(n.pointee, area.x, area.y))
    }

    /// A subtree kept without being asked: placed if kept, made if drawn unchanged long enough.
    func automatically(_ j: Int, _ n: UnsafePointer<DisplayNode>, _ parent: Transform, _ s: inout State)
      -> RasterPlacement?
    {
      guard n.pointee.end - j >= RasterCache.fewestLayers else { return nil }
      return device(j, n, parent, &s, force: false)
    }

    /// A bitmap in device pixels: kept, or made now (`force`, or once drawn unchanged for
    /// `stableFrames` frames with nothing culled).
    func device(_ j: Int, _ n: UnsafePointer<DisplayNode>, _ parent: Transform, _ s: inout State, force: Bool)
      -> RasterPlacement?
    {
      let ctm = n.pointee.ctm
      guard ctm.tx.magnitude < 1e9, ctm.ty.magnitude < 1e9 else { return nil }
      let ox = ctm.tx.rounded(.down)
      let oy = ctm.ty.rounded(.down)
      let key = Key(
        content: s.inner[j], a: ctm.a, b: ctm.b, c: ctm.c, d: ctm.d, fx: ctm.tx - ox, fy: ctm.ty - oy,
        scale: 0)
      let ix = Int(ox)
      let iy = Int(oy)
      if let e = s.entries[key], let image = e.device {
        s.entries[key]!.lastUsed = s.frame
        s.stats.rasterCacheHits += 1
        return .device(image, x: ix + e.dx, y: iy + e.dy)
      }
      if !force {
        var t = s.tracks[key] ?? Track(frames: 0, lastFrame: s.frame - 1)
        t.frames = t.lastFrame == s.frame - 1 ? t.frames + 1 : 1
        t.lastFrame = s.frame
        s.tracks[key] = t
        guard t.frames >= RasterCache.stableFrames else { return nil }
        // Part of it culled (off the frame): its bitmap would miss that part.
        for k in j + 1..<n.pointee.end where nodes[k].kind == .culled { return nil }
      }
      let area = IntRect(enclosing: ctm.apply(n.pointee.localFullExtent).insetBy(dx: -2, dy: -2))
      guard !area.isEmpty, area.width <= 8192, area.height <= 8192,
        area.width * area.height * 4 <= max(s.budget / 2, force ? 1 << 26 : 0),
        let surface = RasterCache.scratch(area.width, area.height, &s)
      else { return nil }
      let canvas = Canvas(surface: surface)
      canvas.clip(to: Rect(x: 0, y: 0, width: Double(area.width), height: Double(area.height)))
      compositor.drawSubtree(
        j, of: list, in: canvas,
        parent: parent.concatenating(Transform(translationX: Double(-area.x), y: Double(-area.y))))
      let image = RunImage(surface, area: IntRect(x: 0, y: 0, width: area.width, height: area.height))
      s.stats.rasterCacheMisses += 1
      s.tracks[key] = nil
      let bytes = image.byteCount
      RasterCache.evict(&s, toFit: bytes, keepingFrame: s.frame)
      if s.bytes + bytes <= s.budget {
        s.entries[key] = Entry(
          device: image, scaled: nil, dx: area.x - ix, dy: area.y - iy, bytes: bytes, lastUsed: s.frame)
        s.bytes += bytes
      } else if !force {
        return nil
      }
      return .device(image, x: area.x, y: area.y)
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

  /// A cleared surface of at least `w` × `h` pixels to draw a bitmap in: one kept and reused
  /// while it stays within half the budget (a surface a miss made and freed each time would
  /// scatter the allocator's heap), else a new one.
  private static func scratch(_ w: Int, _ h: Int, _ s: inout State) -> Surface? {
    if let k = s.scratch, k.width >= w, k.height >= h {
      k.clear(0, in: IntRect(x: 0, y: 0, width: w, height: h))
      return k
    }
    let width = max(w, s.scratch?.width ?? 0)
    let height = max(h, s.scratch?.height ?? 0)
    guard width * height * 4 <= s.budget / 2 else { return try? Surface(width: w, height: h) }
    s.scratch = nil
    s.scratch = try? Surface(width: width, height: height)
    return s.scratch
  }

  /// Lets go of bitmaps not used for `unusedFrames` frames (rows scrolled away).
  private static func age(_ s: inout State) {
    while let k = s.entries.first(where: { s.frame - $0.value.lastUsed > RasterCache.unusedFrames })?.key {
      if let e = s.entries.removeValue(forKey: k) { s.bytes -= e.bytes }
    }
  }

  /// Lets go of the least recently used bitmaps (none used in `keepingFrame`) until `bytes` more
  /// fit in the budget.
  private static func evict(_ s: inout State, toFit bytes: Int, keepingFrame: Int) {
    while s.bytes + bytes > s.budget {
      var oldest: Key? = nil
      var age = Int.max
      for (k, e) in s.entries where e.lastUsed < keepingFrame && e.lastUsed < age {
        oldest = k
        age = e.lastUsed
      }
      guard let k = oldest, let e = s.entries.removeValue(forKey: k) else { return }
      s.bytes -= e.bytes
    }
  }
}

extension DisplayList {
  /// Whether a node has `shouldRasterize`.
  var hasRasterizedNodes: Bool { nodes.contains { $0.rasterScale > 0 } }
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
