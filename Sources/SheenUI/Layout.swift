import SheenKit

/// SwiftUI's spacing between neighbours in a stack when none is given, and padding on iOS.
enum Defaults {
  static let spacing: CGFloat = 8
  static let padding: CGFloat = 16
}

/// A direction of layout or scrolling (SwiftUI's `Axis`).
public enum Axis: Hashable, Sendable {
  case horizontal, vertical

  public struct Set: OptionSet, Hashable, Sendable {
    public let rawValue: Int8
    public init(rawValue: Int8) { self.rawValue = rawValue }
    public static let horizontal = Set(rawValue: 1)
    public static let vertical = Set(rawValue: 2)
  }
}

/// A `VStack` or `HStack`: children one after another along an axis, sized by flexibility.
///
/// SwiftUI's rule: the space along the axis, less the spacing, is shared out child by child,
/// least flexible first (flexibility: the child's largest size less its smallest, for the same
/// cross-axis proposal), each offered an equal part of what is left. The stack is as long as its
/// children and spacing, and as thick as its thickest child; children line up across it by the
/// stack's alignment.
class StackNode: Node {
  override var asksForBaselines: Bool { alignment.isBaseline }
  var axis = Axis.vertical
  /// The guide children line up by across the stack.
  var alignment = HorizontalAlignment.center.key
  var spacing: CGFloat?
  var items: [Node] = []
  var itemsValid = false
  // Storage `sizes(for:)` and `itemRects(in:)` reuse from call to call (a layout allocates
  // nothing once they are as long as the items).
  private var sizesStorage: [CGSize] = []
  private var orderStorage: [Int] = []
  private var flexStorage: [CGFloat] = []
  private var rectsStorage: [CGRect] = []

  func refreshItems() {
    guard !itemsValid else { return }
    items.removeAll(keepingCapacity: true)
    for c in children { c.collectItems(into: &items) }
    for i in items { i.stackAxis = axis }
    itemsValid = true
  }

  /// The proposal along the axis `length` and across it `cross`, as a `ProposedViewSize`.
  @inline(__always) func proposal(_ length: CGFloat?, _ cross: CGFloat?) -> ProposedViewSize {
    axis == .horizontal
      ? ProposedViewSize(width: length, height: cross) : ProposedViewSize(width: cross, height: length)
  }
  @inline(__always) func length(_ s: CGSize) -> CGFloat { axis == .horizontal ? s.width : s.height }
  @inline(__always) func cross(_ s: CGSize) -> CGFloat { axis == .horizontal ? s.height : s.width }

  /// The spacing after item `i` (none next to a spacer).
  func gap(after i: Int) -> CGFloat {
    if items[i].spacerMinLength != nil || items[i + 1].spacerMinLength != nil { return 0 }
    return spacing ?? Defaults.spacing
  }

  /// The sizes of the items for proposal `p`.
  func sizes(for p: ProposedViewSize) -> [CGSize] {
    refreshItems()
    let n = items.count
    guard n > 0 else { return [] }
    let along = axis == .horizontal ? p.width : p.height
    let across = axis == .horizontal ? p.height : p.width
    // The kept storage, taken out while in use (so that it is not shared, and not copied).
    var sizes = sizesStorage
    sizesStorage = []
    defer { sizesStorage = sizes }
    sizes.removeAll(keepingCapacity: true)
    sizes.reserveCapacity(n)
    guard let total = along else {
      for i in 0..<n { sizes.append(items[i].sizeThatFits(proposal(nil, across))) }
      return sizes
    }
    sizes.append(contentsOf: repeatElement(.zero, count: n))
    var gaps: CGFloat = 0
    for i in 0..<(n - 1) { gaps += gap(after: i) }
    var remaining = total - gaps
    var order = orderStorage
    orderStorage = []
    defer { orderStorage = order }
    order.removeAll(keepingCapacity: true)
    order.reserveCapacity(n)
    order.append(contentsOf: 0..<n)
    if n > 1 {
      var flex = flexStorage
      flexStorage = []
      defer { flexStorage = flex }
      flex.removeAll(keepingCapacity: true)
      flex.reserveCapacity(n)
      for item in items {
        flex.append(
          length(item.sizeThatFits(proposal(.infinity, across)))
            - length(item.sizeThatFits(proposal(0, across))))
      }
      order.sort { flex[$0] < flex[$1] || (flex[$0] == flex[$1] && $0 < $1) }
    }
    for (k, i) in order.enumerated() {
      let offer = max(0, remaining / CGFloat(n - k))
      let s = items[i].sizeThatFits(proposal(offer, across))
      sizes[i] = s
      remaining -= length(s)
    }
    return sizes
  }

  /// Where the items line up across the stack (SwiftUI's rule): each item's guide on one
  /// line, which lies `lead` from the stack's edge; the stack is as thick as the items reach.
  func crossExtent(_ s: [CGSize]) -> (lead: CGFloat, thickness: CGFloat) {
    guard !s.isEmpty else { return (0, 0) }
    var lead = -CGFloat.infinity
    var trail = -CGFloat.infinity
    for (i, x) in s.enumerated() {
      let a = items[i].alignmentValue(alignment, x)
      lead = max(lead, a)
      trail = max(trail, cross(x) - a)
    }
    return (lead, lead + trail)
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    let s = sizes(for: p)
    guard !s.isEmpty else { return .zero }
    var l: CGFloat = 0
    for (i, x) in s.enumerated() { l += length(x) + (i + 1 < s.count ? gap(after: i) : 0) }
    let c = crossExtent(s).thickness
    return axis == .horizontal ? CGSize(width: l, height: c) : CGSize(width: c, height: l)
  }

  /// The items' rectangles in `rect`.
  func itemRects(in rect: CGRect) -> [CGRect] {
    let s = sizes(for: proposal(for: rect.size))
    var pos = axis == .horizontal ? rect.minX : rect.minY
    let crossLength = axis == .horizontal ? rect.height : rect.width
    let (lead, thickness) = crossExtent(s)
    // Offered more than it takes, the stack's guide goes where its own default guide is.
    let crossStart =
      (axis == .horizontal ? rect.minY : rect.minX) + lead + (crossLength - thickness)
      * (alignment.fraction ?? 0)
    var rects = rectsStorage
    rectsStorage = []
    defer { rectsStorage = rects }
    rects.removeAll(keepingCapacity: true)
    rects.reserveCapacity(s.count)
    for (i, x) in s.enumerated() {
      let c = crossStart - items[i].alignmentValue(alignment, x)
      rects.append(
        axis == .horizontal
          ? CGRect(x: pos, y: c, width: x.width, height: x.height)
          : CGRect(x: c, y: pos, width: x.width, height: x.height))
      pos += length(x) + (i + 1 < s.count ? gap(after: i) : 0)
    }
    return rects
  }

  override func placeChildren(in rect: CGRect) {
    for (i, r) in itemRects(in: rect).enumerated() { items[i].place(in: r) }
  }

  /// The mean of the guides the items set, where the stack puts them.
  override func computeExplicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    let rects = itemRects(in: CGRect(origin: .zero, size: size))
    var m = ExplicitMerge(key)
    for (i, r) in rects.enumerated() {
      m.add(items[i].explicitAlignment(key, r.size).map { $0 + (key.axis == .horizontal ? r.minX : r.minY) })
    }
    return m.result
  }

  /// Brings the content up to date; the stack is laid out again only when its items, axis,
  /// alignment or spacing changed (an item whose size may have changed invalidates the layout
  /// from where it is).
  func update<Content: View>(
    _ content: Content, axis: Axis, alignment: AlignmentKey, spacing: CGFloat?, _ ctx: UpdateContext
  ) {
    let c = SheenUI.reconcile(children.first, content, ctx)
    setChild(0, c, ctx)
    // A list below may have gained or lost members.
    let same = itemsValid && sameItems()
    itemsValid = same
    if !same || axis != self.axis || alignment != self.alignment || spacing != self.spacing {
      self.axis = axis
      self.alignment = alignment
      self.spacing = spacing
      itemsValid = false
      invalidateLayout()
    }
  }

  /// Whether the items the children list now are the ones kept, in order.
  private func sameItems() -> Bool {
    var i = 0
    var same = true
    for c in children {
      c.forEachItem { n in
        guard same else { return }
        if i < items.count && items[i] === n { i += 1 } else { same = false }
      }
    }
    return same && i == items.count
  }
}

extension Node {
  /// The axis of the stack this node is an item of (spacers stretch along it).
  var stackAxis: Axis? {
    get { (self as? SpacerNode)?.axis }
    set { (self as? SpacerNode)?.axis = newValue }
  }
}

/// Views in a column (SwiftUI's `VStack`).
public struct VStack<Content: View>: View {
  let alignment: HorizontalAlignment
  let spacing: CGFloat?
  let content: Content
  public init(
    alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
  ) {
    self.alignment = alignment
    self.spacing = spacing
    self.content = content()
  }
  public typealias Body = Never
  public var body: Never { fatalError("VStack has no body") }
}

/// Views in a row (SwiftUI's `HStack`).
public struct HStack<Content: View>: View {
  let alignment: VerticalAlignment
  let spacing: CGFloat?
  let content: Content
  public init(
    alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
  ) {
    self.alignment = alignment
    self.spacing = spacing
    self.content = content()
  }
  public typealias Body = Never
  public var body: Never { fatalError("HStack has no body") }
}

extension VStack: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? StackNode) ?? StackNode()
    n.update(content, axis: .vertical, alignment: alignment.key, spacing: spacing, ctx)
    return n
  }
}

extension HStack: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? StackNode) ?? StackNode()
    n.update(content, axis: .horizontal, alignment: alignment.key, spacing: spacing, ctx)
    return n
  }
}

/// Views on top of one another (SwiftUI's `ZStack`): each is offered the whole proposal; the
/// stack is as large as the largest, and aligns them all.
public struct ZStack<Content: View>: View {
  let alignment: Alignment
  let content: Content
  public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
    self.alignment = alignment
    self.content = content()
  }
  public typealias Body = Never
  public var body: Never { fatalError("ZStack has no body") }
}

final class ZStackNode: Node {
  var alignment = Alignment.center
  override var asksForBaselines: Bool { alignment.vertical.key.isBaseline }
  var items: [Node] = []

  /// The children's rectangles for proposal `p`, their guides on one point, and the union of
  /// them (SwiftUI's rule: the stack is as large as its aligned children reach).
  func layout(_ p: ProposedViewSize) -> (rects: [CGRect], bounds: CGRect) {
    var rects: [CGRect] = []
    rects.reserveCapacity(items.count)
    var u = CGRect.null
    for i in items {
      let s = i.sizeThatFits(p)
      let r = CGRect(
        x: -i.alignmentValue(alignment.horizontal.key, s), y: -i.alignmentValue(alignment.vertical.key, s),
        width: s.width, height: s.height)
      rects.append(r)
      u = u.union(r)
    }
    return (rects, u.isNull ? .zero : u)
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize { layout(p).bounds.size }

  /// The children in `rect` (as the stack's layout, moved to where the stack's own guides are
  /// when it is offered more than it takes).
  func childRects(in rect: CGRect) -> [CGRect] {
    let (rects, u) = layout(proposal(for: rect.size))
    let dx = rect.minX - u.minX + (rect.width - u.width) * (alignment.horizontal.key.fraction ?? 0)
    let dy = rect.minY - u.minY + (rect.height - u.height) * (alignment.vertical.key.fraction ?? 0)
    return rects.map { $0.offsetBy(dx: dx, dy: dy) }
  }

  override func placeChildren(in rect: CGRect) {
    for (i, r) in childRects(in: rect).enumerated() { items[i].place(in: r) }
  }

  override func computeExplicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    var m = ExplicitMerge(key)
    for (i, r) in childRects(in: CGRect(origin: .zero, size: size)).enumerated() {
      m.add(items[i].explicitAlignment(key, r.size).map { $0 + (key.axis == .horizontal ? r.minX : r.minY) })
    }
    return m.result
  }
}

extension ZStack: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? ZStackNode) ?? ZStackNode()
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    // Laid out again when its items or its alignment changed (an item whose size may have
    // changed invalidates the layout from where it is).
    var i = 0
    var same = n.alignment == alignment
    n.children[0].forEachItem { c in
      guard same else { return }
      if i < n.items.count && n.items[i] === c { i += 1 } else { same = false }
    }
    if !same || i != n.items.count {
      n.alignment = alignment
      n.items.removeAll(keepingCapacity: true)
      n.children[0].collectItems(into: &n.items)
      n.invalidateLayout()
    }
    return n
  }
}

/// Flexible empty space along the axis of the stack it is in (SwiftUI's `Spacer`): at least
/// `minLength` long (the default spacing, 8, when nil), as long as it is offered, and no
/// thicker than nothing across the stack.
public struct Spacer: View {
  let minLength: CGFloat?
  public init(minLength: CGFloat? = nil) { self.minLength = minLength }
  public typealias Body = Never
  public var body: Never { fatalError("Spacer has no body") }
}

final class SpacerNode: Node {
  var minLength: CGFloat?
  var axis: Axis?
  override var spacerMinLength: CGFloat?? { .some(minLength) }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    let m = minLength ?? Defaults.spacing
    switch axis {
    case .horizontal: return CGSize(width: max(m, p.width ?? m), height: 0)
    case .vertical: return CGSize(width: 0, height: max(m, p.height ?? m))
    case nil: return CGSize(width: max(m, p.width ?? m), height: max(m, p.height ?? m))
    }
  }
}

extension Spacer: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? SpacerNode) ?? SpacerNode()
    if n.minLength != minLength {
      n.minLength = minLength
      n.invalidateLayout()
    }
    return n
  }
}

// MARK: - Padding

/// Edges of a rectangle (SwiftUI's `Edge`).
public enum Edge: Int8, Hashable, Sendable, CaseIterable {
  case top, leading, bottom, trailing

  public struct Set: OptionSet, Hashable, Sendable {
    public let rawValue: Int8
    public init(rawValue: Int8) { self.rawValue = rawValue }
    public static let top = Set(rawValue: 1)
    public static let leading = Set(rawValue: 2)
    public static let bottom = Set(rawValue: 4)
    public static let trailing = Set(rawValue: 8)
    public static let all: Set = [.top, .leading, .bottom, .trailing]
    public static let horizontal: Set = [.leading, .trailing]
    public static let vertical: Set = [.top, .bottom]
  }
}

/// Insets on each edge (SwiftUI's `EdgeInsets`).
public struct EdgeInsets: Hashable, Sendable {
  public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat
  public init(top: CGFloat = 0, leading: CGFloat = 0, bottom: CGFloat = 0, trailing: CGFloat = 0) {
    (self.top, self.leading, self.bottom, self.trailing) = (top, leading, bottom, trailing)
  }
}

public struct _PaddingLayout<Content: View>: View {
  let content: Content
  let insets: EdgeInsets
  public typealias Body = Never
  public var body: Never { fatalError("_PaddingLayout has no body") }
}

final class PaddingNode: Node {
  var insets = EdgeInsets()

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    let h = insets.leading + insets.trailing
    let v = insets.top + insets.bottom
    let inner = ProposedViewSize(
      width: p.width.map { max(0, $0 - h) }, height: p.height.map { max(0, $0 - v) })
    let s = children.first?.sizeThatFits(inner) ?? .zero
    return CGSize(width: s.width + h, height: s.height + v)
  }

  override func placeChildren(in rect: CGRect) {
    let r = CGRect(
      x: rect.minX + insets.leading, y: rect.minY + insets.top,
      width: max(0, rect.width - insets.leading - insets.trailing),
      height: max(0, rect.height - insets.top - insets.bottom))
    children.first?.place(in: r)
  }

  override func computeExplicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    let inner = CGSize(
      width: max(0, size.width - insets.leading - insets.trailing),
      height: max(0, size.height - insets.top - insets.bottom))
    return children.first?.explicitAlignment(key, inner).map {
      $0 + (key.axis == .horizontal ? insets.leading : insets.top)
    }
  }
}

extension _PaddingLayout: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? PaddingNode) ?? PaddingNode()
    if n.insets != insets {
      n.insets = insets
      n.invalidateLayout()
    }
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// Space around the view: `length` (16 points, iOS's default, when nil) on `edges`.
  public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> _PaddingLayout<Self> {
    let l = length ?? Defaults.padding
    return _PaddingLayout(
      content: self,
      insets: EdgeInsets(
        top: edges.contains(.top) ? l : 0, leading: edges.contains(.leading) ? l : 0,
        bottom: edges.contains(.bottom) ? l : 0, trailing: edges.contains(.trailing) ? l : 0))
  }
  public func padding(_ length: CGFloat) -> _PaddingLayout<Self> { padding(.all, length) }
  public func padding(_ insets: EdgeInsets) -> _PaddingLayout<Self> {
    _PaddingLayout(content: self, insets: insets)
  }
}

// MARK: - Frames

public struct _FrameLayout<Content: View>: View {
  let content: Content
  let width: CGFloat?
  let height: CGFloat?
  let alignment: Alignment
  public typealias Body = Never
  public var body: Never { fatalError("_FrameLayout has no body") }
}

/// A fixed frame: the given dimensions are proposed to the child and are the frame's size; the
/// others are the child's.
final class FrameNode: Node {
  var width: CGFloat?
  var height: CGFloat?
  var alignment = Alignment.center
  override var hasFixedSize: Bool { width != nil && height != nil }
  override var asksForBaselines: Bool { alignment.vertical.key.isBaseline }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    if let w = width, let h = height { return CGSize(width: w, height: h) }
    let s =
      children.first?.sizeThatFits(ProposedViewSize(width: width ?? p.width, height: height ?? p.height))
      ?? .zero
    return CGSize(width: width ?? s.width, height: height ?? s.height)
  }

  func childRect(in rect: CGRect) -> CGRect? {
    guard let c = children.first else { return nil }
    let s = c.sizeThatFits(ProposedViewSize(width: width ?? rect.width, height: height ?? rect.height))
    return alignment.place(c, s, in: rect)
  }

  override func placeChildren(in rect: CGRect) {
    if let r = childRect(in: rect) { children[0].place(in: r) }
  }

  override func computeExplicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    guard let r = childRect(in: CGRect(origin: .zero, size: size)) else { return nil }
    return children[0].explicitAlignment(key, r.size).map { $0 + (key.axis == .horizontal ? r.minX : r.minY) }
  }
}

extension _FrameLayout: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? FrameNode) ?? FrameNode()
    if n.width != width || n.height != height || n.alignment != alignment {
      (n.width, n.height, n.alignment) = (width, height, alignment)
      n.invalidateLayout()
    }
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

public struct _FlexFrameLayout<Content: View>: View {
  let content: Content
  let bounds: FlexBounds
  let alignment: Alignment
  public typealias Body = Never
  public var body: Never { fatalError("_FlexFrameLayout has no body") }
}

struct FlexBounds: Hashable {
  var minWidth: CGFloat?, idealWidth: CGFloat?, maxWidth: CGFloat?
  var minHeight: CGFloat?, idealHeight: CGFloat?, maxHeight: CGFloat?
}

/// A flexible frame. SwiftUI's rule, per dimension: the proposal (or the ideal size when there
/// is none) clamped to [min, max] is offered to the child; the frame's size starts from the
/// child's, becomes `max(min, min(size, proposal))` when a min is given, then
/// `min(max, max(size, proposal))` when a max is given (so `maxWidth: .infinity` takes the whole
/// proposal, and `minWidth` alone lets a small child grow to it).
final class FlexFrameNode: Node {
  var bounds = FlexBounds()
  var alignment = Alignment.center
  override var asksForBaselines: Bool { alignment.vertical.key.isBaseline }

  static func clamp(_ v: CGFloat?, _ lo: CGFloat?, _ hi: CGFloat?) -> CGFloat? {
    guard var v else { return nil }
    if let lo, v < lo { v = lo }
    if let hi, v > hi { v = hi }
    return v
  }

  func childProposal(_ p: ProposedViewSize) -> ProposedViewSize {
    let b = bounds
    return ProposedViewSize(
      width: Self.clamp(p.width ?? b.idealWidth, b.minWidth, b.maxWidth),
      height: Self.clamp(p.height ?? b.idealHeight, b.minHeight, b.maxHeight))
  }

  static func size(
    _ child: CGFloat, _ proposed: CGFloat?, _ lo: CGFloat?, _ ideal: CGFloat?, _ hi: CGFloat?
  ) -> CGFloat {
    let p = proposed ?? ideal ?? child
    var r = child
    if let lo { r = max(lo, min(r, p)) }
    if let hi { r = min(hi, max(r, p)) }
    // With neither bound, an ideal size given is the frame's when no proposal is made.
    if lo == nil && hi == nil, proposed == nil, let ideal { r = ideal }
    return r
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    let s = children.first?.sizeThatFits(childProposal(p)) ?? .zero
    let b = bounds
    return CGSize(
      width: Self.size(s.width, p.width, b.minWidth, b.idealWidth, b.maxWidth),
      height: Self.size(s.height, p.height, b.minHeight, b.idealHeight, b.maxHeight))
  }

  func childRect(in rect: CGRect) -> CGRect? {
    guard let c = children.first else { return nil }
    let s = c.sizeThatFits(childProposal(ProposedViewSize(rect.size)))
    return alignment.place(c, s, in: rect)
  }

  override func placeChildren(in rect: CGRect) {
    if let r = childRect(in: rect) { children[0].place(in: r) }
  }

  override func computeExplicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    guard let r = childRect(in: CGRect(origin: .zero, size: size)) else { return nil }
    return children[0].explicitAlignment(key, r.size).map { $0 + (key.axis == .horizontal ? r.minX : r.minY) }
  }
}

extension _FlexFrameLayout: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? FlexFrameNode) ?? FlexFrameNode()
    if n.bounds != bounds || n.alignment != alignment {
      (n.bounds, n.alignment) = (bounds, alignment)
      n.invalidateLayout()
    }
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// A frame of a fixed width and/or height; the child is aligned in it.
  public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center)
    -> _FrameLayout<Self>
  {
    _FrameLayout(content: self, width: width, height: height, alignment: alignment)
  }

  /// A frame bounded in each dimension (`maxWidth: .infinity` takes all the width offered).
  public func frame(
    minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
    idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
  ) -> _FlexFrameLayout<Self> {
    _FlexFrameLayout(
      content: self,
      bounds: FlexBounds(
        minWidth: minWidth, idealWidth: idealWidth, maxWidth: maxWidth, minHeight: minHeight,
        idealHeight: idealHeight, maxHeight: maxHeight), alignment: alignment)
  }
}

// MARK: - Fixed size

public struct _FixedSizeLayout<Content: View>: View {
  let content: Content
  let horizontal: Bool
  let vertical: Bool
  public typealias Body = Never
  public var body: Never { fatalError("_FixedSizeLayout has no body") }
}

/// Proposes nothing (the ideal size) in the fixed dimensions, whatever the parent offers.
final class FixedSizeNode: Node {
  var horizontal = true
  var vertical = true

  func childProposal(_ p: ProposedViewSize) -> ProposedViewSize {
    ProposedViewSize(width: horizontal ? nil : p.width, height: vertical ? nil : p.height)
  }

  override func computeSize(_ p: ProposedViewSize) -> CGSize {
    children.first?.sizeThatFits(childProposal(p)) ?? .zero
  }

  override func placeChildren(in rect: CGRect) {
    guard let c = children.first else { return }
    let s = c.sizeThatFits(childProposal(proposal(for: rect.size)))
    c.place(in: Alignment.center.place(s, in: rect))
  }

  override func computeExplicitAlignment(_ key: AlignmentKey, _ size: CGSize) -> CGFloat? {
    guard let c = children.first else { return nil }
    let s = c.sizeThatFits(childProposal(proposal(for: size)))
    let r = Alignment.center.place(s, in: CGRect(origin: .zero, size: size))
    return c.explicitAlignment(key, s).map { $0 + (key.axis == .horizontal ? r.minX : r.minY) }
  }
}

extension _FixedSizeLayout: PrimitiveView {
  public func _reconcile(_ input: _ReconcileInput) -> _ReconcileResult {
    _ReconcileResult(node: reconcile(input.old, input.context))
  }
  func reconcile(_ old: Node?, _ ctx: UpdateContext) -> Node {
    let n = (old as? FixedSizeNode) ?? FixedSizeNode()
    if n.horizontal != horizontal || n.vertical != vertical {
      (n.horizontal, n.vertical) = (horizontal, vertical)
      n.invalidateLayout()
    }
    n.setChild(0, SheenUI.reconcile(n.children.first, content, ctx), ctx)
    return n
  }
}

extension View {
  /// The view at its ideal size in the chosen dimensions, whatever it is offered.
  public func fixedSize(horizontal: Bool = true, vertical: Bool = true) -> _FixedSizeLayout<Self> {
    _FixedSizeLayout(content: self, horizontal: horizontal, vertical: vertical)
  }
}
