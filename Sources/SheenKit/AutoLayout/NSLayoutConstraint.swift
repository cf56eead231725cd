import Foundation

/// How strongly a constraint holds (UIKit's `UILayoutPriority`): 1000 is required; below that,
/// the layout satisfies stronger constraints first and breaks weaker ones when they conflict.
public struct UILayoutPriority: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByFloatLiteral,
  ExpressibleByIntegerLiteral
{
  public var rawValue: Float
  public init(rawValue: Float) { self.rawValue = rawValue }
  public init(_ rawValue: Float) { self.rawValue = rawValue }
  public init(floatLiteral value: Float) { rawValue = value }
  public init(integerLiteral value: Int) { rawValue = Float(value) }

  public static let required = UILayoutPriority(1000)
  public static let defaultHigh = UILayoutPriority(750)
  public static let dragThatCanResizeScene = UILayoutPriority(510)
  public static let sceneSizeStayPut = UILayoutPriority(500)
  public static let dragThatCannotResizeScene = UILayoutPriority(490)
  public static let defaultLow = UILayoutPriority(250)
  public static let fittingSizeLevel = UILayoutPriority(50)

  public static func < (a: UILayoutPriority, b: UILayoutPriority) -> Bool { a.rawValue < b.rawValue }
  public static func + (p: UILayoutPriority, v: Float) -> UILayoutPriority {
    UILayoutPriority(p.rawValue + v)
  }
  public static func - (p: UILayoutPriority, v: Float) -> UILayoutPriority {
    UILayoutPriority(p.rawValue - v)
  }

  /// The solver's weight: required is a hard constraint; below it, each 100 points of priority
  /// weigh ten times more, so that a few constraints of one priority never outweigh one of a
  /// clearly higher priority (750 against 250 is 10^5).
  var strength: Double {
    rawValue >= 1000 ? SimplexSolver.required : pow(10, Double(max(1, min(rawValue, 999))) / 100)
  }
}

/// The axis a size or priority applies to (UIKit's `NSLayoutConstraint.Axis`).
extension NSLayoutConstraint {
  public enum Axis: Int, Sendable {
    case horizontal = 0
    case vertical = 1
  }
}

/// A linear relation between two layout attributes (UIKit's `NSLayoutConstraint`):
/// `firstItem.firstAttribute (==|<=|>=) multiplier × secondItem.secondAttribute + constant`,
/// held at `priority`.
///
/// Activating it adds it to the layout engine of the view tree its items share; changing
/// `constant` on an active constraint re-solves incrementally. Conflicting required constraints
/// are reported as UIKit reports them and one of them is broken; nothing crashes.
///
/// Unlike UIKit: leading and trailing are left and right (left-to-right text only); there are
/// no baseline attributes.
open class NSLayoutConstraint: CustomStringConvertible, CustomDebugStringConvertible {
  public enum Attribute: Int, Sendable {
    case left = 1, right, top, bottom, leading, trailing, width, height, centerX, centerY
    case leftMargin = 13, rightMargin, topMargin, bottomMargin, leadingMargin, trailingMargin
    case centerXWithinMargins, centerYWithinMargins
    case notAnAttribute = 0
  }

  public enum Relation: Int, Sendable {
    case lessThanOrEqual = -1
    case equal = 0
    case greaterThanOrEqual = 1
  }

  /// The items are not kept alive by the constraint (as in UIKit).
  public private(set) weak var firstItem: AnyObject?
  public let firstAttribute: Attribute
  public let relation: Relation
  public private(set) weak var secondItem: AnyObject?
  public let secondAttribute: Attribute
  public let multiplier: CGFloat
  public let firstAnchor: NSLayoutAnchor<AnyObject>
  public let secondAnchor: NSLayoutAnchor<AnyObject>?

  /// A name shown in messages.
  open var identifier: String?
  /// Whether an archive would keep it; stored only.
  open var shouldBeArchived = false

  open var constant: CGFloat {
    didSet { if constant != oldValue { engineEntry?.constantDidChange() } }
  }

  /// Changing between required and not required while active is refused (with a message),
  /// as in UIKit; other changes apply at once.
  open var priority: UILayoutPriority = .required {
    didSet {
      guard priority != oldValue else { return }
      if isActive && (priority == .required) != (oldValue == .required) {
        LayoutEngine.report(
          "Mutating a priority from required to not on an installed constraint (or vice-versa) is not supported."
            + "  You passed priority \(priority.rawValue) and the existing priority was \(oldValue.rawValue)."
        )
        priority = oldValue
        return
      }
      if isActive {
        isActive = false
        isActive = true
      }
    }
  }

  /// Whether the constraint takes part in layout. Setting it adds it to (or removes it from) the
  /// engine of its items' view tree.
  open var isActive: Bool {
    get { engineEntry != nil }
    set {
      if newValue == isActive { return }
      if newValue { LayoutEngine.activate(self) } else { LayoutEngine.deactivate(self) }
    }
  }

  /// The engine's record of this constraint while active.
  var engineEntry: EngineConstraint?
  /// A constraint made by the system (a stack view's), shown as such in messages.
  var systemName: String?
  /// The view it is installed on while active.
  weak var installedView: UIView?

  /// `view1.attr1 (relation) multiplier × view2.attr2 + c` (UIKit's designated initializer).
  public convenience init(
    item view1: Any, attribute attr1: Attribute, relatedBy relation: Relation, toItem view2: Any?,
    attribute attr2: Attribute, multiplier: CGFloat, constant c: CGFloat
  ) {
    let second: AnyObject? = view2.map { $0 as AnyObject }
    self.init(
      view1 as AnyObject, attr1, relation, attr2 == .notAnAttribute ? nil : second, attr2,
      multiplier: multiplier,
      constant: c)
  }

  init(
    _ first: AnyObject, _ firstAttribute: Attribute, _ relation: Relation, _ second: AnyObject?,
    _ secondAttribute: Attribute, multiplier: CGFloat = 1, constant: CGFloat = 0,
    priority: UILayoutPriority = .required
  ) {
    firstAnchor = NSLayoutAnchor(item: first, attribute: firstAttribute)
    secondAnchor = second.map { NSLayoutAnchor(item: $0, attribute: secondAttribute) }
    firstItem = first
    self.firstAttribute = firstAttribute
    self.relation = relation
    secondItem = second
    self.secondAttribute = second == nil ? .notAnAttribute : secondAttribute
    self.multiplier = multiplier
    self.constant = constant
    self.priority = priority
  }

  /// Activates every constraint in `constraints` (UIKit's batch activation).
  open class func activate(_ constraints: [NSLayoutConstraint]) {
    for c in constraints { c.isActive = true }
  }

  open class func deactivate(_ constraints: [NSLayoutConstraint]) {
    for c in constraints { c.isActive = false }
  }

  // MARK: Description

  /// As UIKit writes a constraint in its messages:
  /// `<NSLayoutConstraint:0x… UIView:0x….leading == UIView:0x….leading + 20   (active)>`.
  open var description: String {
    var s = "<\(systemName ?? "NSLayoutConstraint"):\(LayoutEngine.address(self)) "
    if let identifier { s += "'\(identifier)' " }
    s += NSLayoutConstraint.describe(firstItem, firstAttribute)
    s += [" <= ", " == ", " >= "][relation.rawValue + 1]
    if let secondItem {
      if multiplier != 1 { s += "\(LayoutEngine.number(multiplier))*" }
      s += NSLayoutConstraint.describe(secondItem, secondAttribute)
      if constant > 0 { s += " + \(LayoutEngine.number(constant))" }
      if constant < 0 { s += " - \(LayoutEngine.number(-constant))" }
    } else {
      s += LayoutEngine.number(constant)
    }
    if priority != .required { s += "   (priority \(LayoutEngine.number(CGFloat(priority.rawValue))))" }
    s += isActive ? "   (active)>" : ">"
    return s
  }

  open var debugDescription: String { description }

  static func describe(_ item: AnyObject?, _ attribute: Attribute) -> String {
    guard let item else { return "nil" }
    return "\(LayoutEngine.name(of: item)).\(attributeName(attribute))"
  }

  static func attributeName(_ a: Attribute) -> String {
    switch a {
    case .left: return "left"
    case .right: return "right"
    case .top: return "top"
    case .bottom: return "bottom"
    case .leading: return "leading"
    case .trailing: return "trailing"
    case .width: return "width"
    case .height: return "height"
    case .centerX: return "centerX"
    case .centerY: return "centerY"
    case .leftMargin: return "leftMargin"
    case .rightMargin: return "rightMargin"
    case .topMargin: return "topMargin"
    case .bottomMargin: return "bottomMargin"
    case .leadingMargin: return "leadingMargin"
    case .trailingMargin: return "trailingMargin"
    case .centerXWithinMargins: return "centerXWithinMargins"
    case .centerYWithinMargins: return "centerYWithinMargins"
    case .notAnAttribute: return "notAnAttribute"
    }
  }
}
