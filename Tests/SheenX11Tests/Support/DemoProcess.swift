import CX11
import Foundation
import SheenTestSupport

/// Sends a `WM_DELETE_WINDOW` ClientMessage to `window`, as a window manager's close button does.
func sendDeleteWindow(display name: String, window: UInt) throws {
  guard let d = XOpenDisplay(name) else { throw TestFailure("cannot open \(name)") }
  defer { XCloseDisplay(d) }
  var event = XEvent()
  event.xclient.type = ClientMessage
  event.xclient.window = window
  event.xclient.message_type = XInternAtom(d, "WM_PROTOCOLS", False)
  event.xclient.format = 32
  event.xclient.data.l.0 = Int(bitPattern: UInt(XInternAtom(d, "WM_DELETE_WINDOW", False)))
  event.xclient.data.l.1 = Int(CurrentTime)
  XSendEvent(d, window, False, NoEventMask, &event)
  XSync(d, False)
}
