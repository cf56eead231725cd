import Foundation
import SheenLayers
import SheenText
import Testing

@testable import SheenKit

/// Labels and fonts in any script (fonts through the system's fontconfig: `./run.sh test`
/// installs the Noto and DejaVu fonts these use).
@Suite struct LabelTests {
  @Test func fontsByNameAndWeight() throws {
    let noto = try #require(UIFont(name: "Noto Sans", size: 12))
    #expect(noto.familyName == "Noto Sans" && noto.pointSize == 12 && noto.fontWeight == .regular)
    let bold = try #require(UIFont(name: "DejaVuSans-Bold", size: 14))
    #expect(bold.familyName == "DejaVu Sans" && bold.isBold && bold.fontName == "DejaVuSans-Bold")
    let arabic = try #require(UIFont(name: "NotoSansArabic", size: 14))
    #expect(arabic.familyName == "Noto Sans Arabic")
    #expect(UIFont(name: "No Such Font At All", size: 12) == nil)
    #expect(UIFont(name: "", size: 12) == nil)
    let weights: [(UIFont.Weight, FontWeight)] = [
      (.ultraLight, .ultraLight), (.thin, .thin), (.light, .light), (.regular, .regular), (.medium, .medium),
      (.semibold, .semibold), (.bold, .bold), (.heavy, .heavy), (.black, .black),
      (UIFont.Weight(0.1), .regular),
    ]
    for (w, expected) in weights {
      let f = UIFont.systemFont(ofSize: 17, weight: w)
      #expect(f.fontWeight == expected, "\(w.rawValue)")
      #expect(f.family.primary != nil)
    }
  }

  func label(_ text: String, width: CGFloat = 300, height: CGFloat = 100) -> UILabel {
    let l = UILabel(frame: CGRect(x: 0, y: 0, width: width, height: height))
    l.text = text
    l.layoutIfNeeded()
    return l
  }

  @Test func naturalAlignmentFollowsTheParagraph() throws {
    let arabic = label("مرحبا بالعالم")
    #expect(arabic.textAlignment == .natural && arabic.textLayer.alignmentMode == .natural)
    let a = try #require(arabic.textLayer.layout?.lines.first)
    #expect(a.isRightToLeft && abs(a.origin.x + a.width - 300) < 1e-9)
    let latin = try #require(label("Hello").textLayer.layout?.lines.first)
    #expect(latin.origin.x == 0)
    let forced = label("مرحبا")
    forced.textAlignment = .left
    #expect(try #require(forced.textLayer.layout?.lines.first).origin.x == 0)
  }

  @Test func numberOfLinesCountsTallerLinesOfOtherScripts() throws {
    let text = "すべてのフレームはCPUだけで描かれます。日本語の文章は空白がなくても正しく折り返されます。"
    let l = UILabel(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    l.text = text
    l.font = UIFont.systemFont(ofSize: 13)
    l.numberOfLines = 2
    l.layoutIfNeeded()
    let layout = try #require(l.textLayer.layout)
    #expect(layout.lines.count == 2)
    #expect(layout.lines[1].isTruncated)
    // Two lines of the CJK fallback font, taller than two lines of DejaVu Sans.
    let dejavu = UIFont.systemFont(ofSize: 13)
    #expect(Double(l.textLayer.frame.height) > Double(2 * dejavu.lineHeight))
    let size = l.sizeThatFits(CGSize(width: 200, height: 1000))
    #expect(abs(Double(size.height) - layout.size.height.rounded(.up)) <= 1)
    l.numberOfLines = 0
    l.layoutIfNeeded()
    #expect(try #require(l.textLayer.layout).lines.count > 2)
  }

  @Test func lineBreakModes() throws {
    let text = "A sentence that is far too long to fit in one line of this label"
    let l = label(text, width: 120, height: 30)
    #expect(l.lineBreakMode == .byTruncatingTail)
    #expect(try #require(l.textLayer.layout).isTruncated)
    l.lineBreakMode = .byClipping
    l.layoutIfNeeded()
    let clipped = try #require(l.textLayer.layout)
    #expect(!clipped.isTruncated && clipped.lines.count == 1 && clipped.lines[0].width > 120)
    l.numberOfLines = 0
    l.lineBreakMode = .byWordWrapping
    l.frame = CGRect(x: 0, y: 0, width: 120, height: 200)
    l.layoutIfNeeded()
    let wrapped = try #require(l.textLayer.layout)
    #expect(wrapped.lines.count > 2 && !wrapped.isTruncated)
  }

  /// Every line break mode, on one line and on several, in both directions. "…" sits at the
  /// start, middle or end in reading order (the right end is the start of a Hebrew line).
  @Test func everyLineBreakMode() throws {
    let ellipsis = try #require(UIFont.systemFont(ofSize: 17).family.primary).glyphIndex(for: "…")
    let latin = "The quick brown fox jumps over the lazy dog, again and again, day after day, all year long"
    let hebrew = "דג סקרן שט בים מאוכזב ולפתע מצא חברה נאמנה ושניהם שטו יחד אל מעבר לאופק הרחוק"
    for (text, rtl) in [(latin, false), (hebrew, true)] {
      let count = text.unicodeScalars.count
      // One line, 150 points wide.
      func oneLine(_ mode: NSLineBreakMode) throws -> TextLayout.Line {
        let l = label(text, width: 150, height: 40)
        l.lineBreakMode = mode
        l.layoutIfNeeded()
        let layout = try #require(l.textLayer.layout)
        // Only the first line shows (the text layer is one line high).
        #expect(Double(l.textLayer.frame.height) < 2 * Double(UIFont.systemFont(ofSize: 17).lineHeight))
        return layout.lines[0]
      }
      // Visual order to reading order.
      func reading(_ line: TextLayout.Line) -> [GlyphID] {
        rtl ? line.glyphs.map(\.id).reversed() : line.glyphs.map(\.id)
      }
      let head = try oneLine(.byTruncatingHead)
      #expect(head.isTruncated && reading(head).first == ellipsis && head.scalarRange.upperBound == count)
      let middle = try oneLine(.byTruncatingMiddle)
      let m = reading(middle)
      #expect(middle.isTruncated && m.first != ellipsis && m.last != ellipsis && m.contains(ellipsis))
      let tail = try oneLine(.byTruncatingTail)
      #expect(tail.isTruncated && reading(tail).last == ellipsis && tail.scalarRange.lowerBound == 0)
      for line in [head, middle, tail] {
        #expect(line.width <= 150 && line.isRightToLeft == rtl)
        // Right to left lines sit at the right (natural alignment).
        #expect(abs((rtl ? line.origin.x + line.width : line.origin.x + 150) - 150) < 1e-6 || !rtl)
      }
      let clip = try oneLine(.byClipping)
      #expect(!clip.isTruncated && clip.width > 150 && clip.scalarRange.count == count)
      // Word and character wrapping on one line show what fits of the first wrapped line.
      let word = try oneLine(.byWordWrapping)
      #expect(!word.isTruncated && word.width <= 150)
      let char = try oneLine(.byCharWrapping)
      #expect(!char.isTruncated && char.width <= 150)
      #expect(char.scalarRange.count >= word.scalarRange.count)

      // Three lines of a label too small for the text: the third is truncated by the mode.
      func threeLines(_ mode: NSLineBreakMode) throws -> TextLayout {
        let l = label(text, width: 150, height: 300)
        l.numberOfLines = 3
        l.lineBreakMode = mode
        l.layoutIfNeeded()
        return try #require(l.textLayer.layout)
      }
      let h3 = try threeLines(.byTruncatingHead)
      #expect(h3.lines.count == 3 && !h3.lines[1].isTruncated && h3.lines[2].isTruncated)
      #expect(reading(h3.lines[2]).first == ellipsis && h3.lines[2].scalarRange.upperBound == count)
      let m3 = try threeLines(.byTruncatingMiddle)
      #expect(m3.lines.count == 3 && m3.lines[2].isTruncated && reading(m3.lines[2]).contains(ellipsis))
      let t3 = try threeLines(.byTruncatingTail)
      #expect(t3.lines.count == 3 && reading(t3.lines[2]).last == ellipsis)
      for mode in [NSLineBreakMode.byWordWrapping, .byCharWrapping, .byClipping] {
        let layout = try threeLines(mode)
        // Wrapped, nothing truncated: the layer's height keeps three lines.
        #expect(layout.lines.count > 3 && !layout.isTruncated, "\(mode)")
      }
      let words3 = try threeLines(.byWordWrapping)
      let chars3 = try threeLines(.byCharWrapping)
      #expect(chars3.lines[0].scalarRange.count >= words3.lines[0].scalarRange.count)
    }
  }

  @Test func textLayerFontsByFamily() {
    let layer = CATextLayer()
    let text = layer.sheenLayer as! TextLayer
    layer.font = UIFont(name: "Noto Sans", size: 10)
    #expect(text.fontFamily == "Noto Sans")
    layer.font = "DejaVuSans-Bold"
    #expect(text.fontFamily == "DejaVu Sans" && text.fontWeight == .bold)
    layer.font = "No Such Font At All"
    #expect(text.fontFamily == "DejaVu Sans")
  }
}
