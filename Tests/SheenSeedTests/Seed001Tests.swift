import SheenLayers
import SheenRaster
import Testing

@testable import SheenKit

/// The part the article elides: the collection view (a flow layout of two 136-point cards) with
/// `CardCell` registered, made before the article's `viewDidLoad` runs. The data source puts the
/// article's indigo strip in each card and gives the second cell a white background (the
/// article's "Where it breaks").
final class Seed001Cards: UICollectionViewDataSource {
  var dequeued: [CardCell] = []

  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 2 }

  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
    -> UICollectionViewCell
  {
    let cell =
      collectionView.dequeueReusableCell(withReuseIdentifier: "CardCell", for: indexPath) as! CardCell
    if cell.card.subviews.isEmpty {
      let strip = UIView(frame: CGRect(x: 0, y: 0, width: 136, height: 40))
      strip.backgroundColor = .systemIndigo
      cell.card.addSubview(strip)
    }
    cell.backgroundColor = indexPath.item == 1 ? .white : .clear
    dequeued.append(cell)
    return cell
  }
}

/// Seed 001: `CardCell`s in a clear collection view that casts the one shadow, set once in
/// `viewDidLayoutSubviews`.
@Suite struct Seed001Tests {
  /// The controller as a window's root, laid out and drawn once (so `viewDidLayoutSubviews` and
  /// `viewDidAppear` have run).
  func makeCards() throws -> (window: UIWindow, controller: CardsViewController, source: Seed001Cards) {
    let source = Seed001Cards()
    let controller = CardsViewController()
    // "… create the collection view and register CardCell"
    let layout = UICollectionViewFlowLayout()
    layout.itemSize = CGSize(width: 136, height: 136)
    layout.sectionInset = UIEdgeInsets(top: 16, left: 16, bottom: 16, right: 16)
    layout.minimumInteritemSpacing = 16
    let collectionView = UICollectionView(
      frame: CGRect(x: 0, y: 0, width: 320, height: 170), collectionViewLayout: layout)
    collectionView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    collectionView.register(CardCell.self, forCellWithReuseIdentifier: "CardCell")
    collectionView.dataSource = source
    controller.collectionView = collectionView
    // The view loads (the article's viewDidLoad makes the collection view clear), then shows it
    // on the grey page.
    controller.view.backgroundColor = .systemGray6
    collectionView.frame = controller.view.bounds
    controller.view.addSubview(collectionView)
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 170))
    window.rootViewController = controller
    window.renderFrame(into: try Surface(width: 320, height: 170), time: 0)
    return (window, controller, source)
  }

  static let card = """
    { "frame": [0, 0, 136, 136], "backgroundColor": "#FFFFFF", "cornerRadius": 16, "masksToBounds": true,
      "sublayers": [ { "frame": [0, 0, 136, 40], "backgroundColor": "#5856D6" } ] }
    """
  /// The layer tree: the page (the controller's view), the collection view (clipping, with the
  /// shadow), each cell, its content view, the card and the strip.
  static let scene = """
    { "width": 320, "height": 170, "scale": 2, "background": "#F2F2F7",
      "layers": [
        { "frame": [0, 0, 320, 170], "shadowOpacity": 0.35, "shadowRadius": 8, "shadowOffset": [0, 4],
          "masksToBounds": true,
          "sublayers": [
            { "frame": [16, 16, 136, 136], "sublayers": [ { "frame": [0, 0, 136, 136], "sublayers": [ \(card) ] } ] },
            { "frame": [168, 16, 136, 136], "backgroundColor": "#FFFFFF",
              "sublayers": [ { "frame": [0, 0, 136, 136], "sublayers": [ \(card) ] } ] }
          ] }
      ] }
    """

  @Test func oneShadowFollowsTheClippedCards() throws {
    let (_, controller, source) = try makeCards()
    let root: UIView = controller.view
    let collectionView: UICollectionView = controller.collectionView
    let s = try SeedPicture.render(root, name: "seed001-card-cells")
    try SeedPicture.expectSame(s, asScene: Self.scene, "seed001")
    // Two cells, dequeued from the registered class; the constraints pin each card to its
    // content view, which fills the cell.
    let cells = collectionView.visibleCells.compactMap { $0 as? CardCell }
    #expect(cells.count == 2 && source.dequeued.count == 2)
    #expect(cells.map(\.frame.minX) == [16, 168])
    for cell in cells {
      #expect(cell.card.frame == cell.contentView.bounds)
      #expect(cell.contentView.frame == cell.bounds)
      #expect(!cell.card.hasAmbiguousLayout)
    }
    // The shadow is set once: the collection view's layer is the only one in the tree with one.
    func shadowed(_ v: UIView) -> Int {
      (v.layer.shadowOpacity > 0 ? 1 : 0) + v.subviews.map(shadowed).reduce(0, +)
    }
    #expect(shadowed(root) == 1 && collectionView.layer.shadowOpacity == 0.35)
    #expect(collectionView.backgroundColor == .clear)

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

  /// Resizing a cell keeps the card pinned to its edges: the article's constraints.
  @Test func cardFollowsTheCellSize() throws {
    let cell = CardCell(frame: CGRect(x: 0, y: 0, width: 136, height: 136))
    cell.layoutIfNeeded()
    #expect(cell.card.frame == CGRect(x: 0, y: 0, width: 136, height: 136))
    cell.frame = CGRect(x: 0, y: 0, width: 200, height: 90)
    cell.layoutIfNeeded()
    #expect(cell.card.frame == CGRect(x: 0, y: 0, width: 200, height: 90))
  }
}
