// Memory for the run images a raster cache keeps (issue 17): one anonymous mapping of a fixed
// size, reserved once and touched only as it is used, cut into blocks first fit (the lowest
// addresses first, so the pages the cache has ever touched stay as few as the most it held),
// freed blocks merged with their free neighbours. Making and letting go of cached bitmaps frame
// after frame then allocates nothing from the heap and scatters nothing in it.

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
  /// The highest address ever handed out: the pages the store may hold resident.
  public private(set) var highWater = 0

  /// Blocks are multiples of this many bytes (and so aligned to it).
  static let granule = 64

  /// A store of `capacity` bytes (rounded up to a page), or nil when the system has no memory
  /// for it.
  public init?(capacity: Int) {
    let page = 4096
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

  /// The size a request of `bytes` takes.
  static func rounded(_ bytes: Int) -> Int { max(granule, (bytes + granule - 1) / granule * granule) }

  /// A block of at least `bytes` bytes (its offset; `pointer(at:)` reaches it), the first free
  /// range it fits in, or nil when none is large enough.
  public func allocate(_ bytes: Int) -> Int? {
    let n = RunStore.rounded(bytes)
    for k in free.indices where free[k].count >= n {
      let start = free[k].start
      if free[k].count == n {
        free.remove(at: k)
      } else {
        free[k].start += n
        free[k].count -= n
      }
      used += n
      highWater = max(highWater, start + n)
      return start
    }
    return nil
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

  /// Hands the pages of free ranges back to the system (after the cache let go of much).
  public func releaseFreePages() {
    #if canImport(Glibc) || canImport(Musl)
      let page = 4096
      for r in free {
        let first = (r.start + page - 1) / page * page
        let last = (r.start + r.count) / page * page
        if last > first { _ = madvise(base + first, last - first, MADV_DONTNEED) }
      }
      highWater = free.last.map { $0.start + $0.count == capacity ? $0.start : capacity } ?? capacity
    #endif
  }
}
