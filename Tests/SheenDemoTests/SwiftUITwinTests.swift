import Foundation
import SheenKit
import SheenLayers
import SheenPlatform
import SheenRaster
import SheenUI
import Testing

@testable import SheenDemo

/// The demo's SwiftUI twin (`sheen demo --ui swiftui`): it looks like the UIKit list, its
/// buttons press and count like the UIKit ones, and a tap asks for one card's body again.
@Suite struct SwiftUITwinTests {
  func makeTwin(width: Int = 420, height: Int = 560) -> SwiftUIDemoWindow {
    let w = DemoApp.makeWindow(size: PixelSize(width: width, height: height), scale: 1, ui: .swiftui)
    w.overlay.isHidden = true
    w.advance(to: 0)
    return w as! SwiftUIDemoWindow
  }

  func render(_ w: UIWindow, at time: Double) throws -> Surface {
    let s = try Surface(width: Int(w.bounds.width), height: Int(w.bounds.height))
    w.renderFrame(into: s, time: time)
    return s
  }

  /// Pixels whose channels differ by more than `tolerance`, below `top` (points).
  func differing(_ a: Surface, _ b: Surface, below top: Int, tolerance: Int = 24) -> (Int, Int) {
    var n = 0
    var all = 0
    for y in top..<a.height {
      for x in 0..<a.width {
        all += 1
        let p = a[x, y]
        let q = b[x, y]
        let d = [16, 8, 0].map { abs(Int((p >> $0) & 0xff) - Int((q >> $0) & 0xff)) }.max()!
        if d > tolerance { n += 1 }
      }
    }
    return (n, all)
  }

  @Test(arguments: [(420, 560), (1280, 800)])
  func looksLikeTheUIKitList(_ size: (Int, Int)) throws {
    let uikit = makeDemo(width: size.0, height: size.1)
    let twin = makeTwin(width: size.0, height: size.1)
    // At 1280 wide, 2500 points down shows the section of cards in many languages and scripts.
    for offset in [0.0, 900.0, 2500.0] {
      uikit.list.contentOffset = CGPoint(x: 0, y: offset)
      twin.scrollingList.contentOffset = CGPoint(x: 0, y: offset)
      uikit.advance(to: 1)
      twin.advance(to: 1)
      #expect(twin.scrollingList.contentSize == uikit.list.contentSize)
      let a = try render(uikit, at: 1)
      let b = try render(twin, at: 1)
      // The header's text says which list it is; below the header, the same picture (photos,
      // avatars, text in every script) but for shadows and antialiased edges a few levels apart:
      // no pixel differed by more than 16/255 when this was written, and under 0.1% by more than
      // 8/255 (before the avatars and the other scripts' cards matched: 1.3% by over 24).
      let top = offset == 0 ? 20 + 150 : 0
      let (n, all) = differing(a, b, below: top)
      let (fine, _) = differing(a, b, below: top, tolerance: 8)
      // SHEEN_PICTURES=DIR writes both pictures there, to look at.
      if let dir = ProcessInfo.processInfo.environment["SHEEN_PICTURES"] {
        try a.writePNG(to: "\(dir)/twin-\(size.0)-\(Int(offset))-uikit.png")
        try b.writePNG(to: "\(dir)/twin-\(size.0)-\(Int(offset))-swiftui.png")
      }
      #expect(
        Double(n) / Double(all) < 0.0005, "\(size) at \(offset): \(n) of \(all) pixels differ by over 24")
      #expect(
        Double(fine) / Double(all) < 0.0025, "\(size) at \(offset): \(fine) of \(all) pixels differ by over 8"
      )
    }
  }

  @Test func aTapCountsOnTheCardAndRemakesOnlyThatCard() throws {
    let w = makeTwin()
    let cardsBefore = w.host.bodyEvaluations(of: SwiftUICardView.self)
    let rowsBefore = w.host.bodyEvaluations(of: SwiftUICardRow.self)
    let badgesBefore = w.host.bodyEvaluations(of: SwiftUIBadge.self)
    // The parts of a card that do not show the count: asked once per card made, not again.
    func parts() -> [Int] {
      [
        w.host.bodyEvaluations(of: SwiftUICardHeader.self), w.host.bodyEvaluations(of: SwiftUICardTitle.self),
        w.host.bodyEvaluations(of: SwiftUICardSubtitle.self), w.host.bodyEvaluations(of: SwiftUITagView.self),
      ]
    }
    let partsBefore = parts()
    #expect(partsBefore[0] == cardsBefore && partsBefore[1] == cardsBefore && partsBefore[2] == cardsBefore)
    // The list's lazy rows are its rows of cards (one card wide at 380 points): only those in
    // view and the margin below (560 + 200 points) are made.
    #expect(w.rowsShown == rowsBefore + 1, "the rows of cards and the first section's title")
    #expect((3...4).contains(rowsBefore), "only the rows in view are made")
    #expect(cardsBefore == rowsBefore, "only the cards of the rows in view are made")
    let c = try #require(w.buttonCenter(ofCard: 0))
    var t = 0.0
    func frame() {
      t += 1.0 / 60
      w.advance(to: t)
    }
    w.dispatch(.pointerDown(Point(x: Double(c.x), y: Double(c.y)), button: .left, modifiers: []), time: t)
    for _ in 0..<6 { frame() }
    w.dispatch(.pointerUp(Point(x: Double(c.x), y: Double(c.y)), button: .left, modifiers: []), time: t)
    for _ in 0..<40 { frame() }
    // One card's body again, no other's; no row's, not the list's.
    #expect(w.host.bodyEvaluations(of: SwiftUICardView.self) == cardsBefore + 1)
    #expect(w.host.bodyEvaluations(of: SwiftUICardRow.self) == rowsBefore)
    #expect(w.host.bodyEvaluations(of: SwiftUIDemoList.self) == 1)
    // In the card, the badge's body again; the header's, the title's, the subtitle's and the
    // tags' not (their values did not change).
    #expect(w.host.bodyEvaluations(of: SwiftUIBadge.self) == badgesBefore + 1)
    #expect(parts() == partsBefore, "\(parts()) against \(partsBefore)")
    // The badge shows the count, fully in.
    let badge = try #require(labels(in: w.host).first { $0.text == "1" })
    var v: UIView? = badge
    var alpha = 1.0
    while let x = v, x !== w.host {
      alpha *= x.layer.sheenLayer.opacity
      v = x.superview
    }
    #expect(abs(alpha - 1) < 0.001)
  }

  func labels(in v: UIView) -> [UILabel] {
    var out: [UILabel] = []
    func walk(_ v: UIView) {
      if let l = v as? UILabel { out.append(l) }
      for s in v.subviews { walk(s) }
    }
    walk(v)
    return out
  }

  /// The product of the shown scales from `view` up to `top`.
  func shownScale(_ view: UIView, below top: UIView) -> Double {
    var v: UIView? = view
    var s = 1.0
    while let x = v, x !== top {
      s *= x.layer.sheenLayer.transform.scaleX
      v = x.superview
    }
    return s
  }

  @Test func buttonsPressAsTheUIKitOnesDo() throws {
    // The same press on card 0's button in both lists: the shown scale follows the same curve
    // (0.12 s ease-out to 0.95, then a spring back with damping 0.5 over 0.4 s).
    let uikit = makeDemo()
    let twin = makeTwin()
    let card = try #require(uikit.cards.cardView(at: 0))
    let title = card.button.currentTitle ?? ""
    let twinTitle = try #require(labels(in: twin.host).first { $0.text == title })
    let a = try #require(uikit.buttonCenter(ofCard: 0))
    let b = try #require(twin.buttonCenter(ofCard: 0))
    var t = 0.0
    func at(_ p: CGPoint) -> Point { Point(x: Double(p.x), y: Double(p.y)) }
    uikit.dispatch(.pointerDown(at(a), button: .left, modifiers: []), time: t)
    twin.dispatch(.pointerDown(at(b), button: .left, modifiers: []), time: t)
    var worst = 0.0
    for f in 0..<50 {
      if f == 15 {
        uikit.dispatch(.pointerUp(at(a), button: .left, modifiers: []), time: t)
        twin.dispatch(.pointerUp(at(b), button: .left, modifiers: []), time: t)
      }
      t += 1.0 / 60
      uikit.advance(to: t)
      twin.advance(to: t)
      let u = shownScale(card.button, below: uikit)
      let s = shownScale(twinTitle, below: twin.host)
      worst = max(worst, abs(u - s))
      if f == 10 { #expect(abs(s - 0.95) < 0.002) }
    }
    #expect(worst < 0.002, "largest difference of the shown scales: \(worst)")
  }

  /// A press and its release in the twin blur nothing and draw no more layers than a calm
  /// frame: the button's shadow and its row's (cards clipped over a white fill) are rounded
  /// rectangles worked out per pixel, whatever the button's scale and shadow do, as in the
  /// UIKit list.
  @Test func aPressBlursNothing() throws {
    let twin = makeTwin(width: 800, height: 600)
    let script = try DemoScript("wait 2, press-button 0, wait 30, release, wait 30")
    let cards = twin.host.bodyEvaluations(of: SwiftUICardView.self)
    var counts: [[RenderContext.Statistics]] = [[]]
    for (k, w) in [twin as any DemoWindowing].enumerated() {
      w.renderer = FrameRenderer(threads: 1)
      let state = DemoScript.State()
      let s = try Surface(width: 800, height: 600)
      for f in 0..<66 {
        let time = Double(f) / 60
        script.apply(to: w, frame: f, time: time, state: state)
        w.renderer.context.resetStatistics()
        w.renderFrame(into: s, time: time)
        counts[k].append(w.renderer.context.statistics)
      }
    }
    // The first frame blurs nothing either: every shadow in view is a rounded rectangle.
    #expect(counts[0][0].blurs == 0)
    // While pressed, the layers a calm frame draws; after the release, those and the badge's
    // (a shadow taken from drawn pixels drew its layers a second time, offscreen: 721 against 576
    // at 1080p before).
    let calm = counts[0][1].layersDrawn
    let after = counts[0][65].layersDrawn
    for f in 2..<66 {
      #expect(counts[0][f].blurs == 0, "frame \(f)")
      let most = f < 33 ? calm : after
      #expect(
        counts[0][f].layersDrawn <= most, "frame \(f): \(counts[0][f].layersDrawn) layers, \(most) calm")
    }
    #expect(after < calm + 10)
    // The tap counted, and asked one card for its body again.
    #expect(labels(in: twin.host).contains { $0.text == "1" })
    #expect(twin.host.bodyEvaluations(of: SwiftUICardView.self) == cards + 1)
  }

  @Test func scriptsDriveTheTwin() throws {
    let w = makeTwin()
    let script = try DemoScript("tap-button 0, wait 30")
    let state = DemoScript.State()
    for f in 0..<45 {
      let time = Double(f) / 60
      script.apply(to: w, frame: f, time: time, state: state)
      w.advance(to: time)
    }
    #expect(labels(in: w.host).contains { $0.text == "1" })
    DemoScript.scroll(w, frame: 100)
    #expect(w.scrollingList.contentOffset.y > 0)
  }
}

/// What the twin keeps after a visit of the whole list, against the UIKit list: the views (each
/// with its layer) and the rows of cards. Its lazy stack gives back rows far out of view, a row of
/// cards at a time, as the collection view reuses its cells.
@Suite struct SwiftUITwinMemoryTests {
  func views(_ v: UIView) -> Int { v.subviews.reduce(1) { $0 + views($1) } }

  @Test func theTwinKeepsWhatTheUIKitListKeeps() throws {
    let size = (1280, 800)
    let uikit = makeDemo(width: size.0, height: size.1)
    let twin = DemoApp.makeWindow(size: PixelSize(width: size.0, height: size.1), scale: 1, ui: .swiftui)
    twin.overlay.isHidden = true
    var counts: [(Int, Int)] = []
    for w in [uikit as any DemoWindowing, twin] {
      let list = w.scrollingList
      let end = list.contentSize.height - list.bounds.height
      // Down the whole list and back to the middle, half a screen at a time, as `sheen bench`
      // visits it.
      var y: CGFloat = 0
      var t = 0.0
      for target in [end, end / 2] {
        while abs(y - target) > 0.5 {
          y = y < target ? min(target, y + 400) : max(target, y - 400)
          list.contentOffset = CGPoint(x: 0, y: y)
          t += 1.0 / 60
          w.advance(to: t)
        }
      }
      let cards = (0..<DemoContent.cardCount).filter { w.buttonCenter(ofCard: $0) != nil }.count
      counts.append((views(w), cards))
    }
    let (uikitViews, uikitCards) = counts[0]
    let (twinViews, twinCards) = counts[1]
    print("views kept: UIKit \(uikitViews) (\(uikitCards) cards), twin \(twinViews) (\(twinCards) cards)")
    // When this was written: UIKit 600 views (14 cards on screen), the twin 567 (20 cards made);
    // with sections as lazy rows and a screen kept each side, 815 views and 29 cards.
    #expect(Double(twinViews) <= Double(uikitViews) * 1.1, "\(twinViews) views kept, UIKit \(uikitViews)")
    #expect(Double(twinCards) <= Double(uikitCards) * 1.5, "\(twinCards) cards kept, UIKit \(uikitCards)")
  }
}
