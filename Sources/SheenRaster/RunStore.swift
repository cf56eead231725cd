// Memory for the run images a raster cache keeps (issue 17): one anonymous mapping of a fixed
// size, reserved once and touched only as it is used, cut into blocks (freed blocks merged with
// their free neighbours). Making and letting go of cached bitmaps frame after frame then
// allocates nothing from the heap and scatters nothing in it.
//
// Pages the store has written stay resident until it gives them back (`madvise(MADV_DONTNEED)`).
// It counts them, a bit a page, and gives back the whole free pages that have stayed free for
// `keptTicks` ticks (its owner ticks it once a frame): a scroll's bitmaps are let go as rows leave
// and new ones made as rows come, and the pages just freed are written again by the next ones
// without faulting, while a screen at rest holds no free page resident after a few seconds.
// Pages are given back only when the store really shrank: it remembers the most and the least it
// held in the last `window` ticks, and keeps free pages resident up to the most plus that swing
// (room for the holes between blocks: a scroll that holds 2 to 3.6 MB by turns writes its blocks
// over about 4.7 MB), so a steady scroll faults no page in; once what it holds stops swinging (a
// screen at rest, or a list that became smaller), the free pages go back after `keptTicks`
// ticks. Free pages resident more than `slack` past that allowance are given back at once, from
// the highest address down, to half the slack past it. A block goes where its pages are
// resident if any free range has room so, else where the fewest are not (the lowest such range).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Blocks of one fixed mapping (see the top of this file). Not thread-safe: its owner locks.
public final class RunStore: @unchecked Sendable {
  /// Bytes of the mapping.
  public let capacity: Int
  let base: UnsafeMutableRawPointer
  /// Free ranges, by address, never touching each other (merged).
  private var free: [(start: Int, count: Int)] = []
  /// Bytes in blocks handed out.
  public private(set) var used = 0
  /// The highest address ever handed out.
  public private(set) var highWater = 0
  /// A bit for each page written since it was last given back (so resident).
  private var written: [UInt64]
  /// For each page, the tick at which a block over it was last let go.
  private var freedAt: [UInt32]
  /// Ticks so far.
  private var clock: UInt32 = 1
  /// Pages written and not given back.
  public private(set) var residentPages = 0
  /// Pages handed out that were not resident (each a page fault when written), over the
  /// store's life.
  public private(set) var pagesFaulted = 0
  /// Pages given back to the system, over the store's life.
  public private(set) var pagesGivenBack = 0
  /// Ticks a whole free page stays resident (to be written again without faulting) before it
  /// is given back.
  public var keptTicks: Int
  /// The most free bytes kept resident beyond the swing's allowance: past them free pages are
  /// given back at once.
  public var slack: Int
  /// Ticks over which the bytes held are remembered, this one included (see the top of this
  /// file; 1 remembers nothing).
  public let window: Int
  /// The bytes held at each of the last `window - 1` ticks (a ring), and the most and least of
  /// them as of the last tick (none: `Int.min` and `Int.max`).
  private var heldAtTick: [Int]
  private var ringNext = 0
  private var recentMost = Int.min
  private var recentLeast = Int.max

  /// Blocks are multiples of this many bytes (and so aligned to it).
  static let granule = 64
  /// The system's page (what is resident or given back).
  public static let page = 4096
  /// `keptTicks` by default: half a second of frames at 60 Hz.
  public static let defaultKeptTicks = 30
  /// `slack` by default: two of the largest bitmaps the demo makes at 1920x1080 (rows of cards
  /// of about 1 MB), what its scroll makes and lets go of within a few frames.
  public static let defaultSlack = 2 << 20
  /// `window` by default: five seconds of frames at 60 Hz.
  public static let defaultWindow = 300

  /// A store of `capacity` bytes (rounded up to a page), or nil when the system has no memory
  /// for it.
  public init?(
    capacity: Int, keptTicks: Int = RunStore.defaultKeptTicks, slack: Int = RunStore.defaultSlack,
    window: Int = RunStore.defaultWindow
  ) {
    let page = RunStore.page
    let size = max(page, (capacity + page - 1) / page * page)
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      guard let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        p != MAP_FAILED
      else { return nil }
      base = p
    #else
      base = .allocate(byteCount: size, alignment: page)
    #endif
    self.capacity = size
    self.keptTicks = max(0, keptTicks)
    self.slack = max(0, slack)
    self.window = max(1, window)
    heldAtTick = Array(repeating: 0, count: self.window - 1)
    written = Array(repeating: 0, count: (size / page + 63) / 64)
    freedAt = Array(repeating: 0, count: size / page)
    free.reserveCapacity(256)
    free.append((0, size))
  }

  deinit {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      munmap(base, capacity)
    #else
      base.deallocate()
    #endif
  }

  /// Bytes of the store's pages resident (written and not given back).
  public var residentBytes: Int { residentPages * RunStore.page }

  /// The size a request of `bytes` takes.
  static func rounded(_ bytes: Int) -> Int { max(granule, (bytes + granule - 1) / granule * granule) }

  private func isWritten(_ p: Int) -> Bool { written[p >> 6] & (UInt64(1) << UInt64(p & 63)) != 0 }

  /// A block of at least `bytes` bytes (its offset; `pointer(at:)` reaches it), or nil when no
  /// free range is large enough: in the first free range where its pages are all resident, else
  /// the first where the fewest are not.
  public func allocate(_ bytes: Int) -> Int? {
    let n = RunStore.rounded(bytes)
    var best = -1
    var fewest = Int.max
    for k in free.indices where free[k].count >= n {
      let missing = pagesNotResident(free[k].start, n)
      if missing < fewest {
        best = k
        fewest = missing
        if missing == 0 { break }
      }
    }
    guard best >= 0 else { return nil }
    let start = free[best].start
    if free[best].count == n {
      free.remove(at: best)
    } else {
      free[best].start += n
      free[best].count -= n
    }
    used += n
    highWater = max(highWater, start + n)
    markWritten(start, n)
    return start
  }

  /// How many pages of `count` bytes from `start` are not resident.
  private func pagesNotResident(_ start: Int, _ count: Int) -> Int {
    var missing = 0
    var p = start / RunStore.page
    let last = (start + count - 1) / RunStore.page
    while p <= last {
      if !isWritten(p) { missing += 1 }
      p += 1
    }
    return missing
  }

  /// Counts the pages of `count` bytes from `start` as resident.
  private func markWritten(_ start: Int, _ count: Int) {
    var p = start / RunStore.page
    let last = (start + count - 1) / RunStore.page
    while p <= last {
      if !isWritten(p) {
        written[p >> 6] |= UInt64(1) << UInt64(p & 63)
        residentPages += 1
        pagesFaulted += 1
      }
      p += 1
    }
  }

  /// Gives back the block at `offset` that `allocate(bytes)` handed out.
  public func release(_ offset: Int, bytes: Int) {
    let n = RunStore.rounded(bytes)
    used -= n
    // The first free range after the block.
    var k = 0
    while k < free.count && free[k].start < offset { k += 1 }
    let joinsBefore = k > 0 && free[k - 1].start + free[k - 1].count == offset
    let joinsAfter = k < free.count && offset + n == free[k].start
    switch (joinsBefore, joinsAfter) {
    case (true, true):
      free[k - 1].count += n + free[k].count
      free.remove(at: k)
    case (true, false): free[k - 1].count += n
    case (false, true):
      free[k].start = offset
      free[k].count += n
    case (false, false): free.insert((offset, n), at: k)
    }
    for p in offset / RunStore.page...(offset + n - 1) / RunStore.page { freedAt[p] = clock }
    let allowance = swingAllowance
    if residentBytes - used > allowance + slack {
      giveBack(freedBefore: clock + 1, downTo: allowance + slack / 2)
    }
  }

  /// Free bytes kept resident for what the store held lately: up to the most it held in the last
  /// `window` ticks (or now) plus the swing from the least (room for the holes between blocks);
  /// 0 once what it holds stopped swinging.
  public var swingAllowance: Int {
    let most = max(recentMost, used)
    let least = min(recentLeast, used)
    if most == least { return 0 }
    return most + (most - least) - used
  }

  /// The memory of the block at `offset`.
  public func pointer(at offset: Int) -> UnsafeMutableRawPointer { base + offset }

  /// The largest block `allocate` could hand out now.
  public var largestFree: Int { free.reduce(0) { max($0, $1.count) } }

  /// Runs of `surface` measured by `m`, in a block of this store (nil when no free range is
  /// large enough): the image and its block's offset, to `release` when the image is let go.
  public func make(_ surface: Surface, _ m: RunImage.Measure) -> (image: RunImage, offset: Int)? {
    guard let offset = allocate(m.bytes) else { return nil }
    return (RunImage(surface, m, into: pointer(at: offset), owner: self), offset)
  }

  /// One tick (a frame): whole free pages free for `keptTicks` ticks are given back.
  public func tick() {
    clock &+= 1
    // What is held now, remembered for `window` ticks (the ring starts full of the first
    // tick's).
    if heldAtTick.isEmpty { return giveBackAged() }
    if clock == 2 { heldAtTick.withUnsafeMutableBufferPointer { $0.update(repeating: used) } }
    heldAtTick[ringNext] = used
    ringNext = ringNext + 1 == heldAtTick.count ? 0 : ringNext + 1
    recentMost = used
    recentLeast = used
    for h in heldAtTick {
      recentMost = max(recentMost, h)
      recentLeast = min(recentLeast, h)
    }
    giveBackAged()
  }

  /// Gives back the whole free pages free for `keptTicks` ticks, past the swing's allowance.
  private func giveBackAged() {
    if residentBytes > used, clock > UInt32(keptTicks) {
      giveBack(freedBefore: clock - UInt32(keptTicks), downTo: swingAllowance)
    }
  }

  /// Hands every whole free page back to the system.
  public func releaseFreePages() { giveBack(freedBefore: clock + 1, downTo: 0) }

  /// Hands whole free pages let go before tick `freedBefore` back to the system, the free ranges
  /// from the highest address down and each from its top, until the free bytes resident are at
  /// most `target` (or none is left to give).
  private func giveBack(freedBefore: UInt32, downTo target: Int) {
    let page = RunStore.page
    var k = free.count - 1
    while k >= 0 && residentBytes - used > target {
      let first = (free[k].start + page - 1) / page
      var p = (free[k].start + free[k].count) / page
      k -= 1
      // Resident pages of the range, given back in stretches (one call each).
      while p > first && residentBytes - used > target {
        guard isWritten(p - 1), freedAt[p - 1] < freedBefore else {
          p -= 1
          continue
        }
        let end = p
        while p > first && isWritten(p - 1) && freedAt[p - 1] < freedBefore && residentBytes - used > target {
          p -= 1
          written[p >> 6] &= ~(UInt64(1) << UInt64(p & 63))
          residentPages -= 1
        }
        pagesGivenBack += end - p
        #if canImport(Glibc) || canImport(Musl)
          _ = madvise(base + p * page, (end - p) * page, MADV_DONTNEED)
        #elseif canImport(Darwin)
          _ = madvise(base + p * page, (end - p) * page, MADV_FREE)
        #endif
      }
    }
  }
}
