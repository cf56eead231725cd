import SheenLayers
import SheenRaster
import Testing

@testable import SheenKit

/// Seed 001: `CardCell`s in a clear container that casts the one shadow, set once.
@Suite struct Seed001Tests {
  /// Two cells in a clear container ("the collection view") on a grey page; the second cell
  /// keeps a white background, as in the article's "Where it breaks".
  func makeCards() -> (page: UIView, collectionView: UIView, cells: [CardCell]) {
    let root = page(320, 170, .systemGray6)
    let collectionView = UIView(frame: root.bounds)
    // `CardsViewController.viewDidLoad` and `viewDidLayoutSubviews`, on the container:
    collectionView.backgroundColor = .clear
    collectionView.layer.shadowColor = UIColor.black.cgColor
    collectionView.layer.shadowOpacity = 0.35
    collectionView.layer.shadowOffset = CGSize(width: 0, height: 4)
    collectionView.layer.shadowRadius = 8
    root.addSubview(collectionView)
    var cells: [CardCell] = []
    for x: CGFloat in [16, 168] {
      let cell = CardCell(frame: CGRect(x: x, y: 16, width: 136, height: 136))
      // The article's indigo strip at the top of the card, which the card clips round.
      let strip = UIView(frame: CGRect(x: 0, y: 0, width: 136, height: 40))
      strip.backgroundColor = .systemIndigo
      cell.card.addSubview(strip)
      collectionView.addSubview(cell)
      cells.append(cell)
    }
    cells[1].backgroundColor = .white
    return (root, collectionView, cells)
  }

  static let card = """
    { "frame": [0, 0, 136, 136], "backgroundColor": "#FFFFFF", "cornerRadius": 16, "masksToBounds": true,
      "sublayers": [ { "frame": [0, 0, 136, 40], "backgroundColor": "#5856D6" } ] }
    """
  /// The layer tree: the container, each cell, its content view, the card and the strip.
  static let scene = """
    { "width": 320, "height": 170, "scale": 2, "background": "#F2F2F7",
      "layers": [
        { "frame": [0, 0, 320, 170], "shadowOpacity": 0.35, "shadowRadius": 8, "shadowOffset": [0, 4],
          "sublayers": [
            { "frame": [16, 16, 136, 136], "sublayers": [ { "frame": [0, 0, 136, 136], "sublayers": [ \(card) ] } ] },
            { "frame": [168, 16, 136, 136], "backgroundColor": "#FFFFFF",
              "sublayers": [ { "frame": [0, 0, 136, 136], "sublayers": [ \(card) ] } ] }
          ] }
      ] }
    """

  @Test func oneShadowFollowsTheClippedCards() throws {
    let (root, collectionView, cells) = makeCards()
    let s = try SeedPicture.render(root, name: "seed001-card-cells")
    try SeedPicture.expectSame(s, asScene: Self.scene, "seed001")
    // The card fills the content view, which fills the cell (frames set by hand for the
    // article's constraints).
    for cell in cells {
      #expect(cell.card.frame == cell.contentView.bounds)
      #expect(cell.contentView.frame == cell.bounds)
    }
    // The shadow is set once: the container's layer is the only one in the tree with one.
    func shadowed(_ v: UIView) -> Int {
      (v.layer.shadowOpacity > 0 ? 1 : 0) + v.subviews.map(shadowed).reduce(0, +)
    }
    #expect(shadowed(root) == 1 && collectionView.layer.shadowOpacity == 0.35)

    let grey = luminance(at(s, 4, 4))
    // Clear cell: just outside the card's rounded corner the shadow darkens the page, and the
    // indigo strip is clipped round (no indigo there).
    let corner = at(s, 17.5, 17.5)
    #expect(luminance(corner) < grey - 1)
    #expect(!(Pixel.blue(corner) > Pixel.red(corner) + 40))
    #expect(Pixel.blue(at(s, 84, 30)) > Pixel.red(at(s, 84, 30)) + 40)
    // White cell: the same place is the cell's white, square corner.
    #expect(at(s, 169.5, 17.5) == 0xFFFF_FFFF)
    // Both cast a shadow below, the rounded one following the corner: below the bottom-left
    // corner it is lighter than below the middle.
    #expect(luminance(at(s, 84, 156)) < grey - 5)
    #expect(luminance(at(s, 236, 156)) < grey - 5)
    #expect(luminance(at(s, 17, 156)) > luminance(at(s, 84, 156)) + 2)
  }

  /// Resizing a cell keeps the card pinned to its edges (the constraints' job, done here by the
  /// flexible width and height set by hand).
  @Test func cardFollowsTheCellSize() throws {
    let cell = CardCell(frame: CGRect(x: 0, y: 0, width: 136, height: 136))
    cell.frame = CGRect(x: 0, y: 0, width: 200, height: 90)
    cell.layoutIfNeeded()
    #expect(cell.card.frame == CGRect(x: 0, y: 0, width: 200, height: 90))
  }
}
