// Every `sheen` subcommand's command line, declared in one place: its options (typed, with their
// ranges), its arguments and its `--help` text. To add an option: declare it in its command's
// enum below, add it to that command's `options` list, and read it in the command's run function
// with `parsed[TheCommand.option]`. Parsing, range checks, the error line and `--help` come from
// SheenCommandLine.
import Foundation
import SheenCommandLine
import SheenDemo

let sheenVersion = "0.1.0"

/// Options several commands share (each command lists the ones it takes).
enum SharedArgs {
  static let scale = Option.number("--scale", "S", range: 0.25...8, help: "pixels per point", default: "1")
  static let threads = Option.integer(
    "--threads", range: 1...64, help: "threads that draw each frame", default: "one per core")
  static let script = Option.custom(
    ["--script"], "S",
    help:
      "scripted input on the 60 Hz frame clock: a name (\(DemoScript.named.keys.sorted().joined(separator: ", ")))"
      + " or steps such as \"wait 5, fling 2400, wait 30, tap-button 0\" (see `sheen dump --help`)"
  ) { text throws(ValueError) in
    do throws(DemoScript.ParseError) { return try DemoScript(text) } catch {
      throw ValueError(message: "step \(quotedForMessage(error.step)): \(error.problem)")
    }
  }
  static let cards = Option.integer(
    "--cards", range: 1...1_000_000, help: "cards in the demo's list (only those on screen have views)",
    default: "\(DemoContent.cardCount)")
  static let ui = Option.choice(
    ["--ui"], "UI", DemoUI.allCases.map(\.rawValue),
    help: "which list: uikit (written with SheenKit) or swiftui (its twin written with SheenUI)",
    default: "uikit", make: DemoUI.init(rawValue:))
  /// The automatic raster cache (FrameRenderer.rasterizesAutomatically) is on in the demo's
  /// windows; this turns it off.
  static let noRasterCache = Flag(
    "--no-raster-cache",
    help:
      "draw every layer every frame, keeping no bitmaps of unchanged subtrees (the automatic raster cache is on by default; this wins over --raster-cache)"
  )
  /// The default since the cache is on; accepted so that scripts written before keep working.
  static let rasterCache = Flag(
    "--raster-cache", help: "the automatic raster cache on: the default, accepted for older scripts")
  /// The raw name; `Backend(rawValue:)` makes it a backend (kept a string so that this file needs
  /// no window system, for the command-line fuzzer).
  static let backend = Option.choice(
    ["--backend"], "B", ["wayland", "x11"],
    help: "window system", default: "Wayland when $WAYLAND_DISPLAY is reachable, else X11",
    make: { $0 })
  /// Measuring switches (the pixels are the same either way): occlusion, and drawing bands in strips.
  static let noOcclusion = Flag(
    "--no-occlusion", help: "draw what later opaque layers cover too (to measure what occlusion saves)")
  static let stripPixels = Option.integer(
    "--strip-pixels", range: 0...1 << 30,
    help: "the most pixels a band draws at a time; 0 draws each band whole (to measure what strips save)",
    default: "262144")
}

// MARK: - sheen

enum TopArgs {
  static let version = Flag(["--version", "-V"], help: "print the version and exit")
  static let command = Command(
    path: "sheen", synopsis: ["sheen <command> [options]", "sheen --version"],
    about: "Draws modern UI on the CPU. `sheen <command> --help` describes each command.",
    options: [AnyOption(version)],
    subcommands: [
      ("demo", "open the demo window (Wayland or X11)"),
      ("dump", "render frames of the demo to PNGs, headless"),
      ("render", "render a scene file (SCENE.md) to PNG"),
      ("bench", "time the demo scrolling; `bench raster|cards|photos|press|tap|text|layout|draw`"),
      ("sample", "render a sample picture to PNG"),
      ("preview", "render a SwiftUI preview (PreviewProvider) to PNG"),
    ])
}

// MARK: - sheen demo

enum DemoArgs {
  static let fps = Option.number(
    "--fps", "N", range: 0...1000, help: "target frames per second, 0 = as fast as possible", default: "60")
  static let size = Option.size(
    "--size", range: 1...16384, help: "initial window size in pixels", default: "800x600")
  static let frames = Option.integer(
    "--frames", range: 1...100_000_000, help: "exit after drawing N frames (drawn even when nothing moves)")
  static let title = Option.text(
    "--title", "TEXT", maxBytes: 1024, help: "window title", default: "\"Sheen\"")
  static let testPattern = Flag("--test-pattern", help: "draw a static, deterministic pattern (window tests)")
  static let printEvents = Flag(
    "--print-events",
    help: "print one line per event on stdout (and \"ready\" once shown, \"cursor NAME\" as it changes)")

  static let command = Command(
    path: "sheen demo", synopsis: ["sheen demo [options]"],
    about: """
      Opens a window (Wayland or X11) showing the demo: a scrolling list of cards with animated
      buttons and an FPS overlay, until Escape, q or closing the window.

      controls: wheel, drag and fling scroll (rubber band past the ends); arrows, Page Up/Down, Space,
      Home and End scroll too; a click on a card's button presses it; f toggles the FPS overlay;
      Escape or q quits.
      """,
    options: [
      AnyOption(fps), AnyOption(size), AnyOption(frames), AnyOption(SharedArgs.scale),
      AnyOption(SharedArgs.script), AnyOption(SharedArgs.cards),
      AnyOption(title), AnyOption(testPattern), AnyOption(printEvents), AnyOption(SharedArgs.backend),
      AnyOption(SharedArgs.ui), AnyOption(SharedArgs.noRasterCache), AnyOption(SharedArgs.rasterCache),
    ],
    footer: """
      exit status: 0 closed, interrupted or done; 1 failed while running; 3 no display or the display
      server went away; 64 bad usage.
      """)
}

// MARK: - sheen dump

enum DumpArgs {
  static let out = Option.text(
    ["--out", "-o"], "DIR", help: "directory for the PNGs (created if missing)", default: "out/dump")
  static let size = Option.size("--size", range: 1...16384, help: "frame size in pixels", default: "1280x800")
  /// A count N (frames 0..<N) or a list of frame indices (`0,30,60`; one index: `45,`).
  static let frames = Option.custom(
    ["--frames"], "LIST",
    help: "frames to write: a count N (frames 0..N-1, N up to \(maxFrame)), or indices from 0 to \(maxFrame)"
      + " such as 0,30,60 (one index: \"45,\")",
    default: "0, the first frame alone"
  ) { text throws(ValueError) -> [Int] in
    if !text.contains(","), let n = parseCount(text), n != 0 {
      guard (1...maxFrame).contains(n) else { throw ValueError("a count from 1 to \(maxFrame)") }
      return Array(0..<n)
    }
    let items = text.split(separator: ",", omittingEmptySubsequences: false)
    var list: [Int] = []
    for (k, item) in items.enumerated() {
      // "45," is the one index 45: an empty item is allowed last only.
      if item.isEmpty && k == items.count - 1 && k > 0 { continue }
      guard let n = parseCount(String(item)), (0...maxFrame).contains(n) else {
        throw ValueError("a count or indices from 0 to \(maxFrame) such as 0,30,60 (no spaces)")
      }
      list.append(n)
    }
    return Array(Set(list)).sorted()
  }
  static let maxFrame = 100_000
  static let overlay = Flag(
    "--overlay",
    help: "show the FPS overlay (its render times are measured, so files then differ from run to run)")
  static let stats = Flag(
    "--stats",
    help:
      "print each written frame's render and processor time and work (blurs, shapes, glyphs, shapings...), then how the slowest written frame after the first compares with their median"
  )
  static let scene = Flag(
    "--scene",
    help: "also write each frame's layer tree as a scene file (frame-NNNN.json, the layers that show)")

  static let command = Command(
    path: "sheen dump", synopsis: ["sheen dump [options]"],
    about: """
      Renders frames of the demo without any display, on a virtual clock (1/60 s per frame), and
      writes them as PNGs named frame-NNNN.png. Two runs with the same options write the same files.
      """,
    options: [
      AnyOption(out), AnyOption(size), AnyOption(SharedArgs.scale), AnyOption(frames),
      AnyOption(SharedArgs.script), AnyOption(SharedArgs.cards),
      AnyOption(overlay), AnyOption(SharedArgs.threads), AnyOption(stats), AnyOption(scene),
      AnyOption(SharedArgs.ui), AnyOption(SharedArgs.noRasterCache), AnyOption(SharedArgs.rasterCache),
    ],
    footer: """
      script steps (separated by commas or semicolons; points are window points, y down):
        wait N          N frames without input (0–\(DemoScript.maxWait))
        wheel N         N wheel notches, one per frame, negative towards the top (±\(DemoScript.maxWheel))
        fling V         a quick drag released at V points per second (±\(Int(DemoScript.maxSpeed)))
        drag DY         a slow drag moving the content by DY points (±\(Int(DemoScript.maxDistance)))
        press X Y, move X Y, release   the primary button at a point (±\(Int(DemoScript.maxDistance)))
        tap-button I, press-button I   press card I's button (0–\(DemoScript.maxCard)), and release after 12 frames
        show-card I     scroll at once so that card I is on screen, its row at the top
        key K           up, down, pageup, pagedown, home, end, space, escape, q, f
        steady V        from then on scroll at V points per second (±\(Int(DemoScript.maxSpeed)))
      A script is at most \(DemoScript.maxBytes) bytes and \(DemoScript.maxFrames) frames long.

      exit status: 0 written; 1 a file could not be written; 64 bad usage.
      """)
}

// MARK: - sheen render

enum RenderArgs {
  static let output = Option.text(
    ["--output", "-o"], "OUT.png", help: "where to write the PNG (required); - for standard output")
  static let scale = Option.number(
    "--scale", "S", range: 0.01...100, help: "pixels per point, replacing the file's \"scale\"")
  static let repeatCount = Option.integer(
    "--repeat", range: 1...100_000,
    help: "render the frame N times after parsing once, then print `frame_ms median=<ms> min=<ms> n=<N>`")
  static let threads = Option.integer(
    "--threads", range: 1...64, help: "threads that draw the frame (bands of rows)", default: "1")

  static let command = Command(
    path: "sheen render",
    synopsis: [
      "sheen render SCENE.json -o OUT.png [--scale S] [--repeat N] [--threads N] [--no-occlusion]"
        + " [--strip-pixels N]"
    ],
    about: """
      Renders a scene file (shared SCENE.md) to a PNG of width×scale by height×scale pixels. The
      PNG is written beside OUT.png and renamed over it once complete: a failure leaves what was
      there untouched (a symbolic link keeps pointing where it did; a device is written in place).
      """,
    options: [
      AnyOption(output), AnyOption(scale), AnyOption(repeatCount), AnyOption(threads),
      AnyOption(SharedArgs.noOcclusion), AnyOption(SharedArgs.stripPixels),
    ],
    positionals: [.init("SCENE.json", help: "the scene file")],
    footer: """
      exit status: 0 written; 1 the scene file cannot be read or the PNG cannot be written;
      2 the scene file is invalid (one line on stderr names the key path; nothing is written);
      64 bad usage.
      """)
}

// MARK: - sheen sample

enum SampleArgs {
  static let output = Option.text(
    ["--output", "-o"], "OUT.png", help: "where to write the PNG", default: "sample.png")
  static let scale = Option.number("--scale", "S", range: 0.25...8, help: "pixels per point", default: "2")

  static let command = Command(
    path: "sheen sample", synopsis: ["sheen sample [-o OUT.png] [--scale S]"],
    about: "Renders a sample picture of what Sheen draws (rounded, shadowed cards, a gradient button, tags).",
    options: [AnyOption(output), AnyOption(scale)],
    footer: "exit status: 0 written; 1 the PNG cannot be written; 64 bad usage.")
}

// MARK: - sheen preview

enum PreviewArgs {
  static let output = Option.text(["--output", "-o"], "OUT.png", help: "where to write the PNG (required)")
  static let scale = Option.number("--scale", "S", range: 0.25...8, help: "pixels per point", default: "2")
  static let size = Option.size(
    "--size", range: 1...16384, help: "the canvas in points", default: "the preview's own size")
  static let list = Flag("--list", help: "print the names of the previews and exit")

  static let command = Command(
    path: "sheen preview",
    synopsis: ["sheen preview NAME -o OUT.png [--scale S] [--size WxH]", "sheen preview --list"],
    about: """
      Renders a SwiftUI preview (a PreviewProvider written with SheenUI) to a PNG, as Xcode's canvas
      shows it: on white, at the preview's own size (or --size), the content centred.
      """,
    options: [AnyOption(output), AnyOption(scale), AnyOption(size), AnyOption(list)],
    positionals: [.init("NAME", help: "a preview's name (`--list` prints them)", required: false)],
    footer: "exit status: 0 written; 1 the PNG cannot be written; 2 no preview by that name; 64 bad usage.")
}

// MARK: - sheen bench

enum BenchArgs {
  static let offscreen = Flag("--offscreen", help: "render into a surface, no window")
  static let size = Option.size("--size", range: 1...8192, help: "frame size in pixels", default: "1920x1080")
  static let frames = Option.integer("--frames", range: 1...1_000_000, help: "frames timed", default: "300")
  static let seconds = Option.number(
    "--seconds", "S", range: 0.001...3600, help: "time frames for S seconds instead of a count")
  static let warmup = Option.integer(
    "--warmup", range: 0...1_000_000, help: "frames drawn before timing, after one visit of the whole list",
    default: "240")
  static let plot = Option.text(
    "--plot", "FILE.png", help: "where to draw the frame times", default: "out/bench-frame-times.png")
  static let overlay = Flag("--overlay", help: "show the FPS overlay (to measure what it costs)")
  static let scrollRange = Option.number(
    "--scroll-range", "POINTS", range: 1...100_000_000,
    help: "turn the scroll this far down the list instead of at its end", default: "the whole list")
  static let cold = Flag(
    "--cold",
    help:
      "no visit and no warm-up: time the first pass through the list (or --scroll-range) at the scroll's"
      + " speed, then as many frames of the way back, the rest of each 60 Hz frame given to idle work as"
      + " the frame loop gives it (cells made ahead of scrolling); prints dropped frames. The launch frame"
      + " (frame 0: the first screen laid out and drawn with empty caches) is printed on its own and not"
      + " counted in the pass")

  static let noIdleWork = Flag(
    "--no-idle-work",
    help:
      "no idle work after each steady frame (by default the rest of each 60 Hz frame goes to idle work as"
      + " the frame loop gives it: cells made, drawn and made into the raster cache's bitmaps ahead of"
      + " scrolling, timed apart); without it rows are made inside the frames that show them")

  static let idleUntilDone = Flag(
    "--idle-until-done",
    help:
      "the idle work after each steady frame runs until none is left, whatever the time (to count"
      + " instructions under valgrind, where no frame leaves time before the next is due)")

  static let command = Command(
    path: "sheen bench",
    synopsis: [
      "sheen bench [--offscreen] [--threads N] [--size WxH] [--frames N | --seconds S] [--warmup N]",
      "            [--cards N] [--scroll-range POINTS] [--cold] [--plot FILE.png] [--overlay]",
      "            [--backend wayland|x11] [--ui uikit|swiftui] [--no-raster-cache | --raster-cache]",
      "            [--no-occlusion] [--strip-pixels N] [--no-idle-work | --idle-until-done]",
      "sheen bench raster [--runs N]", "sheen bench cards [--runs N] [--threads N] [--size WxH]",
      "sheen bench photos [--runs N] [--threads N]", "sheen bench text [--runs N]",
      "sheen bench press [--runs N] [--sections LIST] [--threads N] [--size WxH] [--ui uikit|swiftui]",
      "                  [--no-raster-cache | --raster-cache]",
      "sheen bench tap [--runs N] [--card I] [--threads N] [--size WxH]",
      "                [--no-raster-cache | --raster-cache]",
      "sheen bench layout [--runs N]",
      "sheen bench draw [--runs N]",
    ],
    about: """
      Times frames of the demo scrolling steadily (every frame mid-scroll, on a 60 Hz virtual clock)
      after a warm-up that visits the part of the list they scroll through once (the whole list of
      the default 208 cards). Offscreen it times rendering into a surface;
      in a window it runs uncapped and times whole frames including presenting. After each frame
      the idle work a 60 Hz frame loop would run (cells made ahead of scrolling) runs and is timed
      apart (--no-idle-work: none).
      """,
    options: [
      AnyOption(offscreen), AnyOption(SharedArgs.threads), AnyOption(size), AnyOption(frames),
      AnyOption(seconds), AnyOption(SharedArgs.cards), AnyOption(scrollRange),
      AnyOption(warmup), AnyOption(plot), AnyOption(cold), AnyOption(overlay), AnyOption(SharedArgs.backend),
      AnyOption(SharedArgs.ui), AnyOption(SharedArgs.noRasterCache), AnyOption(SharedArgs.rasterCache),
      AnyOption(SharedArgs.noOcclusion),
      AnyOption(SharedArgs.stripPixels), AnyOption(noIdleWork), AnyOption(idleUntilDone),
    ],
    subcommands: [
      ("raster", "the rasterizer's per-operation medians (`sheen bench raster --help`)"),
      ("cards", "frames of 30 sample cards scrolling (`sheen bench cards --help`)"),
      ("text", "a 2,000-glyph paragraph laid out and drawn (`sheen bench text --help`)"),
      ("photos", "16 photo cards against the same without photos (`sheen bench photos --help`)"),
      ("press", "a press in each section, each frame against the median (`sheen bench press --help`)"),
      ("tap", "a tap in the SwiftUI twin against the UIKit list's press (`sheen bench tap --help`)"),
      ("layout", "Auto Layout on a screen of list cells (`sheen bench layout --help`)"),
      ("draw", "a custom view's draw(_:) and the frames after it (`sheen bench draw --help`)"),
    ],
    footer: "exit status: 0 done; 1 failed; 3 no display; 64 bad usage.")

  static let runs = Option.integer(
    "--runs", range: 1...100_000, help: "timed runs of each operation", default: "200")

  static let raster = Command(
    path: "sheen bench raster", synopsis: ["sheen bench raster [--runs N]"],
    about: "Times the rasterizer's basic operations on a 1920x1080 surface: median and minimum of each.",
    options: [AnyOption(runs)], footer: "exit status: 0 done; 1 failed; 64 bad usage.")

  static let photos = Command(
    path: "sheen bench photos", synopsis: ["sheen bench photos [--runs N] [--threads N]"],
    about: """
      Times a 1920x1080 screen of 16 cards with photo headers (aspect fill, clipped by the corners)
      and round photo avatars against the same cards with flat colours, frames of the two
      interleaved, scrolling by a pixel every frame after a warm-up; prints both medians, their
      ratio, image resamples and allocations per frame. One thread unless --threads is given.
      """,
    options: [AnyOption(runs), AnyOption(SharedArgs.threads)],
    footer: "exit status: 0 done; 1 failed (the bundled photos missing); 64 bad usage.")

  static let pressRuns = Option.integer(
    "--runs", range: 1...1000, help: "runs of each section's press (the sections interleaved)", default: "7")

  /// Sections by number, 1 to 8 (`1,8`), each once, in order.
  static let sections = Option.custom(
    ["--sections"], "LIST", help: "the sections whose press is timed, numbers from 1 to 8 such as 1,8",
    default: "every section"
  ) { text throws(ValueError) -> [Int] in
    var list: [Int] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let n = parseCount(String(item)), (1...DemoContent.sectionCount).contains(n) else {
        throw ValueError(
          "a list of section numbers from 1 to \(DemoContent.sectionCount) such as 1,8 (no spaces)")
      }
      list.append(n)
    }
    return Array(Set(list)).sorted()
  }

  static let press = Command(
    path: "sheen bench press",
    synopsis: [
      "sheen bench press [--runs N] [--sections LIST] [--threads N] [--size WxH] [--ui uikit|swiftui]",
      "                  [--no-raster-cache | --raster-cache]",
    ],
    about: """
      Presses the button of card 26 x S in each section S of the demo (`show-card I, wait 2,
      press-button I, wait 12, release, wait 30`, a new window each time, the sections
      interleaved) and times the 48 frames after the launch frame, drawn back to back: each
      frame's least processor time over the runs, their median and the slowest frame against it
      (the target: at most 1.5x), with blurs, shape rasterizations, page faults and system time.
      One thread unless --threads is given.
      """,
    options: [
      AnyOption(pressRuns), AnyOption(sections), AnyOption(SharedArgs.threads), AnyOption(size),
      AnyOption(SharedArgs.ui), AnyOption(SharedArgs.noRasterCache), AnyOption(SharedArgs.rasterCache),
    ],
    footer: "exit status: 0 done; 1 failed; 64 bad usage.")

  static let tapRuns = Option.integer(
    "--runs", range: 1...1000, help: "runs of each list's tap (the two lists interleaved)", default: "7")
  static let card = Option.integer(
    "--card", range: 0...(DemoContent.cardCount - 1), help: "the card whose button is tapped", default: "0")

  static let tap = Command(
    path: "sheen bench tap",
    synopsis: [
      "sheen bench tap [--runs N] [--card I] [--threads N] [--size WxH] [--no-raster-cache | --raster-cache]"
    ],
    about: """
      A tap in the SwiftUI twin against a press in the UIKit list: both play `show-card I, wait 2,
      press-button I, wait 30, release, wait 26` on a new window each run, the two lists
      interleaved, and draw the 61 frames back to back; each frame (its input and its drawing)
      counts its least processor time over the runs. Prints the UIKit list's press-animation
      frames' median (the press frame and the 7 after it, the release frame and the 22 after it)
      and the twin's tap frame (the release: the card's body asked again, the graph updated and
      placed) against it (the target: at most 1x), with page faults and, when the allocation
      counter is preloaded, allocations. One thread unless --threads is given. Both lists have the
      automatic raster cache on, as the demo does; --no-raster-cache turns it off in both
      (--raster-cache, which turned it on before it was the default, is accepted and changes nothing).
      """,
    options: [
      AnyOption(tapRuns), AnyOption(card), AnyOption(SharedArgs.threads), AnyOption(size),
      AnyOption(SharedArgs.noRasterCache), AnyOption(SharedArgs.rasterCache),
    ],
    footer: "exit status: 0 done; 1 failed; 64 bad usage.")

  static let text = Command(
    path: "sheen bench text", synopsis: ["sheen bench text [--runs N]"],
    about: """
      Lays out and draws a paragraph of about 2,000 glyphs at 14 pt wrapped to 600 points: English,
      then mixed scripts through fontconfig's fallbacks. Cold: layout and glyph caches empty (fonts
      loaded); warm: a cached layout drawn with cached glyphs; relayout: shaped again, glyphs cached.
      """,
    options: [AnyOption(runs)], footer: "exit status: 0 done; 1 failed; 64 bad usage.")
  static let layout = Command(
    path: "sheen bench layout", synopsis: ["sheen bench layout [--runs N]"],
    about:
      "Times Auto Layout on a screen of ten list cells: solving, re-solving after a width change, reuse.",
    options: [AnyOption(runs)], footer: "exit status: 0 done; 64 bad usage.")
  static let draw = Command(
    path: "sheen bench draw", synopsis: ["sheen bench draw [--runs N]"],
    about: """
      Times a redraw (draw(_:) into a new backing store) of the demo's 300x200-point chart view at
      scales 1 and 2, and a steady frame of a window showing it.
      """,
    options: [AnyOption(runs)], footer: "exit status: 0 done; 1 failed; 64 bad usage.")

  static let cards = Command(
    path: "sheen bench cards", synopsis: ["sheen bench cards [--runs N] [--threads N] [--size WxH]"],
    about: "Times frames of 30 sample cards scrolling by a pixel every frame, after a warm-up.",
    options: [AnyOption(runs), AnyOption(SharedArgs.threads), AnyOption(size)],
    footer: "exit status: 0 done; 1 failed; 64 bad usage.")
}

/// Parses `args` for `command`: the arguments, or nil after printing the help (the caller returns
/// 0), or nil after printing the error line and the short usage to stderr with `status` 64.
func parseCommandLine(_ command: Command, _ args: [String], status: inout Int32) -> ParsedArguments? {
  do throws(UsageError) {
    guard let parsed = try command.parse(args) else {
      print(command.help)
      status = 0
      return nil
    }
    return parsed
  } catch {
    writeError("\(command.path): \(error.message)\n\(command.shortUsage)")
    status = 64
    return nil
  }
}

/// Writes `message` and a newline to standard error.
func writeError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}
