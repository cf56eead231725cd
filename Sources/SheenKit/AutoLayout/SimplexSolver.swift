// An incremental Cassowary solver (Badros, Borning and Stuckey, "The Cassowary Linear Arithmetic
// Constraint Solving Algorithm", ACM TOCHI 2001), written for SheenKit's Auto Layout.
//
// The tableau is kept in solved form: every basic symbol has a row giving it as a constant plus a
// combination of parametric (non-basic) symbols, all of which are zero in the current solution.
// Required constraints are hard (a dummy or slack marker); a non-required one gets error symbols
// weighted by its strength in the objective, which the primal simplex minimises. Changing the
// constant of a constraint already in the tableau (an edit variable's suggested value, a view's
// frame under `translatesAutoresizingMaskIntoConstraints`, an intrinsic size) moves only row
// constants and repairs feasibility with the dual simplex, without rebuilding anything.
//
// Pivots choose the lowest-numbered eligible symbol (Bland's rule), so the result does not depend
// on hashing order and the simplex cannot cycle; every loop is also bounded.

import Foundation
import Synchronization

/// A symbol of the tableau: an external variable, or one the solver introduces.
struct SolverSymbol: Hashable, Comparable {
  enum Kind: UInt8 {
    case invalid, external, slack, error, dummy
  }
  let id: Int
  let kind: Kind

  static let invalid = SolverSymbol(id: 0, kind: .invalid)
  var isValid: Bool { kind != .invalid }
  /// Slack and error symbols are restricted to be non-negative and may enter the basis.
  var isPivotable: Bool { kind == .slack || kind == .error }
  var isExternal: Bool { kind == .external }

  static func == (a: SolverSymbol, b: SolverSymbol) -> Bool { a.id == b.id }
  func hash(into h: inout Hasher) { h.combine(id) }
  static func < (a: SolverSymbol, b: SolverSymbol) -> Bool { a.id < b.id }
}

/// A variable whose value the solver finds.
final class SolverVariable {
  let symbol: SolverSymbol
  /// The value of the last solution.
  var value: Double = 0
  /// What the variable stands for (a view's edge or size), for messages.
  let name: String
  /// Who owns it (a view or a layout guide), told when the value changes.
  weak var owner: AnyObject?
  /// Constraints in the solver that mention it.
  var references = 0

  init(id: Int, name: String, owner: AnyObject?) {
    symbol = SolverSymbol(id: id, kind: .external)
    self.name = name
    self.owner = owner
  }
}

/// A linear expression: a constant plus variables times coefficients.
struct LinearExpression {
  var terms: [(variable: SolverVariable, coefficient: Double)] = []
  var constant: Double = 0

  init(constant: Double = 0) { self.constant = constant }
  init(_ v: SolverVariable, _ c: Double = 1) { terms = [(v, c)] }

  mutating func add(_ v: SolverVariable, _ c: Double) { terms.append((v, c)) }
  mutating func add(_ e: LinearExpression, _ c: Double = 1) {
    for t in e.terms { terms.append((t.variable, t.coefficient * c)) }
    constant += e.constant * c
  }
}

/// A constraint of the solver: `expression (<=|==|>=) 0` with a strength.
final class SolverConstraint {
  enum Relation { case lessOrEqual, equal, greaterOrEqual }
  let expression: LinearExpression
  let relation: Relation
  /// `SimplexSolver.required`, or a weight below it.
  let strength: Double
  /// The constant by which the expression's own has been moved (`SimplexSolver.setConstant`).
  var constantShift: Double { constantShiftStorage }
  /// Set directly only while the constraint is in no solver (`setInitialShift`).
  var constantShiftStorage: Double = 0
  /// What the constraint stands for (for messages): an `NSLayoutConstraint` or an internal one.
  weak var owner: AnyObject?

  init(_ expression: LinearExpression, _ relation: Relation, strength: Double, owner: AnyObject? = nil) {
    self.expression = expression
    self.relation = relation
    self.strength = min(strength, SimplexSolver.required)
    self.owner = owner
  }

  var isRequired: Bool { strength >= SimplexSolver.required }
}

/// A row of the tableau: `constant + Σ coefficient·symbol`.
struct SolverRow {
  var constant: Double
  var cells: [SolverSymbol: Double] = [:]

  init(constant: Double) { self.constant = constant }

  static func nearZero(_ v: Double) -> Bool { abs(v) < 1e-8 }

  func coefficient(for s: SolverSymbol) -> Double { cells[s] ?? 0 }

  mutating func insert(_ s: SolverSymbol, _ c: Double = 1) {
    let v = (cells[s] ?? 0) + c
    if SolverRow.nearZero(v) { cells[s] = nil } else { cells[s] = v }
  }

  mutating func insert(_ row: SolverRow, _ c: Double = 1) {
    constant += row.constant * c
    for (s, v) in row.cells { insert(s, v * c) }
  }

  mutating func reverseSign() {
    constant = -constant
    cells.forEachIndexInPlace { cells, i in cells.values[i] = -cells.values[i] }
  }

  /// Solves `0 = row` for `s`, which must be in it: the row becomes `s`'s.
  mutating func solve(for s: SolverSymbol) {
    let c = -1 / (cells.removeValue(forKey: s) ?? 1)
    constant *= c
    cells.forEachIndexInPlace { cells, i in cells.values[i] *= c }
  }

  /// Solves the row of `lhs` for `rhs` instead: the row becomes `rhs`'s.
  mutating func solve(for lhs: SolverSymbol, _ rhs: SolverSymbol) {
    insert(lhs, -1)
    solve(for: rhs)
  }

  /// Replaces `s` by `row`.
  mutating func substitute(_ s: SolverSymbol, _ row: SolverRow) {
    if let c = cells.removeValue(forKey: s) { insert(row, c) }
  }

  var allDummies: Bool { cells.keys.allSatisfy { $0.kind == .dummy } }
}

/// Why a constraint cannot be added.
enum SolverError: Error, @unchecked Sendable {
  /// A required constraint conflicts with required ones already there (listed, when known).
  case unsatisfiable(conflicting: [SolverConstraint])
  /// The constraint is in the solver already (or not, for a removal).
  case duplicate, unknown
  /// Pivoting ran past its bound: degenerate or numerically unstable input.
  case tooManyPivots
}

/// The incremental simplex solver.
final class SimplexSolver {
  /// The strength of a required constraint.
  static let required = 1e15
  /// A bound on pivots per operation, far above what a real layout needs.
  static let pivotLimit = 100_000

  private struct Tag {
    var marker = SolverSymbol.invalid
    var other = SolverSymbol.invalid
  }

  private var constraints: [ObjectIdentifier: (constraint: SolverConstraint, tag: Tag)] = [:]
  private var rows: [SolverSymbol: SolverRow] = [:]
  private var variables: [SolverSymbol: SolverVariable] = [:]
  private var edits: [ObjectIdentifier: SolverConstraint] = [:]
  private var infeasible: [SolverSymbol] = []
  private var objective = SolverRow(constant: 0)
  private var artificial: SolverRow?
  /// Symbol numbers are unique across solvers, so variables and constraints can move from one
  /// solver to another (when a view tree joins another).
  private static let nextID = Atomic<Int>(1)
  /// Whether rows changed since the last `updateVariables`.
  private(set) var changed = false

  init() {}

  var constraintCount: Int { constraints.count }
  var rowCount: Int { rows.count }

  func contains(_ c: SolverConstraint) -> Bool { constraints[ObjectIdentifier(c)] != nil }

  private func symbol(_ kind: SolverSymbol.Kind) -> SolverSymbol {
    SolverSymbol(id: SimplexSolver.nextID.add(1, ordering: .relaxed).newValue, kind: kind)
  }

  /// A new external variable, usable in any solver.
  static func makeVariable(name: String, owner: AnyObject?) -> SolverVariable {
    SolverVariable(id: nextID.add(1, ordering: .relaxed).newValue, name: name, owner: owner)
  }

  // MARK: Adding and removing

  /// Adds `c`; throws `.unsatisfiable` (and leaves the solver as it was) when it is required
  /// and conflicts with the required constraints already there.
  func add(_ c: SolverConstraint) throws {
    let key = ObjectIdentifier(c)
    guard constraints[key] == nil else { throw SolverError.duplicate }
    var tag = Tag()
    var row = makeRow(c, &tag)
    var subject = chooseSubject(row, tag)
    if !subject.isValid && row.allDummies {
      if !SolverRow.nearZero(row.constant) {
        let conflicting = row.cells.keys.compactMap { d in
          constraints.values.first { $0.tag.marker == d }?.constraint
        }
        undoObjective(c, tag)
        throw SolverError.unsatisfiable(conflicting: conflicting)
      }
      subject = tag.marker
    }
    if !subject.isValid {
      let ok: Bool
      do { ok = try addWithArtificialVariable(row) } catch {
        undoObjective(c, tag)
        throw error
      }
      if !ok {
        // The row could not be made feasible: take it out again, as if never added.
        let conflicting = conflictsOf(tag)
        constraints[key] = (c, tag)
        retain(c)
        try? remove(c)
        throw SolverError.unsatisfiable(conflicting: conflicting)
      }
    } else {
      row.solve(for: subject)
      substitute(subject, row)
      rows[subject] = row
    }
    constraints[key] = (c, tag)
    retain(c)
    changed = true
    try optimize(objective: true)
  }

  /// The required constraints whose markers share rows with `tag`'s marker: the likely
  /// culprits of a failed addition.
  private func conflictsOf(_ tag: Tag) -> [SolverConstraint] {
    var markers = Set<SolverSymbol>()
    for (s, r) in rows where r.coefficient(for: tag.marker) != 0 || s == tag.marker {
      for k in r.cells.keys where k.kind == .dummy || k.kind == .slack { markers.insert(k) }
      if s.kind == .dummy || s.kind == .slack { markers.insert(s) }
    }
    return constraints.values.filter { markers.contains($0.tag.marker) && $0.constraint.isRequired }
      .map(\.constraint)
  }

  private func undoObjective(_ c: SolverConstraint, _ tag: Tag) {
    for m in [tag.marker, tag.other] where m.kind == .error { objective.cells[m] = nil }
  }

  private func retain(_ c: SolverConstraint) {
    for t in c.expression.terms {
      t.variable.references += 1
      variables[t.variable.symbol] = t.variable
    }
  }

  private func release(_ c: SolverConstraint) {
    for t in c.expression.terms {
      t.variable.references -= 1
      if t.variable.references <= 0 { variables[t.variable.symbol] = nil }
    }
  }

  /// Removes `c`; the solution is re-optimised without it.
  func remove(_ c: SolverConstraint) throws {
    let key = ObjectIdentifier(c)
    guard let entry = constraints.removeValue(forKey: key) else { throw SolverError.unknown }
    let tag = entry.tag
    // Its errors leave the objective.
    for m in [tag.marker, tag.other] where m.kind == .error {
      if let r = rows[m] { objective.insert(r, -c.strength) } else { objective.insert(m, -c.strength) }
    }
    if rows.removeValue(forKey: tag.marker) == nil {
      let leaving = markerLeavingSymbol(tag.marker)
      if leaving.isValid, var r = rows.removeValue(forKey: leaving) {
        r.solve(for: leaving, tag.marker)
        substitute(tag.marker, r)
      }
    }
    objective.cells[tag.marker] = nil
    release(c)
    changed = true
    try optimize(objective: true)
  }

  // MARK: Edit variables and constants

  /// Makes `v` an edit variable of `strength` (below required): `suggestValue` then moves it
  /// with a dual-simplex re-solve instead of a removal and an addition.
  func addEditVariable(_ v: SolverVariable, strength: Double) throws {
    guard edits[ObjectIdentifier(v)] == nil else { throw SolverError.duplicate }
    let c = SolverConstraint(
      LinearExpression(v), .equal, strength: min(strength, SimplexSolver.required * 0.999))
    try add(c)
    edits[ObjectIdentifier(v)] = c
  }

  func removeEditVariable(_ v: SolverVariable) throws {
    guard let c = edits.removeValue(forKey: ObjectIdentifier(v)) else { throw SolverError.unknown }
    try remove(c)
  }

  func hasEditVariable(_ v: SolverVariable) -> Bool { edits[ObjectIdentifier(v)] != nil }

  /// Asks for `v == value` at the edit variable's strength.
  func suggestValue(_ v: SolverVariable, _ value: Double) throws {
    guard let c = edits[ObjectIdentifier(v)] else { throw SolverError.unknown }
    // The edit constraint is `v - value == 0`: its constant is `-value`.
    try setConstantShift(c, -value)
  }

  /// Moves the constant of `c` (in the solver) to its own constant plus `shift`, re-solving
  /// incrementally. Throws `.unsatisfiable` when a required constraint cannot follow (the
  /// shift is then undone).
  func setConstantShift(_ c: SolverConstraint, _ shift: Double) throws {
    guard let entry = constraints[ObjectIdentifier(c)] else { throw SolverError.unknown }
    let delta = shift - c.constantShift
    guard delta != 0 else { return }
    c.constantShiftStorage = shift
    let consistent = apply(constantDelta: delta, entry.tag, entry.constraint)
    changed = true
    do {
      // A required constraint redundant with others (its dummy basic, or in a dummy's row) has
      // no freedom left to follow.
      guard consistent else { throw SolverError.unsatisfiable(conflicting: []) }
      try dualOptimize()
    } catch {
      // Undo: the same move back leaves the tableau feasible as it was.
      c.constantShiftStorage -= delta
      apply(constantDelta: -delta, entry.tag, entry.constraint)
      infeasible.removeAll(keepingCapacity: true)
      try? dualOptimize()
      throw SolverError.unsatisfiable(conflicting: [c])
    }
  }

  /// The expression's constant moves by `delta`: equivalent to moving the marker by
  /// `delta / μ` (μ its coefficient in the original row).
  /// Returns false when a row of a dummy (a required equality) no longer holds.
  @discardableResult
  private func apply(constantDelta delta: Double, _ tag: Tag, _ c: SolverConstraint) -> Bool {
    let marker = tag.marker
    // The marker's coefficient in the row as made (before any sign reversal, which
    // `makeRow` does consistently for constant and markers).
    let mu: Double
    switch (c.relation, marker.kind) {
    case (.lessOrEqual, _): mu = 1
    case (.greaterOrEqual, _): mu = -1
    case (.equal, .error): mu = -1
    default: mu = 1
    }
    let shift = delta / mu
    if let i = rows.index(forKey: marker) {
      rows.values[i].constant -= shift
      if marker.kind == .dummy { return SolverRow.nearZero(rows.values[i].constant) }
      if rows.values[i].constant < 0 { infeasible.append(marker) }
      return true
    }
    if tag.other.isValid, let i = rows.index(forKey: tag.other) {
      // The other error symbol has the opposite coefficient.
      rows.values[i].constant += shift
      if rows.values[i].constant < 0 { infeasible.append(tag.other) }
      return true
    }
    var consistent = true
    rows.forEachIndexInPlace { rows, i in
      let c = rows.values[i].coefficient(for: marker)
      guard c != 0 else { return }
      rows.values[i].constant += c * shift
      let s = rows.keys[i]
      if s.kind == .dummy && !SolverRow.nearZero(rows.values[i].constant) { consistent = false }
      if s.isPivotable && rows.values[i].constant < 0 { infeasible.append(s) }
    }
    return consistent
  }

  // MARK: Values

  /// Writes the solution into the variables; calls `changedVariable` for each whose value moved.
  func updateVariables(_ changedVariable: (SolverVariable) -> Void) {
    guard changed else { return }
    changed = false
    for (s, v) in variables {
      let value = rows[s]?.constant ?? 0
      if value != v.value {
        v.value = value
        changedVariable(v)
      }
    }
  }

  /// The current value of `v` from the tableau (without `updateVariables`).
  func value(of v: SolverVariable) -> Double { rows[v.symbol]?.constant ?? 0 }

  /// Whether `v` could move without making the solution worse: it is a free parameter, or its
  /// row depends on one, or on a restricted symbol that costs nothing to move.
  func isAmbiguous(_ v: SolverVariable) -> Bool {
    guard variables[v.symbol] != nil else { return true }
    guard let r = rows[v.symbol] else { return true }
    for (s, _) in r.cells {
      if s.isExternal { return true }
      if s.isPivotable && SolverRow.nearZero(objective.coefficient(for: s)) { return true }
    }
    return false
  }

  // MARK: The simplex

  private func makeRow(_ c: SolverConstraint, _ tag: inout Tag) -> SolverRow {
    var row = SolverRow(constant: c.expression.constant + c.constantShift)
    for t in c.expression.terms where !SolverRow.nearZero(t.coefficient) {
      if let r = rows[t.variable.symbol] {
        row.insert(r, t.coefficient)
      } else {
        row.insert(t.variable.symbol, t.coefficient)
      }
    }
    switch c.relation {
    case .lessOrEqual, .greaterOrEqual:
      let coefficient: Double = c.relation == .lessOrEqual ? 1 : -1
      let slack = symbol(.slack)
      tag.marker = slack
      row.insert(slack, coefficient)
      if !c.isRequired {
        let error = symbol(.error)
        tag.other = error
        row.insert(error, -coefficient)
        objective.insert(error, c.strength)
      }
    case .equal:
      if !c.isRequired {
        let plus = symbol(.error)
        let minus = symbol(.error)
        tag.marker = plus
        tag.other = minus
        row.insert(plus, -1)
        row.insert(minus, 1)
        objective.insert(plus, c.strength)
        objective.insert(minus, c.strength)
      } else {
        let dummy = symbol(.dummy)
        tag.marker = dummy
        row.insert(dummy)
      }
    }
    if row.constant < 0 { row.reverseSign() }
    return row
  }

  private func chooseSubject(_ row: SolverRow, _ tag: Tag) -> SolverSymbol {
    var best = SolverSymbol.invalid
    for s in row.cells.keys where s.isExternal && (!best.isValid || s < best) { best = s }
    if best.isValid { return best }
    if tag.marker.isPivotable && row.coefficient(for: tag.marker) < 0 { return tag.marker }
    if tag.other.isPivotable && row.coefficient(for: tag.other) < 0 { return tag.other }
    return .invalid
  }

  private func addWithArtificialVariable(_ row: SolverRow) throws -> Bool {
    let art = symbol(.slack)
    rows[art] = row
    artificial = row
    try optimize(objective: false)
    let success = SolverRow.nearZero(artificial?.constant ?? 0)
    artificial = nil
    if var r = rows.removeValue(forKey: art) {
      if r.cells.isEmpty { return success }
      var entering = SolverSymbol.invalid
      for s in r.cells.keys where s.isPivotable && (!entering.isValid || s < entering) { entering = s }
      if !entering.isValid { return false }
      r.solve(for: art, entering)
      substitute(entering, r)
      rows[entering] = r
    }
    rows.forEachIndexInPlace { rows, i in rows.values[i].cells[art] = nil }
    objective.cells[art] = nil
    return success
  }

  private func substitute(_ s: SolverSymbol, _ row: SolverRow) {
    rows.forEachIndexInPlace { rows, i in
      guard rows.values[i].cells[s] != nil else { return }
      rows.values[i].substitute(s, row)
      let k = rows.keys[i]
      if !k.isExternal && rows.values[i].constant < 0 { infeasible.append(k) }
    }
    objective.substitute(s, row)
    artificial?.substitute(s, row)
  }

  /// Primal simplex on the objective (or the artificial one).
  private func optimize(objective useObjective: Bool) throws {
    var pivots = 0
    while true {
      let target = useObjective ? objective : (artificial ?? objective)
      var entering = SolverSymbol.invalid
      for (s, c) in target.cells where s.kind != .dummy && c < 0 && (!entering.isValid || s < entering) {
        entering = s
      }
      if !entering.isValid { return }
      var leaving = SolverSymbol.invalid
      var ratio = Double.greatestFiniteMagnitude
      for (s, r) in rows where !s.isExternal {
        let c = r.coefficient(for: entering)
        guard c < 0 else { continue }
        let q = -r.constant / c
        if q < ratio || (q == ratio && s < leaving) {
          ratio = q
          leaving = s
        }
      }
      // Unbounded: an objective that can fall for ever. Cannot happen with errors >= 0;
      // give up rather than loop.
      guard leaving.isValid, var r = rows.removeValue(forKey: leaving) else { return }
      r.solve(for: leaving, entering)
      substitute(entering, r)
      rows[entering] = r
      pivots += 1
      if pivots > SimplexSolver.pivotLimit { throw SolverError.tooManyPivots }
    }
  }

  /// Dual simplex: makes infeasible rows (restricted symbols below zero) feasible again.
  private func dualOptimize() throws {
    var pivots = 0
    while let leaving = infeasible.popLast() {
      guard var r = rows[leaving], r.constant < 0 else { continue }
      var entering = SolverSymbol.invalid
      var ratio = Double.greatestFiniteMagnitude
      for (s, c) in r.cells where c > 0 && s.kind != .dummy {
        let q = objective.coefficient(for: s) / c
        if q < ratio || (q == ratio && s < entering) {
          ratio = q
          entering = s
        }
      }
      guard entering.isValid else { throw SolverError.unsatisfiable(conflicting: []) }
      rows[leaving] = nil
      r.solve(for: leaving, entering)
      substitute(entering, r)
      rows[entering] = r
      pivots += 1
      if pivots > SimplexSolver.pivotLimit { throw SolverError.tooManyPivots }
    }
  }

  /// The row to pivot a removed constraint's marker into the basis with.
  private func markerLeavingSymbol(_ marker: SolverSymbol) -> SolverSymbol {
    var r1 = Double.greatestFiniteMagnitude
    var r2 = Double.greatestFiniteMagnitude
    var first = SolverSymbol.invalid
    var second = SolverSymbol.invalid
    var third = SolverSymbol.invalid
    for (s, r) in rows {
      let c = r.coefficient(for: marker)
      guard c != 0 else { continue }
      if s.isExternal {
        if !third.isValid || s < third { third = s }
      } else if c < 0 {
        let q = -r.constant / c
        if q < r1 || (q == r1 && s < first) {
          r1 = q
          first = s
        }
      } else {
        let q = r.constant / c
        if q < r2 || (q == r2 && s < second) {
          r2 = q
          second = s
        }
      }
    }
    return first.isValid ? first : second.isValid ? second : third
  }
}

extension Dictionary {
  /// Visits every index in order, handing `body` the dictionary to change values through
  /// `values[i]`. Unlike `for i in indices`, which keeps a second reference to the storage for
  /// the loop, nothing else holds it, so a value changes in place instead of the whole
  /// dictionary being copied first (a heap allocation, and O(n), per loop).
  @inline(__always) mutating func forEachIndexInPlace(_ body: (inout Dictionary, Index) -> Void) {
    var i = startIndex
    while i != endIndex {
      body(&self, i)
      formIndex(after: &i)
    }
  }
}
