import SheenLayers
import SheenRaster
import Testing

@testable import SheenKit

/// Seed 003: `BaseStylizedCollectionViewCell`, its shadowPath following a size change.
@Suite struct Seed003Tests {
  func makeCell() -> (page: UIView, cell: BaseStylizedCollectionViewCell) {
    let root = page(260, 150, UIColor(red: 0xEF / 255, green: 0xEF / 255, blue: 0xF4 / 255, alpha: 1))
    let cell = BaseStylizedCollectionViewCell(frame: CGRect(x: 20, y: 20, width: 220, height: 110))
    cell.awakeFromNib()  // Set by hand: what loading the cell's nib would call.
    cell.contentView.backgroundColor = .white
    let header = UIView(frame: CGRect(x: 0, y: 0, width: 220, height: 36))
    header.backgroundColor = .systemGreen
    cell.contentView.addSubview(header)
    root.addSubview(cell)
    return (root, cell)
  }

  static let scene = """
    { "width": 260, "height": 150, "scale": 2, "background": "#EFEFF4",
      "layers": [
        { "frame": [20, 20, 220, 110], "cornerRadius": 5,
          "shadowOpacity": 0.1, "shadowRadius": 8, "shadowOffset": [0, 5],
          "shadowPath": { "roundedRect": [0, 0, 220, 110], "cornerRadius": 5 },
          "sublayers": [
            { "frame": [0, 0, 220, 110], "cornerRadius": 5, "masksToBounds": true, "backgroundColor": "#FFFFFF",
              "sublayers": [ { "frame": [0, 0, 220, 36], "backgroundColor": "#34C759" } ] }
          ] }
      ] }
    """

  @Test func roundedContentAndShadow() throws {
    let (root, cell) = makeCell()
    let s = try SeedPicture.render(root, name: "seed003-stylized-cell")
    try SeedPicture.expectSame(s, asScene: Self.scene, "seed003")
    #expect(cell.contentView.layer.cornerRadius == 5 && cell.contentView.layer.masksToBounds)
    #expect(cell.layer.cornerRadius == 5 && !cell.layer.masksToBounds)
    #expect(cell.layer.shadowPath?.boundingBox == cell.bounds)
    // Round corners: the green header's corner pixel is the page under the shadow, not green;
    // the shadow (offset 5 down) darkens the page below the cell more than above it.
    let page = luminance(at(s, 4, 4))
    let corner = at(s, 20.25, 20.25)
    #expect(luminance(corner) > page - 8 && Int(Pixel.green(corner)) - Int(Pixel.red(corner)) < 10)
    #expect(luminance(at(s, 130, 134)) < page - 3)
    #expect(luminance(at(s, 130, 134)) < luminance(at(s, 130, 17)) - 2)
  }

  /// "UICollectionViewCell bounds may change": the next layout puts the shadowPath on the new
  /// bounds, and the shadow is drawn there.
  @Test func shadowPathFollowsASizeChange() throws {
    let (root, cell) = makeCell()
    root.layoutIfNeeded()
    cell.frame = CGRect(x: 20, y: 20, width: 160, height: 80)
    #expect(cell.needsLayout)
    let s = try SeedPicture.render(root, name: "seed003-stylized-cell-resized")
    #expect(cell.layer.shadowPath?.boundingBox == CGRect(x: 0, y: 0, width: 160, height: 80))
    #expect(cell.contentView.frame == cell.bounds)
    // The shadow is under the new bottom edge, and gone from under the old one.
    let page = luminance(at(s, 4, 4))
    #expect(luminance(at(s, 100, 104)) < page - 3)
    #expect(luminance(at(s, 100, 134)) > page - 1)
  }
}
