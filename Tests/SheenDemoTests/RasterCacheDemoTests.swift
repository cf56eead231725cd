import Foundation
import SheenDemo
import SheenKit
import SheenLayers
import SheenRaster
import Testing

/// The demo with the raster cache (rows, cards and runs of a card's still parts composited from
/// kept bitmaps, made in frames or ahead in the idle work between them) against the demo drawing
/// every layer every frame: within source-over rounding
/// (at most 2/255 in a channel, and over 1/255 on under 0.2% of pixels) at scales 1 and 1.5,
/// scrolling and through a press; and the same bytes on one and two threads. Small windows and
/// few frames: a debug build draws the demo slowly.
@Suite struct RasterCacheDemoTests {
  static func differences(_ a: Surface, _ b: Surface) -> (worst: Int, overOne: Double) {
    var worst = 0
    var over = 0
    for (p, q) in zip(a.pixels, b.pixels) where p != q {
      var d = 0
      for k in 0..<4 { d = max(d, abs(Int((p >> UInt32(8 * k)) & 255) - Int((q >> UInt32(8 * k)) & 255))) }
      worst = max(worst, d)
      if d > 1 { over += 1 }
    }
    return (worst, Double(over) / Double(max(1, a.width * a.height)))
  }

  @Test(arguments: [1.0, 1.5])
  func cachedFramesMatchFramesDrawnWhole(scale: Double) throws {
    let w = Int(300 * scale)
    let h = Int(420 * scale)
    let cached = makeDemo(width: w, height: h, scale: scale)
    let whole = makeDemo(width: w, height: h, scale: scale)
    cached.renderer.rasterizesAutomatically = true
    whole.renderer.rasterizesAutomatically = false
    let a = try Surface(width: w, height: h)
    let b = try Surface(width: w, height: h)
    // A few frames at rest, a scroll by whole points, rest, then a press of the first card's
    // button in view.
    let script = try DemoScript("wait 3, steady 600, wait 4, steady 0, wait 3, tap-button 1, wait 8")
    let states = (DemoScript.State(), DemoScript.State())
    var hits = 0
    var madeAhead = 0
    for n in 0..<script.length {
      let time = Double(n) / 60
      script.apply(to: cached, frame: n, time: time, state: states.0)
      script.apply(to: whole, frame: n, time: time, state: states.1)
      cached.renderer.context.resetStatistics()
      cached.renderFrame(into: a, time: time)
      whole.renderFrame(into: b, time: time)
      hits += cached.renderer.context.statistics.rasterCacheHits
      let d = RasterCacheDemoTests.differences(a, b)
      #expect(d.worst <= 2 && d.overOne < 0.002, "scale \(scale), frame \(n): \(d)")
      // The idle work between frames (cells made ahead of scrolling, and with the cache their
      // bitmaps), all of it.
      let idle = cached.renderer.context.statistics.rasterCacheMadeAhead
      cached.performIdleWork(until: .infinity)
      whole.performIdleWork(until: .infinity)
      madeAhead += cached.renderer.context.statistics.rasterCacheMadeAhead - idle
    }
    #expect(hits > 0, "scale \(scale): nothing composited from the cache")
    #expect(madeAhead > 0, "scale \(scale): no bitmap made ahead")
  }

  @Test func cachedFramesAreTheSameOnOneAndTwoThreads() throws {
    let one = makeDemo(width: 300, height: 400)
    let two = makeDemo(width: 300, height: 400)
    one.renderer = FrameRenderer(threads: 1)
    two.renderer = FrameRenderer(threads: 2)
    for w in [one, two] { w.renderer.rasterizesAutomatically = true }
    let a = try Surface(width: 300, height: 400)
    let b = try Surface(width: 300, height: 400)
    let script = try DemoScript("wait 3, steady 900, wait 5, steady 0, wait 3, tap-button 1, wait 6")
    let states = (DemoScript.State(), DemoScript.State())
    for n in 0..<script.length {
      let time = Double(n) / 60
      script.apply(to: one, frame: n, time: time, state: states.0)
      script.apply(to: two, frame: n, time: time, state: states.1)
      one.renderFrame(into: a, time: time)
      two.renderFrame(into: b, time: time)
      #expect(a.pixels == b.pixels, "frame \(n)")
      one.performIdleWork(until: .infinity)
      two.performIdleWork(until: .infinity)
    }
    #expect(one.renderer.context.statistics.rasterCacheHits > 0)
  }
}
