import SheenCommandLine
import Testing

@Suite struct OptionTests {
  static let count = Option.integer("--count", range: 1...64, help: "a count")
  static let scale = Option.number("--scale", "S", range: 0.25...8, help: "a scale")
  static let size = Option.size(["--size", "-s"], range: 1...16384, help: "a size")
  static let name = Option.text(["--out", "-o"], "FILE", maxBytes: 16, help: "a file")
  static let flag = Flag("--fast", help: "go fast")
  static let command = Command(
    path: "sheen t", synopsis: ["sheen t [options] FILE"], about: "About.",
    options: [AnyOption(count), AnyOption(scale), AnyOption(size), AnyOption(name), AnyOption(flag)],
    positionals: [.init("FILE", help: "a file")], footer: "exit status: 0.")

  func message(_ args: [String]) -> String? {
    do throws(UsageError) {
      _ = try Self.command.parse(args)
      return nil
    } catch { return error.message }
  }

  @Test func readsTypedValues() throws {
    let p = try #require(
      try Self.command.parse(["--count", "3", "-s", "800x600", "--scale=0.5", "x", "--fast"]))
    #expect(p[Self.count] == 3)
    #expect(p[Self.size] == Dimensions(width: 800, height: 600))
    #expect(p[Self.scale] == 0.5)
    #expect(p[Self.flag])
    #expect(p[Self.name] == nil)
    #expect(p.positionals == ["x"])
  }

  @Test func theLastOfARepeatedOptionCounts() throws {
    let p = try #require(try Self.command.parse(["--count", "1", "f", "--count", "2"]))
    #expect(p[Self.count] == 2)
    #expect(message(["--count", "1", "--count", "x", "f"]) != nil)
  }

  @Test func valueMayLookLikeAnOptionOrADash() throws {
    let p = try #require(try Self.command.parse(["-o", "-", "--", "-file"]))
    #expect(p[Self.name] == "-")
    #expect(p.positionals == ["-file"])
  }

  @Test func helpAnywhereBeforeDoubleDash() throws {
    #expect(try Self.command.parse(["--count", "3", "--help"]) == nil)
    #expect(try Self.command.parse(["-h", "--bogus"]) == nil)
  }

  @Test func malformedIntegersAreRefused() {
    for bad in [
      " 3", "3 ", "abc", "3x", "0x10", "1e3", "3.0", "", "+", "-", "99999999999999999999999", "٣", "+7", "-0",
      "+0",
    ] {
      let m = message(["--count", bad, "f"])
      #expect(m?.hasPrefix("--count: '") == true, "\(bad): \(m ?? "accepted")")
    }
    #expect(message(["--count", "65", "f"]) == "--count: '65' is not a whole number from 1 to 64")
    #expect(message(["--count", "0", "f"]) != nil)
    #expect(message(["--count", "9223372036854775808", "f"]) != nil)
    #expect(message(["--count", "7", "f"]) == nil)
  }

  @Test func numbersMustBeFiniteDecimals() {
    for bad in [
      "nan", "NaN", "inf", "-inf", "infinity", "1e400", "0x1p2", " 1", "1,5", ".", "e3", "1e", "--1",
    ] {
      #expect(message(["--scale", bad, "f"]) != nil, "\(bad)")
    }
    for good in ["1", "0.25", "8", ".5", "2.", "1e0", "+2"] {
      #expect(message(["--scale", good, "f"]) == nil, "\(good)")
    }
    #expect(message(["--scale", "8.01", "f"]) == "--scale: '8.01' is not a number from 0.25 to 8")
  }

  @Test func sizesAreStrict() {
    for bad in [
      "abcx16x16", "16x16x16", "x16", "16x", "16 x16", " 16x16", "0x16", "16x16385", "16X16", "1e1x5",
    ] {
      #expect(message(["--size", bad, "f"]) != nil, "\(bad)")
    }
  }

  @Test func unknownAndRepeatedOptionsAreNamed() {
    #expect(message(["--bogus", "f"]) == "unknown option '--bogus'")
    #expect(message(["--bogus=3", "f"]) == "unknown option '--bogus'")
    #expect(message(["--fast=yes", "f"]) == "--fast takes no value")
    #expect(message(["f", "g"]) == "unexpected argument 'g'")
    #expect(message([]) == "no FILE given")
    #expect(message(["f", "--count"]) == "--count needs a value (N)")
    #expect(message(["f", "-o", String(repeating: "a", count: 17)])?.contains("at most 16 bytes") == true)
  }

  @Test func helpListsEveryOptionAndItsRange() {
    let help = Self.command.help
    for text in [
      "usage: sheen t [options] FILE", "--count N", "(1–64)", "-s, --size WxH", "-o, --out FILE",
      "--fast", "-h, --help", "FILE", "exit status: 0.", "(0.25 to 8)",
    ] {
      #expect(help.contains(text), "\(text)")
    }
  }

  @Test func messagesAreOneLineEscapedAndShort() {
    let hostile = "a\nb\u{1B}[31m\0\u{7F}\u{85}\u{2028}\u{202E}'\\"
    let q = quotedForMessage(hostile)
    #expect(q == "'a\\nb\\u{1B}[31m\\u{0}\\u{7F}\\u{85}\\u{2028}\\u{202E}\\'\\\\'")
    let huge = String(repeating: "é", count: 1_000_000)
    let short = quotedForMessage(huge, maxBytes: 200)
    #expect(short.utf8.count < 240)
    #expect(short.hasSuffix("… (2000000 bytes)"))
    #expect(!quotedForMessage("\u{1}x").contains("\u{1}"))
    let m = message(["--bogus\n\u{1B}]0;x", "f"]) ?? ""
    #expect(!m.contains("\n") && !m.contains("\u{1B}"))
  }

  @Test func strictIntegerParsing() {
    #expect(parseInteger("-9223372036854775808") == Int.min)
    #expect(parseInteger("9223372036854775807") == Int.max)
    #expect(parseInteger("9223372036854775808") == nil)
    #expect(parseInteger("-0") == 0)
    #expect(parseInteger("00012") == 12)
    #expect(parseInteger("+5") == nil)
    #expect(parseCount("-0") == nil)
    #expect(parseCount("+5") == nil)
    #expect(parseCount("5") == 5)
  }
}
