import Foundation
import SheenPlatform
import SheenRaster

@testable import SheenKit

/// A window of `width × height` points at scale 1 and a surface to draw it into.
func makeWindow(width: Int = 200, height: Int = 200) throws -> (UIWindow, Surface) {
  let w = UIWindow(frame: CGRect(x: 0, y: 0, width: width, height: height))
  return (w, try Surface(width: width, height: height))
}

func down(_ x: Double, _ y: Double) -> PlatformEvent {
  .pointerDown(Point(x, y), button: .left, modifiers: [])
}
func move(_ x: Double, _ y: Double) -> PlatformEvent { .pointerMove(Point(x, y), modifiers: []) }
func up(_ x: Double, _ y: Double) -> PlatformEvent { .pointerUp(Point(x, y), button: .left, modifiers: []) }

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
