import Foundation
import SheenKit
import SheenRaster
import Testing

@testable import SheenDemo

/// Tags' and buttons' rounded shapes come from a bounded cache by size: a size seen before takes
/// the path made then (the same object), the path is the one UIKit's initialisers make, and ever
/// new sizes never hold more than `capacity` paths.
@Suite(.serialized) struct ShapePathsTests {
  @Test func aSizeSeenBeforeTakesTheSamePath() {
    let size = CGSize(width: 61.25, height: 20)
    let corners: UIRectCorner = [.topLeft, .bottomRight]
    let a = ShapePaths.roundedRect(size: size, inset: 0.5, radius: 8, corners: corners)
    let b = ShapePaths.roundedRect(size: size, inset: 0.5, radius: 8, corners: corners)
    #expect(a === b)
    // UIKit's path for the same rectangle and corners.
    let uikit = UIBezierPath(
      roundedRect: CGRect(x: 0.5, y: 0.5, width: 60.25, height: 19), byRoundingCorners: corners,
      cornerRadii: CGSize(width: 8, height: 8))
    #expect(a.path.elements == uikit.path.elements)
    // Other corners, radius, or every corner by `cornerRadius`: other paths.
    let c = ShapePaths.roundedRect(size: size, inset: 0.5, radius: 8, corners: .allCorners)
    let d = ShapePaths.roundedRect(size: size, inset: 0.5, radius: 8)
    #expect(c !== a && d !== c)
    let e = ShapePaths.roundedRect(size: CGSize(width: 76, height: 28), radius: 4)
    #expect(
      e.path.elements
        == UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 76, height: 28), cornerRadius: 4).path.elements
    )
  }

  @Test func everNewSizesStayWithinTheCapacity() {
    // Twice the capacity of new widths: the first one was let go (asking again makes another
    // path), and the cache never holds more than its capacity.
    let first = ShapePaths.roundedRect(size: CGSize(width: 1000, height: 20), radius: 8)
    for i in 1..<(2 * ShapePaths.capacity) {
      _ = ShapePaths.roundedRect(size: CGSize(width: 1000 + CGFloat(i) / 4, height: 20), radius: 8)
      #expect(ShapePaths.count <= ShapePaths.capacity)
    }
    let again = ShapePaths.roundedRect(size: CGSize(width: 1000, height: 20), radius: 8)
    #expect(again !== first && again.path.elements == first.path.elements)
  }
}
