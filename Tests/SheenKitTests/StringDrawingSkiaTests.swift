import Foundation
import SheenRaster
import Testing

@testable import SheenKit

/// String drawing (`NSString` / `NSAttributedString` `draw(at:)` and `draw(in:)` with fonts,
/// colours, paragraph styles, `.kern` and several runs) against the same text laid out and drawn
/// by Scripts/skia-string-references.py with skia-python and the oracle's font setup (which wrote
/// Tests/References/strings/*.png): each at least 35 dB PSNR.
@Suite struct StringDrawingSkiaTests {
  static func reference(_ name: String) throws -> Surface {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return try Surface(
      contentsOfPNG: root.appendingPathComponent("Tests/References/strings/\(name).png").path)
  }

  func check(_ name: String, width: CGFloat, height: CGFloat, scale: CGFloat = 1, _ draw: () -> Void) throws {
    let format = UIGraphicsImageRendererFormat()
    format.scale = scale
    let image = UIGraphicsImageRenderer(size: CGSize(width: width, height: height), format: format).image {
      c in
      UIColor.white.setFill()
      c.fill(CGRect(x: 0, y: 0, width: width, height: height))
      draw()
    }
    let ours = try #require(image.cgImage?.surface)
    let skia = try Self.reference(name)
    try #require(ours.width == skia.width && ours.height == skia.height)
    let db = CGContextSkiaTests.psnr(ours, skia)
    print("strings \(name): \(String(format: "%.1f", db)) dB PSNR against Skia")
    if db < 35 { try? ours.writePNG(to: "/tmp/sheen-strings-\(name).png") }
    #expect(db >= 35, "\(name): \(db) dB (ours in /tmp/sheen-strings-\(name).png)")
  }

  static let gray = UIColor(red: 0.33, green: 0.33, blue: 0.33, alpha: 1)
  static let green = UIColor(red: 0.1, green: 0.6, blue: 0.25, alpha: 1)
  static let blue = UIColor(red: 0.1, green: 0.3, blue: 0.85, alpha: 1)
  static let red = UIColor(red: 0.8, green: 0.15, blue: 0.1, alpha: 1)

  static func attrs(
    _ size: CGFloat, bold: Bool = false, color: UIColor = .black, kern: CGFloat? = nil,
    alignment: NSTextAlignment? = nil, lineBreak: NSLineBreakMode? = nil
  ) -> [NSAttributedString.Key: Any] {
    var a: [NSAttributedString.Key: Any] = [
      .font: bold ? UIFont.boldSystemFont(ofSize: size) : UIFont.systemFont(ofSize: size),
      .foregroundColor: color,
    ]
    if let kern { a[.kern] = kern }
    if alignment != nil || lineBreak != nil {
      let p = NSMutableParagraphStyle()
      if let alignment { p.alignment = alignment }
      if let lineBreak { p.lineBreakMode = lineBreak }
      a[.paragraphStyle] = p
    }
    return a
  }

  static func runs(_ parts: [(String, [NSAttributedString.Key: Any])]) -> NSAttributedString {
    let s = NSMutableAttributedString(string: "")
    for (text, a) in parts { s.append(NSAttributedString(string: text, attributes: a)) }
    return s
  }

  @Test func plainStrings() throws {
    try check("plain", width: 240, height: 72) {
      ("Hello, Sheen! 0123 The quick" as NSString).draw(
        at: CGPoint(x: 8, y: 10), withAttributes: Self.attrs(15))
      ("Bold and blue" as NSString).draw(
        at: CGPoint(x: 8, y: 40), withAttributes: Self.attrs(20, bold: true, color: Self.blue))
    }
  }

  @Test func attributedRuns() throws {
    try check("runs", width: 240, height: 90, scale: 2) {
      Self.runs([
        ("Revenue ", Self.attrs(13, color: Self.gray)),
        ("+12.5%", Self.attrs(20, bold: true, color: Self.green)),
        (" this quarter", Self.attrs(11, color: Self.blue)),
      ]).draw(at: CGPoint(x: 6, y: 12))
      Self.runs([
        ("Red ", Self.attrs(14, bold: true, color: Self.red)), ("and small ", Self.attrs(9)),
        ("BIG", Self.attrs(24, bold: true, color: Self.blue)),
      ]).draw(at: CGPoint(x: 6, y: 52))
    }
  }

  @Test func kerning() throws {
    try check("kern", width: 240, height: 96) {
      ("Tracking" as NSString).draw(at: CGPoint(x: 8, y: 8), withAttributes: Self.attrs(16, kern: 3))
      ("KERNED CAPS" as NSString).draw(
        at: CGPoint(x: 8, y: 40), withAttributes: Self.attrs(12, bold: true, color: Self.gray, kern: 1.5))
      Self.runs([("Tight", Self.attrs(16, kern: -1)), (" mixed", Self.attrs(16, color: Self.blue, kern: 2))])
        .draw(at: CGPoint(x: 8, y: 66))
    }
  }

  static let kernWrap = "the quick brown fox jumps over the lazy dog again"

  /// Kerning moves where lines break: three lines at 196 points with 1.2 points of kerning, two
  /// without (the reference script lays both out).
  @Test func kerningBreaksLines() throws {
    try check("kernwrap", width: 212, height: 116) {
      (Self.kernWrap as NSString).draw(
        in: CGRect(x: 8, y: 8, width: 196, height: 100), withAttributes: Self.attrs(13, kern: 1.2))
    }
    let bound = CGSize(width: 196, height: 1000)
    let kerned = (Self.kernWrap as NSString).boundingRect(
      with: bound, options: .usesLineFragmentOrigin, attributes: Self.attrs(13, kern: 1.2), context: nil)
    let plain = (Self.kernWrap as NSString).boundingRect(
      with: bound, options: .usesLineFragmentOrigin, attributes: Self.attrs(13), context: nil)
    let line = UIFont.systemFont(ofSize: 13).lineHeight
    #expect(abs(kerned.height - 3 * line) < 0.01)
    #expect(abs(plain.height - 2 * line) < 0.01)
    // On one line, each of the 49 glyphs adds 1.2 points.
    let one = (Self.kernWrap as NSString).size(withAttributes: Self.attrs(13, kern: 1.2))
    let none = (Self.kernWrap as NSString).size(withAttributes: Self.attrs(13))
    #expect(abs(one.width - none.width - 1.2 * 49) < 0.01)
  }

  @Test func alignment() throws {
    try check("align", width: 200, height: 110) {
      ("Centred text that wraps onto a second line" as NSString).draw(
        in: CGRect(x: 10, y: 6, width: 180, height: 50), withAttributes: Self.attrs(13, alignment: .center))
      ("Right aligned, kerned" as NSString).draw(
        in: CGRect(x: 10, y: 62, width: 180, height: 40),
        withAttributes: Self.attrs(12, color: Self.blue, kern: 1, alignment: .right))
    }
  }

  @Test func attributedRunsWrap() throws {
    try check("runswrap", width: 220, height: 112) {
      Self.runs([
        ("Attributed ", Self.attrs(15, bold: true, color: Self.red, alignment: .center)),
        ("strings wrap across their runs, ", Self.attrs(12, alignment: .center)),
        ("keeping each colour", Self.attrs(12, color: Self.blue, alignment: .center)),
        (" and size.", Self.attrs(12, bold: true, color: Self.green, alignment: .center)),
      ]).draw(in: CGRect(x: 10, y: 6, width: 200, height: 100))
    }
  }

  @Test func truncation() throws {
    try check("truncate", width: 200, height: 70) {
      ("A line far too long to fit in the box" as NSString).draw(
        in: CGRect(x: 8, y: 8, width: 150, height: 20),
        withAttributes: Self.attrs(13, lineBreak: .byTruncatingTail))
      Self.runs([
        ("Kerned ", Self.attrs(13, bold: true, color: Self.red, kern: 1.5, lineBreak: .byTruncatingTail)),
        ("and truncated at its tail", Self.attrs(13, kern: 1.5, lineBreak: .byTruncatingTail)),
      ]).draw(in: CGRect(x: 8, y: 40, width: 170, height: 20))
    }
  }

  /// The measured size of an attributed string: the runs side by side, as tall as the tallest
  /// font's line (DejaVu's ascent + descent at 20 points).
  @Test func measuringRuns() throws {
    let s = Self.runs([("ab", Self.attrs(10)), ("cd", Self.attrs(20, bold: true))])
    let a = ("ab" as NSString).size(withAttributes: Self.attrs(10))
    let b = ("cd" as NSString).size(withAttributes: Self.attrs(20, bold: true))
    let size = s.size()
    #expect(abs(size.width - (a.width + b.width)) < 0.01)
    #expect(abs(size.height - UIFont.boldSystemFont(ofSize: 20).lineHeight) < 0.01)
    #expect(abs(b.height - 20 * (1901.0 + 483) / 2048) < 0.01)
    // Wrapped to a narrow width: two lines, one per run's word.
    let r = s.boundingRect(
      with: CGSize(width: 1, height: 100), options: .usesLineFragmentOrigin, context: nil)
    #expect(r.width > 0 && r.height > size.height)
  }
}

/// Line break modes of attributed (and kerned) text: where the ellipsis goes, character
/// wrapping, clipping.
@Suite struct AttributedLayoutModeTests {
  static func layout(_ mode: NSLineBreakMode, width: Double, height: Double? = nil) -> AttributedTextLayout {
    let p = NSMutableParagraphStyle()
    p.lineBreakMode = mode
    let a = StringDrawingStyle([.font: UIFont.systemFont(ofSize: 13), .kern: 1.0, .paragraphStyle: p])
    let b = StringDrawingStyle([.font: UIFont.boldSystemFont(ofSize: 13), .kern: 1.0, .paragraphStyle: p])
    return AttributedTextLayout(
      runs: [("Begin of a long ", 0), ("attributed", 1), (" line that ends here", 0)], styles: [a, b],
      width: width, height: height)
  }

  static func text(_ line: AttributedTextLayout.Line) -> String { line.pieces.map(\.text).joined() }

  @Test func truncationPlacesTheEllipsis() {
    let tail = Self.layout(.byTruncatingTail, width: 150)
    let head = Self.layout(.byTruncatingHead, width: 150)
    let middle = Self.layout(.byTruncatingMiddle, width: 150)
    for l in [tail, head, middle] {
      #expect(l.lines.count == 1)
      #expect(l.lines[0].width <= 150 + 1e-6 && l.lines[0].width > 100, "\(Self.text(l.lines[0]))")
    }
    #expect(Self.text(tail.lines[0]).hasPrefix("Begin") && Self.text(tail.lines[0]).hasSuffix("\u{2026}"))
    #expect(Self.text(head.lines[0]).hasPrefix("\u{2026}") && Self.text(head.lines[0]).hasSuffix("here"))
    let m = Self.text(middle.lines[0])
    #expect(m.hasPrefix("Begin") && m.hasSuffix("here") && m.contains("\u{2026}"), "\(m)")
    // Wide enough: no ellipsis.
    #expect(!Self.text(Self.layout(.byTruncatingTail, width: 1000).lines[0]).contains("\u{2026}"))
    // Wrapped to a height of two lines: the second shows the rest, truncated.
    let lineHeight = Double(UIFont.systemFont(ofSize: 13).lineHeight)
    let two = Self.layout(.byTruncatingTail, width: 150, height: 2 * lineHeight + 1)
    #expect(two.lines.count == 2 && Self.text(two.lines[1]).hasSuffix("\u{2026}"))
  }

  /// A plain string truncated at its head or middle, or wrapped by characters, goes the same way.
  @Test func plainStringsTakeEveryMode() {
    for (mode, check) in [
      (NSLineBreakMode.byTruncatingHead, { (t: String) in t.hasPrefix("\u{2026}") }),
      (.byTruncatingMiddle, { (t: String) in t.contains("\u{2026}") && !t.hasPrefix("\u{2026}") }),
    ] {
      let p = NSMutableParagraphStyle()
      p.lineBreakMode = mode
      let d = StringDrawing(
        "Begin of a long line that ends here", [.font: UIFont.systemFont(ofSize: 13), .paragraphStyle: p])
      #expect(!d.isPlain)
      let l = d.attributed(width: 150, height: 20)
      #expect(l.lines.count == 1 && check(Self.text(l.lines[0])), "\(mode): \(Self.text(l.lines[0]))")
    }
  }

  @Test func wrappingModes() {
    let words = Self.layout(.byWordWrapping, width: 150)
    let chars = Self.layout(.byCharWrapping, width: 150)
    let clip = Self.layout(.byClipping, width: 150)
    #expect(words.lines.count >= 2 && chars.lines.count >= 2 && clip.lines.count == 1)
    // Words break after spaces; characters fill each line as far as they go.
    #expect(Self.text(words.lines[0]).hasSuffix(" "))
    #expect(chars.lines[0].width > words.lines[0].width)
    for l in chars.lines.dropLast() { #expect(l.width <= 150 + 1e-6) }
    #expect(words.lines.allSatisfy { $0.width <= 150 + 1e-6 })
  }
}
