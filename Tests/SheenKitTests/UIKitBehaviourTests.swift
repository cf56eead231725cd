import Foundation
import SheenRaster
import Testing

@testable import SheenKit

/// The parts of the API list the other suites leave out: animated and horizontal
/// `scrollToItem`, cells' and collection views' background views, the moments a controller's
/// layout calls see, image views in Auto Layout, and bad sizes and misbehaving data sources that
/// must be told, not crash or hang.
///
/// An extension of `CollectionViewTests` so that they run serialized with it (they share
/// `CountingCell`'s count).
extension CollectionViewTests {
  @Test func scrollToItemAnimatedGlidesThere() throws {
    let source = Source([100])
    let cv = makeCollectionView(source) { l in
      l.itemSize = CGSize(width: 330, height: 40)
      l.minimumLineSpacing = 10
    }
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 330, height: 200))
    window.addSubview(cv)
    let surface = try Surface(width: 330, height: 200)
    window.renderFrame(into: surface, time: 0)
    cv.scrollToItem(at: IndexPath(item: 20, section: 0), at: .top, animated: true)
    // Not there at once: it glides for 0.3 s (ease in, ease out) from the next frame, showing
    // the indicator.
    #expect(cv.contentOffset.y == 0 && cv.isDecelerating)
    window.renderFrame(into: surface, time: 0.1)
    window.renderFrame(into: surface, time: 0.25)
    #expect(cv.contentOffset.y > 100 && cv.contentOffset.y < 900, "\(cv.contentOffset.y)")
    #expect(cv.scrollIndicatorVisibility == 1)
    window.renderFrame(into: surface, time: 0.4)
    #expect(cv.contentOffset.y == 1000 && !cv.isDecelerating)
    #expect(cv.indexPathsForVisibleItems.first == IndexPath(item: 20, section: 0))
  }

  @Test func scrollToItemAlongAHorizontalFlow() {
    let source = Source([50])
    let cv = makeCollectionView(source, width: 200, height: 100) { l in
      l.scrollDirection = .horizontal
      l.itemSize = CGSize(width: 40, height: 100)
      l.minimumLineSpacing = 10
    }
    cv.layoutIfNeeded()
    // Item 10 is at x 500...540.
    cv.scrollToItem(at: IndexPath(item: 10, section: 0), at: .left, animated: false)
    #expect(cv.contentOffset == CGPoint(x: 500, y: 0))
    cv.scrollToItem(at: IndexPath(item: 10, section: 0), at: .centeredHorizontally, animated: false)
    #expect(cv.contentOffset == CGPoint(x: 420, y: 0))
    cv.scrollToItem(at: IndexPath(item: 10, section: 0), at: .right, animated: false)
    #expect(cv.contentOffset == CGPoint(x: 340, y: 0))
    // A vertical position in a horizontal layout leaves the offset across alone.
    cv.scrollToItem(at: IndexPath(item: 10, section: 0), at: .top, animated: false)
    #expect(cv.contentOffset == CGPoint(x: 340, y: 0))
    #expect(cv.indexPathsForVisibleItems.map(\.item) == Array(7...10))
  }

  @Test func backgroundViewsFillTheCellAndTheCollectionView() throws {
    let source = Source([30])
    let cv = makeCollectionView(source, width: 200, height: 200) { l in
      l.itemSize = CGSize(width: 200, height: 50)
      l.minimumLineSpacing = 0
    }
    let back = UIView()
    back.backgroundColor = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    cv.backgroundView = back
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    window.addSubview(cv)
    let surface = try Surface(width: 200, height: 200)
    window.renderFrame(into: surface, time: 0)
    let cell = try #require(cv.cellForItem(at: IndexPath(item: 1, section: 0)))
    let cellBack = UIView()
    cellBack.backgroundColor = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    cell.backgroundView = cellBack
    let selectedBack = UIView()
    selectedBack.backgroundColor = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    cell.selectedBackgroundView = selectedBack
    window.renderFrame(into: surface, time: 0.1)
    // Behind the content view, filling the cell.
    #expect(cell.subviews.first === cellBack && cellBack.frame == cell.bounds)
    #expect(cell.subviews.firstIndex { $0 === selectedBack } == 1 && selectedBack.isHidden)
    func rgb(_ x: Int, _ y: Int) -> UInt32 { surface[x, y] & 0xFF_FFFF }
    #expect(rgb(100, 75) == 0x0000FF, "the cell's background view")
    #expect(rgb(100, 25) == 0xFF0000, "no cell background: the collection view's shows through")
    // Selected: the selected background view shows above the background view.
    cv.selectItem(at: IndexPath(item: 1, section: 0), animated: false, scrollPosition: [])
    #expect(cell.isSelected && !selectedBack.isHidden)
    window.renderFrame(into: surface, time: 0.2)
    #expect(rgb(100, 75) == 0x00FF00)
    cv.deselectItem(at: IndexPath(item: 1, section: 0), animated: false)
    #expect(!cell.isSelected && selectedBack.isHidden)
    // Highlighted while a touch is down.
    window.dispatch(.pointerDown(Point(x: 100, y: 75), button: .left, modifiers: []), time: 0.3)
    #expect(cell.isHighlighted && !selectedBack.isHidden)
    window.dispatch(.pointerUp(Point(x: 100, y: 75), button: .left, modifiers: []), time: 0.35)
    #expect(!cell.isHighlighted && cell.isSelected)
    // The collection view's background does not scroll: after a scroll it still fills the view.
    cv.contentOffset = CGPoint(x: 0, y: 300)
    window.renderFrame(into: surface, time: 0.5)
    #expect(back.frame == CGRect(x: 0, y: 0, width: 200, height: 200))
    #expect(back.layer.sheenLayer.superlayer === cv.layer.sheenLayer)
  }

  @Test func layoutCallsSeeTheNewBoundsAndTheConstrainedFrames() throws {
    final class Controller: UIViewController {
      let box = UIView()
      var seenInWill: [CGRect] = []
      var seenInDid: [CGRect] = []
      override func viewDidLoad() {
        super.viewDidLoad()
        box.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(box)
        NSLayoutConstraint.activate([
          box.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 10),
          box.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -10),
          box.topAnchor.constraint(equalTo: view.topAnchor, constant: 5),
          box.heightAnchor.constraint(equalToConstant: 20),
        ])
      }
      override func viewWillLayoutSubviews() {
        super.viewWillLayoutSubviews()
        seenInWill.append(view.bounds)
      }
      override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        seenInDid.append(box.frame)
      }
    }
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 120, height: 90))
    let vc = Controller()
    window.rootViewController = vc
    let surface = try Surface(width: 200, height: 90)
    window.renderFrame(into: surface, time: 0)
    // The view already has its size when viewWillLayoutSubviews comes; the constrained subview
    // its frame when viewDidLayoutSubviews does.
    #expect(vc.seenInWill == [CGRect(x: 0, y: 0, width: 120, height: 90)])
    #expect(vc.seenInDid == [CGRect(x: 10, y: 5, width: 100, height: 20)])
    window.frame = CGRect(x: 0, y: 0, width: 200, height: 90)
    window.renderFrame(into: surface, time: 1.0 / 60)
    #expect(vc.seenInWill.last == CGRect(x: 0, y: 0, width: 200, height: 90))
    #expect(vc.seenInDid.last == CGRect(x: 10, y: 5, width: 180, height: 20))
    // setNeedsLayout asks again at the next frame; nothing changed, nothing else runs.
    let count = vc.seenInDid.count
    window.renderFrame(into: surface, time: 2.0 / 60)
    #expect(vc.seenInDid.count == count)
    vc.view.setNeedsLayout()
    #expect(vc.seenInDid.count == count)
    vc.view.layoutIfNeeded()
    #expect(vc.seenInDid.count == count + 1)
  }

  @Test func imageViewsTakeTheirImagesSize() throws {
    let parent = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    let imageView = UIImageView()
    imageView.translatesAutoresizingMaskIntoConstraints = false
    parent.addSubview(imageView)
    NSLayoutConstraint.activate([
      imageView.leadingAnchor.constraint(equalTo: parent.leadingAnchor, constant: 4),
      imageView.topAnchor.constraint(equalTo: parent.topAnchor, constant: 6),
    ])
    // No image: no intrinsic size (UIKit's -1, -1).
    #expect(imageView.intrinsicContentSize == CGSize(width: -1, height: -1))
    let small = UIGraphicsImageRenderer(size: CGSize(width: 30, height: 20)).image { _ in }
    imageView.image = small
    parent.layoutIfNeeded()
    #expect(imageView.frame == CGRect(x: 4, y: 6, width: 30, height: 20))
    // A new image of another size: the layout follows.
    imageView.image = UIGraphicsImageRenderer(size: CGSize(width: 50, height: 44)).image { _ in }
    parent.layoutIfNeeded()
    #expect(imageView.frame == CGRect(x: 4, y: 6, width: 50, height: 44))
  }

  @Test func badItemSizesAreToldAndShowNothing() {
    let before = UICollectionView.reports.withLock { $0 }
    for size in [CGSize.zero, CGSize(width: -10, height: 40), CGSize(width: 40, height: CGFloat.nan)] {
      let source = Source([1_000_000])
      let cv = makeCollectionView(source) { l in
        l.itemSize = size
        l.minimumLineSpacing = 0
        l.minimumInteritemSpacing = 0
      }
      cv.layoutIfNeeded()
      // A million zero-sized items would all be "visible": none is made.
      #expect(source.asked.isEmpty, "\(size)")
      #expect(cv.visibleCells.isEmpty)
    }
    #expect(UICollectionView.reports.withLock { $0 } - before == 3)
  }

  @Test func enormousCountsDoNotOverflow() {
    let source = Source([Int.max])
    let cv = makeCollectionView(source) { l in
      l.itemSize = CGSize(width: 100, height: 40)
    }
    cv.layoutIfNeeded()
    #expect(cv.contentSize.height > 1e18)
    #expect(source.asked.count == 12, "three columns of four rows")
    // Far down, points are coarser than an item (doubles near 1.5e20 step by 32768): what shows
    // is approximate, but nothing traps and only a screenful is made.
    cv.scrollToItem(at: IndexPath(item: Int.max - 1, section: 0), at: .bottom, animated: false)
    #expect(cv.contentOffset.y > 1e20)
    #expect(cv.indexPathsForVisibleItems.count <= 30)
  }

  @Test func aCellReturnedForTwoItemsIsTold() {
    final class Sticky: NSObject, UICollectionViewDataSource {
      var kept: UICollectionViewCell?
      func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        4
      }
      func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
        -> UICollectionViewCell
      {
        if let kept { return kept }
        let c = collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
        kept = c
        return c
      }
    }
    let before = UICollectionView.reports.withLock { $0 }
    let layout = UICollectionViewFlowLayout()
    layout.itemSize = CGSize(width: 200, height: 40)
    let cv = UICollectionView(
      frame: CGRect(x: 0, y: 0, width: 200, height: 200), collectionViewLayout: layout)
    cv.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "cell")
    let source = Sticky()
    cv.dataSource = source
    cv.layoutIfNeeded()
    cv.contentOffset = CGPoint(x: 0, y: 10)
    cv.layoutIfNeeded()
    #expect(UICollectionView.reports.withLock { $0 } - before == 1)
    // It shows once, at the first item it was given for.
    #expect(cv.visibleCells.count == 1)
  }
}
