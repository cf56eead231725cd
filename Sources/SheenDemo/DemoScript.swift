import SheenKit
import SheenPlatform
import SheenRaster

/// Scripted input for headless runs (`sheen dump`, `sheen bench`, tests): a list of steps, each
/// taking whole frames of a 60 Hz virtual clock, turned into platform events dispatched at each
/// frame's time. The same script gives the same frames on every run.
///
/// Steps, separated by commas or semicolons (points are window points, y down):
/// - `wait N`: N frames without input;
/// - `wheel N`: N wheel notches, one per frame (negative: towards the top);
/// - `fling V`: a quick drag released at V points per second (positive scrolls down the list);
/// - `drag DY`: a slow drag moving the content by DY points, held still, then released;
/// - `press X Y`, `move X Y`, `release`: the primary button at a point;
/// - `tap-button I`: press card I's button, hold 12 frames, release;
/// - `press-button I`: press card I's button (and keep it pressed);
/// - `show-card I`: scroll the list at once so that card I is on screen, its row at the top (to
///   press a button of any section: `show-card 52, wait 2, tap-button 52`);
/// - `key K`: a key (up, down, pageup, pagedown, home, end, space, escape, q, f);
/// - `steady V`: from then on the list scrolls at V points per second, turning at either end.
public struct DemoScript: Sendable {
  /// One thing done at the start of a frame.
  enum Action: Sendable {
    case event(PlatformEvent)
    case pointer(Pointer, CGPointValue)
    case pressButton(Int)
    case showCard(Int)
    case release
    case steady(Double)
  }

  enum Pointer: Sendable { case down, move }

  /// A point that crosses threads (CGPoint is not Sendable everywhere).
  struct CGPointValue: Sendable {
    var x: Double
    var y: Double
  }

  /// Why a script could not be read: the step (as written) and what was wrong with it.
  public struct ParseError: Error, CustomStringConvertible {
    public var step: String
    public var problem: String
    public var description: String { "script step '\(step)': \(problem)" }
  }

  // The largest values a script takes (`sheen dump --help` lists them): a script is input for
  // a few minutes of frames, and every frame it spans is held in memory.
  /// Bytes of script text.
  public static let maxBytes = 4096
  /// Frames the steps may span in all (10 minutes at 60 Hz).
  public static let maxFrames = 36_000
  /// `wait N`.
  public static let maxWait = 36_000
  /// `wheel N`, either way.
  public static let maxWheel = 1_000
  /// `fling V`, `steady V` in points per second, either way.
  public static let maxSpeed = 100_000.0
  /// `drag DY`, `press X Y`, `move X Y` in points, either way.
  public static let maxDistance = 100_000.0
  /// `tap-button I`, `press-button I`.
  public static let maxCard = 10_000

  /// Actions per frame, from frame 0.
  private(set) var frames: [[Action]] = []

  /// Scripts by name: `scroll` (steady, for benchmarks), `fling`, `wheel`, `press`, `tour`.
  public static let named: [String: String] = [
    "scroll": "steady 1500",
    "fling": "wait 2, fling 2400",
    "wheel": "wait 2, wheel 3, wait 20, wheel -1",
    "press": "wait 2, press-button 0, wait 30, release",
    "tour":
      "wait 4, tap-button 0, wait 20, fling 3000, wait 60, wheel 4, wait 30, key home, wait 40, drag 160",
  ]

  /// Reads a script: a name from `named`, or steps.
  /// - Throws: `ParseError` naming the step it could not read.
  public init(_ text: String) throws(ParseError) {
    let source = DemoScript.named[text] ?? text
    guard source.utf8.count <= DemoScript.maxBytes else {
      throw ParseError(
        step: String(source.prefix(40)) + "…",
        problem: "the script is longer than \(DemoScript.maxBytes) bytes")
    }
    let steps = source.split(whereSeparator: { $0 == "," || $0 == ";" })
    var frames: [[Action]] = []
    var pointer = CGPointValue(x: 0, y: 0)
    func frame(_ a: [Action]) { frames.append(a) }
    for raw in steps {
      let step = raw.trimmingCharacters(in: .whitespaces)
      let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      guard let verb = words.first else { continue }
      func fail(_ problem: String) -> ParseError { ParseError(step: step, problem: problem) }
      /// Argument `i`: a finite decimal number within ±`limit` (whole if `whole`).
      func number(_ i: Int, _ what: String, limit: Double, whole: Bool = false, min: Double? = nil)
        throws(ParseError)
        -> Double
      {
        let low = min ?? -limit
        let range = "\(what) from \(Self.format(low)) to \(Self.format(limit))"
        guard i + 1 < words.count, let v = DemoScript.decimal(words[i + 1]), v >= low, v <= limit,
          !whole || v == v.rounded()
        else { throw fail("\(verb) takes \(range)") }
        return v
      }
      func arguments(_ n: Int) throws(ParseError) {
        guard words.count <= n + 1 else { throw fail("\(verb) takes \(n) argument\(n == 1 ? "" : "s")") }
      }
      switch verb {
      case "wait":
        let n = Int(
          try number(0, "a whole number of frames", limit: Double(Self.maxWait), whole: true, min: 0))
        try arguments(1)
        guard frames.count + n <= Self.maxFrames else {
          throw fail("the script is longer than \(Self.maxFrames) frames")
        }
        for _ in 0..<n { frame([]) }
      case "wheel":
        let n = Int(try number(0, "a whole number of notches", limit: Double(Self.maxWheel), whole: true))
        try arguments(1)
        guard frames.count + abs(n) <= Self.maxFrames else {
          throw fail("the script is longer than \(Self.maxFrames) frames")
        }
        let dy = n < 0 ? -PlatformEvent.scrollPointsPerNotch : PlatformEvent.scrollPointsPerNotch
        for _ in 0..<abs(n) {
          frame([.event(.scroll(delta: Point(x: 0, y: dy), at: Point(x: -1, y: -1), modifiers: []))])
        }
      case "fling":
        let v = try number(0, "a speed in points per second", limit: Self.maxSpeed)
        try arguments(1)
        let start = CGPointValue(x: -1, y: -1)
        frame([.pointer(.down, start)])
        for i in 1...6 {
          frame([.pointer(.move, CGPointValue(x: -1, y: -1 - Double(i) * v / 60))])
        }
        frame([.release])
      case "drag":
        let dy = try number(0, "a distance in points", limit: Self.maxDistance)
        try arguments(1)
        frame([.pointer(.down, CGPointValue(x: -1, y: -1))])
        for i in 1...20 {
          frame([.pointer(.move, CGPointValue(x: -1, y: -1 - dy * Double(i) / 20))])
        }
        for _ in 0..<8 { frame([]) }
        frame([.release])
      case "press", "move":
        let x = try number(0, "a point (x y) with each", limit: Self.maxDistance)
        let y = try number(1, "a point (x y) with each", limit: Self.maxDistance)
        try arguments(2)
        pointer = CGPointValue(x: x, y: y)
        frame([.pointer(verb == "press" ? .down : .move, pointer)])
      case "release":
        try arguments(0)
        frame([.release])
      case "tap-button":
        let i = Int(try number(0, "a card number", limit: Double(Self.maxCard), whole: true, min: 0))
        try arguments(1)
        frame([.pressButton(i)])
        for _ in 0..<12 { frame([]) }
        frame([.release])
      case "press-button":
        let i = Int(try number(0, "a card number", limit: Double(Self.maxCard), whole: true, min: 0))
        try arguments(1)
        frame([.pressButton(i)])
      case "show-card":
        let i = Int(try number(0, "a card number", limit: Double(Self.maxCard), whole: true, min: 0))
        try arguments(1)
        frame([.showCard(i)])
      case "key":
        guard words.count == 2, let key = DemoScript.key(words[1]) else {
          throw fail("key takes one key name (up, down, pageup, pagedown, home, end, space, escape, q, f)")
        }
        frame([.event(.keyDown(key.0, text: key.1, modifiers: []))])
      case "steady":
        let v = try number(0, "a speed in points per second", limit: Self.maxSpeed)
        try arguments(1)
        frame([.steady(v)])
      default:
        throw fail(
          "unknown step (steps: wait, wheel, fling, drag, press, move, release,"
            + " tap-button, press-button, show-card, key, steady; scripts: \(DemoScript.named.keys.sorted().joined(separator: ", ")))"
        )
      }
      guard frames.count <= Self.maxFrames else {
        throw fail("the script is longer than \(Self.maxFrames) frames")
      }
    }
    self.frames = frames
  }

  /// A finite decimal number (`-2`, `0.5`, `1e3`); nil for `nan`, `inf`, hex and anything else.
  static func decimal(_ word: String) -> Double? {
    guard word.utf8.count <= 32,
      word.utf8.allSatisfy({
        ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 43 || $0 == 45 || $0 == 101 || $0 == 69
      }),
      let v = Double(word), v.isFinite
    else { return nil }
    return v
  }

  private static func format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

  private static func key(_ name: String) -> (Key, String)? {
    switch name.lowercased() {
    case "up": return (.up, "")
    case "down": return (.down, "")
    case "pageup": return (.pageUp, "")
    case "pagedown": return (.pageDown, "")
    case "home": return (.home, "")
    case "end": return (.end, "")
    case "space": return (.space, " ")
    case "escape": return (.escape, "")
    case "q": return (.q, "q")
    case "f": return (.other(0x66), "f")
    default: return nil
    }
  }

  /// How many frames the script's steps take (a `steady` scroll goes on after them).
  public var length: Int { frames.count }

  // MARK: Running

  /// What a running script remembers between frames.
  public final class State {
    var pointer: Point?
    var steady: (speed: Double, start: Double, origin: Double)?
    public init() {}
  }

  /// Dispatches frame `frame`'s input to `window` at `time` (seconds); call before rendering
  /// that frame. A point given as negative coordinates means the middle of the window.
  public func apply(to window: any DemoWindowing, frame: Int, time: Double, state: State) {
    if frame < frames.count {
      for a in frames[frame] { perform(a, window, time, state) }
    }
    if let s = state.steady {
      let list = window.scrollingList
      let range = max(1, Double(list.contentSize.height - list.bounds.height))
      var y = s.origin + s.speed * (time - s.start)
      // Back and forth between the ends.
      y = y.truncatingRemainder(dividingBy: 2 * range)
      if y < 0 { y += 2 * range }
      if y > range { y = 2 * range - y }
      list.contentOffset = CGPoint(x: 0, y: CGFloat(y))
    }
  }

  private func perform(_ a: Action, _ w: any DemoWindowing, _ time: Double, _ state: State) {
    let scale = Double(w.scale)
    func pixels(_ p: CGPointValue) -> Point {
      let mid = Point(x: Double(w.bounds.width) / 2, y: Double(w.bounds.height) / 2)
      // Negative coordinates are relative to the middle of the window.
      let x = p.x < 0 ? mid.x + p.x + 1 : p.x
      let y = p.y < 0 ? mid.y + p.y + 1 : p.y
      return Point(x: x * scale, y: y * scale)
    }
    switch a {
    case .event(let e):
      if case .scroll(let d, let at, let m) = e, at.x < 0 {
        w.dispatch(.scroll(delta: d, at: pixels(CGPointValue(x: -1, y: -1)), modifiers: m), time: time)
      } else {
        w.dispatch(e, time: time)
      }
    case .pointer(let kind, let p):
      let at = pixels(p)
      if kind == .down {
        state.pointer = at
        w.dispatch(.pointerDown(at, button: .left, modifiers: []), time: time)
      } else {
        state.pointer = at
        w.dispatch(.pointerMove(at, modifiers: []), time: time)
      }
    case .pressButton(let i):
      guard let c = w.buttonCenter(ofCard: i) else { return }
      let at = Point(x: Double(c.x) * scale, y: Double(c.y) * scale)
      state.pointer = at
      w.dispatch(.pointerDown(at, button: .left, modifiers: []), time: time)
    case .showCard(let i):
      w.scrollToCard(i)
    case .release:
      guard let p = state.pointer else { return }
      state.pointer = nil
      w.dispatch(.pointerUp(p, button: .left, modifiers: []), time: time)
    case .steady(let v):
      state.steady = (v, time, Double(w.scrollingList.contentOffset.y))
    }
  }

  /// The benchmark's scroll: the list at frame `frame` of a steady 1500-points-per-second
  /// scroll on a 60 Hz virtual clock, going back and forth between the ends. Deterministic; no
  /// physics involved, so every frame is mid-scroll.
  /// With `limit`, it turns `limit` points down instead of at the end.
  public static func scroll(
    _ window: any DemoWindowing, frame: Int, speed: Double = 1500, limit: Double? = nil
  ) {
    let list = window.scrollingList
    var range = max(1, Double(list.contentSize.height - list.bounds.height))
    if let limit { range = max(1, min(range, limit)) }
    var y = (speed * Double(frame) / 60).truncatingRemainder(dividingBy: 2 * range)
    if y > range { y = 2 * range - y }
    list.contentOffset = CGPoint(x: 0, y: CGFloat(y))
  }
}
