import Foundation
import Testing

/// Every test that starts an Xvfb runs in this suite, one at a time: they share a 2-core machine
/// and the process-wide Xlib error handlers.
@Suite(.serialized, .enabled(if: Xvfb.isInstalled, Comment(rawValue: Xvfb.skipMessage)))
struct X11Tests {}

/// Runs `body` with a private Xvfb, and stops the server after every X object made in `body`
/// is gone (a connection must never outlive its server in this process: that is an X IO error,
/// which exits).
func withXvfb(screen: String = "1024x768x24", extraArguments: [String] = [], _ body: (Xvfb) throws -> Void)
  throws
{
  let server = try Xvfb(screen: screen, extraArguments: extraArguments)
  defer { server.stop() }
  try body(server)
}
