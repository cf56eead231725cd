import CHarfBuzz
import Glibc
import Synchronization

/// Font files mapped into memory (read-only, private), so that the pages of a file that are
/// touched (the tables HarfBuzz reads, the outlines of the glyphs drawn) come from the page
/// cache and nothing is copied.
///
/// Mapped pages count in the resident set while they stay mapped: a big collection such as Noto
/// CJK (19 MB) had 5-8 MB resident after shaping and rasterizing a few hundred glyphs, each page
/// fault mapping its neighbours too (the kernel's fault-around). Once the layouts are cached
/// and the glyph masks are too, those pages are not read again; `releasePages()` drops them from
/// this process (they stay in the page cache and come back on the next read, as a minor fault).
enum FontFileMapping {
  private struct Mapping: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let length: Int
  }

  private static let live = Mutex<[Mapping]>([])

  /// A blob over the whole file at `path`, mapped; nil when the file cannot be opened or mapped
  /// (a folder, a device, no permission). An empty file gives HarfBuzz's empty blob.
  static func blob(path: String) -> OpaquePointer? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
    let length = Int(st.st_size)
    if length == 0 { return hb_blob_get_empty() }
    // HarfBuzz lengths are 32-bit.
    guard length <= Int(UInt32.max), let base = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0),
      base != MAP_FAILED
    else { return nil }
    live.withLock { $0.append(Mapping(base: base, length: length)) }
    let box = Unmanaged.passRetained(MappingBox(base: base, length: length)).toOpaque()
    return hb_blob_create(
      base.assumingMemoryBound(to: CChar.self), UInt32(length), HB_MEMORY_MODE_READONLY, box,
      { user in
        guard let user else { return }
        let m = Unmanaged<MappingBox>.fromOpaque(user).takeRetainedValue()
        FontFileMapping.live.withLock { list in list.removeAll { $0.base == m.base } }
        munmap(m.base, m.length)
      })
  }

  private final class MappingBox {
    let base: UnsafeMutableRawPointer
    let length: Int
    init(base: UnsafeMutableRawPointer, length: Int) {
      self.base = base
      self.length = length
    }
  }

  /// Drops every mapped font page from this process's resident set (MADV_DONTNEED: the file's
  /// clean pages are unmapped from the process and read again from the page cache if touched).
  /// Safe while other threads read the fonts: a read after it faults the same bytes back in.
  static func releasePages() {
    live.withLock { list in
      for m in list { _ = madvise(m.base, m.length, MADV_DONTNEED) }
    }
  }
}

extension Font {
  /// Hands the pages of mapped font files back to the system (see `FontFileMapping`): called
  /// once the caches are warm and frames have been quiet for a while, as `malloc_trim` is.
  public static func releaseMappedPages() { FontFileMapping.releasePages() }
}
