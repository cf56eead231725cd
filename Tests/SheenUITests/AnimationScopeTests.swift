import Foundation
import SheenPlatform
import Testing

@testable import SheenUI

/// Squares moved by two states, each with a different animation scope.
struct Scoped: View {
  @State var moved = false
  @State var other = false
  var body: some View {
    VStack(alignment: .leading, spacing: 0) {
      HStack {
        Text("Move").onTapGesture { moved.toggle() }
        Text("Other").onTapGesture { other.toggle() }
        Text("Move animated").onTapGesture { withAnimation(.linear(duration: 1)) { moved.toggle() } }
        Text("Other animated").onTapGesture { withAnimation(.linear(duration: 1)) { other.toggle() } }
        Text("Move still").onTapGesture {
          var t = Transaction(animation: .linear(duration: 1))
          t.disablesAnimations = true
          withTransaction(t) { moved.toggle() }
        }
      }
      .font(.caption2)
      // Animated when `moved` changes: this square only.
      Color.red.frame(width: 20, height: 20).offset(x: moved ? 100 : 0)
        .animation(.linear(duration: 1), value: moved)
      // No animation of its own.
      Color.green.frame(width: 20, height: 20).offset(x: moved ? 100 : 0)
      // Moved by `other`, but animated only when `moved` changes.
      Color.blue.frame(width: 20, height: 20).offset(x: other ? 100 : 0)
        .animation(.linear(duration: 1), value: moved)
      // Grows when `moved` changes, animated; the square below moves as it grows.
      Color.orange.frame(width: 20, height: moved ? 60 : 20)
        .animation(.linear(duration: 1), value: moved)
      Color.gray.frame(width: 20, height: 20)
      // Never animated when `moved` changes, even inside `withAnimation`.
      Color.purple.frame(width: 20, height: 20).offset(x: moved ? 100 : 0)
        .animation(nil, value: moved)
      Color.cyan.frame(width: 20, height: 20).offset(x: moved ? 100 : 0)
        .transaction { $0.animation = nil }
    }
    .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
  }
}

@Suite struct AnimationScopeTests {
  func square(_ h: Harness<Scoped>, _ c: Color) throws -> UIView {
    try #require(h.views().first { $0.backgroundColor == c.uiColor && $0.bounds.width == 20 })
  }
  /// Where the square is drawn now (its presentation), against where its layout puts it.
  func shown(_ h: Harness<Scoped>, _ c: Color) throws -> CGRect {
    let r = try square(h, c).layer.sheenLayer.frame
    return CGRect(x: CGFloat(r.minX), y: CGFloat(r.minY), width: CGFloat(r.width), height: CGFloat(r.height))
  }
  func model(_ h: Harness<Scoped>, _ c: Color) throws -> CGRect { try square(h, c).frame }

  func between(_ v: CGFloat, _ a: CGFloat, _ b: CGFloat) -> Bool { v > min(a, b) + 5 && v < max(a, b) - 5 }

  @Test func animationValueAnimatesOnlyItsViewAndOnlyForItsValue() throws {
    let h = Harness(Scoped(), width: 400, height: 400)
    let x0 = try shown(h, .red).minX
    let grayY = try shown(h, .gray).minY
    h.tap(h.center(try #require(h.label("Move"))))
    h.step(20)
    // A third of the way through the second: red and orange move; green, purple, cyan jumped;
    // the gray square below orange jumped to where orange's new height puts it.
    #expect(between(try shown(h, .red).minX, x0, x0 + 100))
    #expect(between(try shown(h, .orange).height, 20, 60))
    #expect(try shown(h, .green).minX == x0 + 100)
    #expect(try shown(h, .purple).minX == x0 + 100)
    #expect(try shown(h, .cyan).minX == x0 + 100)
    #expect(try shown(h, .gray).minY == grayY + 40)
    h.step(60)
    #expect(try shown(h, .red).minX == x0 + 100)
    #expect(try shown(h, .orange).height == 60)

    // `other` changes, `moved` does not: the blue square's animation is not for this value.
    h.tap(h.center(try #require(h.label("Other"))))
    #expect(try shown(h, .blue).minX == x0 + 100)
  }

  @Test func withAnimationAnimatesEveryChangeButWhereAScopeSaysNone() throws {
    let h = Harness(Scoped(), width: 400, height: 400)
    let x0 = try shown(h, .red).minX
    let grayY = try shown(h, .gray).minY
    h.tap(h.center(try #require(h.label("Move animated"))))
    h.step(20)
    for c in [Color.red, .green] {
      #expect(between(try shown(h, c).minX, x0, x0 + 100), "\(c)")
      #expect(try model(h, c).minX == x0 + 100)
    }
    #expect(
      between(try shown(h, .gray).minY, grayY, grayY + 40), "a sibling moved by the change animates too")
    #expect(try shown(h, .purple).minX == x0 + 100, ".animation(nil, value:) keeps its view still")
    #expect(try shown(h, .cyan).minX == x0 + 100, ".transaction { $0.animation = nil } too")
    h.step(60)
    #expect(try shown(h, .green).minX == x0 + 100)

    // withAnimation around a change the blue square's scope does not watch: the update's
    // animation reaches it.
    h.tap(h.center(try #require(h.label("Other animated"))))
    h.step(20)
    #expect(between(try shown(h, .blue).minX, x0, x0 + 100))

    // A transaction that disables animations: nothing moves gradually, not even the scopes.
    h.step(60)
    h.tap(h.center(try #require(h.label("Move still"))))
    #expect(try shown(h, .red).minX == x0)
    #expect(try shown(h, .green).minX == x0)
    #expect(try shown(h, .orange).height == 20)
  }
}
