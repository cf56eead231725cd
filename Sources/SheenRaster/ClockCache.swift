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
  }

  /// The most entries kept.
  public let capacity: Int
  private var slots: [Slot] = []
  private var index: [Key: Int] = [:]
  private var hand = 0
  /// Entries replaced to make room, since the cache was made.
  public private(set) var evictions = 0

  public init(capacity: Int) {
    precondition(capacity > 0, "a cache holds at least one entry")
    self.capacity = capacity
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

  /// Adds or replaces `key`'s value; when full, evicts one entry not read since the hand's last
  /// pass (at most one sweep of the ring finds one: the sweep clears the bits it passes). The
  /// storage grows with the entries (no room is taken for a capacity never used); once full,
  /// replacing an entry allocates nothing.
  public mutating func insert(_ value: Value, for key: Key) {
    if let i = index[key] {
      slots[i].value = value
      return
    }
    if slots.count < capacity {
      index[key] = slots.count
      slots.append(Slot(key: key, value: value, referenced: false))
      return
    }
    while slots[hand].referenced {
      slots[hand].referenced = false
      hand = (hand + 1) % capacity
    }
    index.removeValue(forKey: slots[hand].key)
    slots[hand] = Slot(key: key, value: value, referenced: false)
    index[key] = hand
    hand = (hand + 1) % capacity
    evictions += 1
  }

  /// Removes every entry (the capacity stays).
  public mutating func removeAll() {
    slots.removeAll()
    index.removeAll()
    hand = 0
  }
}
