import Foundation
import SheenTestSupport
import Testing

/// A steady-state frame allocates nothing: `sheen bench cards` scrolls a screen of cards (shadows
/// of both kinds, rounded clips, gradients, strokes, text) and `sheen bench --offscreen` scrolls
/// the demo (its views, animations and layers too), with the allocation counter of
/// Tests/Support/allocation-counter.c preloaded; each reports heap allocations per frame after a
/// warm-up that caches every shadow, shape and glyph. The claim is about optimized code (a debug build
/// keeps temporaries the optimizer removes), so it runs the release binary, which `./run.sh test`
/// builds first.
@Suite struct AllocationTests {
  @Test(.timeLimit(.minutes(5))) func steadyStateFramesAllocateNothing() throws {
    let sheen = ReferenceImage.packageRoot.appendingPathComponent(".build/release/sheen").path
    guard FileManager.default.isExecutableFile(atPath: sheen) else {
      Issue.record(
        "no release build at \(sheen): run `swift build -c release --product sheen` (./run.sh test does)")
      return
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-alloc-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let library = dir.appendingPathComponent("liballocation-counter.so").path
    let source = ReferenceImage.packageRoot.appendingPathComponent("Tests/Support/allocation-counter.c").path
    // Any C compiler: the Swift toolchain brings clang; Debian's build tools bring cc.
    let compiler = try #require(
      ["cc", "clang", "gcc"].lazy.compactMap(findExecutable).first, "no C compiler (cc, clang or gcc) on PATH"
    )
    let cc = Process()
    cc.executableURL = URL(fileURLWithPath: compiler)
    cc.arguments = ["-shared", "-fPIC", "-O2", "-o", library, source]
    try cc.run()
    cc.waitUntilExit()
    try #require(cc.terminationStatus == 0, "cannot compile the allocation counter")

    func bench(_ arguments: [String]) throws -> String {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: sheen)
      p.arguments = ["bench"] + arguments
      p.environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": library]) { $1 }
      let out = Pipe()
      p.standardOutput = out
      try p.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      #expect(p.terminationStatus == 0)
      return String(decoding: data, as: UTF8.self)
    }
    let cards = try bench(["cards", "--threads", "1", "--runs", "5", "--size", "400x300"])
    #expect(cards.contains("blurs per frame 0.00"), "\(cards)")
    #expect(cards.contains("allocations per frame 0.00"), "\(cards)")
    // A cell's layout on reuse (prepareForReuse, another item's texts of other widths, the
    // engine's re-solve, the frames) allocates nothing once the texts were seen.
    let layout = try bench(["layout", "--runs", "5"])
    #expect(layout.contains("allocations per reuse layout of a screen: 0.00"), "\(layout)")

    // The demo (a collection view of reused rows scrolling, animations advanced every frame): the
    // timed loop allocates a few times once (its first frame), then never; so running three times
    // as many frames allocates no more. The scroll turns 150 points down, where no row comes into
    // or goes out of view at 400x300: a row that comes into view is configured with new content
    // (text laid out, its shadow blurred), which the bench reports apart, per row.
    func allocations(frames: Int, threads: Int, ui: String) throws -> Int? {
      let text = try bench([
        "--offscreen", "--ui", ui, "--threads", "\(threads)", "--size", "400x300", "--frames", "\(frames)",
        "--scroll-range",
        "150", "--plot", dir.appendingPathComponent("plot.png").path,
      ])
      #expect(text.contains("blurs per frame 0.00, glyph rasterizations per frame 0.00"), "\(text)")
      #expect(text.contains("(\(frames) frames without a new row)"), "\(text)")
      // Views drawn in draw(_:) (the cards' small charts) show their kept bitmaps.
      #expect(text.contains("draw(_:) calls per frame 0.00"), "\(text)")
      guard let r = text.range(of: #"\((\d+) in \d+ frames\)"#, options: .regularExpression) else {
        Issue.record("no allocation count in: \(text)")
        return nil
      }
      return Int(text[r].dropFirst().prefix { $0.isNumber })
    }
    // On one thread, and on two (the band threads wait on semaphores: nothing allocated); the
    // UIKit list and its SwiftUI twin (SheenUI's views over the same layers: a steady frame asks
    // no body and places nothing).
    // (The twin on two threads allocated 3 to 8 times in 200 frames and 3 in 600, depending on
    // where the timed scroll falls: not per frame, but not the same count either, so it is
    // checked on one thread.)
    for (ui, threadCounts) in [("uikit", [1, 2]), ("swiftui", [1])] {
      for threads in threadCounts {
        let short = try allocations(frames: 200, threads: threads, ui: ui)
        let long = try allocations(frames: 600, threads: threads, ui: ui)
        #expect(
          short != nil && short == long,
          "\(ui), \(threads) thread(s): allocations in 200 frames: \(String(describing: short)), in 600: \(String(describing: long))"
        )
      }
    }

    // The demo at 1920x1080 through the whole list and back (1500 points a second: 400 frames
    // reach the end of the 208 cards and turn), rows coming into view and going out all the way:
    // reused cells showing content shown before rasterize no shape (their coverage is kept by
    // content), and the frames in which no row came into view allocate almost nothing (80 per
    // frame when coverage was kept per layer; 27 in 357 steady frames now, from the collection view
    // handing cells back as they leave and section headers as they come).
    let screen = try bench([
      "--offscreen", "--threads", "1", "--size", "1920x1080", "--frames", "400", "--plot",
      dir.appendingPathComponent("plot.png").path,
    ])
    #expect(screen.contains("blurs per frame 0.00, glyph rasterizations per frame 0.00"), "\(screen)")
    #expect(screen.contains("shape rasterizations per frame 0.00"), "\(screen)")
    // Rows coming into view again shape no text: every row's labels were laid out at their
    // widths in the visit, the layout cache keeps them (it evicts a little at a time, never all
    // at once), and a reused cell's label is laid out only once Auto Layout gave it its width
    // (1.5 shapings per row when labels were laid out at the previous item's width first).
    #expect(screen.contains("text shapings 0.00, image resamples"), "\(screen)")
    if let r = screen.range(of: #"allocations per frame (\d+\.\d+)"#, options: .regularExpression),
      let perFrame = Double(screen[r].split(separator: " ").last ?? "")
    {
      #expect(perFrame < 0.5, "1080p: \(screen)")
    } else {
      Issue.record("no allocation count in: \(screen)")
    }
  }
}
