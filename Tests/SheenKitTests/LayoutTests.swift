import Foundation
import Testing

@testable import SheenKit

/// Counts its layouts and places one subview at its right half.
private final class CountingView: UIView {
  var layouts = 0
  let child = UIView()
  var inset: CGFloat = 0 {
    didSet { setNeedsLayout() }
  }

  override init(frame: CGRect) {
    super.init(frame: frame)
    addSubview(child)
  }

  required init?(coder: NSCoder) { return nil }

  override func layoutSubviews() {
    super.layoutSubviews()
    layouts += 1
    child.frame = CGRect(
      x: bounds.width / 2, y: inset, width: bounds.width / 2, height: bounds.height - inset)
  }
}

@Suite struct LayoutTests {
  @Test func layoutRunsBeforeTheFirstFrameAndAgainAfterSetNeedsLayout() throws {
    let (window, surface) = try makeWindow()
    let v = CountingView(frame: CGRect(x: 0, y: 0, width: 100, height: 80))
    window.addSubview(v)
    #expect(v.layouts == 0)
    window.renderFrame(into: surface, time: 0)
    #expect(v.layouts == 1)
    #expect(v.child.frame == CGRect(x: 50, y: 0, width: 50, height: 80))
    // Nothing changed: no layout.
    window.renderFrame(into: surface, time: 1.0 / 60)
    #expect(v.layouts == 1)
    // A property whose didSet asks for layout (seed 000's pattern) re-lays out before drawing.
    v.inset = 10
    #expect(v.layouts == 1)
    window.renderFrame(into: surface, time: 2.0 / 60)
    #expect(v.layouts == 2)
    #expect(v.child.frame == CGRect(x: 50, y: 10, width: 50, height: 70))
    // A change of size lays out again.
    v.frame = CGRect(x: 0, y: 0, width: 120, height: 80)
    window.renderFrame(into: surface, time: 3.0 / 60)
    #expect(v.layouts == 3)
    #expect(v.child.frame.minX == 60)
  }

  @Test func layoutIfNeededRunsAtOnce() {
    let v = CountingView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
    v.layoutIfNeeded()
    #expect(v.layouts == 1)
    v.setNeedsLayout()
    v.layoutIfNeeded()
    v.layoutIfNeeded()
    #expect(v.layouts == 2)
  }

  @Test func realLayerFollowsTheViewGeometry() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
    let child = UIView(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
    parent.addSubview(child)
    #expect(child.layer.sheenLayer.frame == .init(x: 10, y: 20, width: 30, height: 40))
    child.center = CGPoint(x: 50, y: 50)
    #expect(child.layer.sheenLayer.frame == .init(x: 35, y: 30, width: 30, height: 40))
    // A bounds origin shifts the subviews, as UIKit's.
    parent.bounds.origin = CGPoint(x: 5, y: 5)
    #expect(child.layer.sheenLayer.frame.origin == .init(x: 30, y: 25))
    #expect(child.convert(CGPoint.zero, to: parent) == CGPoint(x: 35, y: 30))
    // The root's own coordinates stand for the window's.
    #expect(child.convert(CGPoint.zero, to: nil) == CGPoint(x: 35, y: 30))
    #expect(parent.convert(CGPoint(x: 35, y: 30), to: child) == .zero)
  }

  @Test func autoresizingFollowsTheSuperview() {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
    let child = UIView(frame: CGRect(x: 10, y: 10, width: 80, height: 20))
    child.autoresizingMask = [.flexibleWidth]
    parent.addSubview(child)
    parent.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
    #expect(child.frame == CGRect(x: 10, y: 10, width: 180, height: 20))
  }
}
