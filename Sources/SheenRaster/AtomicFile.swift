import Glibc

// Files written so that what the user had is never lost: a regular file (or a new one) is written
// to a temporary file beside it and renamed over it only when complete, so a failure (disk full,
// a file-size limit) or a signal mid-write leaves the old file whole; a symbolic link keeps
// pointing where it did (the file it points to is replaced); a device node or pipe
// (`/dev/stdout`, a FIFO) is written in place, never replaced.

/// Where the temporary file of the write in progress is, for the signal handler to remove it:
/// a fixed buffer, as a handler may not allocate.
nonisolated(unsafe) private var pendingTemporary = UnsafeMutablePointer<CChar>.allocate(
  capacity: Int(PATH_MAX) + 1)
nonisolated(unsafe) private var pendingActive: sig_atomic_t = 0

/// Removes the temporary file, then dies of the signal as it would have.
private let removeTemporaryAndDie: @convention(c) (Int32) -> Void = { sig in
  if pendingActive != 0 { unlink(pendingTemporary) }
  signal(sig, SIG_DFL)
  raise(sig)
}

/// The signals whose default action ends the process (SIGQUIT, SIGXCPU with a core), each of
/// which must not leave the temporary file behind: kill's default, ^C, a closed terminal, ^\,
/// timers, `ulimit -t`.
private let terminatingSignals: [Int32] = [
  SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF, SIGPIPE,
]

/// Writes a file at `path` through `write`, which writes to the stdio stream it is given and
/// throws on failure.
/// - Throws: `RasterError.imageIO` with what failed; the file at `path`, if any, is untouched.
func writeFileSafely(
  _ path: String, _ write: (UnsafeMutablePointer<FILE>) throws -> Void
) throws {
  func failure(_ what: String, _ code: Int32 = errno) -> RasterError {
    RasterError.imageIO(
      "cannot write '\(path)': \(what)\(code != 0 ? ": " + String(cString: strerror(code)) : "")")
  }
  var target = path
  var st = stat()
  if lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK {
    // Replace what the link points to, keeping the link.
    guard let resolved = realpath(path, nil) else {
      // A dangling link: create the file it names.
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let n = readlink(path, &buffer, Int(PATH_MAX))
      guard n > 0 else { throw failure("cannot read the symbolic link") }
      let link = String(cString: buffer)
      target = link.hasPrefix("/") ? link : directory(of: path) + "/" + link
      return try writeFileSafely(target, write)
    }
    target = String(cString: resolved)
    free(resolved)
  }
  if stat(target, &st) == 0 {
    let kind = st.st_mode & S_IFMT
    if kind == S_IFDIR { throw failure("it is a directory", 0) }
    if kind != S_IFREG {
      // A device or a pipe: written in place.
      guard let f = fopen(target, "wb") else { throw failure("cannot open") }
      do {
        try write(f)
      } catch {
        fclose(f)
        throw error
      }
      if fflush(f) != 0 || ferror(f) != 0 {
        let e = errno
        fclose(f)
        throw failure("write failed", e)
      }
      fclose(f)
      return
    }
  }
  let existingMode: mode_t? = stat(target, &st) == 0 ? st.st_mode & 0o7777 : nil
  let dir = directory(of: target)
  let name = target.split(separator: "/").last.map(String.init) ?? "out"
  var template = Array("\(dir)/.\(name.prefix(200)).XXXXXX".utf8CString)
  guard template.count <= Int(PATH_MAX) else { throw failure("the path is too long", 0) }
  // A signal that ends the process mid-write removes the temporary file: the handler is in
  // place, and the signals held, before the file exists.
  var action = sigaction()
  action.__sigaction_handler.sa_handler = removeTemporaryAndDie
  sigemptyset(&action.sa_mask)
  var held = sigset_t()
  var previousMask = sigset_t()
  sigemptyset(&held)
  for sig in terminatingSignals { sigaddset(&held, sig) }
  sigprocmask(SIG_BLOCK, &held, &previousMask)
  // Only where the signal would end the process as it is (SIG_DFL): a program that ignores or
  // handles it keeps its own way.
  let blank = sigaction()
  var old = Array(repeating: blank, count: terminatingSignals.count)
  var taken = [Bool](repeating: false, count: terminatingSignals.count)
  for (i, sig) in terminatingSignals.enumerated() {
    sigaction(sig, nil, &old[i])
    taken[i] = old[i].__sigaction_handler.sa_handler == nil
    if taken[i] { sigaction(sig, &action, nil) }
  }
  let fd = mkstemp(&template)
  let made = errno
  if fd >= 0 {
    template.withUnsafeBufferPointer { b in pendingTemporary.update(from: b.baseAddress!, count: b.count) }
    pendingActive = 1
  }
  sigprocmask(SIG_SETMASK, &previousMask, nil)
  defer {
    sigprocmask(SIG_BLOCK, &held, nil)
    pendingActive = 0
    for (i, sig) in terminatingSignals.enumerated() where taken[i] { sigaction(sig, &old[i], nil) }
    sigprocmask(SIG_SETMASK, &previousMask, nil)
  }
  guard fd >= 0 else { throw failure("cannot create a temporary file beside it", made) }
  let temporary = String(cString: template)
  func abandon(_ e: Error) -> Error {
    unlink(temporary)
    return e
  }
  // The mode a new file would get (0666 less the umask), or the old file's.
  let mask = umask(0)
  umask(mask)
  fchmod(fd, existingMode ?? (0o666 & ~mask))
  guard let f = fdopen(fd, "wb") else {
    close(fd)
    throw abandon(failure("cannot open the temporary file"))
  }
  do {
    try write(f)
  } catch {
    fclose(f)
    throw abandon(error)
  }
  if fflush(f) != 0 || ferror(f) != 0 || fsync(fd) != 0 {
    let e = errno
    fclose(f)
    throw abandon(failure("write failed", e))
  }
  guard fclose(f) == 0 else { throw abandon(failure("write failed")) }
  guard rename(temporary, target) == 0 else {
    throw abandon(failure("cannot rename the temporary file into place"))
  }
}

private func directory(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}
