/// An sRGB colour with straight (unpremultiplied) alpha, components in 0...1.
public struct Color: Hashable, Sendable {
  public var red: Double
  public var green: Double
  public var blue: Double
  public var alpha: Double

  @inlinable public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// A colour from 8-bit straight-alpha components.
  @inlinable public init(r8: UInt8, g8: UInt8, b8: UInt8, a8: UInt8 = 255) {
    self.init(red: Double(r8) / 255, green: Double(g8) / 255, blue: Double(b8) / 255, alpha: Double(a8) / 255)
  }

  /// Parses `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
  public init?(hex: String) {
    let u = Array(hex.utf8)
    guard u.first == UInt8(ascii: "#"), u.count == 7 || u.count == 9 else { return nil }
    var v: [UInt8] = []
    var i = 1
    while i < u.count {
      guard let hi = hexDigit(u[i]), let lo = hexDigit(u[i + 1]) else { return nil }
      v.append(hi << 4 | lo)
      i += 2
    }
    self.init(r8: v[0], g8: v[1], b8: v[2], a8: v.count == 4 ? v[3] : 255)
  }

  public static let black = Color(red: 0, green: 0, blue: 0)
  public static let white = Color(red: 1, green: 1, blue: 1)
  public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

  /// The same colour with its alpha multiplied by `a`.
  @inlinable public func withAlphaMultiplied(by a: Double) -> Color {
    Color(red: red, green: green, blue: blue, alpha: alpha * a)
  }

  /// The colour as one premultiplied BGRA8 pixel (`0xAARRGGBB` in a little-endian `UInt32`).
  @inlinable public var premultiplied: UInt32 {
    let a = clamp01(alpha)
    let a8 = UInt32((a * 255).rounded())
    let r8 = UInt32((clamp01(red) * a * 255).rounded())
    let g8 = UInt32((clamp01(green) * a * 255).rounded())
    let b8 = UInt32((clamp01(blue) * a * 255).rounded())
    return a8 << 24 | r8 << 16 | g8 << 8 | b8
  }
}

@inlinable func clamp01(_ x: Double) -> Double {
  x.isNaN ? 0 : Swift.min(1, Swift.max(0, x))
}

private func hexDigit(_ c: UInt8) -> UInt8? {
  switch c {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
  default: return nil
  }
}

/// Helpers for premultiplied BGRA8 pixels packed in a `UInt32` as `0xAARRGGBB`.
public enum Pixel {
  /// The alpha byte.
  @inlinable @inline(__always) public static func alpha(_ p: UInt32) -> UInt32 { p >> 24 }
  @inlinable @inline(__always) public static func red(_ p: UInt32) -> UInt32 { (p >> 16) & 0xFF }
  @inlinable @inline(__always) public static func green(_ p: UInt32) -> UInt32 { (p >> 8) & 0xFF }
  @inlinable @inline(__always) public static func blue(_ p: UInt32) -> UInt32 { p & 0xFF }

  /// `x / 255` rounded to nearest, for `x` in 0...65025.
  @inlinable @inline(__always) public static func div255(_ x: UInt32) -> UInt32 {
    let y = x &+ 128
    return (y &+ (y >> 8)) >> 8
  }

  /// Every channel of a premultiplied pixel scaled by `s / 255` (s in 0...255), two channels
  /// at a time in one word.
  @inlinable @inline(__always) public static func scale(_ p: UInt32, by s: UInt32) -> UInt32 {
    var rb = (p & 0x00FF_00FF) &* s &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ag = ((p >> 8) & 0x00FF_00FF) &* s &+ 0x0080_0080
    ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ag
  }

  /// Source-over: `src + dst * (255 - srcAlpha) / 255`, on premultiplied pixels.
  @inlinable @inline(__always) public static func sourceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
    src &+ scale(dst, by: 255 &- (src >> 24))
  }

  /// Converts a premultiplied pixel to straight-alpha 8-bit components (r, g, b, a).
  @inlinable public static func unpremultiplied(_ p: UInt32) -> (UInt8, UInt8, UInt8, UInt8) {
    let a = alpha(p)
    if a == 0 { return (0, 0, 0, 0) }
    if a == 255 { return (UInt8(red(p)), UInt8(green(p)), UInt8(blue(p)), 255) }
    func un(_ c: UInt32) -> UInt8 { UInt8(Swift.min(255, (c * 255 + a / 2) / a)) }
    return (un(red(p)), un(green(p)), un(blue(p)), UInt8(a))
  }

  /// Packs straight-alpha 8-bit components into a premultiplied pixel.
  @inlinable public static func premultiplied(r: UInt8, g: UInt8, b: UInt8, a: UInt8) -> UInt32 {
    let a32 = UInt32(a)
    return a32 << 24 | div255(UInt32(r) * a32) << 16 | div255(UInt32(g) * a32) << 8 | div255(UInt32(b) * a32)
  }
}
