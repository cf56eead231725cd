import Foundation

// Parsing of SVG path data (the `d` attribute), following the grammar of SVG 2 §9.3.9.
//
// The parser reads UTF-8 bytes directly so that every error can name the byte offset of the token
// that broke it; scene files report that offset to whoever wrote them. Unlike a browser, which
// renders a path up to its first error, a malformed path is refused as a whole.

/// A malformed piece of SVG path data, with the UTF-8 byte offset of the offending token.
public struct SVGPathError: Error, Equatable, CustomStringConvertible {
  /// The UTF-8 byte offset of the token that could not be read (the length of the data at its end).
  public var offset: Int
  /// What was wrong, for example "expected a number".
  public var message: String

  public init(offset: Int, message: String) {
    self.offset = offset
    self.message = message
  }

  public var description: String { "invalid path data at offset \(offset): \(message)" }
}

extension Path {
  /// Parses SVG path data (`M m L l H h V v C c S s Q q T t A a Z z`) into a path.
  ///
  /// Arcs become cubic Bézier curves; relative commands are resolved to absolute points. Empty
  /// data (or only whitespace) gives an empty path.
  /// - Throws: `SVGPathError` naming the byte offset of the first malformed token, when the data
  ///   does not start with a move, has a token that is not a number, command or arc flag where
  ///   one is expected, a number that is not finite, or a negative arc radius.
  /// - Complexity: O(n) in the length of the data.
  public init(svgData: String) throws {
    self.init()
    var parser = SVGPathParser(bytes: Array(svgData.utf8))
    try parser.parse(into: &self)
  }
}

/// The state of one parse: the bytes, a read position and the points smooth curves reflect.
private struct SVGPathParser {
  let bytes: [UInt8]
  var pos = 0
  /// The current point (the origin before the first move, so a leading `m` is absolute).
  var current = Point.zero
  /// The start of the current subpath, where `z` returns.
  var subpathStart = Point.zero
  /// The second control point of the previous `C`/`S`, for a following `S`.
  var lastCubicControl: Point?
  /// The control point of the previous `Q`/`T`, for a following `T`.
  var lastQuadControl: Point?
  /// Set by `z`: a drawing command that follows starts a new subpath at `subpathStart`.
  var needsMove = false

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  var atEnd: Bool { pos >= bytes.count }

  func error(_ message: String, at offset: Int) -> SVGPathError {
    SVGPathError(offset: offset, message: message)
  }

  // MARK: Lexing

  static func isWhitespace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C
  }

  static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  mutating func skipWhitespace() {
    while pos < bytes.count, Self.isWhitespace(bytes[pos]) { pos += 1 }
  }

  /// Skips `wsp* (',' wsp*)?`; returns whether a comma was skipped.
  @discardableResult mutating func skipCommaWhitespace() -> Bool {
    skipWhitespace()
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: ",") else { return false }
    pos += 1
    skipWhitespace()
    return true
  }

  /// Whether a number could start at the read position.
  var atNumberStart: Bool {
    guard pos < bytes.count else { return false }
    let b = bytes[pos]
    return Self.isDigit(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
  }

  /// Reads `sign? (digits ('.' digits?)? | '.' digits) exponent?`. The longest match is taken, so
  /// `10-5` is two numbers and so is `.5.5`; an `e` not followed by digits is not part of it.
  mutating func number() throws -> Double {
    let start = pos
    var i = pos
    if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
    var digits = 0
    while i < bytes.count, Self.isDigit(bytes[i]) {
      i += 1
      digits += 1
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      while i < bytes.count, Self.isDigit(bytes[i]) {
        i += 1
        digits += 1
      }
    }
    guard digits > 0 else { throw error("expected a number", at: start) }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      var j = i + 1
      if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
      if j < bytes.count, Self.isDigit(bytes[j]) {
        while j < bytes.count, Self.isDigit(bytes[j]) { j += 1 }
        i = j
      }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw error("number out of range", at: start)
    }
    pos = i
    return value
  }

  /// Reads an arc flag: a single `0` or `1`, which may be followed directly by the next argument.
  mutating func flag() throws -> Bool {
    guard pos < bytes.count, bytes[pos] == UInt8(ascii: "0") || bytes[pos] == UInt8(ascii: "1") else {
      throw error("expected an arc flag (0 or 1)", at: pos)
    }
    pos += 1
    return bytes[pos - 1] == UInt8(ascii: "1")
  }

  /// Reads a coordinate pair, resolved against the current point when `relative`.
  mutating func point(relative: Bool) throws -> Point {
    let x = try number()
    skipCommaWhitespace()
    let y = try number()
    return relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
  }

  // MARK: Commands

  mutating func parse(into path: inout Path) throws {
    skipWhitespace()
    guard !atEnd else { return }
    guard bytes[pos] == UInt8(ascii: "M") || bytes[pos] == UInt8(ascii: "m") else {
      throw error("path data must begin with a move ('M' or 'm')", at: pos)
    }
    while !atEnd {
      let command = bytes[pos]
      let commandOffset = pos
      pos += 1
      let relative = command >= UInt8(ascii: "a")
      let upper = relative ? command - 0x20 : command
      if upper == UInt8(ascii: "Z") {
        path.closeSubpath()
        current = subpathStart
        needsMove = true
        lastCubicControl = nil
        lastQuadControl = nil
        skipWhitespace()
        continue
      }
      guard "MLHVCSQTA".utf8.contains(upper) else {
        let isLetter = (0x41...0x5A).contains(upper)
        let message =
          isLetter ? "unknown command '\(Character(Unicode.Scalar(command)))'" : "expected a command"
        throw error(message, at: commandOffset)
      }
      skipWhitespace()
      var first = true
      repeat {
        // Extra coordinate pairs after a move are lines, relative when the move was.
        let effective = upper == UInt8(ascii: "M") && !first ? UInt8(ascii: "L") : upper
        try segment(effective, relative: relative, into: &path)
        first = false
        let comma = skipCommaWhitespace()
        if comma && !atNumberStart { throw error("expected a number", at: pos) }
      } while atNumberStart
    }
  }

  /// Reads the arguments of one segment and appends it.
  mutating func segment(_ command: UInt8, relative: Bool, into path: inout Path) throws {
    var cubicControl: Point?
    var quadControl: Point?
    if command == UInt8(ascii: "M") {
      let p = try point(relative: relative)
      path.move(to: p)
      subpathStart = p
      current = p
      needsMove = false
      lastCubicControl = nil
      lastQuadControl = nil
      return
    }
    if needsMove {
      path.move(to: subpathStart)
      needsMove = false
    }
    switch command {
    case UInt8(ascii: "L"):
      let p = try point(relative: relative)
      path.addLine(to: p)
      current = p
    case UInt8(ascii: "H"):
      let x = try number()
      current = Point(x: relative ? current.x + x : x, y: current.y)
      path.addLine(to: current)
    case UInt8(ascii: "V"):
      let y = try number()
      current = Point(x: current.x, y: relative ? current.y + y : y)
      path.addLine(to: current)
    case UInt8(ascii: "C"):
      let c1 = try point(relative: relative)
      skipCommaWhitespace()
      let c2 = try point(relative: relative)
      skipCommaWhitespace()
      let p = try point(relative: relative)
      path.addCurve(to: p, control1: c1, control2: c2)
      current = p
      cubicControl = c2
    case UInt8(ascii: "S"):
      // The first control point reflects the previous curve's second one about the current point.
      let c1 = lastCubicControl.map { current * 2 - $0 } ?? current
      let c2 = try point(relative: relative)
      skipCommaWhitespace()
      let p = try point(relative: relative)
      path.addCurve(to: p, control1: c1, control2: c2)
      current = p
      cubicControl = c2
    case UInt8(ascii: "Q"):
      let c = try point(relative: relative)
      skipCommaWhitespace()
      let p = try point(relative: relative)
      path.addQuadCurve(to: p, control: c)
      current = p
      quadControl = c
    case UInt8(ascii: "T"):
      let c = lastQuadControl.map { current * 2 - $0 } ?? current
      let p = try point(relative: relative)
      path.addQuadCurve(to: p, control: c)
      current = p
      quadControl = c
    default:
      try arc(relative: relative, into: &path)
    }
    lastCubicControl = cubicControl
    lastQuadControl = quadControl
  }

  /// Reads `rx ry x-axis-rotation large-arc-flag sweep-flag x y` and appends the arc as cubics.
  mutating func arc(relative: Bool, into path: inout Path) throws {
    let rxOffset = pos
    let rx = try number()
    if rx < 0 { throw error("negative arc radius", at: rxOffset) }
    skipCommaWhitespace()
    let ryOffset = pos
    let ry = try number()
    if ry < 0 { throw error("negative arc radius", at: ryOffset) }
    skipCommaWhitespace()
    let rotation = try number()
    skipCommaWhitespace()
    let largeArc = try flag()
    skipCommaWhitespace()
    let sweep = try flag()
    skipCommaWhitespace()
    let p = try point(relative: relative)
    path.addSVGArc(
      from: current, to: p, radii: Point(x: rx, y: ry), rotation: rotation * .pi / 180,
      largeArc: largeArc, sweep: sweep)
    current = p
  }
}

extension Path {
  /// Appends an SVG elliptical arc from `p0` (the current point) to `p1` as cubic curves, using the
  /// endpoint-to-center conversion of SVG 2 Appendix B.2.4: radii too small to reach are scaled up,
  /// a zero radius gives a straight line, and coincident endpoints give nothing.
  mutating func addSVGArc(
    from p0: Point, to p1: Point, radii: Point, rotation: Double, largeArc: Bool, sweep: Bool
  ) {
    if p0 == p1 { return }
    var rx = abs(radii.x)
    var ry = abs(radii.y)
    guard rx > 0, ry > 0 else {
      addLine(to: p1)
      return
    }
    let cr = cos(rotation)
    let sr = sin(rotation)
    // The midpoint difference in the ellipse's own axes.
    let hx = (p0.x - p1.x) / 2
    let hy = (p0.y - p1.y) / 2
    let x1 = cr * hx + sr * hy
    let y1 = -sr * hx + cr * hy
    let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
    if lambda > 1 {
      let s = lambda.squareRoot()
      rx *= s
      ry *= s
    }
    let rx2 = rx * rx
    let ry2 = ry * ry
    let den = rx2 * y1 * y1 + ry2 * x1 * x1
    let num = rx2 * ry2 - den
    var coef = den > 0 ? (max(0, num) / den).squareRoot() : 0
    if largeArc == sweep { coef = -coef }
    let cx1 = coef * rx * y1 / ry
    let cy1 = -coef * ry * x1 / rx
    let center = Point(
      x: cr * cx1 - sr * cy1 + (p0.x + p1.x) / 2,
      y: sr * cx1 + cr * cy1 + (p0.y + p1.y) / 2)
    let ux = (x1 - cx1) / rx
    let uy = (y1 - cy1) / ry
    let vx = (-x1 - cx1) / rx
    let vy = (-y1 - cy1) / ry
    let start = atan2(uy, ux)
    var delta = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    if !sweep && delta > 0 { delta -= 2 * .pi }
    if sweep && delta < 0 { delta += 2 * .pi }
    guard start.isFinite, delta.isFinite, center.isFinite else {
      addLine(to: p1)
      return
    }
    // At most a quarter turn per cubic; the last one ends exactly on `p1`.
    let segments = max(1, min(4, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up))))
    let step = delta / Double(segments)
    let alpha = 4.0 / 3.0 * tan(step / 4)
    func map(_ ux: Double, _ uy: Double) -> Point {
      let x = ux * rx
      let y = uy * ry
      return Point(x: center.x + x * cr - y * sr, y: center.y + x * sr + y * cr)
    }
    var a0 = start
    for i in 0..<segments {
      let last = i == segments - 1
      let a1 = last ? start + delta : a0 + step
      let c0 = cos(a0)
      let s0 = sin(a0)
      let c1 = cos(a1)
      let s1 = sin(a1)
      addCurve(
        to: last ? p1 : map(c1, s1),
        control1: map(c0 - alpha * s0, s0 + alpha * c0),
        control2: map(c1 + alpha * s1, s1 - alpha * c1))
      a0 = a1
    }
  }
}
