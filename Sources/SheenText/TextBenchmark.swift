import Foundation
import SheenRaster

/// Times laying out and drawing text, for the performance notes: a paragraph of about 2,000
/// glyphs at 14 pt, either English or mixed scripts (Latin, Arabic, Hebrew, Devanagari, Thai,
/// Japanese, Chinese, Korean, Cyrillic, Greek and emoji through fontconfig's fallbacks),
/// wrapped to 600 points.
///
/// Cold: nothing cached (no layout, no glyph mask; the fonts are loaded, as a running UI has
/// them). Warm: the layout and the glyph masks cached, as a steady frame has them. Relayout:
/// shaped and broken again (a string that changed), glyph masks cached.
public enum TextBenchmark {
  /// Times in milliseconds.
  public struct Result: Sendable, CustomStringConvertible {
    public var glyphs: Int
    public var lines: Int
    /// Fonts the layout used.
    public var fonts: Int
    /// fontconfig's set-up (loading its configuration and font list), when this run started it.
    public var fontconfigMilliseconds: Double
    /// Shaping, bidi and line breaking alone (best of the warm runs).
    public var layoutMilliseconds: Double
    /// Layout and drawing with nothing cached.
    public var coldMilliseconds: Double
    /// The cold run's drawing alone (glyphs rasterized, colour glyphs decoded and scaled).
    public var coldDrawMilliseconds: Double
    /// The cold run's processor time on its thread: what it costs without the time other
    /// processes took the processor from it (on a busy machine a run of several milliseconds
    /// is nearly always interrupted).
    public var coldCPUMilliseconds: Double
    /// Drawing a cached layout with the glyph masks cached (best of several runs).
    public var warmMilliseconds: Double
    /// Layout again and drawing with the glyph masks cached (best of several runs).
    public var relayoutMilliseconds: Double
    /// Glyph rasterizations in the cold run and in one warm run.
    public var coldRasterizations: Int
    public var warmRasterizations: Int

    public var description: String {
      func f(_ v: Double) -> String { String(Double(Int((v * 1000).rounded())) / 1000) }
      return
        "\(glyphs) glyphs, \(lines) lines, \(fonts) fonts (fontconfig set-up \(f(fontconfigMilliseconds)) ms): "
        + "layout \(f(layoutMilliseconds)) ms; layout+draw cold \(f(coldMilliseconds)) ms "
        + "(\(coldRasterizations) rasterizations), warm \(f(warmMilliseconds)) ms "
        + "(\(warmRasterizations) rasterizations), relayout+draw \(f(relayoutMilliseconds)) ms"
    }
  }

  /// Ordinary English, repeated to length.
  static let english =
    "Sheen draws every glyph through the same coverage rasterizer as its shapes. A cache keyed "
    + "by glyph, size and subpixel position turns a line of text into a few masked blits. "

  /// Sentences in many scripts, repeated to length.
  static let mixed =
    "Sheen draws text for the whole world. مرحبا بالعالم، هذا نص عربي موصول. שלום עולם, זה טקסט עברי. "
    + "नमस्ते दुनिया, यह हिंदी पाठ है। สวัสดีชาวโลก ภาษาไทย 日本語の文章は空白なしで折り返されます。"
    + "中文在汉字之间换行。 한국어 문장도 줄이 바뀝니다. Привет, мир! Γειά σου κόσμε! 😀🎉👍🏽 "

  /// Lays out and draws about `glyphs` characters of `size` pt text on a 1:1 canvas.
  public static func run(
    glyphs: Int = 2000, size: Double = 14, mixedScripts: Bool = true, warmRuns: Int = 10,
    library: FontLibrary = FontLibrary()
  ) throws -> Result {
    let clock = ContinuousClock()
    let sample = mixedScripts ? mixed : english
    var string = ""
    while string.unicodeScalars.count < glyphs { string += sample }
    string = String(String.UnicodeScalarView(string.unicodeScalars.prefix(glyphs)))
    let family = library.defaultFamily()
    let style = TextStyle(family: family, size: size, wraps: true)
    let width = 600.0
    let surface = try Surface(width: Int(width) + 20, height: 1200)
    let canvas = Canvas(surface: surface)
    let renderer = TextRenderer(cache: GlyphCache(byteLimit: 64 << 20))

    func ms(_ d: Duration) -> Double {
      Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
    // Load the fonts the text needs (a running UI has them), then empty every cache.
    let warmUp = TextLayout(string, style: style, width: width)
    renderer.draw(warmUp, at: Point(x: 10, y: 10), color: .black, in: canvas)
    renderer.cache.removeAll()
    renderer.cache.resetCounters()
    var layout = warmUp
    let cpuBefore = threadCPUMilliseconds()
    let coldLayout = clock.measure { layout = TextLayout(string, style: style, width: width) }
    let coldDraw = clock.measure { renderer.draw(layout, at: Point(x: 10, y: 10), color: .black, in: canvas) }
    let coldCPU = threadCPUMilliseconds() - cpuBefore
    let cold = coldLayout + coldDraw
    let coldRasterizations = renderer.cache.statistics.rasterizations
    var bestWarm = Duration.seconds(1000)
    var bestRelayout = Duration.seconds(1000)
    var bestLayout = Duration.seconds(1000)
    for _ in 0..<max(1, warmRuns) {
      bestWarm = min(
        bestWarm, clock.measure { renderer.draw(layout, at: Point(x: 10, y: 10), color: .black, in: canvas) })
      bestLayout = min(bestLayout, clock.measure { layout = TextLayout(string, style: style, width: width) })
      bestRelayout = min(
        bestRelayout,
        clock.measure {
          layout = TextLayout(string, style: style, width: width)
          renderer.draw(layout, at: Point(x: 10, y: 10), color: .black, in: canvas)
        })
    }
    let warmRasterizations =
      (renderer.cache.statistics.rasterizations - coldRasterizations) / max(1, warmRuns)
    return Result(
      glyphs: layout.glyphCount, lines: layout.lines.count, fonts: layout.fonts.count,
      fontconfigMilliseconds: ms(library.setUpTime), layoutMilliseconds: ms(bestLayout),
      coldMilliseconds: ms(cold), coldDrawMilliseconds: ms(coldDraw),
      coldCPUMilliseconds: coldCPU, warmMilliseconds: ms(bestWarm), relayoutMilliseconds: ms(bestRelayout),
      coldRasterizations: coldRasterizations, warmRasterizations: warmRasterizations)
  }

  /// The processor time the calling thread has used, in milliseconds.
  static func threadCPUMilliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
  }
}
