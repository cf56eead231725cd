#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Turns SIGINT and SIGTERM into a readable file descriptor (the self-pipe trick), so that a
/// loop blocked in `poll` wakes up and ends cleanly instead of the process dying mid-frame.
///
/// One watch is active at a time; the previous handlers are restored by `stop()`.
final class SignalWatch {
  /// Readable after a watched signal arrived.
  let readDescriptor: Int32
  private var previous: [Int32: sighandler_t?] = [:]
  private var previousMask = sigset_t()

  init() {
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) != 0 { fds = [-1, -1] }
    readDescriptor = fds[0]
    for fd in fds where fd >= 0 {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    // Touch the globals before a handler can run: their lazy initialisation is not
    // async-signal-safe.
    signalWriteDescriptor = fds[1]
    receivedSignal = 0
    for sig in [SIGINT, SIGTERM] {
      previous[sig] = signal(sig) { sig in
        receivedSignal = sig
        var byte: UInt8 = 1
        _ = write(signalWriteDescriptor, &byte, 1)
      }
    }
    // A parent may have spawned us with these signals blocked (threads of libdispatch's pool
    // block them, and children inherit the mask): unblock them on this thread while watching.
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &set, &previousMask)
  }

  /// The signal received (SIGINT or SIGTERM), or nil.
  var received: Int32? { receivedSignal == 0 ? nil : receivedSignal }

  func stop() {
    pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    for (sig, handler) in previous { _ = signal(sig, handler) }
    previous = [:]
    let w = signalWriteDescriptor
    signalWriteDescriptor = -1
    if w >= 0 { _ = Glibc.close(w) }
    if readDescriptor >= 0 { _ = Glibc.close(readDescriptor) }
  }
}

nonisolated(unsafe) private var signalWriteDescriptor: Int32 = -1
nonisolated(unsafe) private var receivedSignal: Int32 = 0
