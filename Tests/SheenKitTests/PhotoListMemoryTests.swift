import Foundation
import SheenLayers
import SheenRaster
import Testing

@testable import SheenKit

/// A list of ten thousand photos must not hold ten thousand decoded images: a dozen reused image
/// views show 10,000 files one after another, as a scrolled photo list does. Each file is decoded
/// once when asked for (`ImageFileCache`, bounded by bytes and by files), and the photos scrolled
/// past are let go: only what the views show and what the caches' bounds allow stays.
@Suite struct PhotoListMemoryTests {
  @Test func tenThousandPhotosKeepABoundedNumberDecoded() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-photos-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // One small PNG, and 10,000 names for it (symbolic links): the cache keys files by path, so
    // each name is a photo of its own, decoded on its own.
    let pixels = try Surface(width: 8, height: 6)
    for y in 0..<6 {
      for x in 0..<8 { pixels[x, y] = 0xFF00_0000 | UInt32(x * 30) << 16 | UInt32(y * 40) }
    }
    let original = dir.appendingPathComponent("photo.png").path
    try pixels.writePNG(to: original)
    let count = 10_000
    func path(_ i: Int) -> String { dir.appendingPathComponent("photo-\(i).png").path }
    for i in 0..<count { #expect(symlink(original, path(i)) == 0) }

    let (window, surface) = try makeWindow(width: 120, height: 90)
    let views = (0..<12).map { i in
      let v = UIImageView(
        frame: CGRect(x: CGFloat(i % 4) * 30, y: CGFloat(i / 4) * 30, width: 30, height: 30))
      v.contentMode = .scaleAspectFill
      v.clipsToBounds = true
      window.addSubview(v)
      return v
    }
    let decodesBefore = ImageFileCache.shared.statistics.decodes
    weak var firstPhoto: RasterImage?
    for i in 0..<count {
      let image = try #require(UIImage(contentsOfFile: path(i)))
      if i == 0 { firstPhoto = image.cgImage?.rasterImage }
      views[i % views.count].image = image
      // A frame now and then (each shows the photos resampled to the views' size).
      if i % 600 == 599 { window.renderFrame(into: surface, time: Double(i) / 6000) }
    }
    window.renderFrame(into: surface, time: 2)
    let stats = ImageFileCache.shared.statistics
    // Each file decoded once (other tests may decode their own files meanwhile).
    #expect(stats.decodes - decodesBefore >= count)
    // The cache holds at most its file count and budget, far fewer than the list's photos.
    #expect(stats.count <= ImageFileCache.shared.maxEntries && stats.count < count)
    #expect(stats.bytes <= ImageFileCache.shared.budget)
    // The first photo, scrolled past long ago, is held by nothing.
    #expect(firstPhoto == nil)
    // The photos resampled to the views' size are kept within the renderer's budget too.
    #expect(window.renderer.context.imageCacheBytes <= 16 << 20)
    // What is shown is the last dozen photos (the top-left pixel of the last one, scaled).
    #expect(surface[0, 0] != 0)
  }
}
