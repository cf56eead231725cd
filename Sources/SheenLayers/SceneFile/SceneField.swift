// Typed readers of scene-file values: each knows its key path, so every refusal can say where.

import SheenRaster

/// A JSON value and its key path in the scene file.
struct SceneField {
  let value: JSONValue
  /// Such as `layers[0].frame[2]`; empty for the top level.
  let path: String

  init(_ value: JSONValue, path: String) {
    self.value = value
    self.path = path
  }

  /// A refusal of this value.
  func fail(_ message: String) -> SceneError {
    SceneError(keyPath: path, message: message, offset: value.offset)
  }

  /// A refusal of this value: `expected <what>, got <the value>`.
  func expected(_ what: String) -> SceneError {
    fail("expected \(what), got \(described)")
  }

  var isNull: Bool {
    if case .null = value.kind { return true }
    return false
  }

  /// The value as a message shows it: numbers as written, strings quoted and shortened.
  var described: String {
    switch value.kind {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(_, let text): return elided(text, maxBytes: 80)
    case .string(let s): return quoted(s, maxBytes: 80)
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  // MARK: Containers

  /// The member `key` of an object field (the path is extended).
  func member(_ m: JSONMember) -> SceneField {
    SceneField(m.value, path: path.isEmpty ? m.key : "\(path).\(m.key)")
  }

  /// A refusal of an object's key.
  func unknownKey(_ m: JSONMember, _ message: String = "unknown key") -> SceneError {
    SceneError(keyPath: path.isEmpty ? m.key : "\(path).\(m.key)", message: message, offset: m.keyOffset)
  }

  /// The members of an object, refusing any other value.
  func members(_ what: String) throws(SceneError) -> [JSONMember] {
    guard case .object(let members) = value.kind else { throw expected(what) }
    return members
  }

  /// The elements of an array, each with its indexed path, refusing any other value.
  func elements(_ what: String) throws(SceneError) -> [SceneField] {
    guard case .array(let items) = value.kind else { throw expected(what) }
    return items.enumerated().map { SceneField($1, path: "\(path)[\($0)]") }
  }

  // MARK: Scalars

  /// A finite number.
  func number(_ what: String = "a number") throws(SceneError) -> Double {
    guard case .number(let v, let text) = value.kind else { throw expected(what) }
    guard v.isFinite else { throw fail("expected a finite number, got \(text)") }
    return v
  }

  /// A finite number ≥ 0 (sizes, radii, widths).
  func nonNegative() throws(SceneError) -> Double {
    let v = try number("a number ≥ 0")
    guard v >= 0 else { throw expected("a number ≥ 0") }
    return v
  }

  /// A finite number > 0.
  func positive() throws(SceneError) -> Double {
    let v = try number("a number > 0")
    guard v > 0 else { throw expected("a number > 0") }
    return v
  }

  /// A number in 0…1 (opacities, locations).
  func unit() throws(SceneError) -> Double {
    let v = try number("a number in 0…1")
    guard v >= 0, v <= 1 else { throw expected("a number in 0…1") }
    return v
  }

  func bool() throws(SceneError) -> Bool {
    guard case .bool(let b) = value.kind else { throw expected("true or false") }
    return b
  }

  func string() throws(SceneError) -> String {
    guard case .string(let s) = value.kind else { throw expected("a string") }
    return s
  }

  /// A font family name: not empty or blank, at most `TextLayer.maxFamilyLength` characters, no
  /// control characters.
  func fontFamily() throws(SceneError) -> String {
    let s = try string()
    if s.allSatisfy(\.isWhitespace) { throw fail("expected a font family name, got \(described)") }
    if s.count > TextLayer.maxFamilyLength {
      throw fail(
        "expected a font family name of at most \(TextLayer.maxFamilyLength) characters, got \(s.count)")
    }
    if s.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
      throw fail("expected a font family name without control characters, got \(described)")
    }
    return s
  }

  /// One of the names in `options`, as its value.
  func choice<T>(_ options: KeyValuePairs<String, T>) throws(SceneError) -> T {
    if case .string(let s) = value.kind, let hit = options.first(where: { $0.key == s }) {
      return hit.value
    }
    throw expected("one of " + listed(options.map(\.key)))
  }

  /// `"#RRGGBB"` or `"#RRGGBBAA"`, or null (nil) where `nullable`.
  func color(nullable: Bool = true) throws(SceneError) -> Color? {
    if nullable, isNull { return nil }
    guard case .string(let s) = value.kind, let c = Color(hex: s) else {
      throw expected("a colour \"#RRGGBB\" or \"#RRGGBBAA\"")
    }
    return c
  }

  // MARK: Tuples

  /// An array of exactly `count` finite numbers.
  func numbers(_ count: Int) throws(SceneError) -> [Double] {
    let what = "an array of \(count) numbers"
    let items = try elements(what)
    guard items.count == count else {
      throw fail("expected \(what), got \(items.count) element\(items.count == 1 ? "" : "s")")
    }
    var out: [Double] = []
    for item in items { out.append(try item.number()) }
    return out
  }

  /// `[x, y]`.
  func point() throws(SceneError) -> Point {
    let v = try numbers(2)
    return Point(x: v[0], y: v[1])
  }

  /// `[dx, dy]`.
  func size() throws(SceneError) -> Size {
    let v = try numbers(2)
    return Size(width: v[0], height: v[1])
  }

  /// `[x, y, w, h]` with `w` and `h` ≥ 0.
  func rect() throws(SceneError) -> Rect {
    let v = try numbers(4)
    let items = try elements("")
    for i in 2...3 where v[i] < 0 {
      throw items[i].expected("a size ≥ 0")
    }
    return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
  }

  /// An array of corner names.
  func corners() throws(SceneError) -> CornerMask {
    var mask: CornerMask = []
    for item in try elements("an array of corner names") {
      mask.insert(
        try item.choice([
          "topLeft": CornerMask.topLeft, "topRight": .topRight, "bottomLeft": .bottomLeft,
          "bottomRight": .bottomRight,
        ]))
    }
    return mask
  }
}

/// `"a", "b" or "c"`.
func listed(_ names: [String]) -> String {
  let q = names.map { quoted($0) }
  guard q.count > 1 else { return q.first ?? "" }
  return q.dropLast().joined(separator: ", ") + " or " + q.last!
}

/// A string in double quotes, with quotes, backslashes and control characters escaped as JSON
/// (line and paragraph separators, DEL and C1 controls too, so that a message stays one line
/// and sends no escape sequence to a terminal), cut after `maxBytes` bytes of UTF-8 with the
/// whole size said.
func quoted(_ s: String, maxBytes: Int = .max) -> String {
  var out = "\""
  var used = 0
  for u in s.unicodeScalars {
    var piece: String
    switch u {
    case "\"": piece = "\\\""
    case "\\": piece = "\\\\"
    case "\n": piece = "\\n"
    case "\r": piece = "\\r"
    case "\t": piece = "\\t"
    case _ where u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u.value == 0x2028 || u.value == 0x2029:
      let h = String(u.value, radix: 16, uppercase: true)
      piece = "\\u" + String(repeating: "0", count: 4 - h.count) + h
    default: piece = String(u)
    }
    if used + piece.utf8.count > maxBytes { return out + "\"… (\(s.utf8.count) bytes)" }
    used += piece.utf8.count
    out += piece
  }
  return out + "\""
}

/// `text` (known to hold no control characters), cut after `maxBytes` bytes with the whole size
/// said.
func elided(_ text: String, maxBytes: Int) -> String {
  guard text.utf8.count > maxBytes else { return text }
  var out = ""
  for c in text.unicodeScalars {
    if out.utf8.count + String(c).utf8.count > maxBytes { break }
    out.unicodeScalars.append(c)
  }
  return out + "… (\(text.utf8.count) bytes)"
}

/// A number for messages: integers without a fraction, others in Swift's shortest form.
func formatted(_ x: Double) -> String {
  if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
  return "\(x)"
}
