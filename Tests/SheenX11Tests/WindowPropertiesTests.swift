import CX11
import Foundation
import SheenPlatform
import SheenTestSupport
import Testing

@testable import SheenX11

extension X11Tests {
  @Suite struct WindowProperties {
    /// A window property's bytes (8-bit formats), read back from the server.
    private func property(_ window: X11Window, _ name: String) -> (type: String, bytes: [UInt8])? {
      let d = window.display.handle
      var type: Atom = 0
      var format: Int32 = 0
      var count: UInt = 0
      var after: UInt = 0
      var data: UnsafeMutablePointer<UInt8>?
      let status = XGetWindowProperty(
        d, window.windowID, XInternAtom(d, name, False), 0, 1024, False, Atom(AnyPropertyType), &type,
        &format, &count, &after, &data)
      guard status == Success, let data, format == 8 else { return nil }
      defer { XFree(data) }
      let typeName = XGetAtomName(d, type).map { p in
        defer { XFree(p) }
        return String(cString: p)
      }
      return (typeName ?? "?", Array(UnsafeBufferPointer(start: data, count: Int(count))))
    }

    @Test(.timeLimit(.minutes(1)))
    func titleHintsAndProtocolsAreSet() throws {
      try withXvfb { server in
        let title = "Sheen – café"
        let window = try openWindow(on: server, size: PixelSize(width: 120, height: 90), title: title)
        defer { window.close() }
        let net = try #require(property(window, "_NET_WM_NAME"))
        #expect(net.type == "UTF8_STRING")
        #expect(String(decoding: net.bytes, as: UTF8.self) == title)
        let legacy = try #require(property(window, "WM_NAME"))
        #expect(legacy.type == "STRING")
        #expect(legacy.bytes == Array("Sheen ? caf".utf8) + [0xe9])  // Latin-1, '–' is not in it

        window.title = "renamed"
        let renamed = try #require(property(window, "_NET_WM_NAME"))
        #expect(String(decoding: renamed.bytes, as: UTF8.self) == "renamed")

        let d = window.display.handle
        var hints = XSizeHints()
        var supplied = 0
        #expect(XGetWMNormalHints(d, window.windowID, &hints, &supplied) != 0)
        #expect(hints.flags & PMinSize != 0)
        #expect(hints.min_width == Int32(window.minimumSize.width))
        #expect(hints.min_height == Int32(window.minimumSize.height))

        var protocols: UnsafeMutablePointer<Atom>?
        var count: Int32 = 0
        #expect(XGetWMProtocols(d, window.windowID, &protocols, &count) != 0)
        let list = Array(UnsafeBufferPointer(start: protocols, count: Int(count)))
        if let protocols { XFree(protocols) }
        #expect(list.contains(XInternAtom(d, "WM_DELETE_WINDOW", False)))
      }
    }
  }
}
