import SheenRaster

/// Times laying out and drawing text, for the performance notes: 2,000 glyphs of 14 pt text
/// by default, first with an empty glyph cache (cold), then with it filled (warm).
public enum TextBenchmark {
  /// Times in milliseconds.
  public struct Result: Sendable, CustomStringConvertible {
    public var glyphs: Int
    /// Loading and validating DejaVu Sans from its file (every glyph decoded once).
    public var fontLoadMilliseconds: Double
    /// Layout alone.
    public var layoutMilliseconds: Double
    /// Layout and drawing with an empty cache.
    public var coldMilliseconds: Double
    /// Layout and drawing with a warm cache (the best of several runs).
    public var warmMilliseconds: Double
    /// Glyph rasterizations in the cold run and in one warm run.
    public var coldRasterizations: Int
    public var warmRasterizations: Int

    public var description: String {
      func f(_ v: Double) -> String { String(Double(Int((v * 1000).rounded())) / 1000) }
      return
        "font load \(f(fontLoadMilliseconds)) ms; \(glyphs) glyphs: layout \(f(layoutMilliseconds)) ms, layout+draw cold "
        + "\(f(coldMilliseconds)) ms (\(coldRasterizations) rasterizations), warm "
        + "\(f(warmMilliseconds)) ms (\(warmRasterizations) rasterizations)"
    }
  }

  /// The text drawn: a paragraph of ordinary English, repeated to length.
  static let sample =
    "Sheen draws every glyph through the same coverage rasterizer as its shapes. A cache keyed "
    + "by glyph, size and subpixel position turns a line of text into a few masked blits. "

  /// Lays out and draws about `glyphs` glyphs of `size` pt text on a 1:1 canvas.
  public static func run(glyphs: Int = 2000, size: Double = 14, warmRuns: Int = 10) throws -> Result {
    let clock = ContinuousClock()
    var loaded: Font? = nil
    let path = try BundledAssets.fontsDirectory() + "/" + Font.Weight.regular.fileName
    let loadTime = try clock.measure { loaded = try Font(contentsOfFile: path) }
    let font = loaded!
    var string = ""
    while string.unicodeScalars.count < glyphs { string += sample }
    string = String(String.UnicodeScalarView(string.unicodeScalars.prefix(glyphs)))
    let style = TextStyle(font: font, size: size, wraps: true)
    let width = 600.0
    let surface = try Surface(width: Int(width) + 20, height: 600)
    let canvas = Canvas(surface: surface)
    let renderer = TextRenderer(cache: GlyphCache())

    func ms(_ d: Duration) -> Double {
      Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
    var drawn = 0
    let layoutTime = clock.measure { drawn = TextLayout(string, style: style, width: width).glyphCount }
    let cold = clock.measure {
      let layout = TextLayout(string, style: style, width: width)
      renderer.draw(layout, at: Point(x: 10, y: 10), color: .black, in: canvas)
    }
    let coldRasterizations = renderer.cache.statistics.rasterizations
    var best = Duration.seconds(1000)
    for _ in 0..<max(1, warmRuns) {
      let t = clock.measure {
        let layout = TextLayout(string, style: style, width: width)
        renderer.draw(layout, at: Point(x: 10, y: 10), color: .black, in: canvas)
      }
      best = min(best, t)
    }
    let warmRasterizations =
      (renderer.cache.statistics.rasterizations - coldRasterizations) / max(1, warmRuns)
    return Result(
      glyphs: drawn, fontLoadMilliseconds: ms(loadTime), layoutMilliseconds: ms(layoutTime),
      coldMilliseconds: ms(cold),
      warmMilliseconds: ms(best), coldRasterizations: coldRasterizations,
      warmRasterizations: warmRasterizations)
  }
}
