import Foundation
import Testing

@testable import SheenKit

private final class Target {
  var taps = 0
  var senders: [UIButton] = []
  func tapped() { taps += 1 }
  func tapped(_ sender: UIButton) { senders.append(sender) }
}

@Suite struct ControlTests {
  private func setUp() throws -> (UIWindow, UIButton, Box) {
    let (window, surface) = try makeWindow()
    let button = UIButton(frame: CGRect(x: 50, y: 50, width: 100, height: 40))
    button.setTitle("Go", for: .normal)
    window.addSubview(button)
    window.renderFrame(into: surface, time: 0)
    let box = Box()
    for (name, event) in [
      ("down", UIControl.Event.touchDown), ("upInside", .touchUpInside), ("upOutside", .touchUpOutside),
      ("cancel", .touchCancel), ("exit", .touchDragExit),
    ] {
      button.addAction(for: event) { box.events.append(name) }
    }
    return (window, button, box)
  }

  final class Box { var events: [String] = [] }

  @Test func pressAndReleaseInsideSendsTouchDownThenTouchUpInside() throws {
    let (window, button, box) = try setUp()
    window.dispatch(down(100, 70), time: 0.1)
    #expect(box.events == ["down"])
    #expect(button.isHighlighted)
    window.dispatch(move(102, 72), time: 0.15)
    window.dispatch(up(102, 72), time: 0.2)
    #expect(box.events == ["down", "upInside"])
    #expect(!button.isHighlighted)
  }

  @Test func draggingOutAndReleasingSendsTouchUpOutside() throws {
    let (window, button, box) = try setUp()
    window.dispatch(down(100, 70), time: 0.1)
    window.dispatch(move(100, 190), time: 0.2)
    #expect(!button.isHighlighted)
    window.dispatch(up(100, 190), time: 0.3)
    #expect(box.events == ["down", "exit", "upOutside"])
  }

  @Test func targetsWithoutSelectors() throws {
    let (window, button, _) = try setUp()
    let target = Target()
    button.addTarget(target, action: Target.tapped as (Target) -> () -> Void, for: .touchUpInside)
    button.addTarget(target, action: Target.tapped(_:), for: .touchUpInside)
    window.dispatch(down(60, 60), time: 0.1)
    window.dispatch(up(60, 60), time: 0.2)
    #expect(target.taps == 1)
    #expect(target.senders.count == 1 && target.senders[0] === button)
  }

  @Test func disabledButtonSendsNothing() throws {
    let (window, button, box) = try setUp()
    button.isEnabled = false
    window.dispatch(down(100, 70), time: 0.1)
    window.dispatch(up(100, 70), time: 0.2)
    #expect(box.events.isEmpty)
  }

  @Test func aDragOverAScrollViewCancelsTheButtonAndScrolls() throws {
    let (window, surface) = try makeWindow()
    let scroll = UIScrollView(frame: window.bounds)
    scroll.contentSize = CGSize(width: 200, height: 1000)
    let button = UIButton(frame: CGRect(x: 50, y: 50, width: 100, height: 40))
    scroll.addSubview(button)
    window.addSubview(scroll)
    window.renderFrame(into: surface, time: 0)
    var events: [String] = []
    button.addAction(for: .touchDown) { events.append("down") }
    button.addAction(for: .touchCancel) { events.append("cancel") }
    button.addAction(for: .touchUpInside) { events.append("upInside") }
    window.dispatch(down(100, 70), time: 0.1)
    window.dispatch(move(100, 65), time: 0.12)
    #expect(events == ["down"])
    window.dispatch(move(100, 40), time: 0.14)
    #expect(events == ["down", "cancel"])
    window.dispatch(move(100, 30), time: 0.16)
    window.dispatch(up(100, 30), time: 0.16)
    #expect(events == ["down", "cancel"])
    #expect(scroll.contentOffset.y == 10)
  }

  @Test func buttonTitleIsCentredAndFollowsState() throws {
    let button = UIButton(frame: CGRect(x: 0, y: 0, width: 120, height: 44))
    button.setTitle("buy", for: .normal)
    button.setTitleColor(.white, for: .normal)
    button.setTitleColor(.red, for: .highlighted)
    button.titleLabel?.font = UIFont.systemFont(ofSize: 12, weight: .bold)
    button.layoutIfNeeded()
    let label = try #require(button.titleLabel)
    #expect(label.text == "buy")
    #expect(abs(label.center.x - 60) < 0.5 && abs(label.center.y - 22) < 0.5)
    #expect(label.font.isBold)
    button.isHighlighted = true
    #expect(label.textColor == .red)
    button.isHighlighted = false
    #expect(label.textColor == .white)
    // The label's layer is a sublayer of the button's, so layers can go below it (seed 002).
    let g = CAGradientLayer()
    button.layer.insertSublayer(g, below: button.titleLabel?.layer)
    let subs = try #require(button.layer.sublayers)
    #expect(subs.firstIndex { $0 === g }! < subs.firstIndex { $0 === label.layer }!)
  }
}
