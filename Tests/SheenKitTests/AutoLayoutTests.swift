import Foundation
import Testing

@testable import SheenKit

/// Collects the layout engine's messages while `body` runs (the suite is serialized, so no
/// other test's messages mix in).
func layoutMessages(_ body: () -> Void) -> [String] {
  let sink = MessageSink()
  LayoutEngine.messageHandler.withLock { $0 = { m in sink.append(m) } }
  body()
  LayoutEngine.messageHandler.withLock { $0 = nil }
  return sink.messages
}

final class MessageSink: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  func append(_ m: String) { lock.withLock { stored.append(m) } }
  var messages: [String] { lock.withLock { stored } }
}

/// A view of `w × h` at the origin, placed by constraints.
func constrained(_ w: CGFloat? = nil, _ h: CGFloat? = nil) -> UIView {
  let v = UIView()
  v.translatesAutoresizingMaskIntoConstraints = false
  if let w { v.widthAnchor.constraint(equalToConstant: w).isActive = true }
  if let h { v.heightAnchor.constraint(equalToConstant: h).isActive = true }
  return v
}

/// The solver on its own, against values worked out by hand.
@Suite struct SimplexSolverTests {
  func variable(_ name: String) -> SolverVariable { SimplexSolver.makeVariable(name: name, owner: nil) }

  func expr(_ terms: [(SolverVariable, Double)], _ constant: Double = 0) -> LinearExpression {
    var e = LinearExpression(constant: constant)
    for (v, c) in terms { e.add(v, c) }
    return e
  }

  @Test func requiredAndWeightedConstraints() throws {
    let s = SimplexSolver()
    let x = variable("x")
    let y = variable("y")
    // x + y = 100 (required); y = 80 (strong) beats x = 50 (weak): y 80, x 20.
    try s.add(SolverConstraint(expr([(x, 1), (y, 1)], -100), .equal, strength: SimplexSolver.required))
    try s.add(SolverConstraint(expr([(x, 1)], -50), .equal, strength: 1))
    try s.add(SolverConstraint(expr([(y, 1)], -80), .equal, strength: 1000))
    s.updateVariables { _ in }
    #expect(close(x.value, 20, 1e-9) && close(y.value, 80, 1e-9))
    // x >= 30 (required) now wins over y = 80: x 30, y 70.
    let floor = SolverConstraint(expr([(x, 1)], -30), .greaterOrEqual, strength: SimplexSolver.required)
    try s.add(floor)
    s.updateVariables { _ in }
    #expect(close(x.value, 30, 1e-9) && close(y.value, 70, 1e-9))
    // Removing it restores the first solution.
    try s.remove(floor)
    s.updateVariables { _ in }
    #expect(close(x.value, 20, 1e-9) && close(y.value, 80, 1e-9))
  }

  @Test func editVariablesResolveIncrementally() throws {
    let s = SimplexSolver()
    let left = variable("left")
    let width = variable("width")
    let right = variable("right")
    // right = left + width; 0 <= left; right <= 300; width = 100 (medium).
    try s.add(
      SolverConstraint(expr([(right, 1), (left, -1), (width, -1)]), .equal, strength: SimplexSolver.required))
    try s.add(SolverConstraint(expr([(left, 1)]), .greaterOrEqual, strength: SimplexSolver.required))
    try s.add(SolverConstraint(expr([(right, 1)], -300), .lessOrEqual, strength: SimplexSolver.required))
    try s.add(SolverConstraint(expr([(width, 1)], -100), .equal, strength: 10))
    try s.addEditVariable(left, strength: 1000)
    for (suggested, l, r) in [(50.0, 50.0, 150.0), (-40, 0, 100), (120, 120, 220), (360, 360, 300)] {
      try s.suggestValue(left, suggested)
      s.updateVariables { _ in }
      // The edit (strong) wins over the width (medium), within the required bounds.
      #expect(close(left.value, l, 1e-9), "left for \(suggested)")
      #expect(close(right.value, r, 1e-9), "right for \(suggested)")
    }
    // At 250 the required right edge (300) and the stronger edit give width 50 rather than
    // moving left back: edit strength 1000 against width strength 10.
    try s.suggestValue(left, 250)
    s.updateVariables { _ in }
    #expect(close(left.value, 250, 1e-9) && close(right.value, 300, 1e-9) && close(width.value, 50, 1e-9))
  }

  @Test func conflictingRequiredConstraintsAreRefusedAndNamed() throws {
    let s = SimplexSolver()
    let w = variable("w")
    let a = SolverConstraint(expr([(w, 1)], -100), .equal, strength: SimplexSolver.required)
    try s.add(a)
    do {
      try s.add(SolverConstraint(expr([(w, 1)], -200), .equal, strength: SimplexSolver.required))
      Issue.record("a conflicting required constraint was added")
    } catch SolverError.unsatisfiable(let conflicting) {
      #expect(conflicting.contains { $0 === a })
    }
    // Inequalities: w <= 50 conflicts with w = 100 too; the solver keeps w = 100.
    #expect(throws: SolverError.self) {
      try s.add(SolverConstraint(expr([(w, 1)], -50), .lessOrEqual, strength: SimplexSolver.required))
    }
    s.updateVariables { _ in }
    #expect(close(w.value, 100, 1e-9))
    // Still usable: a weak constraint and a constant change.
    try s.setConstantShift(a, -20)
    s.updateVariables { _ in }
    #expect(close(w.value, 120, 1e-9))
  }
}

@Suite(.serialized) struct AutoLayoutTests {
  @Test func pinningToEdgesFollowsTheSuperview() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 200))
    let child = UIView()
    child.translatesAutoresizingMaskIntoConstraints = false
    parent.addSubview(child)
    NSLayoutConstraint.activate([
      child.leadingAnchor.constraint(equalTo: parent.leadingAnchor, constant: 10),
      child.trailingAnchor.constraint(equalTo: parent.trailingAnchor, constant: -20),
      child.topAnchor.constraint(equalTo: parent.topAnchor, constant: 5),
      child.bottomAnchor.constraint(equalTo: parent.bottomAnchor),
    ])
    parent.layoutIfNeeded()
    #expect(child.frame == CGRect(x: 10, y: 5, width: 270, height: 195))
    parent.frame = CGRect(x: 0, y: 0, width: 120, height: 60)
    parent.layoutIfNeeded()
    #expect(child.frame == CGRect(x: 10, y: 5, width: 90, height: 55))
  }

  @Test func centersMultipliersAndConstants() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
    let child = UIView()
    child.translatesAutoresizingMaskIntoConstraints = false
    parent.addSubview(child)
    let width = child.widthAnchor.constraint(equalTo: parent.widthAnchor, multiplier: 0.5)
    let height = child.heightAnchor.constraint(equalToConstant: 40)
    NSLayoutConstraint.activate([
      width, height,
      child.centerXAnchor.constraint(equalTo: parent.centerXAnchor),
      child.centerYAnchor.constraint(equalTo: parent.centerYAnchor, constant: 10),
    ])
    parent.layoutIfNeeded()
    // 200 wide centred in 400: x 100; 40 high centred at 150 + 10: y 140.
    #expect(child.frame == CGRect(x: 100, y: 140, width: 200, height: 40))
    // A constant change re-solves in place.
    height.constant = 100
    parent.layoutIfNeeded()
    #expect(child.frame == CGRect(x: 100, y: 110, width: 200, height: 100))
    height.isActive = false
    #expect(!height.isActive && parent.constraints.count == 3)
  }

  @Test func siblingsInDifferentContainersRelateThroughTheirAncestor() {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: 500, height: 100))
    let left = UIView(frame: CGRect(x: 20, y: 0, width: 200, height: 100))
    let right = UIView(frame: CGRect(x: 260, y: 10, width: 200, height: 80))
    root.addSubview(left)
    root.addSubview(right)
    let a = constrained(50, 30)
    let b = constrained(60, 30)
    left.addSubview(a)
    right.addSubview(b)
    NSLayoutConstraint.activate([
      a.leadingAnchor.constraint(equalTo: left.leadingAnchor, constant: 100),
      a.topAnchor.constraint(equalTo: left.topAnchor, constant: 30),
      // b starts 8 points after a ends, and their tops line up, across containers.
      b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 8),
      b.topAnchor.constraint(equalTo: a.topAnchor),
    ])
    root.layoutIfNeeded()
    // a: x 100 in left = 120 in root, ends at 170; b starts at 178 in root = -82 in right.
    #expect(a.frame == CGRect(x: 100, y: 30, width: 50, height: 30))
    #expect(b.frame == CGRect(x: -82, y: 20, width: 60, height: 30))
    #expect(a.convert(CGPoint(x: 50, y: 0), to: root).x + 8 == b.convert(CGPoint.zero, to: root).x)
    // Moving a container (translating its frame) moves what hangs on it.
    left.frame.origin.x = 40
    root.layoutIfNeeded()
    #expect(b.frame.minX == -62)
  }

  @Test func prioritiesDecideWhichConstraintGives() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 100))
    let child = constrained(nil, 20)
    parent.addSubview(child)
    let wish = child.widthAnchor.constraint(equalToConstant: 300)
    wish.priority = .defaultHigh
    NSLayoutConstraint.activate([
      child.leadingAnchor.constraint(equalTo: parent.leadingAnchor),
      child.topAnchor.constraint(equalTo: parent.topAnchor),
      child.widthAnchor.constraint(lessThanOrEqualToConstant: 100), wish,
    ])
    parent.layoutIfNeeded()
    #expect(child.frame.width == 100)
    // Lowered below a weaker wish, the 300 loses to 150 @ 800.
    let other = child.widthAnchor.constraint(equalToConstant: 80)
    other.priority = UILayoutPriority(800)
    other.isActive = true
    parent.layoutIfNeeded()
    #expect(child.frame.width == 80)
  }

  @Test func intrinsicSizesHuggingAndCompression() throws {
    let row = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 40))
    let a = UILabel()
    a.text = "Title"
    let b = UILabel()
    b.text = "Detail"
    for l in [a, b] {
      l.translatesAutoresizingMaskIntoConstraints = false
      row.addSubview(l)
    }
    let ia = a.intrinsicContentSize
    let ib = b.intrinsicContentSize
    try #require(ia.width > 0 && ib.width > 0 && ia.width + ib.width + 8 < 300)
    // b hugs harder: a takes the extra width.
    b.setContentHuggingPriority(UILayoutPriority(251), for: .horizontal)
    NSLayoutConstraint.activate([
      a.leadingAnchor.constraint(equalTo: row.leadingAnchor),
      b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 8),
      b.trailingAnchor.constraint(equalTo: row.trailingAnchor),
      a.topAnchor.constraint(equalTo: row.topAnchor),
      b.topAnchor.constraint(equalTo: row.topAnchor),
    ])
    row.layoutIfNeeded()
    #expect(b.frame.width == ib.width)
    #expect(a.frame.width == 300 - 8 - ib.width)
    // Heights are intrinsic (hugged and resisted at the defaults).
    #expect(a.frame.height == ia.height && b.frame.height == ib.height)
    // Too narrow: a resists compression less, so a shrinks and b keeps its text.
    a.setContentCompressionResistancePriority(UILayoutPriority(700), for: .horizontal)
    row.frame.size.width = ib.width + 8 + 10
    row.layoutIfNeeded()
    #expect(b.frame.width == ib.width && a.frame.width == 10)
    // New text: the intrinsic size follows.
    b.text = "A much longer detail"
    row.frame.size.width = 400
    row.layoutIfNeeded()
    #expect(b.frame.width == b.intrinsicContentSize.width && b.frame.width > ib.width)
  }

  @Test func buttonsHaveAnIntrinsicSize() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
    let button = UIButton(type: .system)
    button.setTitle("Press me", for: .normal)
    button.contentEdgeInsets = UIEdgeInsets(top: 4, left: 10, bottom: 4, right: 10)
    button.translatesAutoresizingMaskIntoConstraints = false
    parent.addSubview(button)
    NSLayoutConstraint.activate([
      button.centerXAnchor.constraint(equalTo: parent.centerXAnchor),
      button.centerYAnchor.constraint(equalTo: parent.centerYAnchor),
    ])
    parent.layoutIfNeeded()
    let title = button.titleLabel!.sizeThatFits(.zero)
    #expect(button.frame.width == title.width + 20 && button.frame.height == title.height + 8)
    #expect(abs(button.frame.midX - 150) <= 0.5)
  }

  @Test func marginsAndSafeAreaGuides() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
    let a = UIView()
    let b = UIView()
    for v in [a, b] {
      v.translatesAutoresizingMaskIntoConstraints = false
      parent.addSubview(v)
    }
    let m = parent.layoutMarginsGuide
    let s = parent.safeAreaLayoutGuide
    NSLayoutConstraint.activate([
      a.leadingAnchor.constraint(equalTo: m.leadingAnchor),
      a.trailingAnchor.constraint(equalTo: m.trailingAnchor),
      a.topAnchor.constraint(equalTo: m.topAnchor), a.bottomAnchor.constraint(equalTo: m.bottomAnchor),
      b.leadingAnchor.constraint(equalTo: s.leadingAnchor),
      b.trailingAnchor.constraint(equalTo: s.trailingAnchor),
      b.topAnchor.constraint(equalTo: s.topAnchor),
      b.heightAnchor.constraint(equalTo: s.heightAnchor, multiplier: 0.5),
    ])
    parent.layoutIfNeeded()
    #expect(a.frame == CGRect(x: 8, y: 8, width: 184, height: 84))
    #expect(b.frame == CGRect(x: 0, y: 0, width: 200, height: 50))
    parent.layoutMargins = UIEdgeInsets(top: 0, left: 20, bottom: 10, right: 30)
    parent.layoutIfNeeded()
    #expect(a.frame == CGRect(x: 20, y: 0, width: 150, height: 90))
    #expect(m.layoutFrame == CGRect(x: 20, y: 0, width: 150, height: 90))
  }

  @Test func translatesAutoresizingMaskIntoConstraintsPinsTheFrame() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    let fixed = UIView(frame: CGRect(x: 30, y: 40, width: 50, height: 60))
    parent.addSubview(fixed)
    let follower = constrained(10, 10)
    parent.addSubview(follower)
    NSLayoutConstraint.activate([
      follower.leadingAnchor.constraint(equalTo: fixed.trailingAnchor),
      follower.topAnchor.constraint(equalTo: fixed.bottomAnchor),
    ])
    parent.layoutIfNeeded()
    #expect(fixed.frame == CGRect(x: 30, y: 40, width: 50, height: 60))
    #expect(follower.frame.origin == CGPoint(x: 80, y: 100))
    // A frame set by code is what the constraints see.
    fixed.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
    parent.layoutIfNeeded()
    #expect(follower.frame.origin == CGPoint(x: 20, y: 20))
    // Conflicting with the pinned frame: reported, the app's constraint breaks, no crash.
    let messages = layoutMessages {
      fixed.widthAnchor.constraint(equalToConstant: 99).isActive = true
      parent.layoutIfNeeded()
    }
    #expect(fixed.frame.width == 20)
    #expect(messages.count == 1)
    #expect(messages.first?.contains("NSAutoresizingMaskLayoutConstraint") == true)
    #expect(messages.first?.contains("translatesAutoresizingMaskIntoConstraints") == true)
  }

  @Test func unsatisfiableConstraintsAreReportedAsUIKitDoes() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    let child = constrained(100, 10)
    parent.addSubview(child)
    NSLayoutConstraint.activate([
      child.leadingAnchor.constraint(equalTo: parent.leadingAnchor),
      child.topAnchor.constraint(equalTo: parent.topAnchor),
    ])
    let conflicting = child.widthAnchor.constraint(equalToConstant: 200)
    let messages = layoutMessages {
      conflicting.isActive = true
      parent.layoutIfNeeded()
    }
    #expect(child.frame.width == 100)
    #expect(messages.count == 1)
    let m = messages.first ?? ""
    #expect(m.hasPrefix("[LayoutConstraints] Unable to simultaneously satisfy constraints."))
    #expect(
      m.contains("Probably at least one of the constraints in the following list is one you don't want."))
    #expect(m.contains("Will attempt to recover by breaking constraint \n\(conflicting.description)"))
    #expect(m.contains(".width == 100") && m.contains(".width == 200"))
    #expect(conflicting.description.contains("UIView:0x") && conflicting.description.hasSuffix("(active)>"))
    // Deactivating the other one lets it hold.
    let messages2 = layoutMessages {
      child.constraints.first { $0.firstAttribute == .width && $0.constant == 100 }?.isActive = false
      conflicting.constant = 150
      parent.layoutIfNeeded()
    }
    #expect(messages2.isEmpty)
    #expect(child.frame.width == 150)
  }

  @Test func badConstraintsAreReportedNotCrashing() {
    let a = UIView()
    let b = UIView()
    let messages = layoutMessages {
      // No common ancestor.
      a.leadingAnchor.constraint(equalTo: b.leadingAnchor).isActive = true
      // A position against a constant.
      NSLayoutConstraint(
        item: a, attribute: .leading, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute,
        multiplier: 1,
        constant: 10
      ).isActive = true
      // A position against a size.
      let p = UIView()
      p.addSubview(a)
      NSLayoutConstraint(
        item: a, attribute: .leading, relatedBy: .equal, toItem: p, attribute: .width, multiplier: 1,
        constant: 0
      ).isActive = true
    }
    #expect(messages.count == 3)
    #expect(messages[0].contains("because they have no common ancestor"))
    #expect(messages[1].contains("cannot be made between a leading attribute and a constant"))
    #expect(messages[2].contains("Invalid pairing of layout attributes"))
  }

  @Test func ambiguityIsTold() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    let child = constrained(50, 50)
    parent.addSubview(child)
    child.leadingAnchor.constraint(equalTo: parent.leadingAnchor).isActive = true
    parent.layoutIfNeeded()
    // Nothing says where its top is.
    #expect(child.hasAmbiguousLayout)
    #expect(parent.autolayoutTrace().contains("AMBIGUOUS LAYOUT for UIView:"))
    child.topAnchor.constraint(equalTo: parent.topAnchor).isActive = true
    parent.layoutIfNeeded()
    #expect(!child.hasAmbiguousLayout)
    #expect(!parent.autolayoutTrace().contains("AMBIGUOUS"))
  }

  @Test func removingAViewDeactivatesConstraintsToTheRest() {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    let box = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
    root.addSubview(box)
    let inner = constrained(10, 10)
    box.addSubview(inner)
    let inside = inner.leadingAnchor.constraint(equalTo: box.leadingAnchor, constant: 5)
    let across = inner.topAnchor.constraint(equalTo: root.topAnchor, constant: 7)
    NSLayoutConstraint.activate([inside, across])
    root.layoutIfNeeded()
    #expect(inner.frame.origin == CGPoint(x: 5, y: 7))
    box.removeFromSuperview()
    #expect(inside.isActive && !across.isActive)
    box.frame.size.width = 50
    inside.constant = 15
    box.layoutIfNeeded()
    #expect(inner.frame.minX == 15)
    // Joining another tree brings its constraints along.
    let other = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
    other.addSubview(box)
    inside.constant = 25
    other.layoutIfNeeded()
    #expect(inner.frame.minX == 25 && inside.isActive)
  }

  @Test func systemLayoutSizeFittingMeasuresAWrappingLabel() throws {
    let content = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 10))
    let label = UILabel()
    label.numberOfLines = 0
    label.text = "A line of text long enough to wrap onto several lines at two hundred points."
    label.translatesAutoresizingMaskIntoConstraints = false
    content.addSubview(label)
    NSLayoutConstraint.activate([
      label.leadingAnchor.constraint(equalTo: content.leadingAnchor, constant: 10),
      label.trailingAnchor.constraint(equalTo: content.trailingAnchor, constant: -10),
      label.topAnchor.constraint(equalTo: content.topAnchor, constant: 12),
      label.bottomAnchor.constraint(equalTo: content.bottomAnchor, constant: -12),
    ])
    label.preferredMaxLayoutWidth = 180
    let wrapped = label.sizeThatFits(CGSize(width: 180, height: CGFloat.greatestFiniteMagnitude))
    try #require(wrapped.height > label.intrinsicSize(forWidth: 0).height)
    let size = content.systemLayoutSizeFitting(
      CGSize(width: 200, height: 0), withHorizontalFittingPriority: .required,
      verticalFittingPriority: .fittingSizeLevel)
    #expect(size.width == 200)
    #expect(abs(size.height - (wrapped.height + 24)) < 1e-6)
    // The view's own frame was not disturbed.
    content.layoutIfNeeded()
    #expect(content.frame.height == 10)
  }

  @Test func aWrappingLabelTakesTheHeightOfItsLaidOutWidth() {
    let content = UIView(frame: CGRect(x: 0, y: 0, width: 160, height: 400))
    let label = UILabel()
    label.numberOfLines = 0
    label.text = "Wrapping text: its height follows the width the constraints give it."
    label.translatesAutoresizingMaskIntoConstraints = false
    content.addSubview(label)
    NSLayoutConstraint.activate([
      label.leadingAnchor.constraint(equalTo: content.leadingAnchor),
      label.trailingAnchor.constraint(equalTo: content.trailingAnchor),
      label.topAnchor.constraint(equalTo: content.topAnchor),
    ])
    content.layoutIfNeeded()
    let expected = label.sizeThatFits(CGSize(width: 160, height: CGFloat.greatestFiniteMagnitude)).height
    #expect(label.frame.width == 160 && label.frame.height == expected)
  }
}

@Suite(.serialized) struct StackViewTests {
  func boxes(_ widths: [CGFloat], height: CGFloat = 20) -> [UIView] {
    widths.map { w in
      let v = UIView()
      v.translatesAutoresizingMaskIntoConstraints = false
      v.widthAnchor.constraint(equalToConstant: w).isActive = true
      v.heightAnchor.constraint(equalToConstant: height).isActive = true
      return v
    }
  }

  @Test func fillWithSpacingAndAlignment() {
    let v = boxes([40, 60])
    // The second view's width is only a wish: it stretches to fill.
    v[1].constraints.first { $0.firstAttribute == .width }?.isActive = false
    let wish = v[1].widthAnchor.constraint(equalToConstant: 60)
    wish.priority = .defaultLow
    wish.isActive = true
    let stack = UIStackView(arrangedSubviews: v)
    stack.frame = CGRect(x: 0, y: 0, width: 300, height: 50)
    stack.spacing = 10
    stack.alignment = .center
    let messages = layoutMessages { stack.layoutIfNeeded() }
    #expect(messages.isEmpty)
    #expect(v[0].frame == CGRect(x: 0, y: 15, width: 40, height: 20))
    #expect(v[1].frame == CGRect(x: 50, y: 15, width: 250, height: 20))
    // Both widths required: 40 + 10 + 60 cannot fill 300; reported, and the spacing breaks.
    let strict = UIStackView(arrangedSubviews: boxes([40, 60]))
    strict.frame = CGRect(x: 0, y: 0, width: 300, height: 50)
    strict.alignment = .top
    let conflict = layoutMessages { strict.layoutIfNeeded() }
    #expect(
      conflict.count == 1 && conflict[0].contains("Unable to simultaneously satisfy constraints."),
      "\(conflict)")
    #expect(strict.arrangedSubviews.map(\.frame.width) == [40, 60])
  }

  @Test func distributions() {
    func layout(_ d: UIStackView.Distribution, _ widths: [CGFloat]) -> [CGRect] {
      let views = widths.map { w -> UIView in
        let l = UILabel()
        l.text = String(repeating: "m", count: Int(w))
        return l
      }
      let stack = UIStackView(arrangedSubviews: views)
      stack.frame = CGRect(x: 0, y: 0, width: 400, height: 30)
      stack.distribution = d
      stack.spacing = 10
      stack.layoutIfNeeded()
      return views.map(\.frame)
    }
    // Fill equally: (400 - 20) / 3 each.
    let eq = layout(.fillEqually, [1, 2, 3])
    for (i, f) in eq.enumerated() {
      #expect(abs(f.width - 380.0 / 3) <= 0.5 && abs(f.minX - CGFloat(i) * (380.0 / 3 + 10)) <= 0.5)
    }
    // Equal spacing: intrinsic widths, equal gaps filling the rest.
    let sp = layout(.equalSpacing, [1, 2, 3])
    let gap1 = sp[1].minX - sp[0].maxX
    let gap2 = sp[2].minX - sp[1].maxX
    #expect(abs(gap1 - gap2) <= 0.5 && gap1 > 10 && sp[0].minX == 0 && abs(sp[2].maxX - 400) <= 0.5)
    // Equal centering: equal distances between centres.
    let ce = layout(.equalCentering, [1, 4, 2])
    #expect(abs((ce[1].midX - ce[0].midX) - (ce[2].midX - ce[1].midX)) <= 0.5)
    // Proportionally: widths in the ratio of the intrinsic widths.
    let pr = layout(.fillProportionally, [2, 4])
    let unit = UILabel()
    unit.text = "mm"
    let u2 = unit.intrinsicContentSize.width
    unit.text = "mmmm"
    let u4 = unit.intrinsicContentSize.width
    #expect(abs(pr[1].width / pr[0].width - u4 / u2) < 0.02)
    #expect(abs(pr[0].width + pr[1].width + 10 - 400) <= 0.5)
  }

  @Test func verticalStacksHideAndSizeThemselves() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
    let views = boxes([50, 80, 30])
    let stack = UIStackView(arrangedSubviews: views)
    stack.axis = .vertical
    stack.alignment = .leading
    stack.spacing = 5
    stack.translatesAutoresizingMaskIntoConstraints = false
    parent.addSubview(stack)
    NSLayoutConstraint.activate([
      stack.leadingAnchor.constraint(equalTo: parent.leadingAnchor, constant: 10),
      stack.topAnchor.constraint(equalTo: parent.topAnchor, constant: 20),
    ])
    parent.layoutIfNeeded()
    // Three rows of 20 with gaps of 5: 70 high, as wide as the widest (80).
    #expect(stack.frame == CGRect(x: 10, y: 20, width: 80, height: 70))
    #expect(views.map(\.frame.minY) == [0, 25, 50])
    views[1].isHidden = true
    parent.layoutIfNeeded()
    #expect(stack.frame == CGRect(x: 10, y: 20, width: 50, height: 45))
    #expect(views[2].frame.minY == 25)
  }
}
