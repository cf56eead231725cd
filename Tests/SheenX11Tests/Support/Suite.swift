import Foundation
import SheenTestSupport
import Testing

/// Every test that starts an Xvfb runs in this suite, one at a time: they share a 2-core machine
/// and the process-wide Xlib error handlers.
@Suite(.serialized, .enabled(if: Xvfb.isInstalled, Comment(rawValue: Xvfb.skipMessage)))
struct X11Tests {}
