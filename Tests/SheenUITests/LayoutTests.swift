import Foundation
import SheenUI
import Testing

/// Layout results against SwiftUI's documented rules (the parent proposes, the child chooses, the
/// parent places), with fixed-size children so that the expected frames are plain arithmetic.
@Suite struct LayoutTests {
  /// The frames of the views the graph made, in the hosting view's coordinates, in order.
  func frames<V: View>(_ view: V, in size: CGSize) -> [CGRect] {
    let host = HostingView(rootView: view, frame: CGRect(origin: .zero, size: size))
    host.layoutIfNeeded()
    var out: [CGRect] = []
    func walk(_ v: UIView, _ origin: CGPoint) {
      for s in v.subviews {
        let f = s.frame.offsetBy(dx: origin.x, dy: origin.y)
        out.append(f)
        walk(s, f.origin)
      }
    }
    walk(host, .zero)
    return out
  }

  @Test func hstackSharesWidthLeastFlexibleFirst() {
    // 300 wide: a fixed 50, and two colours (fully flexible). Spacing 8 twice: 284 to share.
    // The fixed frame goes first (flexibility 0) and takes 50; the colours split 234: 117 each.
    let f = frames(
      HStack {
        Color.red
        Color.blue.frame(width: 50)
        Color.green
      }, in: CGSize(width: 300, height: 100))
    #expect(
      f == [
        CGRect(x: 0, y: 0, width: 117, height: 100), CGRect(x: 125, y: 0, width: 50, height: 100),
        CGRect(x: 183, y: 0, width: 117, height: 100),
      ])
  }

  @Test func minWidthFrameIsServedBeforeFlexibleViews() {
    // A colour with minWidth 200 (flexibility: infinite - 200) is less flexible than a plain
    // colour (infinite - 0)... both are infinitely flexible, so they go in order: the first is
    // offered 146 of 292 and takes its minimum, 200; the second the 92 left.
    let f = frames(
      HStack {
        Color.red.frame(minWidth: 200)
        Color.blue
      }, in: CGSize(width: 300, height: 50))
    #expect(f.map(\.width) == [200, 92])
    #expect(f[1].minX == 208)
  }

  @Test func vstackAlignsAndSpaces() {
    // Leading alignment, spacing 10; the stack is as wide as its widest child and centred in
    // the 200 × 200 hosting view.
    let f = frames(
      VStack(alignment: .leading, spacing: 10) {
        Color.red.frame(width: 40, height: 20)
        Color.blue.frame(width: 80, height: 30)
      }, in: CGSize(width: 200, height: 200))
    let x = (200 - 80) / 2.0
    let y = ((200 - 60) / 2.0).rounded()
    #expect(f == [CGRect(x: x, y: y, width: 40, height: 20), CGRect(x: x, y: y + 30, width: 80, height: 30)])
  }

  @Test func defaultSpacingIsEight() {
    let f = frames(
      VStack {
        Color.red.frame(width: 10, height: 10)
        Color.blue.frame(width: 10, height: 10)
      }, in: CGSize(width: 10, height: 28))
    #expect(f[1].minY - f[0].maxY == 8)
  }

  @Test func spacerPushesToTheEdgesWithoutSpacing() {
    // A spacer takes what is left; no spacing next to it.
    let f = frames(
      HStack {
        Color.red.frame(width: 30, height: 10)
        Spacer()
        Color.blue.frame(width: 30, height: 10)
      }, in: CGSize(width: 200, height: 10))
    #expect(f.map(\.minX) == [0, 170])
  }

  @Test func spacerKeepsItsMinimumLength() {
    let host = HostingView(
      rootView: HStack {
        Color.red.frame(width: 30, height: 10)
        Spacer(minLength: 20)
        Color.blue.frame(width: 30, height: 10)
      })
    // Ideal width: 30 + 20 + 30 (the spacer's minimum, no spacing around it).
    #expect(host.sizeThatFits(.unspecified) == CGSize(width: 80, height: 10))
  }

  @Test func paddingDefaultsToSixteen() {
    let host = HostingView(rootView: Color.red.frame(width: 10, height: 20).padding())
    #expect(host.sizeThatFits(.unspecified) == CGSize(width: 42, height: 52))
    let edges = HostingView(rootView: Color.red.frame(width: 10, height: 20).padding(.horizontal, 5))
    #expect(edges.sizeThatFits(.unspecified) == CGSize(width: 20, height: 20))
  }

  @Test func maxWidthInfinityTakesTheProposal() {
    let f = frames(
      Color.red.frame(width: 40, height: 10).frame(maxWidth: .infinity, alignment: .leading),
      in: CGSize(width: 300, height: 10))
    // The flexible frame is 300 wide; the fixed one sits at its leading edge.
    #expect(f == [CGRect(x: 0, y: 0, width: 40, height: 10)])
    let host = HostingView(rootView: Color.red.frame(width: 40, height: 10).frame(maxWidth: .infinity))
    #expect(host.sizeThatFits(ProposedViewSize(width: 300, height: nil)) == CGSize(width: 300, height: 10))
    // With no proposal, the frame is the child's (ideal) size.
    #expect(host.sizeThatFits(.unspecified) == CGSize(width: 40, height: 10))
  }

  @Test func flexibleFrameClampsTheProposal() {
    // SwiftUI's rule: the proposal clamped to [min, max] is the frame's size for a child that
    // takes what it is offered; the ideal size answers no proposal (and fixedSize asks for it).
    let v = Color.red.frame(minWidth: 50, idealWidth: 80, maxWidth: 100, minHeight: 10, maxHeight: 10)
    let host = HostingView(rootView: v)
    #expect(host.sizeThatFits(ProposedViewSize(width: 300, height: 300)) == CGSize(width: 100, height: 10))
    #expect(host.sizeThatFits(ProposedViewSize(width: 20, height: 300)) == CGSize(width: 50, height: 10))
    #expect(host.sizeThatFits(ProposedViewSize(width: 70, height: 300)) == CGSize(width: 70, height: 10))
    #expect(host.sizeThatFits(.unspecified) == CGSize(width: 80, height: 10))
    #expect(
      HostingView(rootView: v.fixedSize()).sizeThatFits(ProposedViewSize(width: 300, height: 300)).width == 80
    )
    // A fixed child smaller than a min: the frame is the min, the child centred in it.
    let f = frames(
      Color.red.frame(width: 20, height: 10).frame(minWidth: 60), in: CGSize(width: 60, height: 10))
    #expect(f == [CGRect(x: 20, y: 0, width: 20, height: 10)])
  }

  @Test func maxWidthInfinityRowsMakeTheStackFullWidth() {
    // The idiom for leading-aligned full-width rows: each row takes the width offered, so the
    // stack is as wide as the proposal and every row starts at its leading edge.
    let f = frames(
      VStack(spacing: 0) {
        Color.red.frame(width: 40, height: 10).frame(maxWidth: .infinity, alignment: .leading)
        Color.blue.frame(width: 80, height: 10).frame(maxWidth: .infinity, alignment: .trailing)
      }, in: CGSize(width: 300, height: 20))
    #expect(f == [CGRect(x: 0, y: 0, width: 40, height: 10), CGRect(x: 220, y: 10, width: 80, height: 10)])
  }

  @Test func flexibilityOrdersTheOffers() {
    // 300 wide, spacing 0: a frame flexible between 10 and 40 (flexibility 30) is offered first
    // 100 and takes 40; then the 0...200 one (flexibility 200): 130 of 260, takes 130; then the
    // colour (infinite): all 130 left. Source order does not matter.
    let f = frames(
      HStack(spacing: 0) {
        Color.red
        Color.green.frame(maxWidth: 200)
        Color.blue.frame(minWidth: 10, maxWidth: 40)
      }, in: CGSize(width: 300, height: 10))
    #expect(f.map(\.width) == [130, 130, 40])
    #expect(f.map(\.minX) == [0, 130, 260])
  }

  @Test func fixedFrameAlignsItsChild() {
    let f = frames(
      Color.red.frame(width: 20, height: 10).frame(width: 100, height: 50, alignment: .bottomTrailing),
      in: CGSize(width: 100, height: 50))
    #expect(f == [CGRect(x: 80, y: 40, width: 20, height: 10)])
  }

  @Test func colorsAndShapesTakeTheProposal() {
    let host = HostingView(rootView: Circle())
    #expect(host.sizeThatFits(ProposedViewSize(width: 30, height: 70)) == CGSize(width: 30, height: 70))
    // No proposal: 10 × 10, as SwiftUI.
    #expect(host.sizeThatFits(.unspecified) == CGSize(width: 10, height: 10))
  }

  @Test func zstackIsAsLargeAsItsLargestChild() {
    let f = frames(
      ZStack(alignment: .topLeading) {
        Color.red.frame(width: 60, height: 20)
        Color.blue.frame(width: 20, height: 40)
      }, in: CGSize(width: 60, height: 40))
    #expect(f == [CGRect(x: 0, y: 0, width: 60, height: 20), CGRect(x: 0, y: 0, width: 20, height: 40)])
  }

  @Test func backgroundAndOverlayTakeTheContentsFrame() {
    let f = frames(
      Color.red.frame(width: 50, height: 30)
        .background(Color.blue)
        .overlay(Color.green.frame(width: 10, height: 10), alignment: .topTrailing),
      in: CGSize(width: 50, height: 30))
    // Drawing order: background, content, overlay.
    #expect(
      f == [
        CGRect(x: 0, y: 0, width: 50, height: 30), CGRect(x: 0, y: 0, width: 50, height: 30),
        CGRect(x: 40, y: 0, width: 10, height: 10),
      ])
  }

  @Test func offsetMovesDrawingNotLayout() {
    let f = frames(
      VStack(spacing: 0) {
        Color.red.frame(width: 10, height: 10).offset(x: 5, y: 3)
        Color.blue.frame(width: 10, height: 10)
      }, in: CGSize(width: 10, height: 20))
    #expect(f == [CGRect(x: 5, y: 3, width: 10, height: 10), CGRect(x: 0, y: 10, width: 10, height: 10)])
  }

  @Test func textWrapsToTheProposedWidth() {
    let host = HostingView(rootView: Text("one two three four five six seven eight"))
    let wide = host.sizeThatFits(.unspecified)
    let narrow = host.sizeThatFits(ProposedViewSize(width: wide.width / 2, height: nil))
    #expect(narrow.width <= wide.width / 2)
    #expect(narrow.height >= wide.height * 2)
    let one = HostingView(rootView: Text("one two three four five six seven eight").lineLimit(1))
    let cut = one.sizeThatFits(ProposedViewSize(width: wide.width / 2, height: nil))
    #expect(cut.width == wide.width / 2 && cut.height == wide.height)
  }

  @Test func textStylesHaveApplesSizes() {
    func height(_ f: Font) -> CGFloat {
      HostingView(rootView: Text("Hg").font(f)).sizeThatFits(.unspecified).height
    }
    let sizes: [(Font, CGFloat)] = [
      (.largeTitle, 34), (.title, 28), (.title2, 22), (.title3, 20), (.headline, 17), (.body, 17),
      (.callout, 16), (.subheadline, 15), (.footnote, 13), (.caption, 12), (.caption2, 11),
    ]
    for (f, s) in sizes { #expect(f.size == s) }
    #expect(Font.headline.weight == .semibold && Font.body.weight == .regular)
    #expect(height(.largeTitle) > height(.body) && height(.body) > height(.caption2))
  }
}
