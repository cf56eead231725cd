import Testing

@testable import SheenLayers

@Suite struct JSONTests {
  func parse(_ text: String) throws(JSONError) -> JSONValue {
    try JSONParser.parse(Array(text.utf8))
  }

  /// The error parsing `text` gives (an issue is recorded if it parses).
  func failure(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
    do {
      _ = try parse(text)
      Issue.record("parsed: \(text.prefix(60))", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  @Test func scalars() throws {
    guard case .null = try parse(" null ").kind else { Issue.record("null"); return }
    guard case .bool(true) = try parse("true").kind else { Issue.record("true"); return }
    guard case .number(let v, let text) = try parse("-12.5e1").kind else { Issue.record("number"); return }
    #expect(v == -125 && text == "-12.5e1")
    guard case .string(let s) = try parse(#""a\"b\\c\/\n\u00e9\uD83D\uDE00""#).kind else {
      Issue.record("string")
      return
    }
    #expect(s == "a\"b\\c/\né😀")
  }

  @Test func objectsKeepKeyOrderAndOffsets() throws {
    let v = try parse("{\"z\": 1, \"a\": [true, null],\n \"m\": {}}")
    guard case .object(let members) = v.kind else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["z", "a", "m"])
    #expect(members.map(\.keyOffset) == [1, 9, 29])
    #expect(members.map(\.value.offset) == [6, 14, 34])
    guard case .array(let items) = members[1].value.kind else {
      Issue.record("not an array")
      return
    }
    #expect(items.map(\.offset) == [15, 21])
  }

  @Test func duplicateKeyNamesItsPath() {
    let e = failure(#"{"layers": [{}, {"frame": [0, 0, 1, 1], "frame": []}]}"#)
    #expect(e?.keyPath == "layers[1].frame")
    #expect(e?.message == "duplicate key \"frame\"")
  }

  @Test(arguments: [
    ("", "the input is empty, expected a JSON value", 1, 1),
    ("[1, 2,]", "unexpected ']', expected a value", 1, 7),
    ("{\"a\": 1,}", "unexpected '}', expected a key string after ','", 1, 9),
    ("{\"a\" 1}", "unexpected '1', expected ':' after the key", 1, 6),
    ("[1 2]", "unexpected '2', expected ',' or ']' after an array element", 1, 4),
    ("{\"a\": 1 \"b\": 2}", "unexpected '\"', expected ',' or '}' after an object member", 1, 9),
    ("[1]\n x", "unexpected 'x', expected the end of the input after the JSON value", 2, 2),
    ("[01]", "a number must not have leading zeros", 1, 2),
    ("[1.]", "unexpected ']', expected a digit after the decimal point", 1, 4),
    ("[.5]", "unexpected '.', expected a value", 1, 2),
    ("[+1]", "unexpected '+', expected a value", 1, 2),
    ("[1e]", "unexpected ']', expected a digit in the exponent", 1, 4),
    ("[NaN]", "unexpected 'N', expected a value", 1, 2),
    ("[tru]", "unexpected characters, expected a value", 1, 2),
    ("\"a\tb\"", "control character 0x09 in a string (escape it)", 1, 3),
    ("\"\\x\"", "invalid escape '\\x' in a string", 1, 2),
    ("\"\\u12G4\"", "unexpected 'G', expected four hex digits after \\u", 1, 6),
    ("\"\\uD83D\"", "a high surrogate \\uD83D without a low one after it", 1, 2),
    ("\"\\uD83D\\u0041\"", "a high surrogate \\uD83D without a low one after it", 1, 2),
    ("\"\\uDE00\"", "a low surrogate \\uDE00 without a high one before it", 1, 2),
    ("\"é\" x", "unexpected 'x', expected the end of the input after the JSON value", 1, 5),
    ("\"abc", "unexpected end of input inside a string", 1, 5),
    ("{\"a\": [", "unexpected end of input, expected a value", 1, 8),
  ])
  func malformed(text: String, message: String, line: Int, column: Int) {
    let e = failure(text)
    #expect(e?.message == message)
    #expect(e?.line == line && e?.column == column, "\(e?.description ?? "")")
  }

  @Test func invalidUTF8IsRefused() {
    for bytes: [UInt8] in [
      [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xFF, 0x22],
    ] {
      #expect(throws: JSONError.self) { try JSONParser.parse(bytes) }
    }
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let deep = String(repeating: "[", count: 10_000)
    let e = failure(deep)
    #expect(e?.message == "arrays and objects nested deeper than 1024 levels")
    #expect(e?.offset == 1024)
    // Just under the limit parses (and the value tree is released without recursion trouble).
    let ok = String(repeating: "[", count: 1024) + String(repeating: "]", count: 1024)
    #expect(throws: Never.self) { try parse(ok) }
    let objects = String(repeating: "{\"a\":", count: 1025) + "1" + String(repeating: "}", count: 1025)
    #expect(failure(objects)?.offset == 5 * 1024)
  }

  @Test func byteOrderMarkIsSkipped() throws {
    guard case .number(let v, _) = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(" 7".utf8)).kind else {
      Issue.record("not a number")
      return
    }
    #expect(v == 7)
  }

  @Test func hugeNumbersParseAsInfinity() throws {
    guard case .number(let v, let text) = try parse("1e999").kind else {
      Issue.record("not a number")
      return
    }
    #expect(v == .infinity && text == "1e999")
  }
}
