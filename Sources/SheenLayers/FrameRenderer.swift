import Foundation
import SheenRaster
import SheenText

/// Renders whole frames of a layer tree, splitting each frame into horizontal bands drawn on
/// several threads (Blend2D's and LVGL's approach). The tree is made into a display list once per
/// frame on the caller's thread (`DisplayList.build`) and binned into the bands
/// (`DisplayBins`); every band replays its bin clipped to itself, reading no layer, so the pixels
/// are the same whatever the number of threads and wherever the bands meet; the shadow and glyph
/// caches are shared and locked.
///
/// There is one band per thread, and the bands' borders move from frame to frame so that each
/// takes as long as the others: a band of the screen where cards crowd is drawn by a thread that
/// has fewer rows (more, thinner bands would balance the work too, but every band draws anything
/// it cuts in part).
public final class FrameRenderer: @unchecked Sendable {
  /// Threads used per frame (1 draws on the caller's thread only).
  public let threads: Int
  /// Whether subtrees drawn unchanged for a few frames are kept as bitmaps without being asked
  /// (`RasterCache`; off unless set, as for `sheen render`'s scene files; the demo's windows set
  /// it); layers with `shouldRasterize` are kept either way.
  public var rasterizesAutomatically = false
  /// Whether this renderer draws views before they show, where they will show (idle work:
  /// `UIWindow.warmRendererCaches`), rather than frames: with `rasterizesAutomatically`, the
  /// subtrees it draws whole are made into the raster cache's bitmaps for the frames that will
  /// show them, and no frame is counted (`RasterCache.prepare(ahead:)`).
  public var rendersAhead = false
  /// The caches and counters shared by every band.
  public let context: RenderContext
  private var bands: [Band] = []
  /// The frame's display list (its storage is kept from frame to frame).
  private var list = DisplayList()
  /// The list binned into the frame's bands (storage kept), when there are several.
  private var bins = DisplayBins()
  /// Whether what later opaque layers cover is left out (`Compositor.skipsOccludedLayers`; the
  /// pixels are the same either way).
  public var skipsOccludedLayers = true
  /// The most pixels a band draws at a time (`Compositor.stripPixels`, Compositor+Strips.swift; 0
  /// draws each band whole; the pixels are the same either way).
  public var stripPixels = Compositor.defaultStripPixels
  /// The threads that draw all bands but the first, started with the first frame that has two.
  private var workers: BandWorkers?

  deinit { workers?.stop() }

  /// One band's canvas and compositor, kept from frame to frame.
  final class Band: @unchecked Sendable {
    let canvas: Canvas
    let compositor: Compositor
    var rows: Range<Int>
    /// The rows it had when it was last drawn (`rebalance` reads them while it moves `rows`).
    var drawnRows: Range<Int>
    /// How long drawing the band took last time, written by the thread that drew it.
    var seconds = 0.0
    init(surface: Surface, rows: Range<Int>, context: RenderContext) {
      canvas = Canvas(surface: surface)
      compositor = Compositor(context: context)
      self.rows = rows
      drawnRows = rows
    }
  }

  /// - Parameter threads: how many threads draw a frame; nil means one per processor.
  public init(threads: Int? = nil, context: RenderContext = RenderContext()) {
    let n = threads ?? ProcessInfo.processInfo.activeProcessorCount
    self.threads = max(1, min(n, 64))
    self.context = context
  }

  /// Clears `surface` to `background` and renders `layers` with `transform` (points to pixels).
  /// The array is kept while band threads draw: pass one made once, not a literal made each
  /// frame, to allocate nothing.
  public func render(
    _ layers: [Layer], into surface: Surface, transform: Transform = .identity, background: Color = .clear
  ) {
    // The tree is prepared and made into a display list here, on the caller's thread; the bands
    // replay the list and never read a layer.
    list.build(
      layers, transform: transform, cull: IntRect(x: 0, y: 0, width: surface.width, height: surface.height))
    let workBefore = cacheWork()
    let bands = self.bands(for: surface)
    // Kept bitmaps of unchanged subtrees, made here before the bands draw (RasterCache.swift).
    context.rasterCache.prepare(
      &list, compositor: bands[0].compositor, automatic: rasterizesAutomatically,
      framePixels: surface.width * surface.height, ahead: rendersAhead)
    let covered = opaqueCover(list)
    if bands.count == 1 {
      // One band holds every node the list has for the frame: nothing to bin.
      // On the caller's thread: no closure, nothing allocated.
      draw(bands[0], list, surface, background, covered)
    } else {
      if workers?.count != bands.count - 1 {
        workers?.stop()
        workers = BandWorkers(count: bands.count - 1) { [unowned self] i in self.drawBand(i) }
      }
      // Binned once, here, before the bands start: each band replays only its bin.
      bandRowsScratch.removeAll(keepingCapacity: true)
      for b in bands { bandRowsScratch.append(b.rows) }
      bins.make(list, rows: bandRowsScratch, width: surface.width)
      frame = Frame(list: list, bins: bins, surface: surface, background: background, covered: covered)
      workers?.run()
      frame = nil
      rebalance(bands)
    }
    // The list lets go of what it holds (images, paths, layouts) until the next frame, keeping
    // its storage: a layer that redraws its bitmap in place finds it unshared.
    list.removeAll()
    context.endFrame()
    releaseFreedMemoryAfterWork(cacheWork() != workBefore)
  }

  /// Blurs and shape rasterizations so far (only compared, so a reset between frames is harmless).
  private func cacheWork() -> Int {
    let s = context.statistics
    return s.blurs + s.shapeRasterizations
  }

  /// The bands' rows for `DisplayBins.make` (kept: no allocation per frame).
  private var bandRowsScratch: [Range<Int>] = []

  private var framesSinceTrim = 0
  private var workSinceTrim = false

  /// Filling caches (blurring shadows, recording shapes, on the threads that drew them) leaves
  /// freed scratch memory scattered through the allocator's heaps, which it keeps. Once things
  /// have been quiet for two seconds of frames after such work, hand it back to the system
  /// (glibc's `malloc_trim`; elsewhere nothing): steady scrolling never pays for this.
  private func releaseFreedMemoryAfterWork(_ worked: Bool) {
    framesSinceTrim += 1
    if worked {
      workSinceTrim = true
      framesSinceTrim = 0
      return
    }
    guard workSinceTrim, framesSinceTrim >= 120 else { return }
    workSinceTrim = false
    _ = FrameRenderer.mallocTrim?(0)
    // Font file pages: the glyphs drawn are cached as masks and the text as layouts by now.
    Font.releaseMappedPages()
  }

  private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    guard let h = dlopen(nil, RTLD_NOW), let f = dlsym(h, "malloc_trim") else { return nil }
    return unsafeBitCast(f, to: (@convention(c) (Int) -> Int32).self)
  }()

  /// What the band threads draw: set while they draw it, and only read then.
  private struct Frame {
    let list: DisplayList
    let bins: DisplayBins
    let surface: Surface
    let background: Color
    let covered: IntRect?
  }
  private var frame: Frame?

  /// Draws band `i` of `frame`, timing it (on a band thread).
  private func drawBand(_ i: Int) {
    guard let f = frame else { return }
    let b = bands[i]
    let start = DispatchTime.now().uptimeNanoseconds
    draw(b, f.list, f.surface, f.background, f.covered, bins: f.bins, band: i)
    b.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  private func draw(
    _ b: Band, _ list: DisplayList, _ surface: Surface, _ background: Color, _ covered: IntRect?,
    bins: DisplayBins? = nil, band: Int = 0
  ) {
    b.canvas.save()
    let rows = IntRect(x: 0, y: b.rows.lowerBound, width: surface.width, height: b.rows.count)
    b.canvas.clip(to: Rect(rows))
    // The replay clears the rows that no opaque layer covers (with occlusion off, all of them
    // unless a root layer's opaque colour covers the band).
    let rootCovers = !skipsOccludedLayers && covered.map({ $0.intersection(rows) == rows }) ?? false
    let clear = rootCovers ? nil : background
    b.compositor.skipsOccludedLayers = skipsOccludedLayers
    b.compositor.stripPixels = stripPixels
    if let bins {
      b.compositor.replay(list, bins: bins, band: band, in: b.canvas, clearingTo: clear)
    } else {
      b.compositor.replay(list, in: b.canvas, endsFrame: false, clearingTo: clear)
    }
    b.canvas.restore()
    b.canvas.trimPools()
  }

  /// Device pixels that a root layer certainly paints with opaque colour (its prepared opaque
  /// interior, under an axis-aligned transform), if any.
  private func opaqueCover(_ list: DisplayList) -> IntRect? {
    var best: IntRect? = nil
    var i = 0
    for _ in 0..<list.rootCount {
      let n = list.nodes[i]
      i = n.end
      guard !n.invisible, n.opacity >= 1, !n.hasMask,
        let r = n.opaqueInterior, let d = Compositor.deviceInterior(r, n.ctm)
      else { continue }
      if best.map({ $0.width * $0.height < d.width * d.height }) ?? true { best = d }
    }
    return best
  }

  /// The rows of each band, top to bottom (for tests).
  var bandRows: [Range<Int>] { bands.map(\.rows) }

  /// Moves the borders between bands towards where each band would have taken as long as the
  /// others last frame (the time of each band spread evenly over its rows), halfway, so that the
  /// noise of one frame does not shake them.
  private func rebalance(_ bands: [Band]) {
    let total = bands.reduce(0) { $0 + $1.seconds }
    guard total > 0, let last = bands.last else { return }
    for b in bands { b.drawnRows = b.rows }
    let minRows = 8
    let share = total / Double(bands.count)
    var band = 0
    var spent = 0.0  // the time of the bands above `band`
    // Each band's rows are set once its lower border is known (setting the next band's upper
    // border from the old one could make a range that ends before it starts: a trap).
    var top = bands[0].rows.lowerBound
    for k in 1..<bands.count {
      let goal = share * Double(k)
      while band < bands.count - 1 && spent + bands[band].seconds < goal {
        spent += bands[band].seconds
        band += 1
      }
      let drawn = bands[band].drawnRows
      let perRow = bands[band].seconds / Double(max(1, drawn.count))
      let ideal = Double(drawn.lowerBound) + (perRow > 0 ? (goal - spent) / perRow : 0)
      let old = bands[k].drawnRows.lowerBound
      var border = old + Int(((ideal - Double(old)) / 2).rounded())
      border = max(border, top + minRows)
      border = min(border, last.rows.upperBound - minRows * (bands.count - k))
      bands[k - 1].rows = top..<border
      top = border
    }
    last.rows = top..<last.rows.upperBound
  }

  /// Moves the borders as `rebalance` does after a frame whose bands took `seconds` (for tests).
  func rebalance(afterBandsTook seconds: [Double]) {
    for (b, s) in zip(bands, seconds) { b.seconds = s }
    rebalance(bands)
  }

  /// Bands for this surface: one per thread (`rebalance` moves their borders).
  func bands(for surface: Surface) -> [Band] {
    let count = threads == 1 ? 1 : max(1, min(surface.height / 8, threads))
    if let first = bands.first, first.canvas.surface === surface, bands.count == count { return bands }
    var out: [Band] = []
    for i in 0..<count {
      let y0 = surface.height * i / count
      let y1 = surface.height * (i + 1) / count
      out.append(Band(surface: surface, rows: y0..<y1, context: context))
    }
    bands = out
    return out
  }
}
