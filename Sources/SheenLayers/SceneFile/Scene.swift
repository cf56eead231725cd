// Scene files (shared SCENE.md): one frame described as a tree of layers in JSON.
//
// Decoding is strict: anything SCENE.md does not allow is refused with a message that names the
// key path (`layers[2].sublayers[0].shadowRadius: expected a number ≥ 0, got -4`), so a person
// who wrote the file can find the mistake. Nothing is drawn from a file that has one.

import SheenRaster

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A decoded scene file: the canvas and the root's sublayers.
public struct Scene {
  /// The canvas in points.
  public var width: Double
  public var height: Double
  /// Pixels per point.
  public var scale: Double
  /// The canvas colour under all layers; nil is transparent.
  public var background: Color?
  /// The root's sublayers, back to front.
  public var layers: [Layer]
  /// The canvas in pixels: points × scale, rounded half up.
  public var pixelWidth: Int
  public var pixelHeight: Int

  /// Layers nest at most this deep (the root's sublayers are at depth 1; a mask is one level
  /// below its layer).
  public static let maxLayerDepth = 256
  /// The largest canvas side in pixels, after `× scale`.
  public static let maxPixelsPerSide = 16384

  /// Decodes a scene file's bytes.
  /// - Parameters:
  ///   - data: the file's contents (UTF-8 JSON).
  ///   - scale: if set, replaces the file's `scale` (the canvas limits apply to the result).
  ///   - images: where `contents` paths are looked up (the file's folder); by default the
  ///     current directory.
  /// - Throws: `SceneError` naming the key path of the first problem.
  public static func decode(
    _ data: [UInt8], scale: Double? = nil, images: SceneImageSource = .currentDirectory
  ) throws(SceneError) -> Scene {
    let root: JSONValue
    do {
      root = try JSONParser.parse(data)
    } catch {
      if !error.keyPath.isEmpty {
        throw SceneError(
          keyPath: error.keyPath, message: "duplicate key", offset: error.offset, line: error.line,
          column: error.column)
      }
      throw SceneError(
        keyPath: "", message: "invalid JSON at \(error.description)", offset: error.offset, line: error.line,
        column: error.column)
    }
    do {
      return try SceneDecoder.decodeScene(SceneField(root, path: ""), scaleOverride: scale, images: images)
    } catch {
      var e = error
      if let offset = e.offset {
        let (line, column) = jsonLineAndColumn(of: offset, in: data)
        e.line = line
        e.column = column
      }
      throw e
    }
  }

  /// Reads and decodes a scene file.
  /// - Throws: `SceneReadError` if the file cannot be read, `SceneError` if it is not a valid scene.
  /// Images named by the file are found relative to its folder.
  public static func decode(contentsOfFile path: String, scale: Double? = nil) throws -> Scene {
    try decode(try readFile(path), scale: scale, images: SceneImageSource(folder: folder(of: path)))
  }

  /// The folder a file is in ("." for a bare name).
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The largest scene file read, in bytes (a 1 MB path is a few MB of JSON; the parsed tree
  /// takes several times the file's size in memory).
  public static let maxFileBytes = 16 << 20

  /// The whole contents of a file, refused past `maxFileBytes` before reading it all (a regular
  /// file by its size, anything else, such as `/dev/zero` or a pipe, once that much is read).
  static func readFile(_ path: String) throws(SceneReadError) -> [UInt8] {
    guard let f = fopen(path, "rb") else {
      throw SceneReadError(path: path, reason: String(cString: strerror(errno)))
    }
    defer { fclose(f) }
    let tooLarge = SceneReadError(
      path: path, reason: "larger than \(maxFileBytes >> 20) MiB, the limit for a scene file")
    var st = stat()
    if fstat(fileno(f), &st) == 0 {
      if st.st_mode & S_IFMT == S_IFDIR { throw SceneReadError(path: path, reason: "it is a directory") }
      if st.st_mode & S_IFMT == S_IFREG && st.st_size > maxFileBytes { throw tooLarge }
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
      bytes.append(contentsOf: chunk[..<n])
      if bytes.count > maxFileBytes { throw tooLarge }
      if n < chunk.count {
        if ferror(f) != 0 { throw SceneReadError(path: path, reason: String(cString: strerror(errno))) }
        return bytes
      }
    }
  }
}

/// A scene file that is not valid: the key path of the problem and what is wrong.
public struct SceneError: Error, Equatable, CustomStringConvertible {
  /// Where the problem is, such as `layers[2].sublayers[0].shadowRadius`; empty for the file as a
  /// whole (invalid JSON, or a top level that is not an object).
  public var keyPath: String
  /// What is wrong, such as `expected a number ≥ 0, got -4`.
  public var message: String
  /// The UTF-8 byte offset of the offending value in the file, when known.
  public var offset: Int?
  /// The 1-based line and column (in characters) of `offset`.
  public var line: Int?
  public var column: Int?

  public init(keyPath: String, message: String, offset: Int? = nil, line: Int? = nil, column: Int? = nil) {
    self.keyPath = keyPath
    self.message = message
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// `keyPath: message`, or the message alone for the file as a whole.
  ///
  /// One line, whatever the file held: control characters are escaped and each part is cut to a
  /// few hundred bytes (a key path made of hostile keys, a huge number echoed back).
  public var description: String {
    let m = printable(message, maxBytes: 400)
    return keyPath.isEmpty ? m : "\(printable(keyPath, maxBytes: 300)): \(m)"
  }
}

/// A scene file that could not be read.
public struct SceneReadError: Error, Equatable, CustomStringConvertible {
  public var path: String
  /// The system's reason, such as "No such file or directory".
  public var reason: String

  public var description: String { "cannot read \(quoted(path, maxBytes: 300)): \(reason)" }
}

extension Scene {
  /// A scene of `layers` on a canvas of `width` × `height` points (for `encoded()`); the pixel
  /// size is points × scale, rounded half up.
  public init(width: Double, height: Double, scale: Double = 1, background: Color? = nil, layers: [Layer]) {
    self.init(
      width: width, height: height, scale: scale, background: background, layers: layers,
      pixelWidth: Int((width * scale).rounded()), pixelHeight: Int((height * scale).rounded()))
  }
}

/// `text` with control characters (C0, DEL, C1, line and paragraph separators) escaped as
/// `\u{…}` and cut after `maxBytes` bytes of UTF-8, with the whole size said.
func printable(_ text: String, maxBytes: Int) -> String {
  var out = ""
  var used = 0
  for u in text.unicodeScalars {
    let v = u.value
    let piece =
      v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
      ? "\\u{" + String(v, radix: 16, uppercase: true) + "}" : String(u)
    if used + piece.utf8.count > maxBytes { return out + "… (\(text.utf8.count) bytes)" }
    used += piece.utf8.count
    out += piece
  }
  return out
}
