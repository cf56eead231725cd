import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decoded image files, each decoded once and shared by whatever shows it, within a memory
/// budget: past it (or past `maxEntries` files), the images used longest ago are let go (a
/// list of ten thousand photos holds only the recent ones; an image still shown stays alive
/// with whoever shows it, and is decoded again only if asked for after it was let go).
///
/// An entry is keyed by the file's path, size and modification time, so a file that changed is
/// read again.
public final class ImageFileCache: Sendable {
  /// The cache of scene files and `UIImage(contentsOfFile:)`: 32 MiB of decoded pixels (eight
  /// 1024 × 1024 photos, or a screenful of thumbnails many times over; an image shown stays
  /// alive with its view whatever the cache lets go), 4096 files.
  public static let shared = ImageFileCache(budget: 32 << 20, maxEntries: 4096)

  struct Key: Hashable {
    let path: String
    let size: Int
    let seconds: Int
    let nanoseconds: Int
  }

  private struct Entry {
    let image: RasterImage
    var lastUse: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var clock: UInt64 = 0
    var bytes = 0
    var decodes = 0
  }

  private let state = Mutex(State())
  public let budget: Int
  public let maxEntries: Int

  public init(budget: Int, maxEntries: Int) {
    self.budget = budget
    self.maxEntries = maxEntries
  }

  /// The image in the file at `path`, decoded now or earlier.
  /// - Throws: `RasterError.imageIO` with the reason it cannot be read or decoded.
  public func image(atPath path: String) throws -> RasterImage {
    var st = stat()
    guard stat(path, &st) == 0 else { throw RasterError.imageIO(String(cString: strerror(errno))) }
    if (st.st_mode & S_IFMT) == S_IFDIR { throw RasterError.imageIO("is a folder") }
    let key = Key(
      path: path, size: Int(st.st_size), seconds: Int(st.st_mtim.tv_sec), nanoseconds: Int(st.st_mtim.tv_nsec)
    )
    let hit = state.withLock { s -> RasterImage? in
      s.clock += 1
      guard let i = s.entries.index(forKey: key) else { return nil }
      s.entries.values[i].lastUse = s.clock
      return s.entries.values[i].image
    }
    if let hit { return hit }
    let image = try RasterImage(contentsOfFile: path)
    state.withLock { s in
      s.clock += 1
      s.decodes += 1
      if let old = s.entries.updateValue(Entry(image: image, lastUse: s.clock), forKey: key) {
        s.bytes -= old.image.width * old.image.height * 4
      }
      s.bytes += image.width * image.height * 4
      while (s.bytes > budget || s.entries.count > maxEntries) && s.entries.count > 1 {
        guard let oldest = s.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
        s.entries[oldest.key] = nil
        s.bytes -= oldest.value.image.width * oldest.value.image.height * 4
      }
    }
    return image
  }

  /// Bytes of decoded pixels held, files held, and files decoded since the cache was made.
  public var statistics: (bytes: Int, count: Int, decodes: Int) {
    state.withLock { ($0.bytes, $0.entries.count, $0.decodes) }
  }

  /// Lets every image go.
  public func removeAll() {
    state.withLock { s in
      s.entries.removeAll()
      s.bytes = 0
    }
  }
}
