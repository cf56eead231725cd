import Foundation
import SheenRaster
import SheenUI
import Testing

/// Images from files and pixels: natural size, resizable, and aspect ratios as SwiftUI lays them
/// out; the pixels drawn are the image's.
@Suite struct ImageTests {
  /// A 40 × 20 image: red on the left half, blue on the right.
  func halves() throws -> UIImage {
    let r = try RasterImage(width: 40, height: 20) { c in
      c.fill(
        Rect(x: 0, y: 0, width: 20, height: 20),
        paint: .solid(SheenRaster.Color(red: 1, green: 0, blue: 0, alpha: 1)))
      c.fill(
        Rect(x: 20, y: 0, width: 20, height: 20),
        paint: .solid(SheenRaster.Color(red: 0, green: 0, blue: 1, alpha: 1)))
    }
    return UIImage(rasterImage: r)
  }

  @Test func naturalSizeUnlessResizable() throws {
    let img = try halves()
    #expect(
      HostingView(rootView: Image(uiImage: img)).sizeThatFits(ProposedViewSize(width: 100, height: 100))
        == CGSize(width: 40, height: 20))
    #expect(
      HostingView(rootView: Image(uiImage: img).resizable()).sizeThatFits(
        ProposedViewSize(width: 100, height: 70))
        == CGSize(width: 100, height: 70))
  }

  @Test func aspectRatioFitsAndFills() throws {
    let img = try halves()
    let fit = HostingView(rootView: Image(uiImage: img).resizable().scaledToFit())
    #expect(fit.sizeThatFits(ProposedViewSize(width: 100, height: 100)) == CGSize(width: 100, height: 50))
    #expect(fit.sizeThatFits(ProposedViewSize(width: 100, height: 30)) == CGSize(width: 60, height: 30))
    let fill = HostingView(rootView: Image(uiImage: img).resizable().scaledToFill())
    #expect(fill.sizeThatFits(ProposedViewSize(width: 100, height: 100)) == CGSize(width: 200, height: 100))
    let square = HostingView(rootView: Color.red.aspectRatio(1, contentMode: .fit))
    #expect(square.sizeThatFits(ProposedViewSize(width: 80, height: 30)) == CGSize(width: 30, height: 30))
  }

  @Test func drawsTheImagesPixels() throws {
    let host = HostingView(
      rootView: Image(uiImage: try halves()).resizable().frame(width: 80, height: 40),
      frame: CGRect(x: 0, y: 0, width: 80, height: 40))
    let s = try host.renderImage(scale: 1)
    #expect(Pixel.red(s[10, 20]) == 255 && Pixel.blue(s[10, 20]) == 0)
    #expect(Pixel.blue(s[70, 20]) == 255 && Pixel.red(s[70, 20]) == 0)
  }

  @Test func bundledImagesByName() {
    let host = HostingView(rootView: Image("coffee"))
    let s = host.sizeThatFits(.unspecified)
    #expect(s.width > 0 && s.height > 0)
    #expect(HostingView(rootView: Image("no such image")).sizeThatFits(.unspecified) == .zero)
  }
}
