import SheenKit
import SheenPlatform
import SheenUI

/// Which of the demo's two versions to show: the list written with SheenKit (UIKit-shaped) or
/// its twin written with SheenUI (SwiftUI-shaped).
public enum DemoUI: String, CaseIterable, Sendable {
  case uikit, swiftui
}

/// What hosts (`sheen demo`, `dump`, `bench`) and scripts need of a demo window, whichever UI
/// it shows.
public protocol DemoWindowing: UIWindow {
  /// Frames per second and frame times, top right; `f` toggles it.
  var overlay: FPSOverlay { get }
  /// Called when the user asks to quit (Escape or `q`).
  var onQuit: (() -> Void)? { get set }
  /// The scroll view that holds the cards.
  var scrollingList: UIScrollView { get }
  /// The centre of card `index`'s button in window points, when that card is made.
  func buttonCenter(ofCard index: Int) -> CGPoint?
  /// Scrolls the list at once (no animation) so that card `index` is on screen, near the top;
  /// a card past the list's end leaves the list where it is.
  func scrollToCard(_ index: Int)
  /// How many rows of cards came into view so far.
  var rowsShown: Int { get }
  /// Records a finished frame's timing for the overlay.
  func recordFrame(time: Double, render: Double, present: Double)
  /// Brings the overlay's text up to date for a frame at `time`.
  func refreshOverlay(at time: Double)
}

extension DemoWindowing {
  /// Escape and `q` quit, `f` toggles the overlay; other keys go on to the list.
  func handleKey(_ event: PlatformEvent) -> Bool {
    guard case .keyDown(let key, let text, _) = event else { return false }
    switch key {
    case .escape, .q:
      onQuit?()
      return true
    default:
      if text == "f" || text == "F" {
        overlay.isHidden.toggle()
        return true
      }
      return false
    }
  }

  public func recordFrame(time: Double, render: Double, present: Double) {
    overlay.record(time: time, render: render, present: present)
  }

  public func refreshOverlay(at time: Double) {
    if !overlay.isHidden { overlay.refresh(at: time) }
  }

  /// Without a way to ask where a card is: the list moves down a half screen at a time from the
  /// top (laying out what it shows) until the card's button is inside the window, at most to
  /// the end.
  public func scrollToCard(_ index: Int) {
    let list = scrollingList
    let end = max(0, list.contentSize.height - list.bounds.height)
    let step = max(1, list.bounds.height / 2)
    var y: CGFloat = 0
    while true {
      list.contentOffset = CGPoint(x: list.contentOffset.x, y: min(y, end))
      layoutIfNeeded()
      if let c = buttonCenter(ofCard: index), c.y >= 0, c.y < bounds.height { return }
      if y >= end { return }
      y += step
    }
  }
}

extension DemoWindow: DemoWindowing {
  public var scrollingList: UIScrollView { list }

  /// Only the cards on screen have views (their rows are reused).
  public func buttonCenter(ofCard index: Int) -> CGPoint? {
    guard let b = cards.cardView(at: index)?.button else { return nil }
    return b.convert(CGPoint(x: b.bounds.midX, y: b.bounds.midY), to: nil)
  }

  public var rowsShown: Int { cards.rowsShown }

  public func scrollToCard(_ index: Int) {
    guard let p = cards.indexPath(forCard: index) else { return }
    list.scrollToItem(at: p, at: .top, animated: false)
    layoutIfNeeded()
  }
}

/// The demo's window showing the SwiftUI twin of the card list (`SwiftUIDemoList`), with the
/// same FPS overlay and keys as `DemoWindow`.
public final class SwiftUIDemoWindow: UIWindow, DemoWindowing {
  /// The hosting view of the SwiftUI list.
  public let host: HostingView<SwiftUIDemoList>
  public let overlay = FPSOverlay()
  public var onQuit: (() -> Void)?

  /// A window of `size` pixels at `scale` pixels per point, listing `cardCount` cards.
  public init(size: PixelSize, scale: Double = 1, cardCount: Int = DemoContent.cardCount) {
    host = HostingView(rootView: SwiftUIDemoList(cardCount: cardCount))
    let s = max(0.25, scale)
    super.init(
      frame: CGRect(
        x: 0, y: 0, width: CGFloat(Double(size.width) / s), height: CGFloat(Double(size.height) / s)))
    self.scale = CGFloat(s)
    backgroundColor = UIColor(red: 0.93, green: 0.94, blue: 0.96, alpha: 1)
    addSubview(host)
    addSubview(overlay)
    eventHandler = { [unowned self] event in self.handleKey(event) }
    // The automatic raster cache on, as in the UIKit list's window.
    renderer.rasterizesAutomatically = true
    setNeedsLayout()
  }

  public required init?(coder: NSCoder) { return nil }

  public override func layoutSubviews() {
    super.layoutSubviews()
    host.frame = bounds
    let o = FPSOverlay.size
    overlay.frame = CGRect(x: bounds.width - o.width - 12, y: 12, width: o.width, height: o.height)
    host.layoutIfNeeded()
    keyboardScrollView = scrollingList
  }

  /// The `ScrollView`'s scroll view (made by the first layout).
  public var scrollingList: UIScrollView {
    host.layoutIfNeeded()
    func find(_ v: UIView) -> UIScrollView? {
      if let s = v as? UIScrollView { return s }
      for s in v.subviews {
        if let f = find(s) { return f }
      }
      return nil
    }
    return find(host) ?? UIScrollView()
  }

  public func buttonCenter(ofCard index: Int) -> CGPoint? {
    guard let b = host.view(withAccessibilityIdentifier: "card-\(index)-button") else { return nil }
    return b.convert(CGPoint(x: b.bounds.midX, y: b.bounds.midY), to: nil)
  }

  /// The rows of the list made so far: rows of cards and sections' titles (each a row of its lazy
  /// stack, as each is an item of the UIKit list's collection view).
  public var rowsShown: Int {
    host.bodyEvaluations(of: SwiftUICardRow.self) + host.bodyEvaluations(of: SwiftUISectionTitle.self)
  }

}

extension DemoApp {
  /// The demo's window showing `ui` at `size` pixels and `scale` pixels per point, listing
  /// `cardCount` cards, laid out.
  public static func makeWindow(
    size: PixelSize, scale: Double = 1, cardCount: Int = DemoContent.cardCount, ui: DemoUI
  ) -> any DemoWindowing {
    switch ui {
    case .uikit:
      return makeWindow(size: size, scale: scale, cardCount: cardCount)
    case .swiftui:
      let w = SwiftUIDemoWindow(size: size, scale: scale, cardCount: cardCount)
      w.layoutIfNeeded()
      return w
    }
  }
}
