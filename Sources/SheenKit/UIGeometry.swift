import Foundation
import SheenLayers

/// Insets from each edge of a rectangle (UIKit's `UIEdgeInsets`).
public struct UIEdgeInsets: Hashable, Sendable {
  public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat

  public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
    (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
  }
  public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }

  public static let zero = UIEdgeInsets()
}

extension CGRect {
  /// The rectangle shrunk by `insets` (UIKit's `inset(by:)`).
  public func inset(by insets: UIEdgeInsets) -> CGRect {
    CGRect(
      x: minX + insets.left, y: minY + insets.top, width: width - insets.left - insets.right,
      height: height - insets.top - insets.bottom)
  }
}

/// The corners of a rectangle (UIKit's `UIRectCorner`).
public struct UIRectCorner: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let topLeft = UIRectCorner(rawValue: 1 << 0)
  public static let topRight = UIRectCorner(rawValue: 1 << 1)
  public static let bottomLeft = UIRectCorner(rawValue: 1 << 2)
  public static let bottomRight = UIRectCorner(rawValue: 1 << 3)
  public static let allCorners = UIRectCorner(rawValue: 0xF)
}

/// How a view lays out its content when its bounds change (UIKit's `UIView.ContentMode`).
public enum UIViewContentMode: Int, Sendable {
  case scaleToFill, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right
  case topLeft, topRight, bottomLeft, bottomRight

  /// The layer gravity of the mode (`redraw` stretches, as `scaleToFill`).
  var gravity: ContentsGravity {
    switch self {
    case .scaleToFill, .redraw: .resize
    case .scaleAspectFit: .resizeAspect
    case .scaleAspectFill: .resizeAspectFill
    case .center: .center
    case .top: .top
    case .bottom: .bottom
    case .left: .left
    case .right: .right
    case .topLeft: .topLeft
    case .topRight: .topRight
    case .bottomLeft: .bottomLeft
    case .bottomRight: .bottomRight
    }
  }
}

/// Which margins and sizes follow the superview's size (UIKit's `UIView.AutoresizingMask`).
public struct UIViewAutoresizing: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let flexibleLeftMargin = UIViewAutoresizing(rawValue: 1 << 0)
  public static let flexibleWidth = UIViewAutoresizing(rawValue: 1 << 1)
  public static let flexibleRightMargin = UIViewAutoresizing(rawValue: 1 << 2)
  public static let flexibleTopMargin = UIViewAutoresizing(rawValue: 1 << 3)
  public static let flexibleHeight = UIViewAutoresizing(rawValue: 1 << 4)
  public static let flexibleBottomMargin = UIViewAutoresizing(rawValue: 1 << 5)
}
