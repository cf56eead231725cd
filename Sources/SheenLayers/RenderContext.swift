import SheenRaster
import SheenText

/// What the compositor keeps from frame to frame (caches) and counts (statistics).
public final class RenderContext {
  /// Counters of expensive work, reset by `resetStatistics()`.
  public struct Statistics: Hashable, Sendable {
    /// Gaussian blurs computed (a cached shadow costs none).
    public var blurs = 0
    /// Layers drawn.
    public var layersDrawn = 0
    /// Layers skipped because they were outside the clip.
    public var layersCulled = 0
  }

  public var statistics = Statistics()
  let shadowCache = ShadowCache()
  /// Draws text through a glyph cache shared by every frame.
  public let textRenderer = TextRenderer()

  public init() {}

  public func resetStatistics() { statistics = Statistics() }
}
