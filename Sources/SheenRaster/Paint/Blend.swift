// Per-pixel work: source-over blending of premultiplied BGRA8 rows.
//
// Every function takes raw row pointers and a count, has no branches on the paint inside its
// loop, and handles two channels per 32-bit word (`Pixel.scale`).

/// Fills `count` pixels with an opaque colour or blends a translucent one over them.
@inline(__always) func blendSolid(_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, _ color: UInt32) {
  let a = color >> 24
  if a == 255 {
    dst.update(repeating: color, count: count)
  } else if a != 0 {
    let inv = 255 - a
    for i in 0..<count { dst[i] = color &+ Pixel.scale(dst[i], by: inv) }
  }
}

/// Blends a colour over `count` pixels, each with its own coverage.
@inline(__always) func blendSolid(
  _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, _ color: UInt32, coverage: UnsafePointer<UInt8>
) {
  for i in 0..<count {
    let c = UInt32(coverage[i])
    if c == 0 { continue }
    let s = c == 255 ? color : Pixel.scale(color, by: c)
    dst[i] = Pixel.sourceOver(s, dst[i])
  }
}

/// Blends a row of premultiplied colours over `count` pixels with one coverage for all.
@inline(__always) func blendRow(
  _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int, alpha: UInt32
) {
  if alpha == 255 {
    for i in 0..<count { dst[i] = Pixel.sourceOver(src[i], dst[i]) }
  } else {
    for i in 0..<count { dst[i] = Pixel.sourceOver(Pixel.scale(src[i], by: alpha), dst[i]) }
  }
}

/// Blends a row of premultiplied colours over `count` pixels, each with its own coverage.
@inline(__always) func blendRow(
  _ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int,
  coverage: UnsafePointer<UInt8>
) {
  for i in 0..<count {
    let c = UInt32(coverage[i])
    if c == 0 { continue }
    dst[i] = Pixel.sourceOver(c == 255 ? src[i] : Pixel.scale(src[i], by: c), dst[i])
  }
}
