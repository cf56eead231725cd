/// A bounded map that evicts a little at a time (the CLOCK approximation of least recently
/// used): each entry has a bit set when it is read; when the map is full, a hand sweeps the
/// entries in a ring, clearing set bits, and replaces the first entry it finds clear. An entry
/// read since the hand last passed survives the sweep; a full map never empties at once, so a
/// working set smaller than the capacity stays cached however long the process runs.
///
/// Entries come in with the bit clear: one looked up again before the hand comes round is kept,
/// one never asked for again goes first. Not thread-safe (callers hold a lock).
public struct ClockCache<Key: Hashable, Value> {
  private struct Slot {
    var key: Key
    var value: Value
    var referenced: Bool
    var bytes: Int
  }

  /// The most entries kept.
  public let capacity: Int
  /// The most bytes the values kept may hold, as `insert(_:for:bytes:)` counts them (`Int.max`:
  /// bounded by `capacity` alone).
  public let byteLimit: Int
  /// The bytes of the values kept now, as their insertions counted them.
  public private(set) var bytes = 0
  private var slots: [Slot] = []
  private var index: [Key: Int] = [:]
  private var hand = 0
  /// Entries replaced or removed to make room, since the cache was made.
  public private(set) var evictions = 0

  public init(capacity: Int, byteLimit: Int = .max) {
    precondition(capacity > 0, "a cache holds at least one entry")
    precondition(byteLimit >= 0, "a byte limit is not negative")
    self.capacity = capacity
    self.byteLimit = byteLimit
  }

  public var count: Int { slots.count }

  /// The value for `key`, marking it recently used.
  public mutating func value(for key: Key) -> Value? {
    guard let i = index[key] else { return nil }
    slots[i].referenced = true
    return slots[i].value
  }

  /// Whether `key` is cached, without marking it used.
  public func contains(_ key: Key) -> Bool { index[key] != nil }

  /// Adds or replaces `key`'s value, which holds `bytes` bytes; when full, evicts one entry not
  /// read since the hand's last pass (at most one sweep of the ring finds one: the sweep clears
  /// the bits it passes). Past `byteLimit`, entries the hand finds the same way are removed
  /// until the value fits; a value over the limit by itself is not kept (nor is the key's old
  /// one). The storage grows with the entries (no room is taken for a capacity never used);
  /// once full, replacing an entry allocates nothing.
  public mutating func insert(_ value: Value, for key: Key, bytes: Int = 0) {
    let bytes = max(0, bytes)
    if let i = index[key] {
      if bytes > byteLimit {
        remove(at: i)
        return
      }
      self.bytes += bytes - slots[i].bytes
      slots[i].value = value
      slots[i].bytes = bytes
      while self.bytes > byteLimit && slots.count > 1 { removeOne(sparing: key) }
      return
    }
    if bytes > byteLimit { return }
    while self.bytes + bytes > byteLimit && !slots.isEmpty { removeOne(sparing: nil) }
    self.bytes += bytes
    if slots.count < capacity {
      index[key] = slots.count
      slots.append(Slot(key: key, value: value, referenced: false, bytes: bytes))
      return
    }
    while slots[hand].referenced {
      slots[hand].referenced = false
      hand = (hand + 1) % capacity
    }
    self.bytes -= slots[hand].bytes
    index.removeValue(forKey: slots[hand].key)
    slots[hand] = Slot(key: key, value: value, referenced: false, bytes: bytes)
    index[key] = hand
    hand = (hand + 1) % capacity
    evictions += 1
  }

  /// Removes the entry the hand finds unread (clearing the bits it passes), other than `spared`.
  private mutating func removeOne(sparing spared: Key?) {
    while slots[hand].referenced || slots[hand].key == spared {
      slots[hand].referenced = false
      hand = (hand + 1) % slots.count
    }
    remove(at: hand)
    evictions += 1
  }

  /// Removes slot `i`, moving the last slot into its place.
  private mutating func remove(at i: Int) {
    bytes -= slots[i].bytes
    index.removeValue(forKey: slots[i].key)
    let last = slots.count - 1
    if i != last {
      slots[i] = slots[last]
      index[slots[i].key] = i
    }
    slots.removeLast()
    if hand >= slots.count { hand = 0 }
  }

  /// Removes every entry (the capacity stays).
  public mutating func removeAll() {
    slots.removeAll()
    index.removeAll()
    hand = 0
    bytes = 0
  }
}
