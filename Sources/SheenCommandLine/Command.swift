/// A (sub)command's command line: its options, its positional arguments and its `--help` text.
///
/// `parse` reads arguments strictly: every option must be declared and take a well-formed value
/// (given twice, the last one counts, as a wrapper script adding its own defaults expects); `-h`/`--help` anywhere before `--` asks for the help instead of running.
/// An option's value is the next argument whatever it looks like (`-o -`, `--script "wheel -1"`),
/// or follows `=` (`--size=800x600`). After `--` every argument is positional.
public struct Command: Sendable {
  /// The words that run it, for messages and the help: `sheen bench raster`.
  public var path: String
  /// What follows `usage:`; one entry per line.
  public var synopsis: [String]
  /// A paragraph under the usage.
  public var about: String
  public var options: [AnyOption]
  public var positionals: [Positional]
  /// Further commands under this one (`bench raster`), for the help and for the error naming an
  /// unknown one; dispatching to them is the caller's.
  public var subcommands: [(name: String, summary: String)]
  /// Text after the options (exit statuses, examples).
  public var footer: String

  public init(
    path: String, synopsis: [String], about: String, options: [AnyOption], positionals: [Positional] = [],
    subcommands: [(name: String, summary: String)] = [], footer: String = ""
  ) {
    self.path = path
    self.synopsis = synopsis
    self.about = about
    self.options = options
    self.positionals = positionals
    self.subcommands = subcommands
    self.footer = footer
    var seen = Set<String>()
    for o in options {
      for n in o.info.names {
        precondition(n.hasPrefix("-") && seen.insert(n).inserted, "option \(n) declared twice or without -")
      }
    }
  }

  /// A positional argument (`SCENE.json`).
  public struct Positional: Sendable {
    public var name: String
    public var help: String
    public var required: Bool
    public init(_ name: String, help: String, required: Bool = true) {
      self.name = name
      self.help = help
      self.required = required
    }
  }

  /// The arguments read, or nil when they ask for the help (`-h`, `--help`).
  /// - Throws: `UsageError` naming the option or argument that was wrong.
  public func parse(_ args: [String]) throws(UsageError) -> ParsedArguments? {
    var parsed = ParsedArguments()
    var onlyPositionals = false
    var i = 0
    while i < args.count {
      let arg = args[i]
      i += 1
      if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
        guard parsed.positionals.count < positionals.count else {
          if subcommands.isEmpty || !parsed.positionals.isEmpty {
            throw UsageError("unexpected argument \(quotedForMessage(arg))")
          }
          throw UsageError(
            "unknown command \(quotedForMessage(arg)) (commands: "
              + subcommands.map(\.name).joined(separator: ", ") + ")")
        }
        parsed.positionals.append(arg)
        continue
      }
      if arg == "--" {
        onlyPositionals = true
        continue
      }
      if arg == "-h" || arg == "--help" { return nil }
      var name = arg
      var inline: String?
      if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
        name = String(arg[..<eq])
        inline = String(arg[arg.index(after: eq)...])
      }
      guard let option = options.first(where: { $0.info.names.contains(name) }) else {
        throw UsageError("unknown option \(quotedForMessage(name))")
      }
      let key = option.info.name
      guard let convert = option.convert else {
        guard inline == nil else { throw UsageError("\(name) takes no value") }
        parsed.flags.insert(key)
        continue
      }
      let text: String
      if let inline {
        text = inline
      } else {
        guard i < args.count else {
          throw UsageError("\(name) needs a value (\(option.info.valueName ?? "value"))")
        }
        text = args[i]
        i += 1
      }
      do {
        parsed.values[key] = try convert(text)
      } catch {
        throw UsageError(
          "\(name): " + (error.message ?? "\(quotedForMessage(text)) is not \(error.expected)"))
      }
    }
    let given = parsed.positionals.count
    if let missing = positionals.dropFirst(given).first(where: \.required) {
      throw UsageError("no \(missing.name) given")
    }
    return parsed
  }

  /// The complete `--help` text.
  public var help: String {
    var lines: [String] = []
    for (n, s) in synopsis.enumerated() { lines.append((n == 0 ? "usage: " : "       ") + s) }
    if !about.isEmpty { lines += ["", about] }
    func table(_ rows: [(String, String)]) {
      let width = min(26, (rows.map(\.0.count).max() ?? 0) + 2)
      for (left, right) in rows {
        let l = "  " + left
        if l.count + 1 > width + 2 {
          lines.append(l)
          lines.append(String(repeating: " ", count: width + 2) + right)
        } else {
          lines.append(l + String(repeating: " ", count: width + 2 - l.count) + right)
        }
      }
    }
    if !subcommands.isEmpty {
      lines += ["", "commands:"]
      table(subcommands.map { ($0.name, $0.summary) })
    }
    if !positionals.isEmpty {
      lines += ["", "arguments:"]
      table(positionals.map { ($0.name, $0.help) })
    }
    lines += ["", "options:"]
    var rows: [(String, String)] = options.map { o in
      let names = o.info.names.sorted { $0.count < $1.count }.joined(separator: ", ")
      var help = o.info.help
      if let d = o.info.defaultText { help += "; default \(d)" }
      return (names + (o.info.valueName.map { " " + $0 } ?? ""), help)
    }
    rows.append(("-h, --help", "show this help and exit"))
    table(rows)
    if !footer.isEmpty { lines += ["", footer] }
    return lines.joined(separator: "\n")
  }

  /// The first usage line and where to find the rest, printed after an error.
  public var shortUsage: String {
    "usage: \(synopsis.first ?? path)\n(`\(path) --help` lists every option)"
  }
}

/// What `Command.parse` read.
public struct ParsedArguments: Sendable {
  var values: [String: any Sendable] = [:]
  var flags: Set<String> = []
  /// The positional arguments, in order.
  public internal(set) var positionals: [String] = []

  /// The option's value, or nil when it was not given.
  public subscript<Value>(_ option: Option<Value>) -> Value? { values[option.info.name] as? Value }

  /// Whether the flag was given.
  public subscript(_ flag: Flag) -> Bool { flags.contains(flag.info.name) }
}

/// A command line that a command cannot take: the message says what was wrong (exit 64).
public struct UsageError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// `text` in single quotes for a one-line message: control characters (and line separators,
/// DEL, C1 controls) escaped as `\n`, `\t`, `\u{1B}`..., the quote and backslash escaped, and cut
/// after `maxBytes` bytes of UTF-8 (never inside a character) with the total size said.
public func quotedForMessage(_ text: String, maxBytes: Int = 200) -> String {
  escapedForMessage(text, maxBytes: maxBytes, quoted: true)
}

/// Any text (an error's description, which may hold a file name) made fit for one line of a
/// message: control characters, line separators and bidi controls escaped as in
/// `quotedForMessage` (quotes and backslashes kept as they are), cut after `maxBytes` bytes.
public func oneLineForMessage(_ text: String, maxBytes: Int = 600) -> String {
  escapedForMessage(text, maxBytes: maxBytes, quoted: false)
}

func escapedForMessage(_ text: String, maxBytes: Int, quoted: Bool) -> String {
  let quote = quoted ? "'" : ""
  var out = quote
  var used = 0
  for scalar in text.unicodeScalars {
    let piece: String
    switch scalar {
    case "\n": piece = "\\n"
    case "\t": piece = "\\t"
    case "\r": piece = "\\r"
    case "'" where quoted: piece = "\\'"
    case "\\" where quoted: piece = "\\\\"
    default:
      let v = scalar.value
      if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || (0x202A...0x202E).contains(v)
        || (0x2066...0x2069).contains(v)
      {
        piece = "\\u{" + String(v, radix: 16, uppercase: true) + "}"
      } else {
        piece = String(scalar)
      }
    }
    if used + piece.utf8.count > maxBytes {
      return out + quote + "… (\(text.utf8.count) bytes)"
    }
    out += piece
    used += piece.utf8.count
  }
  return out + quote
}
