import SheenKit
import SheenRaster

/// Renders `PreviewProvider` previews to pictures, as Xcode's canvas shows them: on the system
/// background (white), at the preview's own size (its ideal size, as `.previewLayout(.sizeThatFits)`)
/// or at a device size given.
///
/// `sheen preview NAME -o OUT.png` renders the previews registered with `register(_:name:)`; a
/// test renders its own with `render(_:)` or `writePNG(_:to:)`.
public enum PreviewRenderer {
  /// The picture of `P.previews` at `scale` pixels per point, in `size` points (the previews'
  /// ideal size when nil), the content centred.
  public static func render<P: PreviewProvider>(_ provider: P.Type, size: CGSize? = nil, scale: CGFloat = 2)
    throws
    -> Surface
  {
    try render(P.previews, size: size, scale: scale)
  }

  /// The picture of any view, as `render(_:size:scale:)` draws previews.
  public static func render<V: View>(_ view: V, size: CGSize? = nil, scale: CGFloat = 2) throws -> Surface {
    let host = HostingView(rootView: view)
    let s = size ?? host.sizeThatFits(.unspecified)
    host.frame = CGRect(
      x: 0, y: 0, width: max(1, s.width.rounded(.up)), height: max(1, s.height.rounded(.up)))
    host.backgroundColor = .systemBackground
    return try host.renderImage(scale: scale)
  }

  /// Writes the picture of `P.previews` to a PNG file at `path`.
  public static func writePNG<P: PreviewProvider>(
    _ provider: P.Type, to path: String, size: CGSize? = nil, scale: CGFloat = 2
  )
    throws
  {
    try render(provider, size: size, scale: scale).writePNG(to: path)
  }

  nonisolated(unsafe) private static var registry:
    [(name: String, render: (CGSize?, CGFloat) throws -> Surface)] = []

  /// Makes `provider`'s previews known to `sheen preview` as `name` (its type name by default).
  public static func register<P: PreviewProvider>(_ provider: P.Type, name: String? = nil) {
    let n = name ?? String(describing: provider)
    registry.removeAll { $0.name == n }
    registry.append((n, { try render(provider, size: $0, scale: $1) }))
  }

  /// The names of the registered previews, in the order they were registered.
  public static var registeredNames: [String] { registry.map(\.name) }

  /// The picture of the registered preview `name`, or nil when there is none by that name.
  public static func render(named name: String, size: CGSize? = nil, scale: CGFloat = 2) throws -> Surface? {
    guard let r = registry.first(where: { $0.name == name }) else { return nil }
    return try r.render(size, scale)
  }
}
