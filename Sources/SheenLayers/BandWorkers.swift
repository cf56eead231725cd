import Foundation

/// Threads that draw the bands of a frame with the caller's thread: started once, each waits for
/// a frame, draws its band and says so. Unlike `DispatchQueue.concurrentPerform`, a frame
/// allocates nothing (semaphores only), and the threads stay with their bands' caches warm.
final class BandWorkers: @unchecked Sendable {
  /// One per worker: signalled when there is a band to draw (or when the workers stop).
  private let go: [DispatchSemaphore]
  /// Signalled by each worker when its band is drawn.
  private let done = DispatchSemaphore(value: 0)
  /// Draws band i of the current frame.
  private let drawBand: @Sendable (Int) -> Void
  private var stopping = false
  /// How many threads there are.
  let count: Int

  /// Starts `count` worker threads (bands 1...count; the caller draws band 0).
  init(count: Int, work: @escaping @Sendable (Int) -> Void) {
    self.count = count
    self.drawBand = work
    go = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    for i in 0..<count {
      // A POSIX thread, handed its index and an unowned reference through a retained box.
      let start = Unmanaged.passRetained(Start(workers: self, index: i)).toOpaque()
      var thread = pthread_t()
      let made = pthread_create(
        &thread, nil,
        { raw in
          let s = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
          s.workers.serve(s.index)
          return nil
        }, start)
      precondition(made == 0, "cannot start a band thread (pthread_create: \(made))")
      pthread_detach(thread)
    }
  }

  /// What a new thread needs.
  private final class Start {
    unowned let workers: BandWorkers
    let index: Int
    init(workers: BandWorkers, index: Int) {
      self.workers = workers
      self.index = index
    }
  }

  /// A worker's life: draw band i + 1 of each frame, until stopped.
  private func serve(_ i: Int) {
    while true {
      go[i].wait()
      if stopping {
        done.signal()
        return
      }
      drawBand(i + 1)
      done.signal()
    }
  }

  /// Draws bands 0...count: band 0 on this thread, the others on the workers; returns when all
  /// are done.
  func run() {
    for s in go { s.signal() }
    drawBand(0)
    for _ in go { done.wait() }
  }

  /// Stops the threads (each finishes the frame it draws first).
  func stop() {
    stopping = true
    for s in go { s.signal() }
    for _ in go { done.wait() }
  }
}
