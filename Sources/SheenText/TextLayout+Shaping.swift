import CFriBidi
import CHarfBuzz
import CUnibreak
import SheenRaster

/// A glyph of a shaped paragraph, positions in points.
struct ShapedGlyph {
  var id: GlyphID
  var font: UInt16
  /// The scalar (paragraph index) that starts the glyph's cluster.
  var cluster: Int
  var advance: Double
  var dx: Double
  /// HarfBuzz's y offset, y up.
  var dy: Double
}

/// A run of one font, script and direction: scalars `scalars`, glyphs `glyphs` (in HarfBuzz's
/// output order, which is visual order: reversed for a right-to-left run).
struct ShapedRun {
  var scalars: Range<Int>
  var glyphs: Range<Int>
  var level: UInt8
  var font: UInt16
  /// 1 when the glyphs' clusters never decrease (HarfBuzz's monotone cluster levels, left to
  /// right), -1 when they never increase (right to left), 0 otherwise: a line then finds its
  /// glyphs by binary search instead of reading every glyph of the run (quadratic in a long
  /// wrapped paragraph).
  var order: Int8 = 0
}

/// One paragraph, shaped as a single line.
struct ShapedParagraph {
  var scalars: [UInt32] = []
  /// Offsets of the scalars in the whole string's `unicodeScalars`.
  var sources: [Int] = []
  var levels: [UInt8] = []
  var isRightToLeft = false
  var glyphs: [ShapedGlyph] = []
  var runs: [ShapedRun] = []
  /// `before[i]`: the advance of scalars `0..<i` (a cluster's advance counts at its first scalar).
  var before: [Double] = []
  /// Whether a line may start at scalar `i` (a cluster and grapheme boundary), `0...n`.
  var isBoundary: [Bool] = []
  /// libunibreak's verdict after each scalar.
  var breaks: [CChar] = []

  var count: Int { scalars.count }

  /// The width of scalars `a..<b` without trailing spaces.
  func trimmedWidth(_ a: Int, _ b: Int) -> Double {
    let k = trimmedEnd(a, b)
    return before[k] - before[a]
  }

  /// `b` moved back over trailing white space.
  func trimmedEnd(_ a: Int, _ b: Int) -> Int {
    var k = b
    while k > a && LayoutBuilder.isSpace(scalars[k - 1]) { k -= 1 }
    return k
  }

  /// Whether a line may end after scalar `i - 1` (UAX #14).
  func mayBreak(before i: Int) -> Bool {
    i >= count
      || (breaks[i - 1] == LINEBREAK_ALLOWBREAK || breaks[i - 1] == LINEBREAK_MUSTBREAK) && isBoundary[i]
  }
}

/// Splits a string into paragraphs, shapes them and breaks them into lines.
struct LayoutBuilder {
  let style: TextStyle
  let family: FontFamily
  var fonts: [Font] = []
  /// The ellipsis shaped left to right and right to left, made on first use.
  private var ellipses: [Bool: ([ShapedGlyph], Double)] = [:]

  init(style: TextStyle) {
    self.style = style
    family = style.family
  }

  static func isLineBreak(_ v: UInt32) -> Bool {
    v == 0x0A || v == 0x0D || v == 0x2028 || v == 0x2029 || v == 0x0B || v == 0x0C || v == 0x85
  }

  static func isSpace(_ v: UInt32) -> Bool {
    v == 0x20 || v == 0x09 || v == 0x1680 || (0x2000...0x200A).contains(v) && v != 0x2007 || v == 0x205F
      || v == 0x3000
  }

  /// Control characters that draw nothing (not even the missing-glyph box).
  static func isInvisibleControl(_ v: UInt32) -> Bool {
    v < 0x20 || (0x7F...0x9F).contains(v)
  }

  /// Scalars that belong with the one before them: marks, joiners, variation selectors, emoji
  /// modifiers and tags; they keep its font when it has them.
  static func extendsPrevious(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    if v < 0x300 { return false }
    if v == 0x200C || v == 0x200D || (0xFE00...0xFE0F).contains(v) || (0x1F3FB...0x1F3FF).contains(v)
      || (0xE0020...0xE007F).contains(v) || v == 0x20E3 || (0xE0100...0xE01EF).contains(v)
    {
      return true
    }
    switch hb_unicode_general_category(unicodeFuncs, v) {
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK, HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK,
      HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
      return true
    default: return false
    }
  }

  /// Characters that never choose a font (Pango's rule): spaces (but the Ogham space mark),
  /// controls, format characters and variation selectors.
  static func takesNeighbourFont(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    if (0x21...0x7E).contains(v) { return false }
    if (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v) { return true }
    switch hb_unicode_general_category(unicodeFuncs, v) {
    case HB_UNICODE_GENERAL_CATEGORY_SPACE_SEPARATOR: return v != 0x1680
    case HB_UNICODE_GENERAL_CATEGORY_CONTROL, HB_UNICODE_GENERAL_CATEGORY_FORMAT,
      HB_UNICODE_GENERAL_CATEGORY_LINE_SEPARATOR, HB_UNICODE_GENERAL_CATEGORY_PARAGRAPH_SEPARATOR:
      return true
    default: return false
    }
  }

  /// Paragraphs of `(scalar, offset)` split at line breaks; a break at the very end adds none.
  static func paragraphs(_ string: String) -> [[(Unicode.Scalar, Int)]] {
    var out: [[(Unicode.Scalar, Int)]] = []
    // Room for the whole string in the first paragraph, most texts' only one (growing by
    // doubling allocated about six times per paragraph).
    let count = string.unicodeScalars.count
    var current: [(Unicode.Scalar, Int)] = []
    current.reserveCapacity(count)
    var previousWasCR = false
    var any = false
    for (i, s) in string.unicodeScalars.enumerated() {
      any = true
      if s.value == 0x0A && previousWasCR {
        previousWasCR = false
        continue
      }
      previousWasCR = s.value == 0x0D
      if isLineBreak(s.value) {
        out.append(current)
        current = []
      } else {
        current.append((s, i))
      }
    }
    if any && (!current.isEmpty || out.isEmpty) { out.append(current) }
    return out
  }

  /// The index of `font` in `fonts`, added on first use.
  mutating func index(of font: Font) -> UInt16 {
    if let i = fonts.firstIndex(where: { $0 === font }) { return UInt16(i) }
    fonts.append(font)
    return UInt16(fonts.count - 1)
  }

  // MARK: Bidi

  /// FriBidi's type bits of the characters that can raise a bidi level: right-to-left letters
  /// (R, AL: `FRIBIDI_MASK_RTL`), Arabic numbers (AN: `FRIBIDI_MASK_ARABIC`), embeddings,
  /// overrides and their end (`FRIBIDI_MASK_EXPLICIT`), isolates (`FRIBIDI_MASK_ISOLATE`).
  static let raisesBidiLevel: UInt32 = 0x0000_0001 | 0x0000_0002 | 0x0000_1000 | 0x0000_8000

  /// The bidi level of each of a paragraph's scalars, and whether the paragraph runs right to
  /// left (its direction from its first strong character, left to right without one).
  ///
  /// A paragraph without any character that can raise a level (`raisesBidiLevel`) is all level
  /// 0 and left to right, as the full algorithm finds (UAX #9: the paragraph level is 0; European
  /// numbers after a left-to-right start resolve to L, neutrals between L's to L; nothing is
  /// embedded): FriBidi, which allocates about thirty times per paragraph, is then left out. Most
  /// of a UI's text takes this path; anything else goes through `fullBidiLevels`.
  static func bidiLevels(_ scalars: [UInt32]) -> (levels: [UInt8], rightToLeft: Bool) {
    for v in scalars where fribidi_get_bidi_type(v).rawValue & raisesBidiLevel != 0 {
      return fullBidiLevels(scalars)
    }
    return (Array(repeating: 0, count: scalars.count), false)
  }

  /// `bidiLevels` through FriBidi's full algorithm (brackets included), whatever the text.
  static func fullBidiLevels(_ scalars: [UInt32]) -> (levels: [UInt8], rightToLeft: Bool) {
    let n = scalars.count
    if n == 0 { return ([], false) }
    var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
    var brackets = [FriBidiBracketType](repeating: 0, count: n)
    var levels = [FriBidiLevel](repeating: 0, count: n)
    var base = FriBidiParType(rawValue: 0x40)  // FRIBIDI_PAR_ON: from the first strong character
    scalars.withUnsafeBufferPointer { text in
      fribidi_get_bidi_types(text.baseAddress, FriBidiStrIndex(n), &types)
      fribidi_get_bracket_types(text.baseAddress, FriBidiStrIndex(n), types, &brackets)
    }
    if fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &levels) == 0 {
      return (Array(repeating: 0, count: n), false)
    }
    return (levels.map { UInt8(clamping: $0) }, base.rawValue & 1 == 1)
  }

  // MARK: Shaping

  nonisolated(unsafe) static let unicodeFuncs = hb_unicode_funcs_get_default()

  /// Bidi levels, fonts, scripts, runs, HarfBuzz shaping, advances and break opportunities of
  /// one paragraph.
  mutating func shape(_ paragraph: [(Unicode.Scalar, Int)], buffer: OpaquePointer) -> ShapedParagraph {
    var p = ShapedParagraph()
    let n = paragraph.count
    p.scalars.reserveCapacity(n)
    p.sources.reserveCapacity(n)
    for (s, o) in paragraph {
      let v = s.value
      // Tabs draw as spaces; other controls as nothing (HarfBuzz hides a zero-width space).
      p.scalars.append(v == 0x09 ? 0x20 : LayoutBuilder.isInvisibleControl(v) ? 0x200B : v)
      p.sources.append(o)
    }
    TextLayout.countShaping()
    p.before = Array(repeating: 0, count: n + 1)
    p.isBoundary = Array(repeating: false, count: n + 1)
    p.isBoundary[n] = true
    if n == 0 { return p }

    // Bidi: levels per scalar, the paragraph's direction from its first strong character.
    (p.levels, p.isRightToLeft) = LayoutBuilder.bidiLevels(p.scalars)
    // About a glyph per scalar (reserved once: growing by each run's count would copy the
    // glyphs once per run).
    p.glyphs.reserveCapacity(n + n / 4 + 8)

    // Fonts per scalar, as Pango chooses them: marks stay with their base when its font has
    // them; emoji presentations go to colour emoji fonts; the rest to the first font that has
    // them. Spaces, format characters (joiners, bidi controls) and variation selectors never
    // choose a font: they take the one before them (at the start, the one after).
    var fontOf = [UInt16](repeating: 0, count: n)
    let notFound = UInt16.max
    let neutral = UInt16.max - 1
    for i in 0..<n {
      let s = Unicode.Scalar(p.scalars[i]) ?? " "
      if LayoutBuilder.takesNeighbourFont(s) {
        fontOf[i] = neutral
        continue
      }
      if i > 0, LayoutBuilder.extendsPrevious(s), fontOf[i - 1] < neutral {
        if fonts[Int(fontOf[i - 1])].hasGlyph(for: s) {
          fontOf[i] = fontOf[i - 1]
          continue
        }
      }
      var next = 0 as UInt32
      if i + 1 < n { next = p.scalars[i + 1] }
      // (No character below U+231A has the emoji presentation.)
      let emoji =
        next != 0xFE0E
        && (s.value >= 0x231A && s.properties.isEmojiPresentation || next == 0xFE0F && s.properties.isEmoji)
      if let f = family.font(for: s, emoji: emoji) {
        fontOf[i] = index(of: f)
      } else {
        fontOf[i] = notFound
      }
    }
    // The font of the next character that chooses one, from each position.
    var nextChosen = [UInt16?](repeating: nil, count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      nextChosen[i] = fontOf[i] < neutral ? fontOf[i] : nextChosen[i + 1]
    }
    var previous: UInt16? = nil
    for i in 0..<n {
      if fontOf[i] == neutral {
        // After a colour emoji, Pango starts a new item: the space takes the next text's font.
        let next = nextChosen[i]
        if let p = previous, !fonts[Int(p)].hasColorBitmaps || next == nil {
          fontOf[i] = p
        } else if let next {
          fontOf[i] = next
        } else if let primary = family.primary {
          fontOf[i] = index(of: primary)
        } else {
          fontOf[i] = notFound
        }
      }
      if fontOf[i] < neutral { previous = fontOf[i] }
    }
    // Scalars no font has draw the primary face's missing-glyph box.
    if let primary = family.primary {
      let pi = index(of: primary)
      for i in 0..<n where fontOf[i] == notFound { fontOf[i] = pi }
    } else if fontOf.contains(notFound) {
      return p
    }

    // Scripts: common and inherited characters take their neighbours' script.
    var scripts = [hb_script_t](repeating: HB_SCRIPT_COMMON, count: n)
    var last = HB_SCRIPT_COMMON
    for i in 0..<n {
      let sc = hb_unicode_script(LayoutBuilder.unicodeFuncs, p.scalars[i])
      if sc != HB_SCRIPT_COMMON && sc != HB_SCRIPT_INHERITED && sc != HB_SCRIPT_UNKNOWN { last = sc }
      scripts[i] = last
    }
    if let firstReal = scripts.first(where: { $0 != HB_SCRIPT_COMMON }) {
      for i in 0..<n where scripts[i] == HB_SCRIPT_COMMON { scripts[i] = firstReal }
    }

    // Grapheme clusters (UAX #29, by the standard library's recognizer, without building a
    // String): a line never starts inside one.
    var graphemeStart = [Bool](repeating: true, count: n)
    var recognizer = Unicode._CharacterRecognizer()
    for i in 0..<n {
      guard let s = Unicode.Scalar(p.scalars[i]) else { continue }
      if !recognizer.hasBreak(before: s) && i > 0 { graphemeStart[i] = false }
    }

    // Runs of one level, font and script, shaped by HarfBuzz, cut after every
    // `maxShapedCluster` scalars of one grapheme cluster: HarfBuzz's work on a cluster grows
    // with the square of its length (each mark looks back over the marks before it for its
    // base: 100,000 marks on one letter took minutes), so a longer cluster is shaped in pieces,
    // its marks past the 32nd placed without attaching to the base (as Unicode's Stream-Safe
    // Text Format, UAX #15, bounds a combining sequence at 30 non-starters).
    var start = 0
    var longest = 0
    while start < n {
      var end = start + 1
      var inCluster = 1
      while end < n && p.levels[end] == p.levels[start] && fontOf[end] == fontOf[start]
        && scripts[end] == scripts[start]
      {
        if graphemeStart[end] {
          inCluster = 0
        } else if inCluster >= TextLayout.maxShapedCluster {
          break
        }
        inCluster += 1
        longest = max(longest, inCluster)
        end += 1
      }
      shapeRun(&p, start..<end, font: fontOf[start], script: scripts[start], buffer: buffer)
      start = end
    }
    TextLayout.noteShapedCluster(longest)

    // Advances per scalar, and where lines may start.
    var adv = [Double](repeating: 0, count: n)
    for g in p.glyphs {
      adv[g.cluster] += g.advance
      p.isBoundary[g.cluster] = true
    }
    for i in 0..<n { p.before[i + 1] = p.before[i] + adv[i] }
    // A line never starts inside a grapheme cluster.
    for i in 0..<n where !graphemeStart[i] { p.isBoundary[i] = false }
    // UAX #14 opportunities. Debian 12's libunibreak stops the process (a failed assertion) on
    // a regional indicator (a flag's half): it reads each as an emoji (class ID) instead, and
    // the grapheme boundaries above keep a flag's two halves together.
    LayoutBuilder.initLineBreaking
    p.breaks = [CChar](repeating: CChar(LINEBREAK_NOBREAK), count: n)
    // U+FFFF is libunibreak's end-of-string mark (EOS): one inside the text failed the same way
    // (Scripts/hostile.py); a noncharacter breaks as U+FFFD does.
    let breakable = p.scalars.map {
      (0x1F1E6...0x1F1FF).contains($0) ? 0x1F600 : ($0 == 0xFFFF ? 0xFFFD : $0)
    }
    breakable.withUnsafeBufferPointer { text in
      p.breaks.withUnsafeMutableBufferPointer { b in
        set_linebreaks_utf32(text.baseAddress, n, nil, b.baseAddress)
      }
    }
    // Thai has no spaces between words: UAX #14 leaves it to a dictionary, as Pango does with
    // libthai. Its breaks are added within each Thai run.
    var i = 0
    while i < n {
      guard scripts[i] == HB_SCRIPT_THAI else {
        i += 1
        continue
      }
      var j = i + 1
      while j < n && scripts[j] == HB_SCRIPT_THAI { j += 1 }
      for b in ThaiBreaker.breaks(p.scalars[i..<j]) where b > 0 && b < j - i {
        p.breaks[i + b - 1] = CChar(LINEBREAK_ALLOWBREAK)
      }
      i = j
    }
    return p
  }

  /// libunibreak's tables, set up once.
  static let initLineBreaking: Void = init_linebreak()

  /// Shapes scalars `range` of `p` as one run and appends its glyphs.
  mutating func shapeRun(
    _ p: inout ShapedParagraph, _ range: Range<Int>, font fi: UInt16, script: hb_script_t,
    buffer: OpaquePointer
  ) {
    let font = fonts[Int(fi)]
    let rtl = p.levels[range.lowerBound] & 1 == 1
    hb_buffer_clear_contents(buffer)
    p.scalars.withUnsafeBufferPointer { text in
      hb_buffer_add_utf32(
        buffer, text.baseAddress, Int32(p.count), UInt32(range.lowerBound), Int32(range.count))
    }
    hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
    hb_buffer_set_script(buffer, script)
    hb_buffer_set_language(buffer, hb_language_get_default())
    // Zero-width and control characters (mapped to a zero-width space) draw nothing at all.
    hb_buffer_set_flags(buffer, HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES)
    hb_shape(font.hbFont, buffer, nil, 0)
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
      let positions = hb_buffer_get_glyph_positions(buffer, &count)
    else { return }
    let s = style.size / Double(font.unitsPerEm)
    let first = p.glyphs.count
    for i in 0..<Int(count) {
      let info = infos[i]
      let pos = positions[i]
      let cluster = min(max(Int(info.cluster), range.lowerBound), range.upperBound - 1)
      p.glyphs.append(
        ShapedGlyph(
          id: GlyphID(UInt16(truncatingIfNeeded: info.codepoint)), font: fi, cluster: cluster,
          advance: Double(pos.x_advance) * s, dx: Double(pos.x_offset) * s, dy: Double(pos.y_offset) * s))
    }
    var ascending = true
    var descending = true
    for i in (first + 1)..<max(first + 1, p.glyphs.count) {
      let c0 = p.glyphs[i - 1].cluster
      let c1 = p.glyphs[i].cluster
      if c1 < c0 { ascending = false }
      if c1 > c0 { descending = false }
    }
    p.runs.append(
      ShapedRun(
        scalars: range, glyphs: first..<p.glyphs.count, level: p.levels[range.lowerBound], font: fi,
        order: ascending ? 1 : (descending ? -1 : 0)))
  }

  /// "…" shaped in the family (three full stops when no font has it), in a paragraph's direction.
  mutating func ellipsis(rightToLeft: Bool, buffer: OpaquePointer) -> ([ShapedGlyph], Double) {
    if let e = ellipses[rightToLeft] { return e }
    var text: [(Unicode.Scalar, Int)] = [("\u{2026}", 0)]
    if family.font(for: "\u{2026}") == nil { text = [(".", 0), (".", 0), (".", 0)] }
    var p = shape(text, buffer: buffer)
    if rightToLeft { p.glyphs.reverse() }
    let e = (p.glyphs, p.glyphs.reduce(0) { $0 + $1.advance })
    ellipses[rightToLeft] = e
    return e
  }

  // MARK: Lines

  /// The metrics of the tallest font among scalars `a..<b` (the primary face's when empty).
  func metrics(_ p: ShapedParagraph, _ a: Int, _ b: Int) -> LineMetrics {
    var m: LineMetrics? = nil
    for r in p.runs where r.scalars.upperBound > a && r.scalars.lowerBound < b {
      let f = fonts[Int(r.font)].lineMetrics(size: style.size)
      if let c = m {
        m = LineMetrics(
          ascent: max(c.ascent, f.ascent), descent: max(c.descent, f.descent),
          lineGap: max(c.lineGap, f.lineGap))
      } else {
        m = f
      }
    }
    return m ?? style.lineMetrics
  }

  /// Greedy line breaking of a paragraph to `limit` points: the scalar ranges of its lines.
  /// `characters`: a line may end between any two grapheme clusters, not only at UAX #14's
  /// opportunities.
  static func wrap(_ p: ShapedParagraph, limit: Double, characters: Bool = false) -> [Range<Int>] {
    let n = p.count
    if n == 0 { return [0..<0] }
    var lines: [Range<Int>] = []
    var start = 0
    while start < n {
      var lastFit: Int? = nil
      var j = start + 1
      while j <= n {
        if characters ? p.isBoundary[j] : p.mayBreak(before: j) {
          if p.trimmedWidth(start, j) <= limit { lastFit = j } else { break }
        } else if !isSpace(p.scalars[j - 1]) && p.before[j] - p.before[start] > limit {
          // Every later break keeps this scalar on the line, so none fits: stop here rather than
          // read to the end of the paragraph for each line (quadratic in one long word).
          break
        }
        j += 1
      }
      var cut: Int
      if let f = lastFit {
        cut = f
      } else {
        // A word longer than the line breaks between grapheme clusters (at least one per line).
        cut = start + 1
        while cut < n && !p.isBoundary[cut] { cut += 1 }
        var k = cut + 1
        while k <= n {
          if p.isBoundary[k] {
            if p.before[k] - p.before[start] <= limit { cut = k } else { break }
          }
          k += 1
        }
      }
      // Spaces after the cut hang at the end of this line.
      while cut < n && isSpace(p.scalars[cut]) && (characters || !p.mayBreak(before: cut)) { cut += 1 }
      lines.append(start..<cut)
      start = cut
    }
    return lines
  }

  /// The longest prefix `a..<k` of `a..<b` ending on a cluster boundary whose width (trailing
  /// spaces trimmed) is at most `budget`; `k` trimmed.
  static func fittingHead(_ p: ShapedParagraph, _ a: Int, _ b: Int, budget: Double) -> Int {
    var k = p.trimmedEnd(a, b)
    while k > a && (p.before[p.trimmedEnd(a, k)] - p.before[a] > budget || !p.isBoundary[k]) { k -= 1 }
    return p.trimmedEnd(a, k)
  }

  /// The shortest suffix `k..<b` of `a..<b` starting on a cluster boundary whose width (leading
  /// spaces skipped) is at most `budget`.
  static func fittingTail(_ p: ShapedParagraph, _ a: Int, _ b: Int, budget: Double) -> Int {
    let end = p.trimmedEnd(a, b)
    var k = a
    while k < end && (p.before[end] - p.before[k] > budget || !p.isBoundary[k] || isSpace(p.scalars[k])) {
      k += 1
    }
    return k < end ? k : b
  }

  /// The line showing scalars `range` of `p`, in visual order; with `truncation`, "…" replaces
  /// its start, middle or end (in reading order) when it is wider than `limit` or when `force`
  /// is set.
  mutating func makeLine(
    _ p: ShapedParagraph, _ range: Range<Int>, truncation: TextTruncation, limit: Double, force: Bool,
    buffer: OpaquePointer
  ) -> TextLayout.Line {
    let a = range.lowerBound
    let b = range.upperBound
    let k = p.trimmedEnd(a, b)
    let fullWidth = p.before[k] - p.before[a]
    var ellipsis: ([ShapedGlyph], Double)? = nil
    // The scalars shown: `a..<head`, the ellipsis, then `tail..<k`.
    var head = k
    var tail = k
    if truncation != .none && (force || fullWidth > limit) {
      let e = self.ellipsis(rightToLeft: p.isRightToLeft, buffer: buffer)
      ellipsis = e
      let budget = limit - e.1
      switch truncation {
      case .none, .end:
        head = LayoutBuilder.fittingHead(p, a, k, budget: budget)
      case .start:
        head = a
        tail = LayoutBuilder.fittingTail(p, a, k, budget: budget)
      case .middle where fullWidth <= budget:
        // Forced (text follows that did not fit) and the line itself fits: "…" at its end.
        head = k
      case .middle:
        // Half the room for the start, the rest for the end.
        head = LayoutBuilder.fittingHead(p, a, k, budget: budget / 2)
        let used = p.before[head] - p.before[a]
        tail = max(head, LayoutBuilder.fittingTail(p, head, k, budget: budget - used))
      }
    }
    // Pieces of runs within the shown ranges, each in visual order, the ellipsis between them
    // at the paragraph's level, then ordered by level (UAX #9, L2).
    var pieces: [(level: UInt8, glyphs: [ShapedGlyph])] = []
    func addPieces(_ lo: Int, _ hi: Int) {
      guard lo < hi else { return }
      for r in p.runs where r.scalars.upperBound > lo && r.scalars.lowerBound < hi {
        var g: [ShapedGlyph] = []
        /// The first index of the run's glyphs from which `isAfter` holds (it holds for a suffix).
        func partition(_ isAfter: (Int) -> Bool) -> Int {
          var l = r.glyphs.lowerBound
          var h = r.glyphs.upperBound
          while l < h {
            let mid = (l + h) / 2
            if isAfter(p.glyphs[mid].cluster) { h = mid } else { l = mid + 1 }
          }
          return l
        }
        switch r.order {
        case 1:
          let first = partition { $0 >= lo }
          g.append(contentsOf: p.glyphs[first..<max(first, partition { $0 >= hi })])
        case -1:
          let first = partition { $0 < hi }
          g.append(contentsOf: p.glyphs[first..<max(first, partition { $0 < lo })])
        default:
          g.reserveCapacity(r.glyphs.count)
          for i in r.glyphs where p.glyphs[i].cluster >= lo && p.glyphs[i].cluster < hi {
            g.append(p.glyphs[i])
          }
        }
        if !g.isEmpty { pieces.append((r.level, g)) }
      }
    }
    addPieces(a, head)
    if let e = ellipsis { pieces.append((p.isRightToLeft ? 1 : 0, e.0)) }
    addPieces(tail, k)
    if let maxLevel = pieces.map(\.level).max(),
      let minOdd = pieces.map(\.level).filter({ $0 & 1 == 1 }).min()
    {
      var level = maxLevel
      while level >= minOdd {
        var i = 0
        while i < pieces.count {
          if pieces[i].level >= level {
            var j = i
            while j < pieces.count && pieces[j].level >= level { j += 1 }
            pieces[i..<j].reverse()
            i = j
          } else {
            i += 1
          }
        }
        level -= 1
      }
    }
    var glyphs: [TextLayout.Glyph] = []
    glyphs.reserveCapacity(pieces.reduce(0) { $0 + $1.glyphs.count })
    var pen = 0.0
    for piece in pieces {
      for g in piece.glyphs {
        glyphs.append(TextLayout.Glyph(id: g.id, x: pen + g.dx, y: -g.dy, font: g.font))
        pen += g.advance
      }
    }
    // The offsets shown: from the first shown scalar to the last (a middle truncation's gap
    // included).
    let firstShown = ellipsis != nil && head == a ? tail : a
    let lastShown = ellipsis == nil ? b : (tail < k ? k : head)
    let first = firstShown < p.count ? p.sources[firstShown] : (p.sources.last.map { $0 + 1 } ?? 0)
    let src = lastShown > firstShown ? first..<(p.sources[lastShown - 1] + 1) : first..<first
    return TextLayout.Line(
      glyphs: glyphs, origin: .zero, width: ellipsis == nil ? fullWidth : pen, scalarRange: src,
      isTruncated: ellipsis != nil, isRightToLeft: p.isRightToLeft, metrics: metrics(p, a, b))
  }

  /// Every line of `string`, not yet placed (origins are zero).
  mutating func layout(_ string: String, width: Double?, height: Double?) -> [TextLayout.Line] {
    guard family.primary != nil else { return [] }
    let limit = width.map { $0 + 1e-6 } ?? .infinity
    let truncating = style.truncation != .none && width != nil
    let keepsHeight = style.wraps && style.truncation != .none && height != nil
    let buffer = hb_buffer_create()!
    defer { hb_buffer_destroy(buffer) }
    let paragraphs = LayoutBuilder.paragraphs(string)
    var out: [TextLayout.Line] = []
    var top = 0.0
    for (pi, paragraph) in paragraphs.enumerated() {
      let p = shape(paragraph, buffer: buffer)
      var ranges =
        style.wraps && width != nil
        ? LayoutBuilder.wrap(p, limit: limit, characters: style.wrapping == .characters) : [0..<p.count]
      if p.count == 0 {
        // An empty paragraph still takes a line (and keeps its offset in the string).
        ranges = [0..<0]
      }
      for (i, r) in ranges.enumerated() {
        let isLastOfAll = i == ranges.count - 1 && pi == paragraphs.count - 1
        if keepsHeight, let h = height, !out.isEmpty || true {
          let m = metrics(p, r.lowerBound, r.upperBound)
          let nextTop = top + m.lineHeight
          let nextFits = nextTop + m.ascent + m.descent <= h + 1e-9
          if !isLastOfAll && !nextFits {
            // The last line that fits: the rest of its paragraph, ending in an ellipsis.
            out.append(
              makeLine(
                p, r.lowerBound..<p.count, truncation: style.truncation, limit: limit, force: true,
                buffer: buffer))
            return out
          }
          top = nextTop
        }
        out.append(
          makeLine(
            p, r, truncation: truncating && !style.wraps ? style.truncation : .none, limit: limit,
            force: false,
            buffer: buffer))
      }
    }
    return out
  }
}
