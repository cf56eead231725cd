import Foundation
import SheenPlatform
import Testing

@testable import SheenUI

/// A list of two kinds of rows written in one `switch`: a 30-point title before every ninth row
/// of 100 points (the shape of a list of sections written as one lazy list).
struct TitledLazyRows: View {
  var body: some View {
    ScrollView {
      LazyVStack(spacing: 0) {
        ForEach(0..<400) { i in
          if i % 9 == 0 {
            Text("Title \(i / 9)").frame(height: 30)
          } else {
            Row(id: i).frame(height: 100)
          }
        }
      }
    }
  }
}

@Suite struct LazyRowKindTests {
  /// Rows not made yet count with the height of the made rows of their kind (their type and
  /// the branches of their `if`s), so a list of titles and rows is as tall before it is made
  /// as after (with one average for all, 400 rows of 30 and 100 points would be off by hundreds
  /// of points and move the rows below as they are made).
  @Test func rowsNotMadeCountWithTheirKindsHeight() throws {
    let h = Harness(TitledLazyRows(), width: 300, height: 400)
    let scroll = try #require(h.views().first { $0 is UIScrollView } as? UIScrollView)
    // 45 titles of 30 points, 355 rows of 100.
    let exact: CGFloat = 45 * 30 + 355 * 100
    #expect(h.host.bodyEvaluations(of: Row.self) < 10)
    #expect(scroll.contentSize.height == exact)
    // Deep in the list, before the rows above are made: title 30 (row 270) sits where it does
    // once every row is made.
    scroll.contentOffset = CGPoint(x: 0, y: 30 * 30 + 240 * 100 - 100)
    h.step()
    #expect(scroll.contentSize.height == exact)
    // (The label is centred in its 30 points.)
    let title = try #require(h.label("Title 30"))
    let top = title.convert(CGPoint.zero, to: scroll).y - (30 - title.bounds.height) / 2
    #expect(abs(top - (30 * 30 + 240 * 100)) < 1, "\(top)")
    #expect(h.host.bodyEvaluations(of: Row.self) < 40)
  }

  /// Views of one type without branches are one kind; `if`s, `switch`es, optionals and
  /// `AnyView`s are told apart by the branch they take.
  @Test func kindsFollowBranches() {
    @ViewBuilder func row(_ i: Int) -> some View {
      if i % 2 == 0 { Text("a") } else { Color.red }
    }
    #expect(rowKind(row(0)) == rowKind(row(2)))
    #expect(rowKind(row(0)) != rowKind(row(1)))
    #expect(rowKind(Text("a")) == rowKind(Text("b")))
    #expect(rowKind(AnyView(Text("a"))) != rowKind(AnyView(Color.red)))
    let none: Text? = nil
    #expect(rowKind(none) != rowKind(Text("a") as Text?))
    #expect(rowKind(row(0).padding(4)) != rowKind(row(1).padding(4)))
    #expect(
      rowKind(row(0).frame(height: 4).background(Color.red))
        != rowKind(row(1).frame(height: 4).background(Color.red)))
    #expect(rowKind(row(0).padding(4)) == rowKind(row(2).padding(4)))
  }
}
