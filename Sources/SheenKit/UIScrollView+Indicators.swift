import Foundation
import SheenLayers
import SheenRaster

extension UIScrollView {
  /// The colour of the scroll indicators (UIKit's `UIScrollView.IndicatorStyle`): `.default`
  /// and `.black` are black at 35% opacity (for light content), `.white` white at 35% (for
  /// dark content).
  public enum IndicatorStyle: Int, Sendable {
    case `default`, black, white
  }

  /// Points across an indicator (iOS's 3-point pill).
  public static let scrollIndicatorThickness: CGFloat = 3
  /// Points between an indicator and the edges of the scroll view (inside the indicator insets).
  public static let scrollIndicatorMargin: CGFloat = 3
  /// The shortest an indicator gets from a long content while it is within the content's range.
  public static let scrollIndicatorMinimumLength: CGFloat = 36
  /// The shortest it gets while the content is pulled past an end (it shrinks by the distance).
  public static let scrollIndicatorMinimumCompressedLength: CGFloat = 6
  /// Seconds the indicators stay fully shown after scrolling stops.
  public static let scrollIndicatorHoldDuration = 0.35
  /// Seconds they then take to fade out (linearly).
  public static let scrollIndicatorFadeDuration = 0.3

  /// Shows the indicators of the axes that scroll for a moment: they fade out as after a scroll
  /// (UIKit's `flashScrollIndicators()`).
  public func flashScrollIndicators() {
    indicators.phase = .fading(start: nil)
    indicators.visibility = 1
    updateScrollIndicators()
    setMayMove()
  }

  /// The frame of the vertical indicator in the scroll view's own coordinates (the visible
  /// rectangle, not the content), where it is drawn when it shows; nil when the content fits
  /// vertically or `showsVerticalScrollIndicator` is false. Its length is the track's (the
  /// height inside `verticalScrollIndicatorInsets` and the margins) times the visible fraction
  /// of the content (`contentSize` plus `adjustedContentInset`), at least
  /// `scrollIndicatorMinimumLength`; it travels the track as the offset travels its range and,
  /// past an end, shrinks by the overscroll down to `scrollIndicatorMinimumCompressedLength`,
  /// pinned to that end. Edges are on whole pixels of the window's scale.
  public var verticalScrollIndicatorFrame: CGRect? {
    showsVerticalScrollIndicator ? indicatorFrame(vertical: true) : nil
  }

  /// The horizontal indicator's frame, as `verticalScrollIndicatorFrame`.
  public var horizontalScrollIndicatorFrame: CGRect? {
    showsHorizontalScrollIndicator ? indicatorFrame(vertical: false) : nil
  }

  /// The opacity the indicators are drawn with now (0 when hidden), as a fraction of their
  /// style's colour.
  public var scrollIndicatorVisibility: Double { indicators.visibility }

  private func indicatorFrame(vertical: Bool) -> CGRect? {
    let size = bounds.size
    let inset = adjustedContentInset
    let lead = vertical ? inset.top : inset.left
    let content =
      (vertical
        ? contentSize.height + inset.top + inset.bottom : contentSize.width + inset.left + inset.right)
    let visible = vertical ? size.height : size.width
    guard content.isFinite, visible.isFinite, visible > 0, content > visible else { return nil }
    let t = UIScrollView.scrollIndicatorThickness
    let m = UIScrollView.scrollIndicatorMargin
    let ins = vertical ? verticalScrollIndicatorInsets : horizontalScrollIndicatorInsets
    // When both show, each stops short of the corner the other runs along.
    let otherShows =
      vertical
      ? showsHorizontalScrollIndicator && contentSize.width + inset.left + inset.right > size.width
      : showsVerticalScrollIndicator && contentSize.height + inset.top + inset.bottom > size.height
    let start = (vertical ? ins.top : ins.left) + m
    let end = visible - (vertical ? ins.bottom : ins.right) - m - (otherShows ? t + m : 0)
    let track = end - start
    guard track > 0 else { return nil }
    var length = max(min(UIScrollView.scrollIndicatorMinimumLength, track), track * visible / content)
    let range = content - visible
    let travelled = (vertical ? bounds.minY : bounds.minX) + lead
    let shortest = min(UIScrollView.scrollIndicatorMinimumCompressedLength, length)
    var position: CGFloat
    if travelled < 0 {
      length = max(shortest, length + travelled)
      position = start
    } else if travelled > range {
      length = max(shortest, length - (travelled - range))
      position = end - length
    } else {
      position = start + (track - length) * travelled / range
    }
    let across = (vertical ? size.width - ins.right : size.height - ins.bottom) - m - t
    // On the pixel grid, so that the pill keeps one coverage as it moves.
    let s = window?.scale ?? 1
    func pixel(_ v: CGFloat) -> CGFloat { s > 0 ? (v * s).rounded() / s : v }
    let a = pixel(position)
    length = max(1 / max(s, 1), pixel(position + length) - a)
    position = a
    let c = pixel(across)
    return vertical
      ? CGRect(x: c, y: position, width: t, height: length)
      : CGRect(x: position, y: c, width: length, height: t)
  }

  /// The offset moved: while a drag, a fling, a bounce or a glide moves it, the indicators show.
  func scrollIndicatorsDidScroll() {
    if isDragging || isDecelerating {
      if indicators.phase != .shown {
        indicators.phase = .shown
        setMayMove()
      }
      indicators.visibility = 1
    }
    updateScrollIndicators()
  }

  /// Scrolling stopped at `time` (nil: the next frame's time): the indicators hold, then fade.
  func scrollIndicatorsScrollingEnded(at time: Double?) {
    guard indicators.phase == .shown else { return }
    indicators.phase = .fading(start: time)
    setMayMove()
  }

  /// Whether the indicators' fade needs frames.
  var scrollIndicatorsAreMoving: Bool {
    switch indicators.phase {
    case .hidden: return false
    case .shown: return !isDragging && !isDecelerating
    case .fading: return true
    }
  }

  /// Advances the fade to `now`; true while it goes on.
  func advanceScrollIndicators(to now: Double) -> Bool {
    if indicators.phase == .shown && !isDragging && !isDecelerating {
      indicators.phase = .fading(start: now)
    }
    guard case .fading(let start) = indicators.phase else { return false }
    guard let start else {
      indicators.phase = .fading(start: now)
      return true
    }
    let hold = UIScrollView.scrollIndicatorHoldDuration
    let fade = UIScrollView.scrollIndicatorFadeDuration
    let v = min(1, max(0, 1 - (now - start - hold) / fade))
    if v != indicators.visibility {
      indicators.visibility = v
      updateScrollIndicators()
    }
    if v > 0 { return true }
    indicators.phase = .hidden
    updateScrollIndicators()
    return false
  }

  /// Puts the indicator layers where the geometry says, in the style's colour at the current
  /// visibility; hidden layers (nothing to draw) when they do not show.
  func updateScrollIndicators() {
    let shown = indicators.phase != .hidden && indicators.visibility > 0
    let base: Color =
      indicatorStyle == .white
      ? Color(red: 1, green: 1, blue: 1, alpha: 0.35) : Color(red: 0, green: 0, blue: 0, alpha: 0.35)
    var color = base
    color.alpha *= indicators.visibility
    place(indicators.vertical, shown ? verticalScrollIndicatorFrame : nil, color)
    place(indicators.horizontal, shown ? horizontalScrollIndicatorFrame : nil, color)
  }

  private func place(_ layer: Layer, _ frame: CGRect?, _ color: Color) {
    guard let f = frame else {
      if !layer.isHidden { layer.isHidden = true }
      return
    }
    let r = Rect(x: Double(f.minX), y: Double(f.minY), width: Double(f.width), height: Double(f.height))
    if layer.frame != r { layer.frame = r }
    let radius = Double(min(f.width, f.height)) / 2
    if layer.cornerRadius != radius { layer.cornerRadius = radius }
    if layer.backgroundColor != color { layer.backgroundColor = color }
    if layer.isHidden { layer.isHidden = false }
  }
}

/// A scroll view's two indicator layers (drawn above the content, in the view's own
/// coordinates) and where they are in their appear-hold-fade cycle.
final class ScrollIndicators {
  enum Phase: Equatable {
    /// Not drawn.
    case hidden
    /// Scrolling: fully shown.
    case shown
    /// Scrolling stopped at `start` (nil: the next frame's time): held, then fading.
    case fading(start: Double?)
  }

  let vertical = Layer()
  let horizontal = Layer()
  var phase = Phase.hidden
  /// The fraction of the style's opacity they are drawn with.
  var visibility = 0.0

  init() {
    for l in [vertical, horizontal] {
      l.owner = InternalLayerMarker.shared
      l.isHidden = true
    }
  }
}
