import CX11
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Process-wide Xlib error handling. Xlib has one error handler and one IO error handler per
/// process, so they are installed once; per-display state lives behind a lock.
enum XErrorHandling {
  /// Displays currently trapping errors, each with the first error code seen (0: none yet).
  private static let traps = Mutex<[UInt: UInt8]>([:])

  /// Installs both handlers (idempotent).
  static func install() {
    _ = installed
  }

  private static let installed: Bool = {
    _ = XSetErrorHandler { display, event in
      guard let event else { return 0 }
      let key = UInt(bitPattern: display.map { UnsafeRawPointer($0) })
      let code = event.pointee.error_code
      let trapped = XErrorHandling.traps.withLock { traps -> Bool in
        guard let first = traps[key] else { return false }
        if first == 0 { traps[key] = code }
        return true
      }
      if !trapped {
        var text = [CChar](repeating: 0, count: 256)
        XGetErrorText(display, Int32(code), &text, Int32(text.count))
        let message = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        writeStandardError(
          "sheen: X error: \(message) (request \(event.pointee.request_code).\(event.pointee.minor_code))\n")
      }
      return 0
    }
    _ = XSetIOErrorHandler { display in
      // Xlib cannot continue after an IO error: this handler must not return.
      let name = display.flatMap { XDisplayString($0) }.map { String(cString: $0) } ?? "?"
      writeStandardError("sheen: lost the connection to the X server on display '\(name)'; exiting\n")
      exit(3)
    }
    return true
  }()

  /// Runs `body`, then `XSync`s, and returns the first X error code it caused (nil: none).
  static func trap(_ display: OpaquePointer, _ body: () -> Void) -> UInt8? {
    let key = UInt(bitPattern: UnsafeRawPointer(display))
    traps.withLock { $0[key] = 0 }
    body()
    XSync(display, False)
    let code = traps.withLock { $0.removeValue(forKey: key) } ?? 0
    return code == 0 ? nil : code
  }
}

/// Writes to file descriptor 2 without touching the C `stderr` global.
func writeStandardError(_ text: String) {
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
    if n <= 0 { break }
    offset += n
  }
}
