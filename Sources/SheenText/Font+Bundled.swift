import Foundation
import Synchronization

extension Font {
  /// The weights of the bundled DejaVu Sans family.
  public enum Weight: String, Hashable, Sendable, CaseIterable {
    case regular
    case bold

    /// The file name in the fonts directory.
    public var fileName: String {
      switch self {
      case .regular: return "DejaVuSans.ttf"
      case .bold: return "DejaVuSans-Bold.ttf"
      }
    }
  }

  /// The bundled DejaVu Sans.
  /// - Throws: `FontError.assetsNotFound` when the fonts are in none of the searched places.
  public static var regular: Font {
    get throws { try bundled(.regular) }
  }

  /// The bundled DejaVu Sans Bold.
  public static var bold: Font {
    get throws { try bundled(.bold) }
  }

  private static let loaded = Mutex<[Weight: Font]>([:])

  /// A bundled font, loaded once per process and then shared.
  public static func bundled(_ weight: Weight) throws -> Font {
    if let f = loaded.withLock({ $0[weight] }) { return f }
    let dir = try BundledAssets.fontsDirectory()
    let font = try Font(contentsOfFile: dir + "/" + weight.fileName)
    return loaded.withLock { cache in
      if let f = cache[weight] { return f }
      cache[weight] = font
      return font
    }
  }
}

/// Finds the bundled fonts: never relative to the current directory.
///
/// In order:
/// 1. `$SHEEN_ASSETS/Fonts` when `SHEEN_ASSETS` is set (and only there, so a wrong value is an
///    error rather than a silent fallback);
/// 2. `../share/sheen/Fonts` relative to the executable's directory (an installed binary);
/// 3. `Assets/Fonts` in the executable's directory or one of its ancestors (a build directory
///    inside a checkout, such as `.build/release/sheen`);
/// 4. the `Assets/Fonts` directory of the checkout this file was compiled from (`#filePath`), which
///    also covers build directories outside the checkout and test bundles.
///
/// The fonts are not SwiftPM resources: SwiftPM copies a symlinked resource directory as a
/// dangling symlink, and its generated `Bundle.module` stops the process when the bundle is
/// missing, where a missing font must be an error the user reads.
public enum BundledAssets {
  /// The environment variable that overrides where the assets are.
  public static let environmentVariable = "SHEEN_ASSETS"

  /// The directories searched for the fonts, in order.
  public static func candidateFontDirectories() -> [String] {
    if let env = ProcessInfo.processInfo.environment[environmentVariable], !env.isEmpty {
      return [URL(fileURLWithPath: env).appendingPathComponent("Fonts").path]
    }
    var out: [String] = []
    if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() {
      let dir = exe.deletingLastPathComponent()
      out.append(dir.deletingLastPathComponent().appendingPathComponent("share/sheen/Fonts").path)
      var up = dir
      for _ in 0..<8 {
        out.append(up.appendingPathComponent("Assets/Fonts").path)
        let parent = up.deletingLastPathComponent()
        if parent.path == up.path { break }
        up = parent
      }
    }
    // Sources/SheenText/Font+Bundled.swift -> <checkout>/Assets/Fonts
    let source = URL(fileURLWithPath: #filePath)
    out.append(
      source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Assets/Fonts").path)
    var seen = Set<String>()
    return out.filter { seen.insert($0).inserted }
  }

  /// The first candidate directory that holds both bundled fonts.
  /// - Throws: `FontError.assetsNotFound` listing every place searched.
  public static func fontsDirectory() throws -> String {
    let candidates = candidateFontDirectories()
    let fm = FileManager.default
    for dir in candidates
    where Font.Weight.allCases.allSatisfy({ fm.isReadableFile(atPath: dir + "/" + $0.fileName) }) {
      return dir
    }
    throw FontError.assetsNotFound(searched: candidates)
  }
}
