import Foundation
import SheenRaster
import Synchronization

/// A table kept from frame to frame, for the shadow and coverage caches: locked, since the bands
/// of a frame look things up on several threads; at the end of a frame, once it holds more than
/// its budget (bytes or entries), the entries not used in the last two frames go.
final class FrameCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private struct Entry {
    let value: Value
    let bytes: Int
    var lastUsed: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var frame: UInt64 = 0
    var bytes = 0
  }

  private let state = Mutex(State())
  /// Keys being made (`value(for:making:)`), and the condition their waiters sleep on: a few at
  /// once at most, one per band.
  private let making = NSCondition()
  nonisolated(unsafe) private var pending: [Key] = []
  /// Memory the table may hold before unused entries are dropped.
  let budget: Int
  let maxEntries: Int

  init(budget: Int, maxEntries: Int) {
    self.budget = budget
    self.maxEntries = maxEntries
  }

  /// The value kept for `key`, marked as used in this frame (one hash: updated in place).
  func value(for key: Key) -> Value? {
    state.withLock { st in
      guard let i = st.entries.index(forKey: key) else { return nil }
      st.entries.values[i].lastUsed = st.frame
      return st.entries.values[i].value
    }
  }

  /// The value kept for `key`, or else the one `make` makes (with the bytes it holds), kept. Bands
  /// of a frame drawn at once that miss the same key make it once: the first makes it while the
  /// others wait for it, so the work a frame counts (shapes rasterized, shadows worked out) and
  /// does depends neither on where the bands meet nor on how their threads run. `make` may make
  /// nothing (nil: nothing is kept, and a band that waited makes its own). No lock is held while
  /// `make` runs, so it may make other keys; a key's making cannot wait on itself, since what
  /// makes a value never needs that value.
  func value(for key: Key, making make: () -> (value: Value, bytes: Int)?) -> Value? {
    if let v = value(for: key) { return v }
    making.lock()
    while pending.contains(key) { making.wait() }
    // Made while this band waited, or between the lookup above and the lock (stored before the
    // maker lets go of the key, so it is found here).
    if let v = value(for: key) {
      making.unlock()
      return v
    }
    pending.append(key)
    making.unlock()
    let made = make()
    if let made { store(made.value, bytes: made.bytes, for: key) }
    making.lock()
    if let i = pending.firstIndex(of: key) { pending.swapAt(i, pending.count - 1) }
    pending.removeLast()
    making.broadcast()
    making.unlock()
    return made?.value
  }

  /// Keeps `value`, which holds `bytes` bytes, for `key`.
  func store(_ value: Value, bytes: Int, for key: Key) {
    state.withLock { st in
      let old = st.entries.updateValue(Entry(value: value, bytes: bytes, lastUsed: st.frame), forKey: key)
      st.bytes += bytes - (old?.bytes ?? 0)
    }
  }

  /// Bytes held.
  var bytes: Int { state.withLock { $0.bytes } }

  /// Entries held.
  var count: Int { state.withLock { $0.entries.count } }

  /// Ends a frame: drops entries not used recently when over budget.
  func endFrame() {
    state.withLock { st in
      st.frame += 1
      if st.bytes <= budget && st.entries.count < maxEntries { return }
      for (k, e) in st.entries where e.lastUsed + 2 < st.frame {
        st.entries[k] = nil
        st.bytes -= e.bytes
      }
    }
  }
}

/// Splits a device translation into whole pixels and a fraction in `steps`ths of a pixel (what
/// the caches key by, so that a shape moved by whole pixels finds its entry); nil beyond
/// `maxSnapped` pixels or when not finite (a huge frame, or a far one scaled down: the shape is
/// then drawn without the cache, where converting to Int used to trap).
func snapTranslation(_ v: Double, steps: Double) -> (whole: Int, fraction: Int)? {
  guard v.isFinite, v.magnitude < maxSnapped else { return nil }
  let q = (v * steps).rounded()
  let whole = (q / steps).rounded(.down)
  return (Int(whole), Int(q - whole * steps))
}

/// Device translations the caches key by stay within this many pixels.
let maxSnapped = 1e9
