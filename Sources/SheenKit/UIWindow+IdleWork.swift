import Foundation
import SheenLayers
import SheenPlatform
import SheenRaster

/// Work a view does between frames, in the time a frame leaves before the next one is due
/// (UIKit runs such work, a collection view's cell prefetching among it, from the main run
/// loop's idle time). A view asks for it with `UIWindow.setNeedsIdleWork(_:)`.
public protocol UIIdleWorking: AnyObject {
  /// Does one piece of work, in `window`, if there is any; returns true when more remains.
  /// `deadline` (seconds on `monotonicSeconds()`'s clock) is when the next frame is due: a piece
  /// is started only before it.
  func performIdleWork(in window: UIWindow, until deadline: Double) -> Bool
}

extension UIWindow {
  /// Asks for `worker.performIdleWork` between frames until it says it has no more.
  /// Workers are held weakly; those gone since are dropped here too, so a host that never calls
  /// `performIdleWork` (a steady benchmark) does not collect one entry per view made and freed.
  public func setNeedsIdleWork(_ worker: UIIdleWorking) {
    if idleWorkers.contains(where: { $0.value === worker }) { return }
    idleWorkers.removeAll { $0.value == nil }
    idleWorkers.append(WeakIdleWorker(value: worker))
  }

  /// True while some view has work for the time between frames.
  public var hasIdleWork: Bool { !idleWorkers.isEmpty }

  /// Runs the views' idle work, one piece at a time, while there is time before `deadline`
  /// (`monotonicSeconds()`'s clock): `FrameLoop` calls it after presenting a frame, with the
  /// time the next is due; headless hosts call it between frames. Returns true when work
  /// remains. Pieces are small (a cell configured, one drawn ahead), but one that is started
  /// runs to its end.
  @discardableResult public func performIdleWork(until deadline: Double) -> Bool {
    while !idleWorkers.isEmpty {
      if monotonicSeconds() >= deadline { return true }
      guard let w = idleWorkers[0].value, w.performIdleWork(in: self, until: deadline) else {
        idleWorkers.remove(at: 0)
        continue
      }
      // The same worker again while it has work and there is time.
    }
    return !idleWorkers.isEmpty
  }

  /// Draws `layer`'s subtree once, where it will be shown, into a scratch surface, so that the
  /// renderer's caches (shapes and text as coverage, glyphs, resampled images, shadows, and with
  /// `rasterizesAutomatically` the raster cache's bitmaps) hold what it needs before it comes
  /// into view: idle work ahead of scrolling. The subtree is
  /// placed as the window would place it now (its sub-pixel phase is what the caches key by,
  /// and scrolling moves it by whole pixels).
  public func warmRendererCaches(for view: UIView) {
    guard let superview = view.superview else { return }
    // The superview's coordinates to window pixels.
    let o = superview.convert(CGPoint.zero, to: nil)
    let x = superview.convert(CGPoint(x: 1, y: 0), to: nil)
    let y = superview.convert(CGPoint(x: 0, y: 1), to: nil)
    let s = Double(scale)
    var t = Transform(
      a: Double(x.x - o.x) * s, b: Double(x.y - o.y) * s, c: Double(y.x - o.x) * s, d: Double(y.y - o.y) * s,
      tx: Double(o.x) * s, ty: Double(o.y) * s)
    // The view's box in window pixels, with room for its shadow.
    let box = view.convert(view.bounds, to: nil)
    let margin = 48.0
    let minX = (Double(box.minX) * s - margin).rounded(.down)
    let minY = (Double(box.minY) * s - margin).rounded(.down)
    let width = Int((Double(box.width) * s + 2 * margin).rounded(.up)) + 1
    let height = Int((Double(box.height) * s + 2 * margin).rounded(.up)) + 1
    guard minX.isFinite, minY.isFinite, width > 0, height > 0, width * height <= 16 << 20 else { return }
    // One scratch surface, grown to the largest subtree drawn (allocating one per subtree
    // scattered megabytes through the allocator's heap).
    let fits = warmSurface.map { $0.width >= width && $0.height >= height } ?? false
    if !fits {
      let w = max(width, warmSurface?.width ?? 0)
      let h = max(height, warmSurface?.height ?? 0)
      warmSurface = nil
      warmSurface = try? Surface(width: w, height: h)
    }
    guard let surface = warmSurface else { return }
    t.tx -= minX
    t.ty -= minY
    if warmRenderer?.context !== renderer.context {
      warmRenderer = FrameRenderer(threads: 1, context: renderer.context)
      warmRenderer?.rendersAhead = true
    }
    // With the raster cache, the subtree's bitmaps are made here too, for the frames that show
    // it (a row coming into view then costs its frame a composite, not a drawing and a making).
    warmRenderer?.rasterizesAutomatically = renderer.rasterizesAutomatically
    // The one-layer list in storage kept for the next (emptied after: it holds no view).
    warmLayers.append(view.layer.sheenLayer)
    warmRenderer?.render(warmLayers, into: surface, transform: t, background: .clear)
    warmLayers.removeAll(keepingCapacity: true)
  }
}

/// A weak reference to a view with idle work.
struct WeakIdleWorker {
  weak var value: UIIdleWorking?
}
