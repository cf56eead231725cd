import Foundation
import SheenRaster
import SheenTestSupport
import Testing

/// Text in every script against the desktop's own stack: the same string drawn by `sheen render`
/// (a scene with one text layer) and by `pango-view` (Pango: fontconfig, HarfBuzz, FriBidi),
/// with the same family and pixel size, both under the tests' own fontconfig configuration
/// (Tests/Fonts/fonts.conf: only the fonts `./run.sh test` installs, in a fixed order).
///
/// Each picture is cropped to its ink (255 minus the darkest channel, above 24) and Sheen's is
/// scaled (bilinear) to the size of Pango's; after a 3 × 3 binomial blur, which forgives the
/// quarter-pixel phases at which the two rasterizers place glyphs, their ink must correlate at
/// 0.9 or more, and the ink widths must agree within 5%. The negative controls show the measure
/// tells wrong text apart: unjoined Arabic, Devanagari without conjuncts and Arabic forced left to
/// right correlate at 0.5 or less with the right text.
///
/// Pango's line tops are cut as a text layer clips to its bounds (SCENE.md): ink above the first
/// line's top is not compared.
@Suite struct ScriptTests {
  static let fontconfig = ReferenceImage.packageRoot.appendingPathComponent("Tests/Fonts/fonts.conf").path
  static let size = 24

  struct Sample: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var family = "DejaVu Sans"
    var testDescription: String { name }
  }

  static let samples: [Sample] = [
    Sample(name: "latin", text: "Sphinx of black quartz, judge my vow"),
    Sample(name: "greek", text: "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία"),
    Sample(name: "cyrillic", text: "Съешь же ещё этих мягких французских булок"),
    Sample(name: "arabic", text: "نص حكيم له سر قاطع وذو شأن عظيم"),
    Sample(name: "hebrew", text: "דג סקרן שט בים מאוכזב ולפתע מצא חברה"),
    Sample(name: "devanagari", text: "नमस्ते दुनिया, क्षत्रिय और श्री"),
    Sample(name: "thai", text: "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า"),
    Sample(name: "japanese", text: "いろはにほへと 日本語の文章です"),
    Sample(name: "korean", text: "다람쥐 헌 쳇바퀴에 타고파"),
    Sample(name: "chinese", text: "我能吞下玻璃而不伤身体"),
    Sample(name: "bengali", text: "আমি কাচ খেতে পারি"),
    Sample(name: "tamil", text: "நான் கண்ணாடி சாப்பிடுவேன்"),
    Sample(name: "georgian", text: "მინას ვჭამ და არა მტკივა"),
    Sample(name: "armenian", text: "Կրնամ ապակի ուտել"),
    Sample(name: "ltr-with-rtl", text: "The word שלום means peace (42)"),
    Sample(name: "rtl-with-ltr", text: "كلمة Sheen تعني لمعان 2026"),
    Sample(name: "noto-sans-bold", text: "Ελληνικά Русский Latin", family: "Noto Sans:bold"),
  ]

  /// A grey-level picture of ink, row by row.
  struct Ink {
    var width: Int
    var height: Int
    var values: [Double]

    init(width: Int, height: Int, values: [Double]) {
      self.width = width
      self.height = height
      self.values = values
    }

    /// 255 minus the darkest channel of each pixel of an opaque picture; rows above `top` blank.
    init(_ s: Surface, top: Int = 0) {
      width = s.width
      height = s.height
      values = []
      values.reserveCapacity(width * height)
      for y in 0..<height {
        for x in 0..<width {
          let p = s[x, y]
          let m = min(p & 0xFF, (p >> 8) & 0xFF, (p >> 16) & 0xFF)
          values.append(y < top ? 0 : Double(255 - m))
        }
      }
    }

    subscript(x: Int, y: Int) -> Double { values[y * width + x] }

    /// The rectangle of pixels above 24, or nil.
    var inkBounds: IntRect? {
      var x0 = Int.max
      var y0 = Int.max
      var x1 = -1
      var y1 = -1
      for y in 0..<height {
        for x in 0..<width where self[x, y] > 24 {
          x0 = min(x0, x)
          x1 = max(x1, x)
          y0 = min(y0, y)
          y1 = max(y1, y)
        }
      }
      return x1 < 0 ? nil : IntRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    func cropped(_ r: IntRect) -> Ink {
      var v: [Double] = []
      for y in r.y..<r.maxY { for x in r.x..<r.maxX { v.append(self[x, y]) } }
      return Ink(width: r.width, height: r.height, values: v)
    }

    /// Scaled to `w` × `h` with bilinear interpolation (pixel centres mapped onto pixel centres).
    func scaled(_ w: Int, _ h: Int) -> Ink {
      var v: [Double] = []
      v.reserveCapacity(w * h)
      for j in 0..<h {
        let sy = min(max((Double(j) + 0.5) * Double(height) / Double(h) - 0.5, 0), Double(height - 1))
        let y0 = Int(sy)
        let y1 = min(y0 + 1, height - 1)
        let fy = sy - Double(y0)
        for i in 0..<w {
          let sx = min(max((Double(i) + 0.5) * Double(width) / Double(w) - 0.5, 0), Double(width - 1))
          let x0 = Int(sx)
          let x1 = min(x0 + 1, width - 1)
          let fx = sx - Double(x0)
          let top = self[x0, y0] * (1 - fx) + self[x1, y0] * fx
          let bottom = self[x0, y1] * (1 - fx) + self[x1, y1] * fx
          v.append(top * (1 - fy) + bottom * fy)
        }
      }
      return Ink(width: w, height: h, values: v)
    }

    /// A 3 × 3 binomial blur (1 2 1 by 1 2 1, over 16), zero outside.
    var blurred: Ink {
      var v = [Double](repeating: 0, count: values.count)
      for y in 0..<height {
        for x in 0..<width {
          var acc = 0.0
          for dy in -1...1 {
            for dx in -1...1 {
              let xx = x + dx
              let yy = y + dy
              guard xx >= 0, xx < width, yy >= 0, yy < height else { continue }
              acc += self[xx, yy] * Double((2 - abs(dx)) * (2 - abs(dy)))
            }
          }
          v[y * width + x] = acc / 16
        }
      }
      return Ink(width: width, height: height, values: v)
    }

    /// Pearson's correlation with a picture of the same size.
    func correlation(_ o: Ink) -> Double {
      let n = Double(values.count)
      let ma = values.reduce(0, +) / n
      let mb = o.values.reduce(0, +) / n
      var sab = 0.0
      var saa = 0.0
      var sbb = 0.0
      for i in values.indices {
        let a = values[i] - ma
        let b = o.values[i] - mb
        sab += a * b
        saa += a * a
        sbb += b * b
      }
      return sab / (saa * sbb).squareRoot()
    }
  }

  /// A private directory for one test's files.
  static func directory(_ name: String) throws -> URL {
    let d = FileManager.default.temporaryDirectory.appendingPathComponent("sheen-scripts-\(getpid())-\(name)")
    try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    return d
  }

  static var environment: [String: String] {
    ProcessInfo.processInfo.environment.merging(["FONTCONFIG_FILE": fontconfig]) { $1 }
  }

  /// `text` drawn by `sheen render` in a text layer at (10, 10) (`isWrapped` to `wrap`).
  static func sheen(_ text: String, family: String, size: Int, wrap: Int? = nil, in dir: URL) throws
    -> Surface
  {
    let weight = family.hasSuffix(":bold") ? ", \"fontWeight\": \"bold\"" : ""
    let name = family.replacingOccurrences(of: ":bold", with: "")
    let width = wrap ?? 1400
    let scene = """
      {"width": \(width + 20), "height": \(wrap == nil ? 90 : 400), "background": "#FFFFFF", "layers": [
        {"type": "text", "frame": [10, 10, \(width), \(wrap == nil ? 70 : 380)], "string": \(quoted(text)),
         "fontSize": \(size), "fontFamily": \(quoted(name))\(weight)\(wrap == nil ? "" : ", \"isWrapped\": true")}]}
      """
    let json = dir.appendingPathComponent("scene.json").path
    let png = dir.appendingPathComponent("sheen.png").path
    try scene.write(toFile: json, atomically: true, encoding: .utf8)
    let r = try runProcess(
      try sheenPath(), ["render", json, "-o", png], environment: environment, timeout: 60)
    try #require(r.status == 0, "sheen render: \(r.stderr)")
    return try Surface(contentsOfPNG: png)
  }

  /// `text` drawn by pango-view with SCENE.md's options (`--width` to wrap, in pixels).
  static func pango(_ text: String, family: String, size: Int, wrap: Int? = nil, in dir: URL) throws
    -> Surface
  {
    let tool = try #require(findExecutable("pango-view"), "pango-view is not installed (pango1.0-tools)")
    let png = dir.appendingPathComponent("pango.png").path
    let font = family.replacingOccurrences(of: ":bold", with: " Bold")
    var args = [
      "--no-display", "--pixels", "--font=\(font) \(size)", "--hinting=none", "--hint-metrics=off",
      "--subpixel-positions", "--margin=10", "--output=\(png)", "--text=\(text)",
    ]
    if let w = wrap { args += ["--width=\(w)", "--wrap=word-char"] }
    let r = try runProcess(tool, args, environment: environment, timeout: 60)
    try #require(r.status == 0, "pango-view: \(r.stderr)")
    return try Surface(contentsOfPNG: png)
  }

  static func quoted(_ s: String) -> String {
    let data = try! JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
  }

  /// The correlation of two pictures' ink (Sheen's scaled to Pango's crop) and their ink widths.
  static func compare(_ sheen: Surface, _ pango: Surface) throws -> (correlation: Double, widths: (Int, Int))
  {
    let a = Ink(sheen)
    let b = Ink(pango, top: 10)
    let ra = try #require(a.inkBounds, "Sheen drew nothing")
    let rb = try #require(b.inkBounds, "Pango drew nothing")
    let ca = a.cropped(ra).scaled(rb.width, rb.height).blurred
    let cb = b.cropped(rb).blurred
    return (ca.correlation(cb), (ra.width, rb.width))
  }

  @Test(arguments: samples) func scriptMatchesPango(_ sample: Sample) throws {
    let dir = try ScriptTests.directory(sample.name)
    defer { try? FileManager.default.removeItem(at: dir) }
    let s = try ScriptTests.sheen(sample.text, family: sample.family, size: ScriptTests.size, in: dir)
    let p = try ScriptTests.pango(sample.text, family: sample.family, size: ScriptTests.size, in: dir)
    let (c, (wa, wb)) = try ScriptTests.compare(s, p)
    print(
      "ScriptTests: \(sample.name): ink correlation \(String(format: "%.3f", c)), ink width \(wa) px (Pango \(wb) px)"
    )
    #expect(c >= 0.9, "\(sample.name): ink correlation \(c)")
    #expect(abs(Double(wa) / Double(wb) - 1) <= 0.05, "\(sample.name): ink width \(wa) against Pango's \(wb)")
  }

  /// Pango 1.50 with Cairo 1.16 (Debian 12) draws Noto Color Emoji at its bitmaps' own size
  /// (109 pixels per em) whatever the font size, so for emoji the 5% applies to the ink's
  /// proportions, and the size is checked against the font's metrics: the bitmaps are 128 pixels
  /// high for 109 per em, 28.2 pixels at 24.
  @Test func colourEmojiMatchPango() throws {
    let text = "😀🎉👍🏽❤️🇯🇵👨‍👩‍👧"
    let dir = try ScriptTests.directory("emoji")
    defer { try? FileManager.default.removeItem(at: dir) }
    let s = try ScriptTests.sheen(text, family: "DejaVu Sans", size: ScriptTests.size, in: dir)
    let p = try ScriptTests.pango(text, family: "DejaVu Sans", size: ScriptTests.size, in: dir)
    let (c, _) = try ScriptTests.compare(s, p)
    print("ScriptTests: emoji: ink correlation \(String(format: "%.3f", c))")
    #expect(c >= 0.9, "emoji: ink correlation \(c)")
    let ra = try #require(Ink(s).inkBounds)
    let rb = try #require(Ink(p, top: 0).inkBounds)
    let aspect = (Double(ra.width) / Double(ra.height)) / (Double(rb.width) / Double(rb.height))
    #expect(abs(aspect - 1) <= 0.05, "emoji: proportions \(ra) against Pango's \(rb)")
    #expect(abs(Double(ra.height) - 128.0 / 109 * 24) <= 1.5, "emoji: \(ra.height) pixels high")
    // In colour: the grinning face is yellow (red and green well above blue).
    var yellow = 0
    for y in ra.y..<ra.maxY {
      for x in ra.x..<(ra.x + 24) {
        let px = s[x, y]
        if Int((px >> 16) & 0xFF) > 200 && Int((px >> 8) & 0xFF) > 150 && Int(px & 0xFF) < 100 { yellow += 1 }
      }
    }
    #expect(yellow > 100, "\(yellow) yellow pixels in the first emoji")
  }

  /// The measure fails wrong text: Pango's rendering of the same letters unjoined (a zero-width
  /// non-joiner between each), or forced left to right, against Sheen's right text.
  @Test func brokenShapingIsToldApart() throws {
    let dir = try ScriptTests.directory("negative")
    defer { try? FileManager.default.removeItem(at: dir) }
    for text in ["نص حكيم له سر قاطع وذو شأن عظيم", "नमस्ते दुनिया, क्षत्रिय और श्री"] {
      let s = try ScriptTests.sheen(text, family: "DejaVu Sans", size: 24, in: dir)
      let unjoined = text.unicodeScalars.map { String($0) }.joined(separator: "\u{200C}")
      let p = try ScriptTests.pango(unjoined, family: "DejaVu Sans", size: 24, in: dir)
      let (c, _) = try ScriptTests.compare(s, p)
      #expect(c < 0.6, "unjoined: \(c)")
      if text.unicodeScalars.first!.value >= 0x600 && text.unicodeScalars.first!.value < 0x700 {
        let ltr = try ScriptTests.pango(
          "\u{202D}" + text + "\u{202C}", family: "DejaVu Sans", size: 24, in: dir)
        #expect(try ScriptTests.compare(s, ltr).correlation < 0.6)
      }
    }
  }

  /// Lines of a picture: bands of rows with ink, and each band's leftmost and rightmost ink.
  static func lines(_ ink: Ink) -> [(rows: Range<Int>, left: Int, right: Int)] {
    var out: [(Range<Int>, Int, Int)] = []
    var y = 0
    while y < ink.height {
      let start = y
      var left = Int.max
      var right = -1
      while y < ink.height {
        var any = false
        for x in 0..<ink.width where ink[x, y] > 24 {
          any = true
          left = min(left, x)
          right = max(right, x)
        }
        if !any { break }
        y += 1
      }
      if y > start { out.append((start..<y, left, right)) }
      y += 1
    }
    return out
  }

  /// Wrapped paragraphs break where Pango breaks them: the same number of lines, each with
  /// the same leftmost and rightmost ink within 2 pixels (a line broken elsewhere differs by
  /// a word or an ideograph). Pango rounds its line heights to whole pixels and Sheen does not
  /// (SCENE.md), so lines are found by their ink, not by position.
  @Test(arguments: [
    ("japanese", "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。"),
    (
      "arabic",
      "يولد جميع الناس أحرارا متساوين في الكرامة والحقوق. وقد وهبوا عقلا وضميرا وعليهم أن يعامل بعضهم بعضا بروح الإخاء."
    ),
    // Thai writes no spaces between words: both break where libthai's dictionary finds words.
    (
      "thai",
      "ทุกคนมีสิทธิในการศึกษาการศึกษาจะต้องให้เปล่าอย่างน้อยในขั้นประถมศึกษาและขั้นพื้นฐานการศึกษาขั้นประถมจะต้องเป็นภาคบังคับ"
    ),
    (
      "english",
      "All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience."
    ),
  ])
  func wrappedParagraphBreaksWherePangoBreaks(_ name: String, _ text: String) throws {
    let dir = try ScriptTests.directory("wrap-\(name)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let s = try ScriptTests.sheen(text, family: "DejaVu Sans", size: 20, wrap: 320, in: dir)
    let p = try ScriptTests.pango(text, family: "DejaVu Sans", size: 20, wrap: 320, in: dir)
    let a = ScriptTests.lines(Ink(s, top: 10))
    let b = ScriptTests.lines(Ink(p, top: 10))
    #expect(a.count == b.count && a.count >= 3, "\(name): \(a.count) lines against Pango's \(b.count)")
    for (la, lb) in zip(a, b) {
      #expect(abs(la.left - lb.left) <= 2 && abs(la.right - lb.right) <= 2, "\(name): \(la) against \(lb)")
    }
  }
}
