import Foundation
import SheenRaster
import Testing

@testable import SheenUI

/// Pictures of shapes, colours, effects and symbols, checked against what the rules say they
/// must be (positions worked out by hand, colours from Apple's published values).
@Suite struct DrawingTests {
  func render<V: View>(_ view: V, _ w: CGFloat, _ h: CGFloat, page: UIColor = .white) throws -> Surface {
    let host = HostingView(rootView: view, frame: CGRect(x: 0, y: 0, width: w, height: h))
    host.backgroundColor = page
    return try host.renderImage(scale: 1)
  }

  func rgb(_ p: UInt32) -> [UInt32] { [Pixel.red(p), Pixel.green(p), Pixel.blue(p)].map { UInt32($0) } }

  @Test func systemColorsHaveApplesLightModeValues() throws {
    let expected: [(SheenUI.Color, [UInt32])] = [
      (.red, [255, 59, 48]), (.orange, [255, 149, 0]), (.yellow, [255, 204, 0]), (.green, [52, 199, 89]),
      (.mint, [0, 199, 190]), (.teal, [48, 176, 199]), (.cyan, [50, 173, 230]), (.blue, [0, 122, 255]),
      (.indigo, [88, 86, 214]), (.purple, [175, 82, 222]), (.pink, [255, 45, 85]), (.brown, [162, 132, 94]),
      (.gray, [142, 142, 147]), (.primary, [0, 0, 0]), (.white, [255, 255, 255]),
    ]
    for (c, v) in expected {
      let s = try render(c, 4, 4)
      #expect(rgb(s[2, 2]) == v, "\(c)")
    }
    // .opacity mixes with what is behind: black at 25% over white.
    let s = try render(SheenUI.Color.black.opacity(0.25), 4, 4)
    #expect(abs(Int(Pixel.red(s[2, 2])) - 191) <= 1)
  }

  @Test func pathOfARoundedCornerBezierPath() {
    let rect = CGRect(x: 0, y: 0, width: 90, height: 60)
    let bezier = UIBezierPath(
      roundedRect: rect, byRoundingCorners: [.topLeft, .bottomRight],
      cornerRadii: CGSize(width: 20, height: 20))
    let p = SheenUI.Path(bezier.cgPath)
    #expect(p.boundingRect == rect)
    #expect(p.cgPath == bezier.cgPath)
    #expect(!p.isEmpty)
  }

  @Test func strokeIsCentredOnTheOutline() throws {
    // A 4-point stroke of a 20 × 20 square centred in 40 × 40: ink from 8 to 12 on the left edge.
    let s = try render(
      Rectangle().stroke(SheenUI.Color.black, lineWidth: 4).frame(width: 20, height: 20), 40, 40)
    #expect(Pixel.red(s[7, 20]) == 255)
    #expect(Pixel.red(s[8, 20]) == 0 && Pixel.red(s[11, 20]) == 0)
    #expect(Pixel.red(s[12, 20]) == 255)
  }

  @Test func clipShapeAndCornerRadiusCutTheCorners() throws {
    let circle = try render(SheenUI.Color.red.frame(width: 40, height: 40).clipShape(Circle()), 40, 40)
    #expect(rgb(circle[1, 1]) == [255, 255, 255])
    #expect(rgb(circle[20, 20]) == [255, 59, 48])
    let rounded = try render(SheenUI.Color.red.frame(width: 40, height: 40).cornerRadius(10), 40, 40)
    #expect(rgb(rounded[1, 1]) == [255, 255, 255])
    #expect(rgb(rounded[10, 1]) == [255, 59, 48])
  }

  /// A circle clip in a square frame is the layer's rounded bounds (no mask drawn offscreen); in
  /// a wider frame, a mask of the centred circle. Both cover each pixel as the circle does
  /// (its area in the pixel, by 16 × 16 samples) within 6/255.
  @Test func circleClipsAreCirclesWithOrWithoutAMask() throws {
    for (w, h) in [(CGFloat(40), CGFloat(40)), (60, 40)] {
      let host = HostingView(
        // (A gradient of one colour: a plain colour filling the clip would be drawn as the
        // clip's own background, as UIKit draws a view's; see aFillFillingAClipIsTheClipsBackground.)
        rootView: LinearGradient(colors: [.red, .red], startPoint: .top, endPoint: .bottom)
          .frame(width: w, height: h).clipShape(Circle()),
        frame: CGRect(x: 0, y: 0, width: w, height: h))
      host.backgroundColor = .white
      let s = try host.renderImage(scale: 1)
      var clips: [UIView] = []
      func walk(_ v: UIView) {
        if v.clipsToBounds { clips.append(v) }
        v.subviews.forEach(walk)
      }
      walk(host)
      let clip = try #require(clips.first)
      if w == h {
        #expect(clip.layer.mask == nil && clip.layer.cornerRadius == 20)
      } else {
        #expect(clip.layer.mask != nil)
      }
      var worst = 0
      for y in 0..<Int(h) {
        for x in 0..<Int(w) {
          var inside = 0
          for j in 0..<16 {
            for i in 0..<16 {
              let dx = Double(x) + (Double(i) + 0.5) / 16 - Double(w) / 2
              let dy = Double(y) + (Double(j) + 0.5) / 16 - Double(h) / 2
              if dx * dx + dy * dy < 400 { inside += 1 }
            }
          }
          // Red (59 green) over white (255 green) by the covered fraction.
          let green = 255 - Double(inside) / 256 * (255 - 59)
          worst = max(worst, abs(Int(Pixel.green(s[x, y])) - Int(green.rounded())))
        }
      }
      #expect(worst <= 6, "\(w)x\(h): worst \(worst)/255")
    }
  }

  /// A solid colour filling a clip (a card's `ZStack { Color.white ... }.cornerRadius(16)`) is
  /// drawn as the clipping view's background, as UIKit's card is one view with a background
  /// colour, a corner radius and `clipsToBounds`: the picture is the UIKit view's, pixel for
  /// pixel (drawn as a colour's view inside the clip, the corners' edge pixels differ from it by
  /// up to 52/255: the compositor clips a masking layer's own rounded background by the same
  /// rounded bounds, so UIKit's edge is the coverage squared). A colour that does not fill the
  /// clip stays a view of its own, and the picture is UIKit's with a subview.
  @Test func aFillFillingAClipIsTheClipsBackground() throws {
    func card(_ fill: SheenUI.Color, width: CGFloat) -> some View {
      ZStack(alignment: .topLeading) {
        fill.frame(width: width, height: 30)
        SheenUI.Color.blue.frame(width: 6, height: 6).offset(x: 17, y: 12)
      }
      .frame(width: 40, height: 30, alignment: .topLeading)
      .cornerRadius(10)
    }
    /// The same picture made with UIKit's views: a card with `fill` as its background (or as a
    /// subview `width` wide) and the blue square.
    func uikit(_ fill: SheenUI.Color, width: CGFloat) throws -> Surface {
      let page = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
      page.backgroundColor = .white
      let card = UIView(frame: page.bounds)
      card.layer.cornerRadius = 10
      card.clipsToBounds = true
      if width == 40 {
        card.backgroundColor = fill.uiColor
      } else {
        let v = UIView(frame: CGRect(x: 0, y: 0, width: width, height: 30))
        v.backgroundColor = fill.uiColor
        card.addSubview(v)
      }
      let square = UIView(frame: CGRect(x: 17, y: 12, width: 6, height: 6))
      square.backgroundColor = SheenUI.Color.blue.uiColor
      card.addSubview(square)
      page.addSubview(card)
      return try page.renderImage(scale: 1)
    }
    func worst(_ a: Surface, _ b: Surface) -> Int {
      var worst = 0
      for y in 0..<30 {
        for x in 0..<40 {
          let p = rgb(a[x, y])
          let q = rgb(b[x, y])
          for k in 0..<3 { worst = max(worst, abs(Int(p[k]) - Int(q[k]))) }
        }
      }
      return worst
    }
    let host = HostingView(rootView: card(.red, width: 40), frame: CGRect(x: 0, y: 0, width: 40, height: 30))
    host.backgroundColor = .white
    func clipView() throws -> UIView {
      var clips: [UIView] = []
      func walk(_ v: UIView) {
        if v.clipsToBounds { clips.append(v) }
        v.subviews.forEach(walk)
      }
      walk(host)
      return try #require(clips.first)
    }
    var s = try host.renderImage(scale: 1)
    var clip = try clipView()
    #expect(clip.backgroundColor == SheenUI.Color.red.uiColor)
    #expect(clip.subviews.filter { !$0.isHidden }.count == 1, "the red fill's view is hidden")
    #expect(worst(s, try uikit(.red, width: 40)) <= 1)
    // Another colour: the background follows.
    host.rootView = card(.green, width: 40)
    s = try host.renderImage(scale: 1)
    clip = try clipView()
    #expect(clip.backgroundColor == SheenUI.Color.green.uiColor)
    #expect(worst(s, try uikit(.green, width: 40)) <= 1)
    // A fill over half of the clip is a view again, and the clip has no background.
    host.rootView = card(.green, width: 20)
    s = try host.renderImage(scale: 1)
    clip = try clipView()
    #expect(clip.backgroundColor == nil)
    #expect(clip.subviews.allSatisfy { !$0.isHidden })
    #expect(worst(s, try uikit(.green, width: 20)) <= 1)
  }

  @Test func opacityAppliesToTheGroup() throws {
    // Two overlapping blacks at 50% as one group: 50% where they overlap too.
    let s = try render(
      ZStack {
        SheenUI.Color.black.frame(width: 20, height: 20).offset(x: -5)
        SheenUI.Color.black.frame(width: 20, height: 20).offset(x: 5)
      }.opacity(0.5), 40, 40)
    #expect(abs(Int(Pixel.red(s[20, 20])) - 128) <= 1)
    #expect(abs(Int(Pixel.red(s[8, 20])) - 128) <= 1)
  }

  @Test func scaleEffectScalesDrawingAboutTheCentre() throws {
    let s = try render(SheenUI.Color.black.frame(width: 20, height: 20).scaleEffect(0.5), 40, 40)
    // 10 × 10 about the centre: 15...25.
    #expect(Pixel.red(s[14, 20]) == 255 && Pixel.red(s[15, 20]) == 0 && Pixel.red(s[24, 20]) == 0)
    #expect(Pixel.red(s[25, 20]) == 255)
  }

  @Test func shadowFallsWhereItIsMoved() throws {
    let s = try render(
      SheenUI.Color.white.frame(width: 20, height: 20).shadow(color: .black, radius: 2, x: 0, y: 8), 60, 60,
      page: .white)
    // Below the square the page darkens; above it it does not.
    #expect(Pixel.red(s[30, 44]) < 200)
    #expect(Pixel.red(s[30, 18]) == 255)
  }

  @Test(arguments: [
    "star.fill", "star", "heart.fill", "checkmark", "xmark", "plus", "chevron.right", "person.crop.circle",
  ])
  func symbolDrawsInItsFrameInTheForegroundColor(_ name: String) throws {
    let view = Image(systemName: name).foregroundColor(.red).font(.system(size: 40))
    let host = HostingView(rootView: view)
    let size = host.sizeThatFits(.unspecified)
    // Sized by the font, within the range SF Symbols have (about 0.5 to 1.2 em).
    #expect(size.width >= 16 && size.width <= 48 && size.height >= 16 && size.height <= 48)
    let s = try render(view.padding(4), (size.width + 8).rounded(.up), (size.height + 8).rounded(.up))
    var ink = 0
    var outside = 0
    for y in 0..<s.height {
      for x in 0..<s.width where Pixel.green(s[x, y]) < 128 {
        ink += 1
        let inFrame = x >= 4 && y >= 4 && Double(x) < 4 + size.width && Double(y) < 4 + size.height
        if !inFrame { outside += 1 }
      }
    }
    #expect(ink > 40, "\(name) draws")
    #expect(outside == 0, "\(name) stays in its frame")
    // Twice the font, twice the symbol.
    let big = HostingView(rootView: Image(systemName: name).font(.system(size: 80))).sizeThatFits(
      .unspecified)
    #expect(abs(big.width - 2 * size.width) < 0.01)
  }

  @Test func unknownSymbolTakesNoSpace() {
    #expect(HostingView(rootView: Image(systemName: "no.such.symbol")).sizeThatFits(.unspecified) == .zero)
  }

  @Test func symbolsFollowTheTextStyle() {
    func size(_ f: Font) -> CGSize {
      HostingView(rootView: Image(systemName: "star.fill").font(f)).sizeThatFits(.unspecified)
    }
    #expect(abs(size(.largeTitle).height / size(.body).height - 34.0 / 17.0) < 0.001)
  }
}
