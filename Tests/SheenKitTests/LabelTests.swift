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
