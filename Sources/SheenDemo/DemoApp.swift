// SheenDemo: the demo's content, written as an iOS developer would write it with SheenKit: a
// view controller with a collection view of cards in sections (reused rows, cards pinned with
// Auto Layout), gradient buttons with press feedback, and an FPS overlay.
//
// Design: the content never imports a windowing system. `DemoWindow` is a `UIWindow` (a
// `FrameLoopClient`): the host (`sheen demo`, `sheen dump`, `sheen bench`, tests) hands it
// platform-neutral events and a clock, and gets a layer tree drawn into a surface. Everything
// moves on that clock, so a run on a virtual clock is deterministic.

import SheenKit
import SheenPlatform

/// The demo's window: the card list, the FPS overlay on top, and the keys that quit and toggle
/// the overlay (the list scrolls with the rest).
public final class DemoWindow: UIWindow {
  /// The list's controller: the window's root view controller.
  public let cards: CardsViewController
  /// The scrolling list of cards (the controller's collection view).
  public var list: UICollectionView { cards.collectionView }
  /// Frames per second and frame times, top right; `f` toggles it.
  public let overlay = FPSOverlay()
  /// Called when the user asks to quit (Escape or `q`). The host stops its loop.
  public var onQuit: (() -> Void)?

  /// A window of `size` pixels at `scale` pixels per point, listing `cardCount` cards.
  public init(size: PixelSize, scale: Double = 1, cardCount: Int = DemoContent.cardCount) {
    let s = max(0.25, scale)
    cards = CardsViewController(cardCount: cardCount)
    super.init(
      frame: CGRect(
        x: 0, y: 0, width: CGFloat(Double(size.width) / s), height: CGFloat(Double(size.height) / s)))
    self.scale = CGFloat(s)
    backgroundColor = CardsViewController.background
    rootViewController = cards
    addSubview(overlay)
    keyboardScrollView = list
    eventHandler = { [unowned self] event in self.handleKey(event) }
    // The automatic raster cache on (RasterCache.swift): cards drawn unchanged are composited
    // from kept bitmaps (`sheen ... --no-raster-cache` turns it off).
    renderer.rasterizesAutomatically = true
    setNeedsLayout()
  }

  public required init?(coder: NSCoder) { return nil }

  public override func layoutSubviews() {
    super.layoutSubviews()
    let o = FPSOverlay.size
    overlay.frame = CGRect(x: bounds.width - o.width - 12, y: 12, width: o.width, height: o.height)
  }

}

/// Entry points for hosts and benchmarks.
public enum DemoApp {
  /// The demo's window at `size` pixels and `scale` pixels per point, listing `cardCount` cards,
  /// laid out and ready to draw.
  public static func makeWindow(size: PixelSize, scale: Double = 1, cardCount: Int = DemoContent.cardCount)
    -> DemoWindow
  {
    let w = DemoWindow(size: size, scale: scale, cardCount: cardCount)
    w.layoutIfNeeded()
    return w
  }
}
