import SheenKit

/// A point in a unit square (SwiftUI's `UnitPoint`): (0, 0) the top leading corner.
public struct UnitPoint: Hashable, Sendable {
  public var x: CGFloat
  public var y: CGFloat
  public init(x: CGFloat, y: CGFloat) {
    self.x = x
    self.y = y
  }
  public static let zero = UnitPoint(x: 0, y: 0)
  public static let center = UnitPoint(x: 0.5, y: 0.5)
  public static let leading = UnitPoint(x: 0, y: 0.5)
  public static let trailing = UnitPoint(x: 1, y: 0.5)
  public static let top = UnitPoint(x: 0.5, y: 0)
  public static let bottom = UnitPoint(x: 0.5, y: 1)
  public static let topLeading = UnitPoint(x: 0, y: 0)
  public static let topTrailing = UnitPoint(x: 1, y: 0)
  public static let bottomLeading = UnitPoint(x: 0, y: 1)
  public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// Colours at locations from 0 to 1 (SwiftUI's `Gradient`).
public struct Gradient: Hashable, Sendable {
  public struct Stop: Hashable, Sendable {
    public var color: Color
    public var location: CGFloat
    public init(color: Color, location: CGFloat) {
      self.color = color
      self.location = location
    }
  }
  public var stops: [Stop]
  public init(stops: [Stop]) { self.stops = stops }
  public init(colors: [Color]) {
    let n = max(1, colors.count - 1)
    stops = colors.enumerated().map { Stop(color: $0.element, location: CGFloat($0.offset) / CGFloat(n)) }
  }
}

/// A gradient along a line from `startPoint` to `endPoint` of the frame (SwiftUI's
/// `LinearGradient`), drawn by a `CAGradientLayer`; a view that fills the space offered, and a
/// style shapes fill with.
public struct LinearGradient: ShapeStyle, View, Hashable {
  public var gradient: Gradient
  public var startPoint: UnitPoint
  public var endPoint: UnitPoint

  public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
    self.gradient = gradient
    self.startPoint = startPoint
    self.endPoint = endPoint
  }
  public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
    self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
  }
  public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
    self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
  }

  func apply(to l: CAGradientLayer) {
    l.colors = gradient.stops.map { $0.color.cgColor }
    l.locations = gradient.stops.map { NSNumber(value: Double($0.location)) }
    l.startPoint = CGPoint(x: startPoint.x, y: startPoint.y)
    l.endPoint = CGPoint(x: endPoint.x, y: endPoint.y)
  }

  public typealias Body = Never
  public var body: Never { fatalError("LinearGradient has no body") }
}

extension LinearGradient: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ShapeNode) ?? ShapeNode()
    n.update(shape: Rectangle(), style: self, stroke: nil, ctx)
    return n
  }
}
