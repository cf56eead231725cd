/// `loca` and `glyf`: glyph outlines, simple and composite.
struct GlyphTable: Sendable {
  private let glyf: TableReader
  /// `numGlyphs + 1` byte offsets into `glyf`, validated non-decreasing and inside the table.
  private let offsets: [UInt32]

  /// Composite glyphs nest at most this deep (deeper is taken as a reference cycle).
  static let maxDepth = 16
  /// A resolved outline may hold at most this many points.
  static let maxPoints = 1 << 18

  init(_ dir: TableDirectory, header h: HeaderTables) throws {
    glyf = try dir.table("glyf")
    let loca = try dir.table("loca")
    let n = h.numGlyphs + 1
    var offsets = [UInt32](repeating: 0, count: n)
    if h.indexToLocFormat == 0 {
      try loca.check(0, n * 2, "offsets of \(h.numGlyphs) glyphs")
      for i in 0..<n { offsets[i] = UInt32(try loca.u16(i * 2)) * 2 }
    } else {
      try loca.check(0, n * 4, "offsets of \(h.numGlyphs) glyphs")
      for i in 0..<n { offsets[i] = try loca.u32(i * 4) }
    }
    for i in 0..<n {
      if i > 0, offsets[i] < offsets[i - 1] {
        throw loca.malformed("offset of glyph \(i) (\(offsets[i])) is less than the one before it")
      }
      if Int(offsets[i]) > glyf.count {
        throw loca.malformed("offset of glyph \(i) (\(offsets[i])) lies beyond the glyf table")
      }
    }
    self.offsets = offsets
  }

  var numGlyphs: Int { offsets.count - 1 }

  /// The bytes of glyph `g`, or nil when it has no outline (a space).
  private func data(_ g: Int) throws -> TableReader? {
    guard g >= 0, g < numGlyphs else { throw glyf.malformed("glyph \(g) does not exist") }
    let start = Int(offsets[g])
    let length = Int(offsets[g + 1]) - start
    if length == 0 { return nil }
    guard length >= 10 else { throw glyf.malformed("glyph \(g) is shorter than its header") }
    return try glyf.sub(start, length)
  }

  /// The bounding box in the glyph's header, or nil for an empty glyph.
  func box(_ g: Int) throws -> GlyphBox? {
    guard let d = try data(g) else { return nil }
    return GlyphBox(
      xMin: Int(try d.i16(2)), yMin: Int(try d.i16(4)), xMax: Int(try d.i16(6)), yMax: Int(try d.i16(8)))
  }

  /// The outline of glyph `g`, composites resolved.
  func outline(_ g: Int) throws -> GlyphOutline {
    var out = GlyphOutline()
    try append(g, to: &out, depth: 0)
    return out
  }

  private func append(_ g: Int, to out: inout GlyphOutline, depth: Int) throws {
    guard depth <= GlyphTable.maxDepth else {
      throw glyf.malformed("composite glyph \(g) nests deeper than \(GlyphTable.maxDepth) (a cycle?)")
    }
    guard let d = try data(g) else { return }
    let contours = Int(try d.i16(0))
    if contours >= 0 {
      try appendSimple(d, contours: contours, glyph: g, to: &out)
    } else {
      try appendComposite(d, glyph: g, to: &out, depth: depth)
    }
  }

  private func appendSimple(_ d: TableReader, contours: Int, glyph g: Int, to out: inout GlyphOutline) throws
  {
    var ends = [Int]()
    ends.reserveCapacity(contours)
    for i in 0..<contours {
      let e = Int(try d.u16(10 + i * 2)) + 1
      guard e > (ends.last ?? 0) else {
        throw glyf.malformed("glyph \(g): contour end points are not increasing")
      }
      ends.append(e)
    }
    let count = ends.last ?? 0
    guard out.points.count + count <= GlyphTable.maxPoints else {
      throw glyf.malformed("glyph \(g) has too many points")
    }
    var p = 10 + contours * 2
    let instructionLength = Int(try d.u16(p))
    p += 2 + instructionLength

    // Flags, run-length encoded: bit 3 says the next byte repeats this flag.
    var flags = [UInt8](repeating: 0, count: count)
    var i = 0
    while i < count {
      let f = try d.u8(p)
      p += 1
      flags[i] = f
      i += 1
      if f & 0x08 != 0 {
        let repeats = Int(try d.u8(p))
        p += 1
        guard repeats <= count - i else {
          throw glyf.malformed("glyph \(g): flag repeat overruns its points")
        }
        for _ in 0..<repeats {
          flags[i] = f
          i += 1
        }
      }
    }
    // Coordinates are deltas: a short (one byte, sign in the flags), the same as before, or an i16.
    var xs = [Int32](repeating: 0, count: count)
    var v: Int32 = 0
    for k in 0..<count {
      let f = flags[k]
      if f & 0x02 != 0 {
        let dx = Int32(try d.u8(p))
        p += 1
        v += f & 0x10 != 0 ? dx : -dx
      } else if f & 0x10 == 0 {
        v += Int32(try d.i16(p))
        p += 2
      }
      xs[k] = v
    }
    let base = out.points.count
    out.points.reserveCapacity(base + count)
    v = 0
    for k in 0..<count {
      let f = flags[k]
      if f & 0x04 != 0 {
        let dy = Int32(try d.u8(p))
        p += 1
        v += f & 0x20 != 0 ? dy : -dy
      } else if f & 0x20 == 0 {
        v += Int32(try d.i16(p))
        p += 2
      }
      out.points.append(OutlinePoint(x: Double(xs[k]), y: Double(v), onCurve: f & 0x01 != 0))
    }
    for e in ends { out.contourEnds.append(base + e) }
  }

  private func appendComposite(_ d: TableReader, glyph g: Int, to out: inout GlyphOutline, depth: Int) throws
  {
    var p = 10
    var more = true
    while more {
      let flags = try d.u16(p)
      let child = Int(try d.u16(p + 2))
      p += 4
      guard child < numGlyphs else {
        throw glyf.malformed("composite glyph \(g) refers to glyph \(child), which does not exist")
      }
      let argsAreWords = flags & 0x0001 != 0
      let argsAreOffsets = flags & 0x0002 != 0
      let arg1: Int
      let arg2: Int
      if argsAreWords {
        arg1 = argsAreOffsets ? Int(try d.i16(p)) : Int(try d.u16(p))
        arg2 = argsAreOffsets ? Int(try d.i16(p + 2)) : Int(try d.u16(p + 2))
        p += 4
      } else {
        arg1 = argsAreOffsets ? Int(try d.i8(p)) : Int(try d.u8(p))
        arg2 = argsAreOffsets ? Int(try d.i8(p + 1)) : Int(try d.u8(p + 1))
        p += 2
      }
      // x' = a x + c y, y' = b x + d y (the file stores xscale, scale01, scale10, yscale).
      var a = 1.0
      var b = 0.0
      var c = 0.0
      var dd = 1.0
      if flags & 0x0008 != 0 {
        a = try d.f2dot14(p)
        dd = a
        p += 2
      } else if flags & 0x0040 != 0 {
        a = try d.f2dot14(p)
        dd = try d.f2dot14(p + 2)
        p += 4
      } else if flags & 0x0080 != 0 {
        a = try d.f2dot14(p)
        b = try d.f2dot14(p + 2)
        c = try d.f2dot14(p + 4)
        dd = try d.f2dot14(p + 6)
        p += 8
      }
      more = flags & 0x0020 != 0

      var part = GlyphOutline()
      try append(child, to: &part, depth: depth + 1)
      for k in part.points.indices {
        let q = part.points[k]
        part.points[k].x = a * q.x + c * q.y
        part.points[k].y = b * q.x + dd * q.y
      }
      var dx: Double
      var dy: Double
      if argsAreOffsets {
        dx = Double(arg1)
        dy = Double(arg2)
        // Microsoft's default is an unscaled offset; SCALED_COMPONENT_OFFSET asks for Apple's.
        if flags & 0x0800 != 0, flags & 0x1000 == 0 {
          (dx, dy) = (a * dx + c * dy, b * dx + dd * dy)
        }
      } else {
        // Point matching: the child's point arg2 lands on the parent's point arg1.
        guard arg1 < out.points.count, arg2 < part.points.count else {
          throw glyf.malformed("composite glyph \(g) matches points that do not exist")
        }
        dx = out.points[arg1].x - part.points[arg2].x
        dy = out.points[arg1].y - part.points[arg2].y
      }
      guard out.points.count + part.points.count <= GlyphTable.maxPoints else {
        throw glyf.malformed("composite glyph \(g) has too many points")
      }
      let base = out.points.count
      for q in part.points {
        out.points.append(OutlinePoint(x: q.x + dx, y: q.y + dy, onCurve: q.onCurve))
      }
      for e in part.contourEnds { out.contourEnds.append(base + e) }
    }
  }
}
