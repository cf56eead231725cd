import Foundation
import SheenPlatform
import SheenRaster
import Testing

@testable import SheenKit

@Suite struct HitTestTests {
  private func tree() -> (UIView, UIView, UIView) {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    let card = UIView(frame: CGRect(x: 20, y: 20, width: 100, height: 100))
    let inner = UIView(frame: CGRect(x: 10, y: 10, width: 30, height: 30))
    root.addSubview(card)
    card.addSubview(inner)
    return (root, card, inner)
  }

  @Test func frontmostDeepestViewIsHit() {
    let (root, card, inner) = tree()
    #expect(root.hitTest(CGPoint(x: 35, y: 35), with: nil) === inner)
    #expect(root.hitTest(CGPoint(x: 100, y: 100), with: nil) === card)
    #expect(root.hitTest(CGPoint(x: 150, y: 150), with: nil) === root)
    #expect(root.hitTest(CGPoint(x: 250, y: 10), with: nil) == nil)
  }

  @Test func hiddenAndNonInteractiveViewsAreSkipped() {
    let (root, card, inner) = tree()
    inner.isHidden = true
    #expect(root.hitTest(CGPoint(x: 35, y: 35), with: nil) === card)
    inner.isHidden = false
    inner.isUserInteractionEnabled = false
    #expect(root.hitTest(CGPoint(x: 35, y: 35), with: nil) === card)
    // A view without interaction takes its subtree with it.
    inner.isUserInteractionEnabled = true
    card.isUserInteractionEnabled = false
    #expect(root.hitTest(CGPoint(x: 35, y: 35), with: nil) === root)
    card.isUserInteractionEnabled = true
    card.alpha = 0
    #expect(root.hitTest(CGPoint(x: 35, y: 35), with: nil) === root)
  }

  @Test func roundedClipMissesTheCutCorner() {
    let (root, card, _) = tree()
    card.layer.cornerRadius = 30
    // Card corner (1, 1) in card coordinates: outside the 30-point rounding.
    #expect(root.hitTest(CGPoint(x: 21, y: 21), with: nil) === card)
    card.clipsToBounds = true
    #expect(root.hitTest(CGPoint(x: 21, y: 21), with: nil) === root)
    #expect(root.hitTest(CGPoint(x: 70, y: 70), with: nil) === card)
  }

  @Test func subviewsOutsideTheirSuperviewMissAsInUIKit() {
    let (root, card, _) = tree()
    let sticking = UIView(frame: CGRect(x: 90, y: 90, width: 40, height: 40))
    card.addSubview(sticking)
    #expect(root.hitTest(CGPoint(x: 115, y: 115), with: nil) === sticking)
    #expect(root.hitTest(CGPoint(x: 140, y: 140), with: nil) === root)
  }

  @Test func transformsAreHonoured() {
    let (root, card, _) = tree()
    card.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
    // The card now covers 45...95 around its center (70, 70).
    #expect(root.hitTest(CGPoint(x: 30, y: 30), with: nil) === root)
    #expect(root.hitTest(CGPoint(x: 90, y: 90), with: nil) === card)
    #expect(card.convert(CGPoint(x: 90, y: 90), from: root) == CGPoint(x: 90, y: 90))
  }
}

@Suite struct CursorTests {
  @Test func controlsShowAPointingHandAndOtherViewsTheArrow() {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
    window.scale = 2
    let card = UIView(frame: CGRect(x: 10, y: 10, width: 180, height: 80))
    let button = UIButton(frame: CGRect(x: 100, y: 20, width: 60, height: 30))
    let label = UILabel(frame: CGRect(x: 5, y: 5, width: 40, height: 10))
    window.addSubview(card)
    card.addSubview(button)
    button.addSubview(label)  // a title inside the button: its cursor is the button's
    label.isUserInteractionEnabled = true
    // Window pixels at scale 2: the button spans x 220...340, y 60...120.
    #expect(window.cursor(at: Point(x: 320, y: 110)) == .pointingHand)
    #expect(window.cursor(at: Point(x: 240, y: 80)) == .pointingHand)  // over the label
    #expect(window.cursor(at: Point(x: 100, y: 80)) == .arrow)  // the card
    #expect(window.cursor(at: Point(x: 390, y: 190)) == .arrow)  // the window
    button.isEnabled = false
    #expect(window.cursor(at: Point(x: 240, y: 80)) == .arrow)
    // A view may name its own cursor, and a control's can be changed.
    card.pointerCursor = .pointingHand
    #expect(window.cursor(at: Point(x: 100, y: 80)) == .pointingHand)
    #expect(window.cursor(at: Point(x: 240, y: 80)) == .pointingHand)  // inherits from the card
    button.isEnabled = true
    button.pointerCursor = .arrow
    card.pointerCursor = nil
    #expect(window.cursor(at: Point(x: 240, y: 80)) == .arrow)
  }
}
