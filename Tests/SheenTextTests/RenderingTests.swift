import Foundation
import SheenRaster
import Testing

@testable import SheenText

@Suite struct RenderingTests {
  let font: Font
  init() throws { font = try Font.regular }

  /// The sum of alpha over a surface region.
  func ink(_ s: Surface, rows: Range<Int>? = nil) -> Int {
    var total = 0
    for y in rows ?? 0..<s.height {
      for x in 0..<s.width { total += Int(s[x, y] >> 24) }
    }
    return total
  }

  func draw(
    _ string: String, size: Double, at origin: Point = Point(x: 4, y: 4), surface: (Int, Int) = (64, 48),
    renderer: TextRenderer = TextRenderer(), prepare: (Canvas) -> Void = { _ in }
  ) throws -> Surface {
    let s = try Surface(width: surface.0, height: surface.1)
    let canvas = Canvas(surface: s)
    prepare(canvas)
    canvas.drawText(
      TextLayout(string, style: TextStyle(font: font, size: size)), at: origin, color: .black,
      renderer: renderer)
    return s
  }

  @Test func compositeGlyphRendersItsParts() throws {
    let size = 32.0
    let top = 4.0
    let baseline = top + font.lineMetrics(size: size).ascent
    let eacute = try draw("é", size: size)
    let e = try draw("e", size: size)
    let acute = try draw("\u{B4}", size: size)
    // The accent sits above the e's top (1147 units) and below its own top (1638 units).
    let eTop = Int((baseline - 1147 * size / 2048).rounded(.down))
    let accentTop = Int((baseline - 1638 * size / 2048).rounded(.down))
    #expect(ink(eacute, rows: accentTop..<eTop) > 255 * 10)
    #expect(ink(e, rows: accentTop..<eTop) == 0)
    // Below the accent, é is the e; the whole is e plus the accent (139 units to the right).
    let bottom = Int(baseline) + 3
    #expect(ink(eacute, rows: eTop + 1..<bottom) == ink(e, rows: eTop + 1..<bottom))
    let sum = ink(e) + ink(acute)
    #expect(abs(ink(eacute) - sum) < sum / 50)
  }

  @Test func secondDrawIsServedFromTheCache() throws {
    let renderer = TextRenderer()
    let layout = TextLayout("Hello, cached world", style: TextStyle(font: font, size: 14))
    let s = try Surface(width: 160, height: 24)
    let canvas = Canvas(surface: s)
    canvas.drawText(layout, at: Point(x: 2, y: 2), color: .black, renderer: renderer)
    let first = renderer.cache.statistics
    #expect(first.rasterizations > 0)
    #expect(first.rasterizations <= layout.glyphCount)
    canvas.drawText(layout, at: Point(x: 2, y: 2), color: .black, renderer: renderer)
    let second = renderer.cache.statistics
    #expect(second.rasterizations == first.rasterizations)
    #expect(second.hits - first.hits == layout.glyphCount)
    #expect(second.outlineFills == 0)
    // Another subpixel position rasterizes again; the same position a pixel later does not.
    canvas.drawText(layout, at: Point(x: 3, y: 2), color: .black, renderer: renderer)
    #expect(renderer.cache.statistics.rasterizations == first.rasterizations)
    renderer.cache.resetCounters()
    #expect(renderer.cache.statistics.rasterizations == 0)
  }

  /// A label's coverage, recorded once, fills as its glyphs draw one by one (to a level where
  /// neighbouring glyphs' edges overlap); text too long to record, or rotated, is left to `draw`
  /// without looking up a single glyph.
  @Test func recordedCoverageDrawsAsTheGlyphs() throws {
    let renderer = TextRenderer()
    let layout = TextLayout("Wavy AVAWA, fly!", style: TextStyle(font: font, size: 15))
    let placed = Transform(translationX: 3.25, y: 2)
    let coverage = try #require(renderer.coverage(of: layout, at: .zero, transform: placed))
    let viaCoverage = try Surface(width: 160, height: 24)
    Canvas(surface: viaCoverage).fill(coverage, offsetX: 0, offsetY: 0, paint: .solid(.black))
    let direct = try Surface(width: 160, height: 24)
    let c = Canvas(surface: direct)
    c.transform = placed
    c.drawText(layout, at: .zero, color: .black, renderer: renderer)
    var worst = 0
    for (a, b) in zip(viaCoverage.pixels, direct.pixels) {
      worst = max(worst, abs(Int(a >> 24) - Int(b >> 24)))
    }
    #expect(worst <= 1)
    #expect(ink(viaCoverage) > 255 * 100)

    let long = TextLayout(
      String(repeating: "A long document line after line. ", count: 4000),
      style: TextStyle(font: font, size: 13, wraps: true), width: 300)
    renderer.cache.resetCounters()
    #expect(renderer.coverage(of: long, at: .zero, transform: .identity) == nil)
    #expect(renderer.coverage(of: layout, at: .zero, transform: Transform(rotationAngle: 0.2)) == nil)
    #expect(renderer.cache.statistics.rasterizations == 0 && renderer.cache.statistics.hits == 0)
  }

  @Test func cachedMasksMatchFillingTheOutlines() throws {
    // At quarter-pixel pen positions the cache's masks are the same coverage as a direct fill.
    let style = TextStyle(font: font, size: 15)
    let layout = TextLayout("Wavy To, AV!", style: style)
    let cached = try Surface(width: 120, height: 24)
    Canvas(surface: cached).drawText(layout, at: Point(x: 3, y: 2), color: .black)
    let direct = try Surface(width: 120, height: 24)
    let canvas = Canvas(surface: direct)
    let baseline = (2 + layout.lines[0].origin.y).rounded()
    for g in layout.lines[0].glyphs {
      let x = ((3 + g.x) * 4).rounded(.toNearestOrEven) / 4
      canvas.fill(font.path(for: g.id, size: 15, origin: Point(x: x, y: baseline)), paint: .solid(.black))
    }
    var maxDiff: UInt32 = 0
    for y in 0..<24 {
      for x in 0..<120 {
        let a = cached[x, y] >> 24
        let b = direct[x, y] >> 24
        maxDiff = max(maxDiff, a > b ? a - b : b - a)
      }
    }
    #expect(maxDiff <= 1)
    #expect(ink(cached) > 255 * 40)
  }

  @Test func rotatedTextFillsOutlines() throws {
    let renderer = TextRenderer()
    let plain = try draw("Rotate", size: 20, at: Point(x: 10, y: 10), surface: (120, 120), renderer: renderer)
    let rasterized = renderer.cache.statistics.rasterizations
    let rotated = try draw("Rotate", size: 20, at: Point(x: 0, y: 0), surface: (120, 120), renderer: renderer)
    {
      $0.translateBy(x: 30, y: 20)
      $0.rotate(by: Double.pi / 4)
    }
    #expect(renderer.cache.statistics.outlineFills == 6)
    #expect(renderer.cache.statistics.rasterizations == rasterized)
    let a = ink(plain)
    #expect(abs(ink(rotated) - a) < a / 30)
    // Uniform scale still goes through the cache, at the device pixel size.
    let scaled = try draw("Rotate", size: 10, at: Point(x: 5, y: 5), surface: (120, 120), renderer: renderer)
    {
      $0.scaleBy(x: 2, y: 2)
    }
    #expect(renderer.cache.statistics.outlineFills == 6)
    #expect(abs(ink(scaled) - a) < a / 30)
  }

  @Test func textOutsideTheSurfaceIsClipped() throws {
    let s = try draw("Far away", size: 14, at: Point(x: -500, y: 3000))
    #expect(ink(s) == 0)
    let partly = try draw("Edge", size: 30, at: Point(x: -12, y: -10), surface: (30, 20))
    #expect(ink(partly) > 0)
  }

  @Test func twoThreadsShareOneRenderer() async throws {
    let renderer = TextRenderer()
    let font = self.font
    let results = try await withThrowingTaskGroup(of: [UInt32].self) { group in
      for _ in 0..<2 {
        group.addTask {
          let s = try Surface(width: 200, height: 40)
          let layout = TextLayout(
            "Shared cache, two threads: 0123456789", style: TextStyle(font: font, size: 13))
          for _ in 0..<5 {
            Canvas(surface: s).drawText(layout, at: Point(x: 1.3, y: 2), color: .black, renderer: renderer)
          }
          return s.pixels
        }
      }
      var out: [[UInt32]] = []
      for try await r in group { out.append(r) }
      return out
    }
    #expect(results[0] == results[1])
  }

  @Test func benchmarkRuns() throws {
    let r = try TextBenchmark.run(glyphs: 300, mixedScripts: false, warmRuns: 2)
    // 300 characters: a few pairs (fi, ff) are ligatures.
    #expect(r.glyphs > 280 && r.glyphs <= 300)
    #expect(r.coldRasterizations > 0)
    #expect(r.warmRasterizations == 0)
    let mixed = try TextBenchmark.run(glyphs: 300, warmRuns: 2)
    #expect(mixed.fonts >= 4 && mixed.glyphs > 200)
    #expect(mixed.warmRasterizations == 0)
  }
}

/// The full benchmark, when asked for: `SHEEN_TEXT_BENCHMARK=1 swift test -c release
/// --filter TextBenchmarkTests`.
@Suite struct TextBenchmarkTests {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["SHEEN_TEXT_BENCHMARK"] != nil))
  func twoThousandGlyphs() throws {
    for _ in 0..<3 {
      print("TextBenchmark, English:", try TextBenchmark.run(mixedScripts: false))
      print("TextBenchmark, mixed scripts:", try TextBenchmark.run())
    }
  }
}
