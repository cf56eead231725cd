import SheenKit

/// A kind of alignment guide (SwiftUI's `AlignmentID`): its value in a view that sets none
/// explicitly. Make `HorizontalAlignment(MyID.self)` or `VerticalAlignment(MyID.self)` of one
/// to line views up by guides of your own (`.alignmentGuide(_:computeValue:)`).
public protocol AlignmentID {
  static func defaultValue(in context: ViewDimensions) -> CGFloat
}

/// The identity of an alignment guide and which way it measures.
struct AlignmentKey: Hashable, @unchecked Sendable {
  let id: any AlignmentID.Type
  /// Horizontal guides are x positions (a `VStack`'s), vertical ones y positions.
  let axis: Axis
  /// The default value as a fraction of the length, for the built-in guides (a fast path).
  let fraction: CGFloat?

  func defaultValue(_ d: ViewDimensions) -> CGFloat {
    if let f = fraction { return f * (axis == .horizontal ? d.width : d.height) }
    return id.defaultValue(in: d)
  }
  /// The default value in a view of `size` (its explicit guides not asked).
  func defaultValue(_ size: CGSize) -> CGFloat {
    if let f = fraction { return f * (axis == .horizontal ? size.width : size.height) }
    return id.defaultValue(in: ViewDimensions(width: size.width, height: size.height, node: nil))
  }
  /// Whether this is a text baseline, which text sets explicitly.
  var isBaseline: Bool { id == FirstTextBaselineID.self || id == LastTextBaselineID.self }

  static func == (a: AlignmentKey, b: AlignmentKey) -> Bool { a.id == b.id && a.axis == b.axis }
  func hash(into h: inout Hasher) {
    h.combine(ObjectIdentifier(id))
    h.combine(axis)
  }
}

enum LeadingID: AlignmentID { static func defaultValue(in d: ViewDimensions) -> CGFloat { 0 } }
enum HCenterID: AlignmentID { static func defaultValue(in d: ViewDimensions) -> CGFloat { d.width / 2 } }
enum TrailingID: AlignmentID { static func defaultValue(in d: ViewDimensions) -> CGFloat { d.width } }
enum TopID: AlignmentID { static func defaultValue(in d: ViewDimensions) -> CGFloat { 0 } }
enum VCenterID: AlignmentID { static func defaultValue(in d: ViewDimensions) -> CGFloat { d.height / 2 } }
enum BottomID: AlignmentID { static func defaultValue(in d: ViewDimensions) -> CGFloat { d.height } }
/// A view without text has its baselines at its bottom (as SwiftUI's).
enum FirstTextBaselineID: AlignmentID {
  static func defaultValue(in d: ViewDimensions) -> CGFloat { d.height }
}
enum LastTextBaselineID: AlignmentID {
  static func defaultValue(in d: ViewDimensions) -> CGFloat { d.height }
}

/// Where views line up across a vertical stack (SwiftUI's `HorizontalAlignment`).
public struct HorizontalAlignment: Hashable, Sendable {
  let key: AlignmentKey
  /// A guide of your own, by its `AlignmentID`.
  public init(_ id: any AlignmentID.Type) { key = AlignmentKey(id: id, axis: .horizontal, fraction: nil) }
  init(_ id: any AlignmentID.Type, fraction: CGFloat) {
    key = AlignmentKey(id: id, axis: .horizontal, fraction: fraction)
  }
  public static let leading = HorizontalAlignment(LeadingID.self, fraction: 0)
  public static let center = HorizontalAlignment(HCenterID.self, fraction: 0.5)
  public static let trailing = HorizontalAlignment(TrailingID.self, fraction: 1)
}

/// Where views line up across a horizontal stack (SwiftUI's `VerticalAlignment`).
public struct VerticalAlignment: Hashable, Sendable {
  let key: AlignmentKey
  /// A guide of your own, by its `AlignmentID`.
  public init(_ id: any AlignmentID.Type) { key = AlignmentKey(id: id, axis: .vertical, fraction: nil) }
  init(_ id: any AlignmentID.Type, fraction: CGFloat?) {
    key = AlignmentKey(id: id, axis: .vertical, fraction: fraction)
  }
  public static let top = VerticalAlignment(TopID.self, fraction: 0)
  public static let center = VerticalAlignment(VCenterID.self, fraction: 0.5)
  public static let bottom = VerticalAlignment(BottomID.self, fraction: 1)
  /// The first line's baseline of the text in a view (its bottom when it has none).
  public static let firstTextBaseline = VerticalAlignment(FirstTextBaselineID.self, fraction: nil)
  /// The last line's baseline of the text in a view (its bottom when it has none).
  public static let lastTextBaseline = VerticalAlignment(LastTextBaselineID.self, fraction: nil)
}

/// Both alignments (SwiftUI's `Alignment`), for `ZStack`, `.frame`, `.background`, `.overlay`.
public struct Alignment: Hashable, Sendable {
  public var horizontal: HorizontalAlignment
  public var vertical: VerticalAlignment
  public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
    self.horizontal = horizontal
    self.vertical = vertical
  }
  public static let center = Alignment(horizontal: .center, vertical: .center)
  public static let leading = Alignment(horizontal: .leading, vertical: .center)
  public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
  public static let top = Alignment(horizontal: .center, vertical: .top)
  public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
  public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
  public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
  public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
  public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

  /// Where a child of `size` goes in `rect` with this alignment (by default guides).
  func place(_ size: CGSize, in rect: CGRect) -> CGRect {
    CGRect(
      x: rect.minX + horizontal.key.defaultValue(rect.size) - horizontal.key.defaultValue(size),
      y: rect.minY + vertical.key.defaultValue(rect.size) - vertical.key.defaultValue(size),
      width: size.width, height: size.height)
  }

  /// Where `node`, of `size`, goes in `rect`: its guides (explicit ones included) on the
  /// container's default guides, as SwiftUI's frames and `ZStack`s place.
  func place(_ node: Node, _ size: CGSize, in rect: CGRect) -> CGRect {
    CGRect(
      x: rect.minX + horizontal.key.defaultValue(rect.size) - node.alignmentValue(horizontal.key, size),
      y: rect.minY + vertical.key.defaultValue(rect.size) - node.alignmentValue(vertical.key, size),
      width: size.width, height: size.height)
  }
}

/// A view's size and guides as `alignmentGuide` closures see it (SwiftUI's `ViewDimensions`).
public struct ViewDimensions {
  public let width: CGFloat
  public let height: CGFloat
  /// The node whose explicit guides these dimensions answer (none for a bare size).
  let node: Node?

  init(width: CGFloat, height: CGFloat, node: Node?) {
    self.width = width
    self.height = height
    self.node = node
  }

  var size: CGSize { CGSize(width: width, height: height) }

  /// The guide's value: the one the view sets, or the guide's default.
  public subscript(guide: HorizontalAlignment) -> CGFloat {
    self[explicit: guide] ?? guide.key.defaultValue(self)
  }
  public subscript(guide: VerticalAlignment) -> CGFloat {
    self[explicit: guide] ?? guide.key.defaultValue(self)
  }
  /// The guide's value when the view (or one inside it) sets it.
  public subscript(explicit guide: HorizontalAlignment) -> CGFloat? {
    node?.explicitAlignment(guide.key, size)
  }
  public subscript(explicit guide: VerticalAlignment) -> CGFloat? {
    node?.explicitAlignment(guide.key, size)
  }
}

extension Node {
  /// The value of guide `key` in this node at `size`: explicit, or the guide's default.
  final func alignmentValue(_ key: AlignmentKey, _ size: CGSize) -> CGFloat {
    explicitAlignment(key, size)
      ?? key.defaultValue(ViewDimensions(width: size.width, height: size.height, node: nil))
  }

  /// The value of guide `key` at `size` when something in this node sets it explicitly.
  final func explicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    guard mayHaveGuides(baselines: key.isBaseline) else { return nil }
    return computeExplicitAlignment(key, size)
  }

  /// Whether an `alignmentGuide` (or, with `baselines`, a text) is in this part of the tree.
  final func mayHaveGuides(baselines: Bool) -> Bool { subtreeGuideFlags & (baselines ? 3 : 1) != 0 }
}

// MARK: - Explicit guides

public struct _AlignmentGuideView<Content: View>: View {
  let content: Content
  let key: AlignmentKey
  let compute: (ViewDimensions) -> CGFloat
  public typealias Body = Never
  public var body: Never { fatalError("_AlignmentGuideView has no body") }
}

/// Sets one guide of its content; the others are the content's.
final class AlignmentGuideNode: Node {
  /// Its guide may be worked out from any guide of its content.
  override var asksForBaselines: Bool { true }
  var key: AlignmentKey?
  var compute: (ViewDimensions) -> CGFloat = { _ in 0 }
  override var ownGuideFlags: Int8 { 1 }

  override func computeExplicitAlignment(_ k: AlignmentKey, _ size: CGSize) -> CGFloat? {
    let c = children.first
    if k == key { return compute(ViewDimensions(width: size.width, height: size.height, node: c)) }
    return c?.explicitAlignment(k, size)
  }
}

extension _AlignmentGuideView: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? AlignmentGuideNode) ?? AlignmentGuideNode()
    n.key = key
    n.compute = compute
    // A closure cannot be compared: where the guide is may have changed.
    n.invalidateLayout()
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// Sets where guide `g` lies in this view (from its dimensions), for the stack, frame or
  /// overlay that aligns it by `g` (SwiftUI's `alignmentGuide(_:computeValue:)`).
  public func alignmentGuide(
    _ g: HorizontalAlignment, computeValue: @escaping (ViewDimensions) -> CGFloat
  ) -> _AlignmentGuideView<Self> {
    _AlignmentGuideView(content: self, key: g.key, compute: computeValue)
  }
  public func alignmentGuide(
    _ g: VerticalAlignment, computeValue: @escaping (ViewDimensions) -> CGFloat
  ) -> _AlignmentGuideView<Self> {
    _AlignmentGuideView(content: self, key: g.key, compute: computeValue)
  }
}

/// SwiftUI's rule for a container whose children set a guide: the mean of their values (each
/// in the container's coordinates); the first baseline is the topmost, the last the lowest.
struct ExplicitMerge {
  let key: AlignmentKey
  var sum: CGFloat = 0
  var count = 0
  var result: CGFloat?

  init(_ key: AlignmentKey) { self.key = key }

  mutating func add(_ v: CGFloat?) {
    guard let v else { return }
    count += 1
    if key.id == FirstTextBaselineID.self {
      result = min(result ?? v, v)
    } else if key.id == LastTextBaselineID.self {
      result = max(result ?? v, v)
    } else {
      sum += v
      result = sum / CGFloat(count)
    }
  }
}
