import Foundation
import SheenRaster

// Conversions between Foundation's CG geometry (the public API, as UIKit) and SheenRaster's.

extension CGPoint {
  @inline(__always) var sheen: Point { Point(x: Double(x), y: Double(y)) }
  @inline(__always) init(_ p: Point) { self.init(x: CGFloat(p.x), y: CGFloat(p.y)) }
}

extension CGSize {
  @inline(__always) var sheen: Size { Size(width: Double(width), height: Double(height)) }
  @inline(__always) init(_ s: Size) { self.init(width: CGFloat(s.width), height: CGFloat(s.height)) }
}

extension CGRect {
  @inline(__always) var sheen: Rect {
    let r = standardized
    return Rect(x: Double(r.minX), y: Double(r.minY), width: Double(r.width), height: Double(r.height))
  }
  @inline(__always) init(_ r: Rect) {
    self.init(x: CGFloat(r.minX), y: CGFloat(r.minY), width: CGFloat(r.width), height: CGFloat(r.height))
  }
}
