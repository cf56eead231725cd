import CUnibreak

/// Where lines of a paragraph may break, for layouts made outside `TextLayout` (SheenKit's
/// attributed string drawing): UAX #14's opportunities by libunibreak, as `TextLayout` breaks.
public enum LineBreaking {
  /// `result[i]` for `i` in `1..<scalars.count`: whether a line may end after scalar `i - 1`
  /// (an allowed or mandatory break). `result[0]` is false; the array has `scalars.count + 1`
  /// entries, the last true.
  public static func opportunities(_ scalars: [Unicode.Scalar]) -> [Bool] {
    let n = scalars.count
    var out = [Bool](repeating: false, count: n + 1)
    out[n] = true
    if n == 0 { return out }
    LayoutBuilder.initLineBreaking
    // As TextLayout does: regional indicators (flag halves) read as emoji, since Debian 12's
    // libunibreak stops the process on them.
    let text = scalars.map { (0x1F1E6...0x1F1FF).contains($0.value) ? 0x1F600 : $0.value }
    var breaks = [CChar](repeating: CChar(LINEBREAK_NOBREAK), count: n)
    text.withUnsafeBufferPointer { t in
      breaks.withUnsafeMutableBufferPointer { b in set_linebreaks_utf32(t.baseAddress, n, nil, b.baseAddress)
      }
    }
    for i in 1..<n {
      out[i] = breaks[i - 1] == LINEBREAK_ALLOWBREAK || breaks[i - 1] == LINEBREAK_MUSTBREAK
    }
    return out
  }
}
