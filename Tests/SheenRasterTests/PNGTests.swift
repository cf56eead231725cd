import Foundation
import Testing

@testable import SheenRaster

/// PNG reading and writing: premultiplied round trips and errors that name the file.
@Suite struct PNGTests {
  /// A fresh path in the temporary directory.
  func temporaryPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.path
    return "\(dir)/sheen-png-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
  }

  /// A surface with every alpha from 0 to 255 and varied colours, as valid premultiplied pixels.
  func sample() throws -> Surface {
    let s = try Surface(width: 32, height: 9)
    for y in 0..<s.height {
      for x in 0..<s.width {
        let a = UInt8((y * 32 + x) % 256)
        let r = UInt8((x * 37 + y * 11) % 256)
        let g = UInt8((x * 5 + y * 71) % 256)
        let b = UInt8(255 - (x * 8) % 256)
        s[x, y] = Pixel.premultiplied(r: r, g: g, b: b, a: a)
      }
    }
    s[0, 0] = 0xFF12_3456
    s[1, 0] = 0
    return s
  }

  /// Round trips keep every valid premultiplied pixel exactly (straight alpha in the file is
  /// rounded to nearest, and premultiplying it again rounds back).
  func checkRoundTrip(_ original: Surface, _ back: Surface) {
    #expect(back.width == original.width && back.height == original.height)
    #expect(back.pixels == original.pixels)
  }

  @Test func fileRoundTripKeepsPremultipliedValues() throws {
    let s = try sample()
    let path = temporaryPath("round-trip.png")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try s.writePNG(to: path)
    let back = try Surface(contentsOfPNG: path)
    checkRoundTrip(s, back)
  }

  @Test func dataRoundTripKeepsPremultipliedValues() throws {
    let s = try sample()
    let data = try s.pngData()
    #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    checkRoundTrip(s, try Surface(pngData: data))
  }

  /// Every (alpha, channel) pair with channel <= alpha, through encoding and decoding.
  @Test func everyPremultipliedValueSurvives() throws {
    let s = try Surface(width: 256, height: 256)
    for a in 0..<256 {
      for c in 0...a {
        s[c, a] = UInt32(a) << 24 | UInt32(c) << 16 | UInt32(a - c) << 8 | UInt32(c / 2)
      }
    }
    checkRoundTrip(s, try Surface(pngData: try s.pngData()))
  }

  @Test func maskWritesGreyscale() throws {
    let m = try AlphaMask(width: 5, height: 3)
    for i in 0..<15 { m.base[i] = UInt8(i * 17) }
    let path = temporaryPath("mask.png")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try m.writePNG(to: path)
    let back = try Surface(contentsOfPNG: path)
    for i in 0..<15 {
      let v = UInt32(i * 17)
      #expect(back[i % 5, i / 5] == 0xFF00_0000 | v << 16 | v << 8 | v)
    }
  }

  @Test func missingFileNamesThePath() throws {
    let path = temporaryPath("does-not-exist.png")
    do {
      _ = try Surface(contentsOfPNG: path)
      Issue.record("reading a missing file succeeded")
    } catch let error as RasterError {
      #expect(error.description.contains(path), "\(error)")
    }
  }

  @Test func corruptFileNamesThePath() throws {
    let good = try sample().pngData()
    // Not a PNG at all, and a PNG cut off in the middle of its pixel data.
    for bytes in [Array("hello, not a png".utf8), Array(good.prefix(good.count / 2))] {
      let path = temporaryPath("corrupt.png")
      defer { try? FileManager.default.removeItem(atPath: path) }
      FileManager.default.createFile(atPath: path, contents: Data(bytes))
      do {
        _ = try Surface(contentsOfPNG: path)
        Issue.record("reading a corrupt file succeeded")
      } catch let error as RasterError {
        #expect(error.description.contains(path), "\(error)")
      }
    }
    #expect(throws: RasterError.self) { try Surface(pngData: [1, 2, 3]) }
  }

  @Test func unwritablePathThrows() throws {
    let path = "/nonexistent-dir-\(getpid())/out.png"
    #expect(throws: RasterError.self) { try sample().writePNG(to: path) }
  }
}
