import Foundation
import SheenRaster

@testable import SheenText

/// The checkout's directory, from this file's path.
let checkoutDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The bytes of a bundled font file.
func fontBytes(_ weight: Font.Weight) throws -> [UInt8] {
  let url = checkoutDirectory.appendingPathComponent("Assets/Fonts/\(weight.fileName)")
  return [UInt8](try Data(contentsOf: url))
}

/// Writes a big-endian u16 into a byte array.
func put16(_ bytes: inout [UInt8], _ o: Int, _ v: UInt16) {
  bytes[o] = UInt8(v >> 8)
  bytes[o + 1] = UInt8(v & 0xFF)
}

/// Writes a big-endian u32 into a byte array.
func put32(_ bytes: inout [UInt8], _ o: Int, _ v: UInt32) {
  put16(&bytes, o, UInt16(v >> 16))
  put16(&bytes, o + 2, UInt16(v & 0xFFFF))
}
