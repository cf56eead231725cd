import CWayland
import CXdgShell
import SheenPlatform
import SheenRaster

#if canImport(Glibc)
  import Glibc
#endif

/// One `wl_buffer` over a memfd mapping, and the `Surface` that draws into it.
///
/// The memfd is closed as soon as the pool is created (libwayland sends a duplicate), so a
/// buffer holds no file descriptor; the mapping and the `wl_buffer` are released on deinit.
final class ShmBuffer {
  let size: PixelSize
  let surface: Surface
  /// The `wl_buffer`.
  let buffer: OpaquePointer
  private let memory: UnsafeMutableRawPointer
  private let length: Int
  /// The buffer scale it was made for (its size is a multiple of it).
  var scale: Int32 = 1
  /// The size in the compositor's logical units it shows at (the viewport's destination when
  /// the scale is fractional).
  var logicalSize = PixelSize(width: 0, height: 0)
  /// True from `attach` until the compositor's `wl_buffer.release`: do not draw into it.
  var isBusy = false

  init(shm: OpaquePointer, size: PixelSize) throws {
    let stride = size.width * 4
    let (length, overflow) = stride.multipliedReportingOverflow(by: size.height)
    guard size.width > 0, size.height > 0, !overflow, length <= Int(Int32.max) else {
      throw WaylandError.framebuffer("invalid buffer size \(size)")
    }
    let fd = sheen_memfd_create("sheen-wl-shm")
    guard fd >= 0 else { throw WaylandError.framebuffer("memfd_create failed: \(errorText())") }
    defer { Glibc.close(fd) }
    guard ftruncate(fd, off_t(length)) == 0 else {
      throw WaylandError.framebuffer("ftruncate to \(length) bytes failed: \(errorText())")
    }
    // The compositor maps the same file: it must never shrink under it.
    _ = sheen_seal_shrink(fd)
    guard let memory = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED
    else { throw WaylandError.framebuffer("mmap of \(length) bytes failed: \(errorText())") }
    guard let pool = wl_shm_create_pool(shm, fd, Int32(length)) else {
      munmap(memory, length)
      throw WaylandError.framebuffer("wl_shm.create_pool failed")
    }
    let buffer = wl_shm_pool_create_buffer(
      pool, 0, Int32(size.width), Int32(size.height), Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue)
    // The buffer keeps the pool's memory: the pool itself is no longer needed.
    wl_shm_pool_destroy(pool)
    guard let buffer else {
      munmap(memory, length)
      throw WaylandError.framebuffer("wl_shm_pool.create_buffer failed")
    }
    do {
      surface = try Surface(wrapping: memory, width: size.width, height: size.height, bytesPerRow: stride)
    } catch {
      wl_buffer_destroy(buffer)
      munmap(memory, length)
      throw WaylandError.framebuffer("\(error)")
    }
    self.size = size
    self.buffer = buffer
    self.memory = memory
    self.length = length
    wl_buffer_add_listener(buffer, bufferListener, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    // Destroying the proxy first guarantees no release event reaches a dead object.
    wl_buffer_destroy(buffer)
    munmap(memory, length)
  }
}

private func errorText() -> String { String(cString: strerror(errno)) }

nonisolated(unsafe) private let bufferListener: UnsafeMutablePointer<wl_buffer_listener> = {
  let p = UnsafeMutablePointer<wl_buffer_listener>.allocate(capacity: 1)
  p.initialize(
    to: wl_buffer_listener(release: { data, _ in
      Unmanaged<ShmBuffer>.fromOpaque(data!).takeUnretainedValue().isBusy = false
    }))
  return p
}()
