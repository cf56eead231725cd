import CX11
import SheenPlatform
import SheenRaster

#if canImport(Glibc)
  import Glibc
#endif

/// Pixels a window presents: a `Surface` and the XImage that describes it to the server.
protocol Framebuffer: AnyObject {
  var surface: Surface { get }
  var size: PixelSize { get }
  /// The MIT-SHM segment, or nil for a plain buffer.
  var segment: ShmSeg? { get }
  /// Sends the pixels to `drawable`. For shared memory the server reads them later: wait for
  /// the completion event (whose segment is `segment`) before writing them again.
  func put(to drawable: Drawable, gc: GC)
}

/// Checks that the server lays an image out as a `Surface` does.
private func checkFormat(_ image: UnsafeMutablePointer<XImage>) throws {
  let i = image.pointee
  guard i.bits_per_pixel == 32, i.byte_order == LSBFirst, i.bytes_per_line % 4 == 0 else {
    throw X11Error.unsupportedImageFormat(
      "\(i.bits_per_pixel) bits per pixel, byte order \(i.byte_order == LSBFirst ? "LSB" : "MSB") first")
  }
}

/// An XImage over a System V shared-memory segment the server reads directly.
///
/// The segment is created owner-only (0600) and marked for removal (`IPC_RMID`) as soon as the
/// server has attached it, so it disappears when both sides detach, even if this process is
/// killed.
final class SharedMemoryFramebuffer: Framebuffer {
  let display: X11Display
  let surface: Surface
  let size: PixelSize
  /// Xlib keeps a pointer to this in the image: it needs a stable address.
  private let info: UnsafeMutablePointer<XShmSegmentInfo>
  private let image: UnsafeMutablePointer<XImage>
  /// The System V id (for tests; already marked for removal).
  let shmID: Int32
  /// A pixmap over the same segment (for Present), or nil.
  private(set) var pixmap: Pixmap?

  var segment: ShmSeg? { info.pointee.shmseg }
  /// - Parameter pixmapFor: a drawable on the screen to make a pixmap over the segment for
  ///   (MIT-SHM shared pixmaps; the server must have them), or nil for none.
  init(display: X11Display, size: PixelSize, pixmapFor drawable: Drawable? = nil) throws {
    let d = display.handle
    let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
    info.initialize(to: XShmSegmentInfo())
    guard
      let image = XShmCreateImage(
        d, display.visual, UInt32(display.depth), ZPixmap, nil, info, UInt32(size.width), UInt32(size.height))
    else {
      info.deallocate()
      throw X11Error.sharedMemory("XShmCreateImage failed for \(size)")
    }
    func destroyImage() {
      image.pointee.data = nil
      image.pointee.obdata = nil  // XDestroyImage would free() our `info`
      XDestroyImage(image)
      info.deallocate()
    }
    do { try checkFormat(image) } catch {
      destroyImage()
      throw error
    }
    let bytes = Int(image.pointee.bytes_per_line) * size.height
    let id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
    guard id >= 0 else {
      let e = errno
      destroyImage()
      throw X11Error.sharedMemory("shmget of \(bytes) bytes failed: \(String(cString: strerror(e)))")
    }
    guard let address = sheen_shmat(id) else {
      let e = errno
      shmctl(id, IPC_RMID, nil)
      destroyImage()
      throw X11Error.sharedMemory("shmat failed: \(String(cString: strerror(e)))")
    }
    info.pointee.shmid = id
    info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
    info.pointee.readOnly = False
    image.pointee.data = info.pointee.shmaddr
    // Attach failures (BadAccess from a remote server) arrive asynchronously: trap and sync.
    var attached = false
    let error = XErrorHandling.trap(d) { attached = XShmAttach(d, info) != 0 }
    // The server has attached (or failed): nothing else will ever need the id.
    shmctl(id, IPC_RMID, nil)
    guard attached, error == nil else {
      shmdt(address)
      destroyImage()
      throw X11Error.sharedMemory(
        "the server could not attach the segment (X error \(error.map(String.init) ?? "none"))")
    }
    do {
      surface = try Surface(
        wrapping: address, width: size.width, height: size.height,
        bytesPerRow: Int(image.pointee.bytes_per_line))
    } catch {
      XShmDetach(d, info)
      XSync(d, False)
      shmdt(address)
      destroyImage()
      throw X11Error.framebuffer("\(error)")
    }
    self.display = display
    self.size = size
    self.info = info
    self.image = image
    shmID = id
    if let drawable {
      let made = XShmCreatePixmap(
        d, drawable, info.pointee.shmaddr, info, UInt32(size.width), UInt32(size.height),
        UInt32(display.depth))
      if made == 0 { throw X11Error.sharedMemory("XShmCreatePixmap failed for \(size)") }
      pixmap = made
    }
  }

  deinit {
    let d = display.handle
    if let pixmap { XFreePixmap(d, pixmap) }
    XShmDetach(d, info)
    XSync(d, False)  // the server's detach is done: the segment is gone once we detach too
    shmdt(info.pointee.shmaddr)
    image.pointee.data = nil
    image.pointee.obdata = nil
    XDestroyImage(image)
    info.deallocate()
  }

  func put(to drawable: Drawable, gc: GC) {
    XShmPutImage(
      display.handle, drawable, gc, image, 0, 0, 0, 0, UInt32(size.width), UInt32(size.height), True)
  }
}

/// An XImage over an ordinary `Surface`, sent with `XPutImage` (the pixels travel through the
/// socket). Used when MIT-SHM is missing or refuses to attach.
final class PlainFramebuffer: Framebuffer {
  let display: X11Display
  let surface: Surface
  let size: PixelSize
  private let image: UnsafeMutablePointer<XImage>
  var segment: ShmSeg? { nil }

  init(display: X11Display, size: PixelSize) throws {
    do {
      surface = try Surface(width: size.width, height: size.height)
    } catch {
      throw X11Error.framebuffer("\(error)")
    }
    let data = UnsafeMutableRawPointer(surface.base).assumingMemoryBound(to: CChar.self)
    guard
      let image = XCreateImage(
        display.handle, display.visual, UInt32(display.depth), ZPixmap, 0, data,
        UInt32(size.width), UInt32(size.height), 32, Int32(surface.bytesPerRow))
    else { throw X11Error.framebuffer("XCreateImage failed for \(size)") }
    do { try checkFormat(image) } catch {
      image.pointee.data = nil
      XDestroyImage(image)
      throw error
    }
    self.display = display
    self.size = size
    self.image = image
  }

  deinit {
    image.pointee.data = nil  // the Surface owns the pixels
    XDestroyImage(image)
  }

  func put(to drawable: Drawable, gc: GC) {
    XPutImage(display.handle, drawable, gc, image, 0, 0, 0, 0, UInt32(size.width), UInt32(size.height))
  }
}
