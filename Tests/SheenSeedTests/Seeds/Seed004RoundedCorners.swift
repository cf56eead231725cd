// Seed 004: "Creating Custom Rounded Corners in SwiftUI with a View Modifier",
// /work/shared/seeds/004_a004d925f386d9a6.txt: "The Complete Code".
//
// This seed is SwiftUI, not UIKit: `ViewModifier`, `View`, `Shape`, `Path` and `Color` are
// SwiftUI types, and SheenKit is UIKit-shaped, so the code cannot compile on Linux. It is kept
// verbatim below, compiled only where SwiftUI and UIKit exist. Its one UIKit call,
// `UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:)` with a `UIRectCorner`, is what
// Seed004Tests.swift runs on Linux, with the modifier's clip and stroke done the UIKit way (a
// shape-layer mask and a stroked shape layer).

#if canImport(SwiftUI) && canImport(UIKit)
import SwiftUI

public struct RoundedCornerModifier: ViewModifier {
    let radius: CGFloat
    let corners: UIRectCorner
    let strokeColor: Color
    let lineWidth: CGFloat

    public func body(content: Content) -> some View {
        content
            .clipShape(RoundedCorner(radius: radius, corners: corners))
            .overlay(
                RoundedCorner(radius: radius, corners: corners)
                    .stroke(strokeColor, lineWidth: lineWidth)
            )
    }
}

extension View {
    public func roundedCorners(
        radius: CGFloat,
        corners: UIRectCorner = .allCorners,
        strokeColor: Color = Color.primary,
        lineWidth: CGFloat = 1.0
    ) -> some View {
        self.modifier(
            RoundedCornerModifier(
                radius: radius,
                corners: corners,
                strokeColor: strokeColor,
                lineWidth: lineWidth
            )
        )
    }
}

public struct RoundedCorner: Shape {
    var radius: CGFloat = .infinity
    var corners: UIRectCorner = .allCorners

    public func path(in rect: CGRect) -> Path {
        let path = UIBezierPath(
            roundedRect: rect,
            byRoundingCorners: corners,
            cornerRadii: CGSize(width: radius, height: radius)
        )
        return Path(path.cgPath)
    }
}
#endif
