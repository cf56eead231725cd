import CThai
import Synchronization

/// Word boundaries in Thai text from libthai's dictionary (Debian's `libthai`, what Pango uses):
/// Thai writes no spaces between words, so UAX #14 leaves its line breaks to such a dictionary.
///
/// Lao, Khmer and Myanmar are left to UAX #14 alone (no breaks inside a run of letters), as
/// Pango leaves them on Debian: libthai knows only Thai.
enum ThaiBreaker {
  /// libthai's breaker with its default dictionary, made on first use (nil when the dictionary
  /// cannot be loaded: then Thai breaks only where UAX #14 allows). libthai's breaker is not
  /// documented as thread-safe: one thread at a time.
  private static let breaker = Mutex<OpaquePointer??>(nil)

  /// The offsets within `text` before which a line may break (0 < offset < count), ascending.
  static func breaks(_ text: ArraySlice<UInt32>) -> [Int] {
    if text.count < 2 { return [] }
    // NUL-terminated wide characters (wchar_t is 32 bits on Linux).
    var wide = [Int32](repeating: 0, count: text.count + 1)
    for (k, v) in text.enumerated() { wide[k] = Int32(bitPattern: v) }
    var positions = [Int32](repeating: 0, count: text.count)
    let found = breaker.withLock { b -> Int in
      if b == nil { b = .some(th_brk_new(nil)) }
      guard let brk = b! else { return 0 }
      return Int(th_brk_wc_find_breaks(brk, wide, &positions, positions.count))
    }
    return positions.prefix(max(0, min(found, positions.count))).map(Int.init)
  }
}
