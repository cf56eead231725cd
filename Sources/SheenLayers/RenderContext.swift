import SheenRaster
import SheenText
import Synchronization

/// What compositors keep from frame to frame (caches) and count (statistics). One context may
/// serve several compositors rendering bands of one frame on different threads: its caches and
/// counters are locked.
public final class RenderContext: Sendable {
  /// Counters of expensive work, reset by `resetStatistics()`.
  public struct Statistics: Hashable, Sendable {
    /// Gaussian blurs computed (a cached shadow costs none).
    public var blurs = 0
    /// Layers drawn (once per band that draws them).
    public var layersDrawn = 0
    /// Layers skipped because they were outside the clip.
    public var layersCulled = 0
    /// Layer shapes (backgrounds, borders, clips, paths) rasterized: a shape that only moved by
    /// whole pixels since it was last drawn costs none.
    public var shapeRasterizations = 0
    /// Images filtered for drawing: resampled to their device size to be kept (an image already
    /// kept at this size and sub-pixel position costs none), or filtered as drawn (rotated, or
    /// too large to keep). A copy at one image pixel per device pixel costs none.
    public var imageResamples = 0
    /// Shadows worked out per pixel from rounded rectangles (each a recording made, not one kept).
    public var analyticShadows = 0
    /// Layers not drawn because a later sibling covers every pixel they could reach in the band
    /// with opaque colour (once per band that skips them).
    public var layersOccluded = 0
    /// Subtrees composited from a kept bitmap (`RasterCache`) instead of drawn, once per frame.
    public var rasterCacheHits = 0
    /// Bitmaps of subtrees made (drawn into the raster cache).
    public var rasterCacheMisses = 0
    /// Device pixels of the bitmaps made (drawn into the raster cache).
    public var rasterCachePixelsMade = 0
    /// Bitmaps of subtrees made ahead, before they show (idle work: `FrameRenderer.rendersAhead`);
    /// not among `rasterCacheMisses`.
    public var rasterCacheMadeAhead = 0
    /// Bytes the raster cache holds (`statistics` adds what it holds now to what was added).
    public var rasterCacheBytes = 0
    /// Drawing operations (a layer's shadow, background, text, border, or the whole layer, or a
    /// band's clear) left out whole because later opaque layers cover every pixel they reach in
    /// the band (once per band).
    public var opsOccluded = 0
    /// Pixels that operations would have drawn and did not, because later opaque layers cover
    /// them in the band (ops left out whole, rows clipped off, pixels skipped).
    public var pixelsNotDrawn = 0
    /// Pixels of the masks blurred for shadows (what a blur's work and memory follow).
    public var blurredPixels = 0

    public init() {}

    static func + (a: Statistics, b: Statistics) -> Statistics {
      var s = a
      s.blurs += b.blurs
      s.layersDrawn += b.layersDrawn
      s.layersCulled += b.layersCulled
      s.shapeRasterizations += b.shapeRasterizations
      s.imageResamples += b.imageResamples
      s.analyticShadows += b.analyticShadows
      s.layersOccluded += b.layersOccluded
      s.rasterCacheHits += b.rasterCacheHits
      s.rasterCacheMisses += b.rasterCacheMisses
      s.rasterCachePixelsMade += b.rasterCachePixelsMade
      s.rasterCacheMadeAhead += b.rasterCacheMadeAhead
      s.rasterCacheBytes += b.rasterCacheBytes
      s.opsOccluded += b.opsOccluded
      s.pixelsNotDrawn += b.pixelsNotDrawn
      s.blurredPixels += b.blurredPixels
      return s
    }
  }

  private let counters = Mutex(Statistics())
  let shadowCache = ShadowCache()
  /// Blurred corners of rounded rectangles, by radii and blur (analytic shadows).
  let shadowProfiles = ShadowProfiles()
  /// Rasterized layer shapes, drawn again wherever they move by whole pixels.
  let coverageCache = CoverageCache()
  /// Images resampled to the size they are shown at.
  let imageCache = ImageCache()
  /// Bitmaps of subtrees drawn unchanged, composited instead of drawing them again.
  public let rasterCache = RasterCache()
  /// Draws text through a glyph cache shared by every frame.
  public let textRenderer = TextRenderer()

  public init() {}

  /// Memory held by the caches, in bytes: blurred shadows, recorded shapes and glyph masks.
  public var cacheBytes: (shadows: Int, shapes: Int, glyphs: Int) {
    (shadowCache.bytes, coverageCache.bytes, textRenderer.cache.statistics.bytes)
  }

  /// Memory held by images resampled to their device size, in bytes.
  public var imageCacheBytes: Int { imageCache.bytes }

  /// What was counted since the last reset.
  public var statistics: Statistics {
    var s = counters.withLock { $0 }
    s.shapeRasterizations += coverageCache.recordings.load(ordering: .relaxed)
    s.imageResamples += imageCache.resamples.load(ordering: .relaxed)
    s.rasterCacheBytes += rasterCache.bytes
    return s
  }

  public func resetStatistics() {
    counters.withLock { $0 = Statistics() }
    coverageCache.recordings.store(0, ordering: .relaxed)
    imageCache.resamples.store(0, ordering: .relaxed)
  }

  func add(_ s: Statistics) { counters.withLock { $0 = $0 + s } }

  /// Ends a frame: lets the caches drop what was not used recently.
  public func endFrame() {
    shadowCache.endFrame()
    coverageCache.endFrame()
    imageCache.endFrame()
  }

  /// Memory held by the raster cache's bitmaps, in bytes.
  public var rasterCacheBytes: Int { rasterCache.bytes }
}
