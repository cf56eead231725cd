import SheenRaster

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a `FrameLoop` drives: receives events, draws frames, says whether it animates.
public protocol FrameLoopClient: AnyObject {
  /// Called for each event just before the frame it affects is drawn, after motion compression
  /// (only the latest pointer position of each run of moves). Any event causes one frame.
  func handle(_ event: PlatformEvent)
  /// Draws a whole frame into `surface` (which has the window's current size).
  func draw(into surface: Surface, frame: FrameLoop.FrameInfo)
  /// True while something moves. When false and no input arrives, the loop idles: no frames.
  var isAnimating: Bool { get }
  /// The cursor to show with the pointer at `point` (window pixels), asked after each frame
  /// drawn while the pointer is over the window (the content may have moved under it). The
  /// default is the arrow everywhere.
  func cursor(at point: Point) -> CursorShape
  /// Work for the time between frames (cells made ahead of scrolling): pieces started only
  /// before `deadline` (on `monotonicSeconds()`'s clock). Returns true when more remains. The
  /// loop calls it after presenting a frame, with the time the next is due, and while nothing
  /// moves, a frame's time at a time. The default has none.
  func performIdleWork(until deadline: Double) -> Bool
}

extension FrameLoopClient {
  public func cursor(at point: Point) -> CursorShape { .arrow }
  public func performIdleWork(until deadline: Double) -> Bool { false }
}

/// Drives a `PlatformWindow` and a `FrameLoopClient`: waits for input or the next frame time,
/// then draws and presents.
public final class FrameLoop {
  /// Information handed to `draw`.
  public struct FrameInfo: Sendable {
    /// Frames drawn before this one.
    public var index: Int
    /// Seconds since the loop started (monotonic).
    public var time: Double

    public init(index: Int, time: Double) {
      self.index = index
      self.time = time
    }
  }

  /// Why `run()` returned.
  public enum StopReason: Equatable, Sendable {
    /// The window received a close request (as from a window manager's close button).
    case closeRequested
    /// SIGINT or SIGTERM arrived.
    case signal(Int32)
    /// `maxFrames` frames were drawn.
    case frameLimit
    /// `stop()` was called.
    case stopped
  }

  public let window: PlatformWindow
  public unowned let client: FrameLoopClient
  /// Target frames per second; 0 draws as fast as possible.
  public var framesPerSecond: Double
  /// Stop after this many frames (for tests and benchmarks).
  public var maxFrames: Int?
  /// Called with each event before the client sees it (for logging).
  public var eventObserver: ((PlatformEvent) -> Void)?
  /// Frames drawn so far.
  public private(set) var framesDrawn = 0

  private var needsDisplay = true
  private var stopRequested = false
  /// Where the pointer is over the window (nil: outside, or not known yet).
  private var pointer: Point?
  /// The cursor last set on the window (nil: none yet, the window's default).
  public private(set) var cursor: CursorShape?

  /// - Parameters:
  ///   - framesPerSecond: target rate, 60 by default; 0 means as fast as possible.
  ///   - maxFrames: stop after this many frames (nil: no limit).
  public init(
    window: PlatformWindow, client: FrameLoopClient, framesPerSecond: Double = 60, maxFrames: Int? = nil
  ) {
    self.window = window
    self.client = client
    self.framesPerSecond = framesPerSecond
    self.maxFrames = maxFrames
  }

  /// Schedules one frame even if nothing animates.
  public func setNeedsDisplay() { needsDisplay = true }

  /// Makes `run()` return after the current iteration.
  public func stop() { stopRequested = true }

  /// Runs until a close request, SIGINT/SIGTERM, the frame limit, or `stop()`. SIGINT and SIGTERM
  /// are caught only while this runs. Does not close the window: the caller does.
  public func run() throws -> StopReason {
    let signals = SignalWatch()
    defer { signals.stop() }
    let start = monotonicSeconds()
    let interval = framesPerSecond > 0 ? 1 / framesPerSecond : 0
    var nextFrame = start
    stopRequested = false

    var pending: [PlatformEvent] = []
    // The client has work for the time between frames.
    var idleWork = false
    // What a piece of idle work leaves before a frame is due (presenting and events).
    let idleMargin = 0.002

    while true {
      pending += window.pollEvents()
      if let sig = signals.received { return .signal(sig) }
      if stopRequested { return .stopped }
      if let maxFrames, framesDrawn >= maxFrames { return .frameLimit }

      let wantsFrame = !pending.isEmpty || needsDisplay || client.isAnimating
      let now = monotonicSeconds()
      guard wantsFrame && now >= nextFrame else {
        if idleWork {
          // Idle work until the next frame is due (a frame's time when none is), then events.
          let until = wantsFrame ? nextFrame - idleMargin : now + max(interval, 1.0 / 60) - idleMargin
          if until > now {
            idleWork = client.performIdleWork(until: until)
            continue
          }
        }
        let timeout = wantsFrame ? max(0, nextFrame - now) : nil
        window.waitForEvents(timeout: timeout, wakeDescriptor: signals.readDescriptor)
        continue
      }
      // Events are handed over once per frame, so only the latest motion of each run is seen.
      for event in PlatformEvent.compressingMotion(pending) {
        eventObserver?(event)
        if event == .closeRequest { return .closeRequested }
        trackPointer(event)
        client.handle(event)
      }
      pending.removeAll(keepingCapacity: true)

      let surface = try window.framebuffer()
      client.draw(into: surface, frame: FrameInfo(index: framesDrawn, time: now - start))
      window.present()
      updateCursor()
      framesDrawn += 1
      needsDisplay = false
      // Keep the cadence, but never try to catch up on frames missed while idle or slow.
      nextFrame += interval
      let after = monotonicSeconds()
      if nextFrame < after { nextFrame = after }
      // What the frame left of its time goes to idle work (uncapped, there is none until
      // nothing moves).
      let until = nextFrame - idleMargin
      idleWork = interval > 0 && until > monotonicSeconds() ? client.performIdleWork(until: until) : true
    }
  }
}

extension FrameLoop {
  /// Follows the pointer through the events (a touch moves no pointer).
  fileprivate func trackPointer(_ event: PlatformEvent) {
    switch event {
    case .pointerEnter(let p), .pointerMove(let p, _), .pointerDown(let p, _, _), .pointerUp(let p, _, _):
      pointer = p
    case .scroll(_, let p, _), .smoothScroll(_, let p, _):
      pointer = p
    case .pointerLeave:
      pointer = nil
    default:
      break
    }
  }

  /// Asks the client for the cursor under the pointer and shows it when it changed.
  fileprivate func updateCursor() {
    guard let pointer else { return }
    let wanted = client.cursor(at: pointer)
    if wanted != cursor {
      cursor = wanted
      window.setCursor(wanted)
    }
  }
}

/// Seconds on the monotonic clock.
public func monotonicSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
