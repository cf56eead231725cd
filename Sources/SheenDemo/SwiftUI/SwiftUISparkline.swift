import SheenKit
import SheenUI

/// The SwiftUI twin of a card's small chart (`SparklineView`, which UIKit draws in `draw(_:)`):
/// the same panel, gradient area, line and dot, as shapes.
struct SwiftUISparkline: View {
  let values: [CGFloat]
  static let size = CGSize(width: 104, height: 44)

  var body: some View {
    ZStack(alignment: .topLeading) {
      RoundedRectangle(cornerRadius: 8).fill(Color.white.opacity(0.2))
      SparklineShape(values: values, closed: true)
        .fill(
          LinearGradient(
            colors: [Color.white.opacity(0.55), Color.white.opacity(0)], startPoint: .top, endPoint: .bottom)
        )
        .padding(7)
      SparklineShape(values: values, closed: false)
        .stroke(Color.white, style: StrokeStyle(lineWidth: 1.5, lineCap: .round, lineJoin: .round))
        .padding(7)
      SparklineShape(values: values, closed: false, dot: true).fill(Color.white).padding(7)
    }
    .frame(width: Self.size.width, height: Self.size.height)
  }
}

/// The line through the values across the rect (closed down to its bottom for the area), or the
/// dot on the last value.
struct SparklineShape: Shape {
  let values: [CGFloat]
  let closed: Bool
  var dot = false

  func path(in rect: CGRect) -> Path {
    guard values.count > 1, let lo = values.min(), let hi = values.max() else { return Path() }
    let points = SparklineView.points(values, lo: lo, hi: hi, in: rect)
    if dot {
      let p = points[points.count - 1]
      return Path(ellipseIn: CGRect(x: p.x - 2.5, y: p.y - 2.5, width: 5, height: 5))
    }
    return Path { path in
      path.move(to: points[0])
      for p in points.dropFirst() { path.addLine(to: p) }
      if closed {
        path.addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        path.addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        path.closeSubpath()
      }
    }
  }
}
