// Seed 004: "Creating Custom Rounded Corners in SwiftUI with a View Modifier",
// /work/shared/seeds/004_a004d925f386d9a6.txt.
//
// The article's code exactly as written, in the order it gives it ("The Complete Code", "How to
// Use the Custom Modifier", "Adding a Shadow", "Full Example in Context", "Preview"), with only
// `import SwiftUI` changed to `import SheenUI`. Seed004Tests.swift renders it.

import SheenUI

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

struct ContentView: View {
    var body: some View {
        Text("Hello, SwiftUI!")
            .padding()
            .background(Color.blue)
            .roundedCorners(
                radius: 20,
                corners: [.topLeft, .bottomRight],
                strokeColor: Color.white,
                lineWidth: 2
            )
            .padding()
    }
}

extension View {
    public func roundedCornersWithShadow(
        radius: CGFloat,
        corners: UIRectCorner = .allCorners,
        strokeColor: Color = Color.primary,
        lineWidth: CGFloat = 1.0,
        shadowColor: Color = .black.opacity(0.2),
        shadowRadius: CGFloat = 5,
        shadowX: CGFloat = 0,
        shadowY: CGFloat = 5
    ) -> some View {
        self.modifier(
            RoundedCornerModifier(
                radius: radius,
                corners: corners,
                strokeColor: strokeColor,
                lineWidth: lineWidth
            )
        )
        .shadow(
            color: shadowColor,
            radius: shadowRadius,
            x: shadowX,
            y: shadowY
        )
    }
}

struct CardView: View {
    var body: some View {
        VStack {
            Image(systemName: "star.fill")
                .foregroundColor(.white)
                .padding()
                .background(Color.orange)
                .roundedCorners(
                    radius: 30,
                    corners: [.topLeft, .topRight],
                    strokeColor: .white,
                    lineWidth: 3
                )
            Text("Custom Rounded Corners")
                .font(.headline)
                .padding()
                .background(Color.orange)
                .roundedCorners(
                    radius: 30,
                    corners: [.bottomLeft, .bottomRight],
                    strokeColor: .white,
                    lineWidth: 3
                )
        }
        .padding()
        .background(Color.gray.opacity(0.2))
    }
}

struct CardView_Previews: PreviewProvider {
    static var previews: some View {
        CardView()
    }
}
