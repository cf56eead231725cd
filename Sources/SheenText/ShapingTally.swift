import Synchronization

/// Shapings counted for one piece of work only: `TextLayout.shapingCount` is process-wide, so
/// work on other threads (other tests, other windows) adds to it; a tally counts what its own
/// task shapes.
public final class ShapingTally: Sendable {
  private let count = Atomic<Int>(0)

  public init() {}

  /// Paragraphs shaped within `counting` so far.
  public var shapings: Int { count.load(ordering: .relaxed) }

  @TaskLocal static var current: ShapingTally?

  func add() { count.wrappingAdd(1, ordering: .relaxed) }

  /// Runs `body` counting the shapings it does (on its own task) in this tally.
  public func counting<R>(_ body: () throws -> R) rethrows -> R {
    try ShapingTally.$current.withValue(self) { try body() }
  }
}
