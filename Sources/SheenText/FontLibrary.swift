import CFontconfig
import Foundation
import Synchronization

/// UIFont.Weight's nine names, lightest first, with the OpenType weight each asks fontconfig for
/// (100-900); a family's nearest face serves, as fontconfig matches it.
public enum FontWeight: String, Hashable, Sendable, CaseIterable {
  case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

  /// The OpenType `usWeightClass` asked for: ultraLight 100 … black 900.
  public var openTypeWeight: Int {
    100 * (FontWeight.allCases.firstIndex(of: self)! + 1)
  }

  /// The bundled DejaVu Sans face that serves this weight: bold from semibold up.
  var bundledFace: Font.Weight {
    openTypeWeight >= 600 ? .bold : .regular
  }
}

/// Finds fonts through fontconfig, the desktop's font configuration: a family at a weight, and
/// the fonts that fall back for the characters it lacks, in fontconfig's order.
///
/// Nothing is asked of fontconfig until a family other than the bundled DejaVu Sans is wanted or a
/// character the bundled fonts lack turns up: loading its configuration and font list takes a
/// few milliseconds (`setUpTime`). Without fontconfig (no configuration, no fonts) every family
/// is the bundled DejaVu Sans and nothing falls back.
///
/// Fonts are loaded once per file and face, and families once per name and weight; both are
/// kept for the life of the process (a UI uses a handful).
public final class FontLibrary: Sendable {
  /// The library every text layout uses unless told otherwise.
  public static let shared = FontLibrary()

  struct FamilyKey: Hashable {
    var name: String
    var weight: FontWeight
  }

  struct FileKey: Hashable {
    var path: String
    var index: Int
  }

  struct State {
    /// nil until tried; then the configuration, or nil inside when fontconfig cannot start.
    var config: OpaquePointer?? = nil
    var setUpTime: Duration = .zero
    var families: [FamilyKey: FontFamily] = [:]
    var files: [FileKey: Font?] = [:]
    /// Single-face families (`TextStyle(font:)`), one per font, so that styles made again for the
    /// same font are equal and hit the text layout cache. A family keeps its font alive, so the
    /// identifier stays its own; bounded, past which a style gets a family of its own.
    var soleFamilies: [ObjectIdentifier: FontFamily] = [:]
  }

  /// At most this many fonts get a shared single-face family.
  static let soleFamilyLimit = 256

  /// The family that draws with `font` alone (no fallback): the same object for the same font.
  public func soleFamily(for font: Font) -> FontFamily {
    let key = ObjectIdentifier(font)
    if let f = state.withLock({ $0.soleFamilies[key] }) { return f }
    let made = FontFamily(font: font)
    return state.withLock { s in
      if let f = s.soleFamilies[key] { return f }
      if s.soleFamilies.count < FontLibrary.soleFamilyLimit { s.soleFamilies[key] = made }
      return made
    }
  }

  private let state = Mutex(State())
  /// A fontconfig configuration file read instead of the system's (`FONTCONFIG_FILE` and the
  /// defaults), or nil.
  public let configurationFile: String?

  /// A library over the system's fontconfig configuration, or over `configurationFile` alone
  /// (tests that must see the same fonts on every machine).
  public init(configurationFile: String? = nil) {
    self.configurationFile = configurationFile
  }

  /// How long fontconfig took to load its configuration and font list (zero until it was needed).
  public var setUpTime: Duration { state.withLock { $0.setUpTime } }

  /// Whether fontconfig was started.
  public var isFontconfigLoaded: Bool { state.withLock { $0.config != nil } }

  /// The family `name` at `weight`. DejaVu Sans (the default) at regular to black weight is the
  /// bundled font, without asking fontconfig; any other family is fontconfig's best match (a
  /// family nobody has gives fontconfig's default, as in GTK), or the bundled DejaVu Sans when
  /// fontconfig has none.
  public func family(_ name: String, weight: FontWeight = .regular) -> FontFamily {
    let key = FamilyKey(name: name, weight: weight)
    if let f = state.withLock({ $0.families[key] }) { return f }
    let made = makeFamily(key)
    return state.withLock { s in
      if let f = s.families[key] { return f }
      s.families[key] = made
      return made
    }
  }

  /// The default family: DejaVu Sans (bundled) at `weight`.
  public func defaultFamily(weight: FontWeight = .regular) -> FontFamily {
    family(FontFamily.defaultName, weight: weight)
  }

  private func makeFamily(_ key: FamilyKey) -> FontFamily {
    let bundled = try? Font.bundled(key.weight.bundledFace)
    let isDejaVu = key.name.caseInsensitiveCompare(FontFamily.defaultName) == .orderedSame
    if isDejaVu, key.weight.openTypeWeight >= 400, let b = bundled {
      return FontFamily(name: key.name, weight: key.weight, primary: b, library: self)
    }
    let sorted = sortedFonts(family: key.name, weight: key.weight)
    for c in sorted.candidates.prefix(1) {
      if let f = font(path: c.path, index: c.index) {
        return FontFamily(name: key.name, weight: key.weight, primary: f, library: self, sorted: sorted)
      }
    }
    if let b = bundled { return FontFamily(name: key.name, weight: key.weight, primary: b, library: self) }
    // No bundled fonts and no fontconfig: a font of no glyphs would be worse than none; the
    // caller's layout draws nothing.
    return FontFamily(name: key.name, weight: key.weight, primary: nil, library: self)
  }

  /// A face of a font file, loaded once; nil when it cannot be read.
  /// The font files this library has opened so far (fallback fonts are opened when a character
  /// needs them, not when fontconfig lists them).
  public var openedFontFiles: [String] { state.withLock { $0.files.keys.map(\.path) } }

  func font(path: String, index: Int) -> Font? {
    let key = FileKey(path: path, index: index)
    if let f = state.withLock({ $0.files[key] }) { return f }
    let loaded = try? Font(contentsOfFile: path, index: index)
    return state.withLock { s in
      if let f = s.files[key] { return f }
      s.files[key] = loaded
      return loaded
    }
  }

  /// A font fontconfig lists for a family: where it is and which characters it has.
  struct Candidate: @unchecked Sendable {
    var path: String
    var index: Int
    /// Owned by `set`, which lives as long as the candidate list (the family).
    var charset: OpaquePointer?
  }

  /// The fonts for `family` at `weight` in fontconfig's order (best first, each adding
  /// characters the ones before lack), with their character sets.
  func sortedFonts(family: String, weight: FontWeight) -> SortedFonts {
    state.withLock { s -> SortedFonts in
      guard let config = s.configLocked(file: configurationFile) else {
        return SortedFonts(set: nil, candidates: [])
      }
      guard let pattern = FcPatternCreate() else { return SortedFonts(set: nil, candidates: []) }
      defer { FcPatternDestroy(pattern) }
      _ = family.withCString { name in
        FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer(name).assumingMemoryBound(to: FcChar8.self))
      }
      FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(weight.openTypeWeight)))
      FcConfigSubstitute(config, pattern, FcMatchPattern)
      FcDefaultSubstitute(pattern)
      var result = FcResultNoMatch
      guard let set = FcFontSort(config, pattern, FcTrue, nil, &result) else {
        return SortedFonts(set: nil, candidates: [])
      }
      var out: [Candidate] = []
      for i in 0..<Int(set.pointee.nfont) {
        guard let p = set.pointee.fonts[i] else { continue }
        var file: UnsafeMutablePointer<FcChar8>? = nil
        guard FcPatternGetString(p, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
        var index: Int32 = 0
        _ = FcPatternGetInteger(p, FC_INDEX, 0, &index)
        var charset: OpaquePointer? = nil
        _ = FcPatternGetCharSet(p, FC_CHARSET, 0, &charset)
        out.append(
          Candidate(
            path: String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)),
            index: Int(index), charset: charset))
      }
      return SortedFonts(set: set, candidates: out)
    }
  }
}

extension FontLibrary.State {
  /// Starts fontconfig on first use, timing it.
  mutating func configLocked(file: String?) -> OpaquePointer? {
    if let c = config { return c }
    let clock = ContinuousClock()
    let start = clock.now
    var c: OpaquePointer?
    if let file {
      c = FcConfigCreate()
      if let made = c,
        file.withCString({
          FcConfigParseAndLoad(made, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), FcTrue)
        })
          == 0 || FcConfigBuildFonts(made) == 0
      {
        FcConfigDestroy(made)
        c = nil
      }
    } else {
      c = FcInitLoadConfigAndFonts()
    }
    setUpTime = clock.now - start
    config = .some(c)
    return c
  }
}

/// A fontconfig font set sorted for a family, freed with the family.
final class SortedFonts: @unchecked Sendable {
  let set: UnsafeMutablePointer<FcFontSet>?
  let candidates: [FontLibrary.Candidate]

  init(set: UnsafeMutablePointer<FcFontSet>?, candidates: [FontLibrary.Candidate]) {
    self.set = set
    self.candidates = candidates
  }

  deinit { if let set { FcFontSetDestroy(set) } }

  func has(_ i: Int, _ scalar: UInt32) -> Bool {
    guard let cs = candidates[i].charset else { return false }
    return FcCharSetHasChar(cs, scalar) != 0
  }
}

/// A font family at a weight: its primary face and, for characters it lacks, the fonts
/// fontconfig falls back to, looked up lazily and remembered per character.
public final class FontFamily: Sendable, Hashable {
  /// The family every text uses unless told otherwise.
  public static let defaultName = "DejaVu Sans"

  public let name: String
  public let weight: FontWeight
  /// The face that draws what it has; nil only when no font at all could be loaded.
  public let primary: Font?
  let library: FontLibrary

  private struct Fallback {
    var sorted: SortedFonts?
    var emoji: SortedFonts?
    var byScalar: [UInt32: Font?] = [:]
  }

  private let fallback: Mutex<Fallback>

  /// Whether characters the primary face lacks are looked up through fontconfig.
  public let fallsBack: Bool

  init(
    name: String, weight: FontWeight, primary: Font?, library: FontLibrary, sorted: SortedFonts? = nil,
    fallsBack: Bool = true
  ) {
    self.fallsBack = fallsBack
    self.name = name
    self.weight = weight
    self.primary = primary
    self.library = library
    fallback = Mutex(Fallback(sorted: sorted))
  }

  /// `font` alone, with nothing to fall back to.
  public convenience init(font: Font) {
    self.init(name: font.familyName, weight: .regular, primary: font, library: .shared, fallsBack: false)
  }

  public static func == (a: FontFamily, b: FontFamily) -> Bool { a === b }
  public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }

  /// The font that draws `scalar`: the primary face when it has it, else the first font in
  /// fontconfig's order that does (for an emoji presentation, colour emoji fonts first), else nil.
  public func font(for scalar: Unicode.Scalar, emoji: Bool = false) -> Font? {
    if !emoji || !fallsBack, let p = primary, p.hasGlyph(for: scalar) { return p }
    if !fallsBack { return nil }
    let key = scalar.value | (emoji ? 0x8000_0000 : 0)
    if let f = fallback.withLock({ $0.byScalar[key] }) { return f }
    let found = lookUp(scalar.value, emoji: emoji)
    fallback.withLock { $0.byScalar[key] = found }
    return found
  }

  private func lookUp(_ scalar: UInt32, emoji: Bool) -> Font? {
    if emoji {
      let list = fallback.withLock { f in
        if f.emoji == nil { f.emoji = library.sortedFonts(family: "emoji", weight: .regular) }
        return f.emoji!
      }
      if let f = first(in: list, having: scalar, colorOnly: true) { return f }
      if let p = primary, let u = Unicode.Scalar(scalar), p.hasGlyph(for: u) { return p }
    }
    let list = fallback.withLock { f in
      if f.sorted == nil { f.sorted = library.sortedFonts(family: name, weight: weight) }
      return f.sorted!
    }
    return first(in: list, having: scalar, colorOnly: false)
  }

  private func first(in list: SortedFonts, having scalar: UInt32, colorOnly: Bool) -> Font? {
    for i in list.candidates.indices where list.has(i, scalar) {
      let c = list.candidates[i]
      guard let f = library.font(path: c.path, index: c.index), let u = Unicode.Scalar(scalar),
        f.hasGlyph(for: u)
      else { continue }
      if colorOnly && !f.hasColorBitmaps { continue }
      return f
    }
    return nil
  }
}
