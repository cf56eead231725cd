import SheenKit
import SheenRaster
import Synchronization

/// Rounded-rectangle paths by size, shared by every view that shows one (tags, buttons): a
/// reused cell given a title or tag of a width seen before takes the path made then instead of
/// building a new one, as an app keeps a few shapes it draws over and over. At most `capacity`
/// are kept (the CLOCK cache evicts one at a time), so text of ever new widths cannot grow it.
/// Locked: views are made on one thread per window, as UIKit's, but windows (tests) may run on
/// several.
enum ShapePaths {
  struct Key: Hashable {
    var width: CGFloat
    var height: CGFloat
    var radius: CGFloat
    var corners: UInt
  }

  /// The most paths kept (the demo shows a few hundred sizes; each path is a few hundred bytes).
  static let capacity = 1024

  private static let cache = Mutex(ClockCache<Key, CGPath>(capacity: capacity))

  /// How many paths are kept.
  static var count: Int { cache.withLock { $0.count } }

  /// The rectangle `size` inset by `inset`, rounded by `radius` on `corners`
  /// (`UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:)`), or on every corner
  /// (`UIBezierPath(roundedRect:cornerRadius:)`) when `corners` is nil.
  static func roundedRect(
    size: CGSize, inset: CGFloat = 0, radius: CGFloat, corners: UIRectCorner? = nil
  ) -> CGPath {
    let key = Key(
      width: size.width - 2 * inset, height: size.height - 2 * inset, radius: radius,
      corners: corners?.rawValue ?? .max)
    if let p = cache.withLock({ $0.value(for: key) }) { return p }
    let r = CGRect(x: inset, y: inset, width: key.width, height: key.height)
    let p =
      if let corners {
        UIBezierPath(
          roundedRect: r, byRoundingCorners: corners, cornerRadii: CGSize(width: radius, height: radius)
        )
        .cgPath
      } else {
        UIBezierPath(roundedRect: r, cornerRadius: radius).cgPath
      }
    cache.withLock { $0.insert(p, for: key) }
    return p
  }
}
