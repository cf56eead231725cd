import SheenKit

/// What one card shows: generated from its index, so every run (and every test) sees the same
/// list.
public struct CardContent: Hashable, Sendable {
  /// How the card's top is decorated.
  public enum Header: Hashable, Sendable {
    /// A flat coloured strip.
    case strip
    /// A generated picture: a diagonal gradient with soft circles.
    case image
    /// A photo of the bundled assets (`UIImage(named:)`), filling the header (aspect fill).
    case photo(String)
  }

  public var index: Int
  public var title: String
  public var subtitle: String
  public var buttonTitle: String
  public var tags: [String]
  /// Hue of the header and tags, 0...1.
  public var hue: Double
  /// Hue of the button: the header's, or its complement where white text would not read on it
  /// (yellows, greens, cyans).
  public var buttonHue: Double {
    hue > 0.06 && hue < 0.55 ? (hue + 0.5).truncatingRemainder(dividingBy: 1) : hue
  }
  public var header: Header
  /// A bundled photo shown as a round avatar beside the title, or nil.
  public var avatar: String?

  /// The language of a card of the world section (`DemoContent.worldSection`), else nil.
  public var language: String?

  /// The content of card `index` (any index gives a card; the list shows `DemoContent.cardCount`).
  public init(index: Int) {
    self.index = index
    var rng = SplitMix(seed: UInt64(index) &* 0x9E37_79B9 &+ 17)
    if DemoContent.sections[DemoContent.worldSection].cards.contains(index) {
      let w = Self.world[index % Self.world.count]
      language = w.language
      title = "\(w.title) #\(index + 1)"
      subtitle = w.subtitle
      buttonTitle = w.button
      tags = w.tags
      hue = Double(index * 37 % 360) / 360
      header = rng.next(3) == 0 ? .image : .strip
      if index % 3 == 1 { header = .photo(Self.photos[(index / 3) % Self.photos.count]) }
      avatar = index % 2 == 0 ? Self.photos[(index / 2 + 1) % Self.photos.count] : nil
      return
    }
    let place = Self.places[rng.next(Self.places.count)]
    let thing = Self.things[rng.next(Self.things.count)]
    title = "\(place) \(thing) #\(index + 1)"
    var words: [String] = []
    let sentences = 2 + rng.next(3)
    for _ in 0..<sentences { words.append(Self.sentences[rng.next(Self.sentences.count)]) }
    subtitle = words.joined(separator: " ")
    buttonTitle = Self.actions[rng.next(Self.actions.count)]
    var t: [String] = []
    let n = 1 + rng.next(3)
    while t.count < n {
      let tag = Self.tagWords[rng.next(Self.tagWords.count)]
      if !t.contains(tag) { t.append(tag) }
    }
    tags = t
    hue = Double(index * 37 % 360) / 360
    header = rng.next(3) == 0 ? .image : .strip
    // A third of the cards show a photo in the header, half a round avatar.
    if index % 3 == 1 { header = .photo(Self.photos[(index / 3) % Self.photos.count]) }
    avatar = index % 2 == 0 ? Self.photos[(index / 2 + 1) % Self.photos.count] : nil
  }

  /// The values of the small chart (`SparklineView`, drawn in `draw(_:)`) that a third of the
  /// cards with a flat header show in it, or nil: a random walk of ten steps from the index.
  public var trend: [Double]? {
    guard hasTrend else { return nil }
    var values: [CGFloat] = []
    trend(into: &values)
    return values.map { Double($0) }
  }

  /// Whether the card shows a small chart (`trend` is not nil).
  public var hasTrend: Bool { header == .strip && index % 3 == 0 }

  /// Replaces `values` with `trend`'s values, in its storage (a reused card's chart takes the
  /// next card's values without a new array).
  public func trend(into values: inout [CGFloat]) {
    values.removeAll(keepingCapacity: true)
    guard hasTrend else { return }
    values.reserveCapacity(10)
    var rng = SplitMix(seed: UInt64(index) &* 0x2545_F491 &+ 5)
    var v = 10.0
    for _ in 0..<10 {
      v = max(1, v + Double(rng.next(9)) - 3.6)
      values.append(CGFloat(v))
    }
  }

  /// The bundled photos (Assets/Photos, public domain and CC0).
  public static let photos = ["astronaut", "coffee", "chelsea", "rocket"]

  static let places = [
    "Harbour", "Alpine", "Desert", "Forest", "Coastal", "Urban", "Lunar", "Arctic", "Garden", "Valley",
    "Island", "Canyon",
  ]
  static let things = [
    "Notes", "Journal", "Tracker", "Playlist", "Gallery", "Planner", "Recipes", "Atlas", "Studio", "Digest",
  ]
  static let sentences = [
    "Drawn every frame by a rasterizer written in Swift.",
    "Rounded corners follow the clip, and so does the header.",
    "The shadow is blurred once and reused while you scroll.",
    "Tap the button: it shrinks on touch-down and springs back.",
    "Text is laid out with the bundled DejaVu fonts and truncated with an ellipsis.",
    "No GPU, no Skia, no Cairo: only the CPU and a frame buffer.",
    "Fling the list and watch it decelerate like UIScrollView.",
    "Pull past the top to feel the rubber band.",
    "Each tag rounds only the corners it chooses and strokes its outline.",
    "The gradient border is a one-point stroke used as a mask.",
  ]
  /// The world section's cards: a title, subtitle, button and tags in each language, written for
  /// this demo. Right-to-left ones align right by themselves (`natural`).
  static let world: [(language: String, title: String, subtitle: String, button: String, tags: [String])] = [
    (
      "Arabic", "دفتر الرحلات",
      "يُرسم كل إطار بمعالج الحاسوب وحده، والحروف العربية موصولة وتُقرأ من اليمين إلى اليسار.", "افتح",
      ["✈️ سفر", "جديد"]
    ),
    (
      "Hebrew", "יומן מסע", "כל מסגרת מצוירת על ידי המעבד בלבד, והטקסט העברי מיושר לימין כמו שצריך.", "פתח",
      ["🎵 מוזיקה", "חדש"]
    ),
    (
      "Japanese", "東京の写真集", "すべてのフレームはCPUだけで描かれます。日本語の文章は空白がなくても正しく折り返されます。", "開く",
      ["📷 写真", "新着"]
    ),
    (
      "Hindi", "यात्रा डायरी", "हर फ़्रेम केवल प्रोसेसर से बनता है, और देवनागरी के संयुक्ताक्षर सही ढंग से जुड़ते हैं।", "खोलें",
      ["🍛 भोजन", "नया"]
    ),
    ("Korean", "서울 음악 목록", "모든 프레임은 CPU만으로 그려집니다. 한글 문장도 자연스럽게 줄이 바뀝니다.", "재생", ["🎧 음악"]),
    ("Chinese", "北京美食笔记", "每一帧都只由处理器绘制，中文在汉字之间自然换行，不需要空格。", "保存", ["🥟 美食", "热门"]),
    (
      "Thai", "บันทึกการเดินทาง", "ทุกเฟรม วาดด้วย หน่วยประมวลผลกลาง เท่านั้น สระ และ วรรณยุกต์ วางถูกที่", "เปิด",
      ["🌴 เที่ยว"]
    ),
    (
      "Russian and Greek", "Заметки о Москве",
      "Каждый кадр рисует только процессор. Ελληνικά και кириллица в одной строке.",
      "Открыть", ["❄️ зима", "νέο"]
    ),
  ]

  static let actions = ["Open", "Follow", "Join", "Save", "Play", "Book", "Share", "Get"]
  static let tagWords = [
    "new", "swift", "design", "travel", "music", "food", "photo", "beta", "pro", "free", "daily", "featured",
  ]
}

/// A small deterministic generator (SplitMix64), so that the content is the same on every run.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func nextRaw() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in 0..<n.
  mutating func next(_ n: Int) -> Int { Int(nextRaw() % UInt64(max(1, n))) }
}

/// The list's shape: how many cards, in which sections.
public enum DemoContent {
  /// How the cards of a section get their shadows.
  public enum ShadowStyle: Hashable, Sendable {
    /// One shadow on a clear container (a row of cells); cells clear, cards clipped (seed 001).
    case container
    /// A shadow on each cell with an explicit `shadowPath`; content clipped (seeds 000, 003).
    case perCard
  }

  /// One section of the list.
  public struct Section: Hashable, Sendable {
    public var title: String
    public var detail: String
    public var style: ShadowStyle
    public var cards: Range<Int>
  }

  /// Cards per section.
  public static let cardsPerSection = 26
  /// Sections, alternating shadow styles.
  public static let sectionCount = 8
  /// Every card in the list.
  public static var cardCount: Int { cardsPerSection * sectionCount }
  /// The section whose cards are written in many languages and scripts (the second).
  public static let worldSection = 1

  /// The sections of the default list, in order.
  public static let sections: [Section] = (0..<sectionCount).map { i in
    makeSection(i, cards: (i * cardsPerSection)..<((i + 1) * cardsPerSection))
  }

  /// How many sections a list of `cards` cards has (`cardsPerSection` to a section, the last
  /// one holding what is left).
  public static func sectionCount(cards: Int) -> Int {
    (max(0, cards) + cardsPerSection - 1) / cardsPerSection
  }

  /// Section `i` of a list of `cards` cards: the default list's while it lasts, then more of the
  /// same kinds (made when asked for, so a list of a million cards keeps none).
  public static func section(_ i: Int, cards: Int) -> Section {
    let range = (i * cardsPerSection)..<min(cards, (i + 1) * cardsPerSection)
    if i < sections.count && sections[i].cards == range { return sections[i] }
    return makeSection(i, cards: range)
  }

  /// How section `i`'s cards get their shadows (the styles alternate).
  public static func style(ofSection i: Int) -> ShadowStyle { i % 2 == 0 ? .container : .perCard }

  static func makeSection(_ i: Int, cards range: Range<Int>) -> Section {
    let style = Self.style(ofSection: i)
    switch style {
    case .container:
      return Section(
        title: "\(i + 1). One shadow per container",
        detail:
          "Cells and each row's container are clear; cards clip to radius 16. The container's one shadow takes the shape of every card in it (seed 001).",
        style: style, cards: range)
    case .perCard where i == worldSection:
      return Section(
        title: "\(i + 1). Text for the whole world",
        detail:
          "Arabic and Hebrew read right to left and align right; Japanese and Chinese wrap between ideographs; Hindi joins its conjuncts; tags carry colour emoji. Shaped by HarfBuzz, fonts from fontconfig.",
        style: style, cards: range)
    case .perCard:
      return Section(
        title: "\(i + 1). A shadow per card, with a shadowPath",
        detail:
          "Each cell casts its own shadow from an explicit rounded-rect shadowPath that follows its size, and clips its content view (seeds 000 and 003).",
        style: style, cards: range)
    }
  }
}
