import Foundation
import SheenUI
import Testing

/// A guide of our own, as SwiftUI's documentation makes one: its default is a view's centre.
enum MidMarker: AlignmentID {
  static func defaultValue(in d: ViewDimensions) -> CGFloat { d[VerticalAlignment.center] }
}
enum Column: AlignmentID {
  static func defaultValue(in d: ViewDimensions) -> CGFloat { d[.leading] }
}
extension VerticalAlignment {
  static let midMarker = VerticalAlignment(MidMarker.self)
}
extension HorizontalAlignment {
  static let column = HorizontalAlignment(Column.self)
}

/// Alignment guides with SwiftUI's rules, on fixed-size colours so that the expected frames are
/// arithmetic: a stack puts every child's guide on one line and is as large as they then reach;
/// a container's guide is the mean of the guides its children set (its default where none
/// does); frames, ZStacks and overlays place a child's guide on their own.
@Suite struct AlignmentTests {
  /// The frames of the views drawn (colours), in the hosting view's coordinates, in order, with
  /// the content's size.
  func layout<V: View>(_ view: V) -> (frames: [CGRect], size: CGSize) {
    let probe = HostingView(rootView: view)
    let size = probe.sizeThatFits(.unspecified)
    let host = HostingView(rootView: view, frame: CGRect(origin: .zero, size: size))
    host.layoutIfNeeded()
    var out: [CGRect] = []
    func walk(_ v: UIView, _ origin: CGPoint) {
      for s in v.subviews {
        let f = s.frame.offsetBy(dx: origin.x, dy: origin.y)
        if s.backgroundColor != nil { out.append(f) }
        walk(s, f.origin)
      }
    }
    walk(host, .zero)
    return (out, size)
  }

  @Test func aGuideMovesAChildAcrossItsStackAndTheStackGrows() {
    // Blue's leading guide at its trailing edge: blue ends where red begins, and the stack is
    // 30 + 50 wide.
    let l = layout(
      VStack(alignment: .leading, spacing: 0) {
        Color.red.frame(width: 50, height: 10)
        Color.blue.frame(width: 30, height: 10).alignmentGuide(.leading) { d in d[.trailing] }
      })
    #expect(
      l.frames == [CGRect(x: 30, y: 0, width: 50, height: 10), CGRect(x: 0, y: 10, width: 30, height: 10)])
    #expect(l.size == CGSize(width: 80, height: 20))
    // A negative guide: blue indented by 20 points; the stack is as wide as red still.
    let m = layout(
      VStack(alignment: .leading, spacing: 0) {
        Color.red.frame(width: 50, height: 10)
        Color.blue.frame(width: 30, height: 10).alignmentGuide(.leading) { _ in -20 }
      })
    #expect(
      m.frames == [CGRect(x: 0, y: 0, width: 50, height: 10), CGRect(x: 20, y: 10, width: 30, height: 10)])
    #expect(m.size == CGSize(width: 50, height: 20))
  }

  @Test func aGuideForAnotherAlignmentIsIgnored() {
    // The stack aligns by centres; a leading guide does not matter to it.
    let l = layout(
      VStack(spacing: 0) {
        Color.red.frame(width: 50, height: 10)
        Color.blue.frame(width: 30, height: 10).alignmentGuide(.leading) { _ in 100 }
      })
    #expect(
      l.frames == [CGRect(x: 0, y: 0, width: 50, height: 10), CGRect(x: 10, y: 10, width: 30, height: 10)])
  }

  @Test func aCustomGuideLinesUpViewsInDifferentStacks() {
    // The documentation's pattern: an HStack aligned by a guide of its own; in the VStack only
    // the middle square sets it (at its centre), so the VStack's guide is there: 20 + 8 + 10.
    // The lone square sets none: its default, its centre (15). The stack puts 38 and 15 on one
    // line: the VStack at 0, the square at 23; the stack is 38 + max(76 - 38, 30 - 15) high.
    let l = layout(
      HStack(alignment: .midMarker, spacing: 0) {
        VStack(spacing: 8) {
          Color.red.frame(width: 40, height: 20)
          Color.green.frame(width: 40, height: 20).alignmentGuide(.midMarker) { d in
            d[VerticalAlignment.center]
          }
          Color.blue.frame(width: 40, height: 20)
        }
        Color.orange.frame(width: 30, height: 30)
      })
    #expect(l.frames[0] == CGRect(x: 0, y: 0, width: 40, height: 20))
    #expect(l.frames[3] == CGRect(x: 40, y: 23, width: 30, height: 30))
    #expect(l.size == CGSize(width: 70, height: 76))
    // The guide set on the last square instead: 56 + 10 against 15.
    let m = layout(
      HStack(alignment: .midMarker, spacing: 0) {
        VStack(spacing: 8) {
          Color.red.frame(width: 40, height: 20)
          Color.green.frame(width: 40, height: 20)
          Color.blue.frame(width: 40, height: 20).alignmentGuide(.midMarker) { d in
            d[VerticalAlignment.center]
          }
        }
        Color.orange.frame(width: 30, height: 30)
      })
    #expect(m.frames[3] == CGRect(x: 40, y: 51, width: 30, height: 30))
  }

  @Test func aContainersGuideIsTheMeanOfItsChildrens() {
    // Two children set the guide, at 0 and 56 + 20 in the VStack: the VStack's is 38.
    let l = layout(
      HStack(alignment: .midMarker, spacing: 0) {
        VStack(spacing: 8) {
          Color.red.frame(width: 40, height: 20).alignmentGuide(.midMarker) { _ in 0 }
          Color.green.frame(width: 40, height: 20)
          Color.blue.frame(width: 40, height: 20).alignmentGuide(.midMarker) { d in d.height }
        }
        Color.orange.frame(width: 30, height: 2).alignmentGuide(.midMarker) { _ in 0 }
      })
    #expect(l.frames[3].minY == 38)
  }

  @Test func aCustomHorizontalGuideThroughPaddingAndFrames() {
    // Labels and fields in a form: each row's field sets the `column` guide at its leading edge;
    // through the padding and the row's HStack, every field starts on one line.
    struct Row: View {
      let label: CGFloat
      var body: some View {
        HStack(spacing: 10) {
          Color.gray.frame(width: label, height: 10)
          Color.blue.frame(width: 60, height: 10).alignmentGuide(.column) { d in d[.leading] }
        }
        .padding(.leading, 4)
      }
    }
    let l = layout(
      VStack(alignment: .column, spacing: 0) {
        Row(label: 20)
        Row(label: 50)
        Color.red.frame(width: 10, height: 10)
      })
    let fields = l.frames.filter { $0.width == 60 }
    #expect(fields.count == 2 && fields[0].minX == fields[1].minX)
    // The longer label's row starts at 0: its field at 4 + 50 + 10; the red square has no
    // explicit guide: its default (leading) there too.
    #expect(fields[0].minX == 64)
    #expect(l.frames.last == CGRect(x: 64, y: 20, width: 10, height: 10))
    #expect(l.size.width == 124)
  }

  @Test func framesZStacksAndOverlaysPlaceByGuides() {
    // A frame puts the child's leading guide on its own leading edge.
    let f = layout(
      Color.red.frame(width: 20, height: 20).alignmentGuide(.leading) { _ in 5 }
        .frame(width: 100, height: 20, alignment: .leading))
    #expect(f.frames == [CGRect(x: -5, y: 0, width: 20, height: 20)])
    // A ZStack grows to hold a child its guides push out.
    let z = layout(
      ZStack(alignment: .topLeading) {
        Color.red.frame(width: 100, height: 100)
        Color.blue.frame(width: 20, height: 20).alignmentGuide(.leading) { _ in 30 }
          .alignmentGuide(.top) { _ in -10 }
      })
    #expect(z.size == CGSize(width: 130, height: 100))
    #expect(
      z.frames == [CGRect(x: 30, y: 0, width: 100, height: 100), CGRect(x: 0, y: 10, width: 20, height: 20)])
    // A badge centred on a corner, as SwiftUI code does it.
    let o = layout(
      Color.red.frame(width: 60, height: 40)
        .overlay(
          Color.green.frame(width: 16, height: 16)
            .alignmentGuide(.top) { d in d.height / 2 }
            .alignmentGuide(.trailing) { d in d.width / 2 },
          alignment: .topTrailing))
    #expect(o.frames[1] == CGRect(x: 52, y: -8, width: 16, height: 16))
    #expect(o.size == CGSize(width: 60, height: 40), "an overlay does not change the size")
  }

  @Test func explicitGuidesAreSeenThroughViewDimensions() {
    var seen: [CGFloat?] = []
    _ = layout(
      VStack(alignment: .leading) {
        Color.red.frame(width: 30, height: 10)
          .alignmentGuide(.leading) { _ in 7 }
          .alignmentGuide(.leading) { d in
            seen.append(d[explicit: .leading])
            seen.append(d[explicit: .trailing])
            return d[.leading] + 1
          }
      })
    #expect(seen.first == 7)
    #expect(seen.dropFirst().first == .some(nil))
  }

  @Test func firstBaselinesLineUp() throws {
    let host = HostingView(
      rootView: HStack(alignment: .firstTextBaseline) {
        Text("Big").font(.largeTitle)
        Text("small").font(.caption)
        Color.red.frame(width: 10, height: 10)
      }, frame: CGRect(x: 0, y: 0, width: 300, height: 100))
    host.layoutIfNeeded()
    var labels: [UILabel] = []
    var square: UIView?
    func walk(_ v: UIView) {
      for s in v.subviews {
        if let l = s as? UILabel { labels.append(l) } else if s.backgroundColor != nil { square = s }
        walk(s)
      }
    }
    walk(host)
    #expect(labels.count == 2)
    let big = labels[0]
    let small = labels[1]
    let bigBaseline = big.frame.minY + big.font.ascender
    let smallBaseline = small.frame.minY + small.font.ascender
    #expect(abs(bigBaseline - smallBaseline) < 0.001)
    #expect(small.frame.minY > big.frame.minY + 5)
    // A view without text has its baseline at its bottom.
    #expect(abs(try #require(square).frame.maxY - bigBaseline) < 0.001)
  }
}
