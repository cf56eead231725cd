import Foundation
import SheenPlatform
import SheenRaster
import Testing

/// A window without a windowing system: events are scripted, waits are recorded.
final class FakeWindow: PlatformWindow {
  var title = "fake"
  var size = PixelSize(width: 8, height: 4)
  let surface = try! Surface(width: 8, height: 4)
  /// Event batches handed out by successive `pollEvents` calls after a wait.
  var script: [[PlatformEvent]] = []
  var waits: [Double?] = []
  var presents = 0
  private var ready: [PlatformEvent] = []

  func framebuffer() throws -> Surface { surface }
  func present() { presents += 1 }
  func pollEvents() -> [PlatformEvent] {
    defer { ready = [] }
    return ready
  }
  func waitForEvents(timeout: Double?, wakeDescriptor: Int32?) {
    waits.append(timeout)
    if !script.isEmpty {
      ready = script.removeFirst()
      return
    }
    // Nothing scripted: wait as a real window would (bounded, so a bug cannot hang the test).
    var p = pollfd(fd: wakeDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
    let ms = timeout.map { Int32($0 * 1000) } ?? 200
    _ = poll(&p, 1, ms)
    if timeout == nil { ready = [.closeRequest] }  // idle forever: end the test
  }
  func close() {}
}

final class RecordingClient: FrameLoopClient {
  var events: [PlatformEvent] = []
  var frames: [FrameLoop.FrameInfo] = []
  var isAnimating = false
  var onDraw: ((Int) -> Void)?

  func handle(_ event: PlatformEvent) { events.append(event) }
  func draw(into surface: Surface, frame: FrameLoop.FrameInfo) {
    frames.append(frame)
    onDraw?(frames.count)
  }
}

/// Serialized: a frame loop catches SIGINT/SIGTERM process-wide while it runs, so two loops at
/// once would share one signal pipe.
@Suite(.serialized) struct FrameLoopTests {
  let none: Modifiers = []

  @Test func motionCompressionKeepsTheLastMoveOfEachRun() {
    let m = { (x: Double) in PlatformEvent.pointerMove(Point(x: x, y: 0), modifiers: []) }
    let down = PlatformEvent.pointerDown(Point(x: 3, y: 0), button: .left, modifiers: [])
    let events = [
      m(1), m(2), m(3), down, m(4), m(5), .resize(PixelSize(width: 1, height: 1)),
      .resize(PixelSize(width: 2, height: 2)),
    ]
    #expect(
      PlatformEvent.compressingMotion(events) == [m(3), down, m(5), .resize(PixelSize(width: 2, height: 2))])
  }

  @Test func idleLoopDrawsOnceThenWaitsWithoutTimeout() throws {
    let window = FakeWindow()
    let client = RecordingClient()
    let loop = FrameLoop(window: window, client: client)
    #expect(try loop.run() == .closeRequested)
    #expect(client.frames.count == 1)
    #expect(window.presents == 1)
    #expect(window.waits == [nil])
  }

  @Test func inputWhileIdleDrawsOneFramePerBatchWithMotionCompressed() throws {
    let window = FakeWindow()
    let m = { (x: Double) in PlatformEvent.pointerMove(Point(x: x, y: 1), modifiers: []) }
    window.script = [
      [m(1), m(2), m(3)], [m(4), .pointerDown(Point(x: 4, y: 1), button: .left, modifiers: []), m(5), m(6)],
    ]
    let client = RecordingClient()
    let loop = FrameLoop(window: window, client: client, framesPerSecond: 0)
    #expect(try loop.run() == .closeRequested)
    #expect(
      client.events == [m(3), m(4), .pointerDown(Point(x: 4, y: 1), button: .left, modifiers: []), m(6)])
    #expect(client.frames.count == 3)  // the first frame, then one per batch
  }

  @Test func movesArrivingBetweenFramesReachTheClientOncePerFrame() throws {
    let window = FakeWindow()
    let m = { (x: Double) in PlatformEvent.pointerMove(Point(x: x, y: 2), modifiers: []) }
    window.script = [[m(1)], [m(2)], [m(3)]]  // three wake-ups before the second frame is due
    let client = RecordingClient()
    client.isAnimating = true
    let loop = FrameLoop(window: window, client: client, framesPerSecond: 10, maxFrames: 2)
    #expect(try loop.run() == .frameLimit)
    #expect(client.events == [m(3)])
    #expect(client.frames.count == 2)
  }

  @Test func animationIsPacedToTheTargetRate() throws {
    let window = FakeWindow()
    let client = RecordingClient()
    client.isAnimating = true
    let loop = FrameLoop(window: window, client: client, framesPerSecond: 50, maxFrames: 20)
    let t0 = monotonicSeconds()
    #expect(try loop.run() == .frameLimit)
    let elapsed = monotonicSeconds() - t0
    #expect(client.frames.count == 20)
    #expect(elapsed > 0.3 && elapsed < 2, "20 frames at 50 fps took \(elapsed) s")
    #expect(window.waits.allSatisfy { $0 != nil && $0! <= 0.021 })

    let fast = RecordingClient()
    fast.isAnimating = true
    let unpaced = FrameLoop(window: FakeWindow(), client: fast, framesPerSecond: 0, maxFrames: 200)
    let t1 = monotonicSeconds()
    #expect(try unpaced.run() == .frameLimit)
    #expect(monotonicSeconds() - t1 < 1)
  }

  @Test func idleWorkGetsWhatAFrameLeavesBeforeTheNextIsDue() throws {
    final class IdleClient: FrameLoopClient {
      var isAnimating = true
      var drawn: [Double] = []
      /// (called at, deadline) of each idle call.
      var idle: [(at: Double, until: Double)] = []
      var pieces = 5
      func handle(_ event: PlatformEvent) {}
      func draw(into surface: Surface, frame: FrameLoop.FrameInfo) { drawn.append(monotonicSeconds()) }
      func performIdleWork(until deadline: Double) -> Bool {
        idle.append((monotonicSeconds(), deadline))
        pieces -= 1
        return pieces > 0
      }
    }
    let client = IdleClient()
    let loop = FrameLoop(window: FakeWindow(), client: client, framesPerSecond: 50, maxFrames: 8)
    #expect(try loop.run() == .frameLimit)
    #expect(client.drawn.count == 8)
    // Called after frames, with a deadline ahead of the call and before the next frame.
    #expect(client.idle.count >= 5, "\(client.idle)")
    for call in client.idle {
      #expect(call.until > call.at)
      if let next = client.drawn.first(where: { $0 > call.at }) { #expect(call.until <= next) }
    }

    // Still: idle work runs without frames until it is done, then the loop waits.
    let still = IdleClient()
    still.isAnimating = false
    let window = FakeWindow()
    #expect(try FrameLoop(window: window, client: still).run() == .closeRequested)
    #expect(still.drawn.count == 1 && still.idle.count == 5)
    #expect(window.waits == [nil])
  }

  @Test func sigtermEndsTheLoop() throws {
    let window = FakeWindow()
    let client = RecordingClient()
    client.isAnimating = true
    client.onDraw = { n in if n == 3 { raise(SIGTERM) } }
    let loop = FrameLoop(window: window, client: client, framesPerSecond: 200, maxFrames: 1000)
    #expect(try loop.run() == .signal(SIGTERM))
    #expect(client.frames.count == 3)
  }
}

/// A window that records the cursors it is asked to show.
final class CursorWindow: PlatformWindow {
  let base = FakeWindow()
  var cursors: [CursorShape] = []
  var title: String {
    get { base.title }
    set { base.title = newValue }
  }
  var size: PixelSize { base.size }
  func framebuffer() throws -> Surface { try base.framebuffer() }
  func present() { base.present() }
  func pollEvents() -> [PlatformEvent] { base.pollEvents() }
  func waitForEvents(timeout: Double?, wakeDescriptor: Int32?) {
    base.waitForEvents(timeout: timeout, wakeDescriptor: wakeDescriptor)
  }
  func close() {}
  func setCursor(_ cursor: CursorShape) { cursors.append(cursor) }
}

/// A client with a "button" in the window's left half.
final class HalfButtonClient: FrameLoopClient {
  var asked: [Point] = []
  func handle(_ event: PlatformEvent) {}
  func draw(into surface: Surface, frame: FrameLoop.FrameInfo) {}
  var isAnimating: Bool { false }
  func cursor(at point: Point) -> CursorShape {
    asked.append(point)
    return point.x < 4 ? .pointingHand : .arrow
  }
}

extension FrameLoopTests {
  @Test func cursorFollowsTheContentUnderThePointerAndIsSetOnlyWhenItChanges() throws {
    let window = CursorWindow()
    let move = { (x: Double) in PlatformEvent.pointerMove(Point(x: x, y: 1), modifiers: []) }
    window.base.script = [
      [.pointerEnter(Point(x: 6, y: 1))], [move(5)], [move(2)], [move(1)], [move(7)], [.pointerLeave],
      [.expose],
    ]
    let client = HalfButtonClient()
    // Unpaced: each batch is drawn as it comes.
    let loop = FrameLoop(window: window, client: client, framesPerSecond: 0)
    #expect(try loop.run() == .closeRequested)
    #expect(window.cursors == [.arrow, .pointingHand, .arrow])
    // Asked after every frame while the pointer was inside, never after it left (nor before the
    // first event, when nothing says where the pointer is).
    #expect(client.asked.map(\.x) == [6, 5, 2, 1, 7])
    #expect(loop.cursor == .arrow)
  }
}
