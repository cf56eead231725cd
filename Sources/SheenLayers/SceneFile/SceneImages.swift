// Images named by scene files (`contents`): paths relative to the scene file's folder, refused
// when absolute or when they leave that folder (symbolic links included), decoded through the
// shared `ImageFileCache` so that a file shown by many layers is decoded once.

import SheenRaster

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a scene file's images are found.
public struct SceneImageSource: Sendable {
  /// The folder `contents` paths are relative to; nil refuses every image (a scene given as
  /// bytes with nowhere to look).
  public var folder: String?
  public var cache: ImageFileCache

  public init(folder: String?, cache: ImageFileCache = .shared) {
    self.folder = folder
    self.cache = cache
  }

  /// Images relative to the current directory.
  public static var currentDirectory: SceneImageSource { SceneImageSource(folder: ".") }

  /// The image a `contents` value names, or nil for null.
  func image(_ f: SceneField) throws(SceneError) -> RasterImage? {
    if f.isNull { return nil }
    guard case .string(let rel) = f.value.kind else {
      throw f.expected("a path to a PNG or JPEG file relative to the scene file's folder, or null")
    }
    if rel.isEmpty { throw f.fail("expected a path to a PNG or JPEG file, got \"\"") }
    if rel.hasPrefix("/") || rel.hasPrefix("\\") {
      throw f.fail("expected a path relative to the scene file's folder, got \(quoted(rel))")
    }
    // Lexically: ".." never climbs above the folder.
    var depth = 0
    for part in rel.split(separator: "/", omittingEmptySubsequences: true) {
      if part == ".." {
        depth -= 1
        if depth < 0 { throw f.fail("\(quoted(rel)) leaves the scene file's folder") }
      } else if part != "." {
        depth += 1
      }
    }
    guard let folder, let base = SceneImageSource.realPath(folder) else {
      throw f.fail("cannot read image \(quoted(rel)): no folder to look in")
    }
    let joined = base.hasSuffix("/") ? base + rel : base + "/" + rel
    // Through symbolic links: what the path really names must lie inside the folder too.
    guard let full = SceneImageSource.realPath(joined) else {
      throw f.fail("cannot read image \(quoted(rel)): \(String(cString: strerror(errno)))")
    }
    let prefix = base.hasSuffix("/") ? base : base + "/"
    if !full.hasPrefix(prefix) { throw f.fail("\(quoted(rel)) leaves the scene file's folder") }
    do {
      return try cache.image(atPath: full)
    } catch {
      throw f.fail("cannot read image \(quoted(rel)): \(error)")
    }
  }

  /// The canonical absolute path (links resolved), or nil with `errno` set.
  static func realPath(_ p: String) -> String? {
    guard let r = realpath(p, nil) else { return nil }
    defer { free(r) }
    return String(cString: r)
  }
}
