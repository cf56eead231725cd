import Foundation
import Synchronization

/// Threads that draw the bands of a frame with the caller's thread: started once, each waits for
/// a frame, draws its band and says so. Unlike `DispatchQueue.concurrentPerform`, a frame
/// allocates nothing, and the threads stay with their bands' caches warm.
///
/// Waking a blocked thread costs tens of microseconds (more in a virtual machine, whose idle
/// processor sleeps), a few percent of a 2 ms frame at each end. So each side spins for a while
/// first: a worker for the next frame (a scrolling frame follows within `workerSpin`), the
/// caller for the last band (the bands end close together). Only then does it block, on a
/// semaphore that the other side signals if, and only if, the waiter said it sleeps.
final class BandWorkers: @unchecked Sendable {
  /// One per worker thread.
  private final class Worker: Sendable {
    /// Signalled when there is a frame (or an order to stop) for a worker that sleeps.
    let wake = DispatchSemaphore(value: 0)
    /// Whether the worker is blocked on `wake`, or about to be.
    let asleep = Atomic<Bool>(false)
  }

  private let workers: [Worker]
  /// Counts the frames posted to the workers.
  private let posted = Atomic<Int>(0)
  /// Bands of the current frame not yet drawn by the workers.
  private let remaining = Atomic<Int>(0)
  /// Signalled by the worker that draws the last band, if the caller sleeps.
  private let done = DispatchSemaphore(value: 0)
  /// Whether the caller is blocked on `done`, or about to be.
  private let callerAsleep = Atomic<Bool>(false)
  private let stopping = Atomic<Bool>(false)
  /// Draws band i of the current frame.
  private let drawBand: @Sendable (Int) -> Void
  /// How many threads there are.
  let count: Int

  /// How long a worker spins for the next frame before it blocks, and the caller for the last
  /// band, in nanoseconds.
  static let workerSpin: UInt64 = 300_000
  static let callerSpin: UInt64 = 1_000_000

  /// Starts `count` worker threads (bands 1...count; the caller draws band 0).
  init(count: Int, work: @escaping @Sendable (Int) -> Void) {
    self.count = count
    self.drawBand = work
    workers = (0..<count).map { _ in Worker() }
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

  /// The monotonic clock, in nanoseconds.
  @inline(__always) private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// A worker's life: draw band i + 1 of each frame, until stopped.
  private func serve(_ i: Int) {
    let me = workers[i]
    var seen = 0
    while true {
      waitForFrame(after: seen, me)
      seen = posted.load(ordering: .sequentiallyConsistent)
      if stopping.load(ordering: .sequentiallyConsistent) {
        finished()
        return
      }
      drawBand(i + 1)
      finished()
    }
  }

  /// Returns once a frame after `seen` is posted: spins for `workerSpin`, then sleeps on the
  /// worker's semaphore, having said so (`post` signals only a worker that says it sleeps, so no
  /// signal is lost or left over).
  private func waitForFrame(after seen: Int, _ me: Worker) {
    let end = BandWorkers.now() + BandWorkers.workerSpin
    while posted.load(ordering: .sequentiallyConsistent) == seen {
      if BandWorkers.now() < end { continue }
      me.asleep.store(true, ordering: .sequentiallyConsistent)
      if posted.load(ordering: .sequentiallyConsistent) != seen {
        // Posted meanwhile: if `post` saw this worker asleep, it signals, and the signal is ours.
        if !me.asleep.exchange(false, ordering: .sequentiallyConsistent) { me.wake.wait() }
      } else {
        me.wake.wait()
      }
      return
    }
  }

  /// A worker's band is drawn: the last one wakes the caller if it sleeps.
  private func finished() {
    if remaining.subtract(1, ordering: .sequentiallyConsistent).newValue == 0,
      callerAsleep.exchange(false, ordering: .sequentiallyConsistent)
    {
      done.signal()
    }
  }

  /// Hands the workers a frame, and wakes those that sleep.
  private func post() {
    remaining.store(count, ordering: .sequentiallyConsistent)
    posted.add(1, ordering: .sequentiallyConsistent)
    for w in workers where w.asleep.exchange(false, ordering: .sequentiallyConsistent) {
      w.wake.signal()
    }
  }

  /// Returns once every worker has drawn its band: spins for `callerSpin`, then sleeps as a
  /// worker does, until the count says so. A wake-up does not prove the frame done: the last
  /// worker of the frame before may have been held up between counting itself done and taking
  /// the flag, and then takes the flag set for this frame and signals (the caller returned while
  /// workers still drew, and a band of the next frame was left undrawn, or the count went wrong
  /// and every thread waited for ever). Each time the flag is set, exactly one signal answers it,
  /// so the waits and the signals stay paired.
  private func waitForWorkers() {
    let end = BandWorkers.now() + BandWorkers.callerSpin
    while remaining.load(ordering: .sequentiallyConsistent) != 0 {
      if BandWorkers.now() < end { continue }
      callerAsleep.store(true, ordering: .sequentiallyConsistent)
      if remaining.load(ordering: .sequentiallyConsistent) == 0 {
        if !callerAsleep.exchange(false, ordering: .sequentiallyConsistent) { done.wait() }
        return
      }
      done.wait()
    }
  }

  /// Draws bands 0...count: band 0 on this thread, the others on the workers; returns when all
  /// are done.
  func run() {
    post()
    drawBand(0)
    waitForWorkers()
  }

  /// Stops the threads (each finishes the frame it draws first).
  func stop() {
    stopping.store(true, ordering: .sequentiallyConsistent)
    post()
    waitForWorkers()
  }
}
