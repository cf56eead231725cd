/// A command-line option with a typed value: its names, the help line `--help` shows, and how its
/// text becomes a value (strictly: a malformed value, a number out of range or not finite, is an
/// error naming the option).
///
/// Declare one as a constant next to the other options of its command (see the `sheen` target's
/// `Commands.swift`) and read it from `ParsedArguments` with `parsed[option]`.
public struct Option<Value>: Sendable {
  public let info: OptionInfo
  let convert: @Sendable (String) throws(ValueError) -> Value

  /// An option taking a value (`--name VALUE` or `--name=VALUE`), converted by `convert`.
  public init(
    _ names: [String], value: String, help: String, default defaultText: String? = nil,
    convert: @escaping @Sendable (String) throws(ValueError) -> Value
  ) {
    info = OptionInfo(names: names, valueName: value, help: help, defaultText: defaultText)
    self.convert = convert
  }
}

/// What `--help` shows about an option, and the names it answers to.
public struct OptionInfo: Sendable {
  /// Every name, long first by convention (`["--output", "-o"]`); each starts with `-`.
  public var names: [String]
  /// The value's placeholder in the help (`N`, `WxH`); nil for a flag.
  public var valueName: String?
  public var help: String
  public var defaultText: String?

  /// The first name, used in messages.
  public var name: String { names[0] }
}

/// Why an option's value was refused: `expected` says what it takes ("a count from 1 to 64"), or
/// `message` says everything after the option's name (for values with parts, such as scripts).
public struct ValueError: Error, Sendable {
  public var expected: String
  public var message: String?
  public init(_ expected: String) { self.expected = expected }
  public init(message: String) {
    expected = ""
    self.message = message
  }
}

/// Any option, for a command's list.
public struct AnyOption: Sendable {
  public let info: OptionInfo
  let convert: (@Sendable (String) throws(ValueError) -> any Sendable)?

  public init<Value: Sendable>(_ option: Option<Value>) {
    info = option.info
    let c = option.convert
    convert = { (text: String) throws(ValueError) -> any Sendable in try c(text) }
  }

  public init(_ flag: Flag) {
    info = flag.info
    convert = nil
  }
}

/// An option without a value (`--overlay`): present or not.
public struct Flag: Sendable {
  public let info: OptionInfo
  public init(_ names: [String], help: String) {
    info = OptionInfo(names: names, valueName: nil, help: help, defaultText: nil)
  }
  public init(_ name: String, help: String) { self.init([name], help: help) }
}

// MARK: - The kinds of value

extension Option where Value == Int {
  /// A whole number in `range`, written in decimal digits only (a leading `-` only when `range`
  /// has negative numbers; never `+`), no spaces, no exponent.
  public static func integer(
    _ names: [String], _ value: String = "N", range: ClosedRange<Int>, help: String, default d: String? = nil
  ) -> Option<Int> {
    Option(names, value: value, help: help + " (\(range.lowerBound)–\(range.upperBound))", default: d) {
      text throws(ValueError) in
      guard let n = range.lowerBound < 0 ? parseInteger(text) : parseCount(text), range.contains(n) else {
        throw ValueError("a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return n
    }
  }
  public static func integer(
    _ name: String, _ value: String = "N", range: ClosedRange<Int>, help: String, default d: String? = nil
  ) -> Option<Int> { integer([name], value, range: range, help: help, default: d) }
}

extension Option where Value == Double {
  /// A finite decimal number in `range` (`2`, `0.5`, `1e-3`; no `nan`, `inf`, hex or spaces).
  public static func number(
    _ names: [String], _ value: String = "X", range: ClosedRange<Double>, help: String,
    default d: String? = nil
  ) -> Option<Double> {
    let shown = "\(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound))"
    return Option(names, value: value, help: help + " (\(shown))", default: d) { text throws(ValueError) in
      guard let v = parseNumber(text), range.contains(v) else { throw ValueError("a number from \(shown)") }
      return v
    }
  }
  public static func number(
    _ name: String, _ value: String = "X", range: ClosedRange<Double>, help: String, default d: String? = nil
  ) -> Option<Double> { number([name], value, range: range, help: help, default: d) }
}

/// A width and a height in pixels.
public struct Dimensions: Sendable, Equatable {
  public var width: Int
  public var height: Int
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}

extension Option where Value == Dimensions {
  /// `WIDTHxHEIGHT`, each a whole number in `range` (`800x600`).
  public static func size(
    _ names: [String], range: ClosedRange<Int>, help: String, default d: String? = nil
  ) -> Option<Dimensions> {
    let bounds = "\(range.lowerBound)–\(range.upperBound)"
    return Option(names, value: "WxH", help: help + " (each \(bounds))", default: d) {
      text throws(ValueError) in
      let parts = text.split(separator: "x", omittingEmptySubsequences: false)
      guard parts.count == 2, let w = parseCount(String(parts[0])), let h = parseCount(String(parts[1])),
        range.contains(w), range.contains(h)
      else { throw ValueError("WIDTHxHEIGHT with each from \(bounds), such as 800x600") }
      return Dimensions(width: w, height: h)
    }
  }
  public static func size(
    _ name: String, range: ClosedRange<Int>, help: String, default d: String? = nil
  ) -> Option<Dimensions> { size([name], range: range, help: help, default: d) }
}

extension Option where Value == String {
  /// Any text up to `maxBytes` bytes of UTF-8 (a path, a title, a script), not empty unless
  /// `allowEmpty`.
  public static func text(
    _ names: [String], _ value: String, maxBytes: Int = 4096, allowEmpty: Bool = false, help: String,
    default d: String? = nil
  ) -> Option<String> {
    Option(names, value: value, help: help, default: d) { text throws(ValueError) in
      guard text.utf8.count <= maxBytes else { throw ValueError("at most \(maxBytes) bytes") }
      guard allowEmpty || !text.isEmpty else { throw ValueError("a value that is not empty") }
      return text
    }
  }
  public static func text(
    _ name: String, _ value: String, maxBytes: Int = 4096, allowEmpty: Bool = false, help: String,
    default d: String? = nil
  ) -> Option<String> {
    text([name], value, maxBytes: maxBytes, allowEmpty: allowEmpty, help: help, default: d)
  }
}

extension Option {
  /// One of `choices` (`wayland` or `x11`), made into a value by `make`.
  public static func choice(
    _ names: [String], _ value: String, _ choices: [String], help: String, default d: String? = nil,
    make: @escaping @Sendable (String) -> Value?
  ) -> Option<Value> {
    Option(names, value: value, help: help + " (\(choices.joined(separator: ", ")))", default: d) {
      text throws(ValueError) in
      guard choices.contains(text), let v = make(text) else {
        throw ValueError("one of \(choices.joined(separator: ", "))")
      }
      return v
    }
  }

  /// A value made by `parse` (which throws `ValueError` saying what it expected).
  public static func custom(
    _ names: [String], _ value: String, help: String, default d: String? = nil,
    parse: @escaping @Sendable (String) throws(ValueError) -> Value
  ) -> Option<Value> {
    Option(names, value: value, help: help, default: d, convert: parse)
  }
}

// MARK: - Strict numbers

/// A decimal integer: an optional `-`, then ASCII digits only (no `+`, spaces, `_`, `0x` or
/// exponent); nil when malformed or beyond `Int`.
public func parseInteger(_ text: String) -> Int? {
  var digits = Substring(text)
  let negative = digits.first == "-"
  if negative { digits = digits.dropFirst() }
  guard !digits.isEmpty, digits.utf8.count <= 20, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
    return nil
  }
  var n = 0
  for b in digits.utf8 {
    let (m, o1) = n.multipliedReportingOverflow(by: 10)
    let (s, o2) =
      negative ? m.subtractingReportingOverflow(Int(b) - 48) : m.addingReportingOverflow(Int(b) - 48)
    if o1 || o2 { return nil }
    n = s
  }
  return n
}

/// A count, size or index: ASCII digits only (no sign at all, spaces, `_`, `0x` or exponent); nil
/// when malformed or beyond `Int`.
public func parseCount(_ text: String) -> Int? {
  guard let f = text.utf8.first, f >= 48, f <= 57 else { return nil }
  return parseInteger(text)
}

/// A finite decimal number: `[+-]digits[.digits][e[+-]digits]` (at least one digit before or after
/// the point), at most 64 characters; nil for anything else (`nan`, `inf`, hex, spaces) or when it
/// is not finite as a Double (`1e400`).
public func parseNumber(_ text: String) -> Double? {
  let u = Array(text.utf8)
  guard !u.isEmpty, u.count <= 64 else { return nil }
  var i = 0
  func digits() -> Int {
    let s = i
    while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1 }
    return i - s
  }
  if u[i] == 43 || u[i] == 45 { i += 1 }
  var mantissa = digits()
  if i < u.count, u[i] == 46 {
    i += 1
    mantissa += digits()
  }
  guard mantissa > 0 else { return nil }
  if i < u.count, u[i] == 101 || u[i] == 69 {
    i += 1
    if i < u.count, u[i] == 43 || u[i] == 45 { i += 1 }
    guard digits() > 0 else { return nil }
  }
  guard i == u.count, let v = Double(text), v.isFinite else { return nil }
  return v
}

func formatNumber(_ v: Double) -> String {
  v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
