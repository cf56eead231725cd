// A small strict JSON parser (RFC 8259) for scene files.
//
// Foundation's `JSONSerialization` forgets the order of keys, silently keeps one of two
// duplicate keys and cannot say where a value came from; a scene file wants all three (errors name
// the key and where it is). The parser is iterative, with an explicit stack of open containers,
// so deeply nested input ends in an error at `maxDepth`, never in a stack overflow.

/// A parsed JSON value and the UTF-8 byte offset where it starts in the source.
struct JSONValue {
  enum Kind {
    case null
    case bool(Bool)
    /// The value and the number as written (for messages: `got -4`, not `got -4.0`).
    case number(Double, text: String)
    case string(String)
    case array([JSONValue])
    /// Members in the order of the source; keys are unique.
    case object([JSONMember])
  }

  var kind: Kind
  /// The UTF-8 byte offset of the value's first byte.
  var offset: Int
}

/// One `"key": value` of an object.
struct JSONMember {
  var key: String
  /// The UTF-8 byte offset of the key's opening quote.
  var keyOffset: Int
  var value: JSONValue
}

/// Malformed JSON: what was wrong and where.
struct JSONError: Error, Equatable, CustomStringConvertible {
  var message: String
  /// The UTF-8 byte offset of the offending byte (the input's length at its end).
  var offset: Int
  /// 1-based line and column (in characters) of `offset`.
  var line: Int
  var column: Int
  /// For a duplicate key, its key path (such as `layers[0].cornerRadius`); otherwise empty.
  var keyPath = ""

  var description: String { "line \(line), column \(column): \(message)" }
}

/// Parses JSON text, keeping key order and value offsets.
enum JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  static let defaultMaxDepth = 1024

  /// Parses one JSON text (an optional UTF-8 byte order mark is skipped).
  /// - Throws: `JSONError` for anything RFC 8259 does not allow, a duplicate key in an object,
  ///   or nesting deeper than `maxDepth`.
  /// - Complexity: O(n) in the length of the input.
  static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONError) -> JSONValue {
    var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
    return try reader.parseDocument()
  }
}

/// A container being read: its elements or members so far.
private struct OpenContainer {
  var isObject: Bool
  var offset: Int
  var elements: [JSONValue] = []
  var members: [JSONMember] = []
  /// The keys so far, as their Unicode scalars: JSON compares keys by code points, where Swift's
  /// `==` takes canonically equivalent strings ("café" and "cafe\u{301}") as equal.
  var keys: Set<[Unicode.Scalar]> = []
  /// The key whose value is being read (objects only).
  var key = ""
  var keyOffset = 0
}

private struct JSONReader {
  let bytes: [UInt8]
  let maxDepth: Int
  var pos = 0
  var stack: [OpenContainer] = []

  init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  // MARK: Errors

  func error(_ message: String, at offset: Int) -> JSONError {
    let (line, column) = jsonLineAndColumn(of: offset, in: bytes)
    return JSONError(message: message, offset: offset, line: line, column: column)
  }

  /// An error for the byte at `pos`, naming it.
  func unexpected(_ expectation: String) -> JSONError {
    guard pos < bytes.count else { return error("unexpected end of input, \(expectation)", at: pos) }
    let b = bytes[pos]
    let shown = b >= 0x21 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(hex2(b))"
    return error("unexpected \(shown), \(expectation)", at: pos)
  }

  // MARK: Structure

  mutating func skipWhitespace() {
    while pos < bytes.count {
      switch bytes[pos] {
      case 0x20, 0x09, 0x0A, 0x0D: pos += 1
      default: return
      }
    }
  }

  mutating func parseDocument() throws(JSONError) -> JSONValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { pos = 3 }
    skipWhitespace()
    if pos == bytes.count { throw error("the input is empty, expected a JSON value", at: pos) }
    var value = try parseValueOrOpen()
    while true {
      // `value` is complete: hand it to the innermost open container, or finish.
      guard !stack.isEmpty else { break }
      let top = stack.count - 1
      skipWhitespace()
      if stack[top].isObject {
        stack[top].members.append(
          JSONMember(key: stack[top].key, keyOffset: stack[top].keyOffset, value: value))
        if consume(",") {
          try readKey()
        } else if consume("}") {
          let c = stack.removeLast()
          value = JSONValue(kind: .object(c.members), offset: c.offset)
          continue
        } else {
          throw unexpected("expected ',' or '}' after an object member")
        }
      } else {
        stack[top].elements.append(value)
        if consume("]") {
          let c = stack.removeLast()
          value = JSONValue(kind: .array(c.elements), offset: c.offset)
          continue
        }
        guard consume(",") else { throw unexpected("expected ',' or ']' after an array element") }
      }
      value = try parseValueOrOpen()
    }
    skipWhitespace()
    if pos < bytes.count { throw unexpected("expected the end of the input after the JSON value") }
    return value
  }

  mutating func consume(_ c: Unicode.Scalar) -> Bool {
    guard pos < bytes.count, bytes[pos] == UInt8(c.value) else { return false }
    pos += 1
    return true
  }

  /// Reads a scalar value, or opens containers until one is reached or a container closes empty;
  /// returns the first complete value.
  mutating func parseValueOrOpen() throws(JSONError) -> JSONValue {
    while true {
      skipWhitespace()
      guard pos < bytes.count else { throw unexpected("expected a value") }
      let start = pos
      switch bytes[pos] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = bytes[pos] == UInt8(ascii: "{")
        guard stack.count < maxDepth else {
          throw error("arrays and objects nested deeper than \(maxDepth) levels", at: pos)
        }
        pos += 1
        stack.append(OpenContainer(isObject: isObject, offset: start))
        skipWhitespace()
        if consume(isObject ? "}" : "]") {
          stack.removeLast()
          return JSONValue(kind: isObject ? .object([]) : .array([]), offset: start)
        }
        if isObject { try readKey(afterComma: false) }
      case UInt8(ascii: "\""):
        return JSONValue(kind: .string(try parseString()), offset: start)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return try parseNumber()
      case UInt8(ascii: "t"):
        try literal("true")
        return JSONValue(kind: .bool(true), offset: start)
      case UInt8(ascii: "f"):
        try literal("false")
        return JSONValue(kind: .bool(false), offset: start)
      case UInt8(ascii: "n"):
        try literal("null")
        return JSONValue(kind: .null, offset: start)
      default:
        throw unexpected("expected a value")
      }
    }
  }

  /// Reads `"key" :` into the innermost (object) container, refusing a key it already has.
  mutating func readKey(afterComma: Bool = true) throws(JSONError) {
    skipWhitespace()
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else {
      throw unexpected(afterComma ? "expected a key string after ','" : "expected a key string or '}'")
    }
    let keyOffset = pos
    let key = try parseString()
    let top = stack.count - 1
    let scalars = Array(key.unicodeScalars)
    if stack[top].keys.contains(scalars) {
      var e = error("duplicate key \(quoted(key))", at: keyOffset)
      e.keyPath = keyPath(appending: key)
      throw e
    }
    stack[top].keys.insert(scalars)
    stack[top].key = key
    stack[top].keyOffset = keyOffset
    skipWhitespace()
    guard consume(":") else { throw unexpected("expected ':' after the key") }
  }

  /// The key path of the open containers (`layers[0].sublayers[2]`), with `key` appended.
  func keyPath(appending key: String) -> String {
    var path = ""
    for c in stack.dropLast() {
      if c.isObject {
        path += path.isEmpty ? c.key : "." + c.key
      } else {
        path += "[\(c.elements.count)]"
      }
    }
    return path.isEmpty ? key : path + "." + key
  }

  mutating func literal(_ word: StaticString) throws(JSONError) {
    let start = pos
    let n = word.utf8CodeUnitCount
    let matches = word.withUTF8Buffer { w in
      pos + n <= bytes.count && bytes[pos..<pos + n].elementsEqual(w)
    }
    guard matches else { throw error("unexpected characters, expected a value", at: start) }
    pos += n
  }

  // MARK: Numbers

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
  mutating func parseNumber() throws(JSONError) -> JSONValue {
    let start = pos
    func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
    if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
    guard isDigit(pos) else { throw unexpected("expected a digit") }
    if bytes[pos] == UInt8(ascii: "0") {
      pos += 1
      if isDigit(pos) { throw error("a number must not have leading zeros", at: start) }
    } else {
      while isDigit(pos) { pos += 1 }
    }
    if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
      pos += 1
      guard isDigit(pos) else { throw unexpected("expected a digit after the decimal point") }
      while isDigit(pos) { pos += 1 }
    }
    if pos < bytes.count, bytes[pos] | 0x20 == UInt8(ascii: "e") {
      pos += 1
      if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
      guard isDigit(pos) else { throw unexpected("expected a digit in the exponent") }
      while isDigit(pos) { pos += 1 }
    }
    let text = String(decoding: bytes[start..<pos], as: UTF8.self)
    // The grammar above is a subset of what `Double.init` reads; too large a magnitude gives
    // an infinity, which the scene decoder refuses with the key's name.
    guard let value = Double(text) else { throw error("malformed number", at: start) }
    return JSONValue(kind: .number(value, text: text), offset: start)
  }

  // MARK: Strings

  /// Reads a string from its opening quote; validates UTF-8 and decodes escapes.
  mutating func parseString() throws(JSONError) -> String {
    pos += 1  // the opening quote
    var out: [UInt8] = []
    var runStart = pos
    while true {
      guard pos < bytes.count else { throw error("unexpected end of input inside a string", at: pos) }
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") {
        out.append(contentsOf: bytes[runStart..<pos])
        pos += 1
        return String(decoding: out, as: UTF8.self)
      } else if b == UInt8(ascii: "\\") {
        out.append(contentsOf: bytes[runStart..<pos])
        try parseEscape(into: &out)
        runStart = pos
      } else if b < 0x20 {
        throw error("control character 0x\(hex2(b)) in a string (escape it)", at: pos)
      } else if b < 0x80 {
        pos += 1
      } else {
        pos += try utf8SequenceLength(at: pos)
      }
    }
  }

  /// The length of the valid UTF-8 sequence starting at `i` (no overlongs, no surrogates).
  func utf8SequenceLength(at i: Int) throws(JSONError) -> Int {
    let b = bytes[i]
    let n: Int
    var lo: UInt8 = 0x80
    var hi: UInt8 = 0xBF
    switch b {
    case 0xC2...0xDF: n = 2
    case 0xE0:
      n = 3
      lo = 0xA0
    case 0xED:
      n = 3
      hi = 0x9F
    case 0xE1...0xEF: n = 3
    case 0xF0:
      n = 4
      lo = 0x90
    case 0xF4:
      n = 4
      hi = 0x8F
    case 0xF1...0xF3: n = 4
    default: throw error("invalid UTF-8 byte 0x\(hex2(b))", at: i)
    }
    for k in 1..<n {
      let j = i + k
      guard j < bytes.count, bytes[j] >= (k == 1 ? lo : 0x80), bytes[j] <= (k == 1 ? hi : 0xBF) else {
        throw error("invalid UTF-8 sequence", at: i)
      }
    }
    return n
  }

  /// Decodes one escape sequence at `pos` (the backslash), appending its UTF-8.
  mutating func parseEscape(into out: inout [UInt8]) throws(JSONError) {
    let start = pos
    pos += 1
    guard pos < bytes.count else { throw error("unexpected end of input inside a string", at: pos) }
    let c = bytes[pos]
    pos += 1
    switch c {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(c)
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hex4()
      if (0xDC00...0xDFFF).contains(scalar) {
        throw error("a low surrogate \\u\(hex4String(scalar)) without a high one before it", at: start)
      }
      if (0xD800...0xDBFF).contains(scalar) {
        guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u")
        else {
          throw error("a high surrogate \\u\(hex4String(scalar)) without a low one after it", at: start)
        }
        pos += 2
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw error("a high surrogate \\u\(hex4String(scalar)) without a low one after it", at: start)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      }
      UTF8.encode(Unicode.Scalar(scalar)!) { out.append($0) }
    default:
      throw error("invalid escape '\\\(Character(Unicode.Scalar(c)))' in a string", at: start)
    }
  }

  /// Reads four hex digits at `pos`.
  mutating func hex4() throws(JSONError) -> UInt32 {
    var v: UInt32 = 0
    for _ in 0..<4 {
      guard pos < bytes.count else { throw error("unexpected end of input in a \\u escape", at: pos) }
      let b = bytes[pos]
      let d: UInt8
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
      default: throw unexpected("expected four hex digits after \\u")
      }
      v = v << 4 | UInt32(d)
      pos += 1
    }
    return v
  }
}

/// The 1-based line and character column of a UTF-8 byte offset in `bytes`.
func jsonLineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
  var line = 1
  var column = 1
  for b in bytes[..<min(max(0, offset), bytes.count)] {
    if b == UInt8(ascii: "\n") {
      line += 1
      column = 1
    } else if b & 0xC0 != 0x80 {
      column += 1
    }
  }
  return (line, column)
}

private func hex2(_ b: UInt8) -> String {
  let s = String(b, radix: 16, uppercase: true)
  return s.count < 2 ? "0" + s : s
}

private func hex4String(_ v: UInt32) -> String {
  let s = String(v, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - s.count)) + s
}
