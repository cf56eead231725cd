import CWayland
import SheenPlatform
import SheenTestSupport
import Testing

@testable import SheenWayland

/// Translation of xkbcommon keysyms, Linux button codes and axis values: no compositor needed.
@Suite struct InputTranslation {
  @Test func keysMatchTheX11Backend() {
    // keysym -> key, as SheenX11's Key(keysym:) maps them (xkbcommon keysyms are X keysyms).
    let expected: [(UInt32, Key)] = [
      (0xff51, .left), (0xff96, .left), (0xff53, .right), (0xff52, .up), (0xff54, .down),
      (0xff55, .pageUp), (0xff56, .pageDown), (0xff50, .home), (0xff57, .end), (0x20, .space),
      (0xff80, .space), (0xff1b, .escape), (0xff0d, .enter), (0xff8d, .enter), (0xff09, .tab),
      (0xfe20, .tab), (0xff08, .backspace), (0xffff, .delete), (0x71, .q), (0x51, .q), (0x61, .other(0x61)),
    ]
    for (sym, key) in expected { #expect(Key(xkbKeysym: sym) == key, "keysym 0x\(String(sym, radix: 16))") }
  }

  @Test func textFollowsTheX11Rule() {
    #expect(textTyped(xkbKeysym: 0x71, modifiers: []) == "q")
    #expect(textTyped(xkbKeysym: 0xe9, modifiers: [.shift]) == "é")
    #expect(textTyped(xkbKeysym: 0x0100_20ac, modifiers: []) == "€")
    #expect(textTyped(xkbKeysym: 0x71, modifiers: [.control]) == "")
    #expect(textTyped(xkbKeysym: 0xff0d, modifiers: []) == "")
  }

  @Test func buttonsMatchX11Numbers() {
    #expect(PointerButton(linuxButton: 0x110) == .left)
    #expect(PointerButton(linuxButton: 0x111) == .right)
    #expect(PointerButton(linuxButton: 0x112) == .middle)
    #expect(PointerButton(linuxButton: 0x113) == .other(8))
    #expect(PointerButton(linuxButton: 0x114) == .other(9))
  }

  @Test func scrollUnitsMatchTheX11Wheel() {
    let notch = PlatformEvent.scrollPointsPerNotch
    #expect(scrollPoints(steps: 1, value: 10) == notch)
    #expect(scrollPoints(steps: -2, value: -20) == -2 * notch)
    // Smooth scrolling: a wheel notch's worth of value (10) is one notch.
    #expect(scrollPoints(steps: 0, value: 5) == notch / 2)
  }
}
