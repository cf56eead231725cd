import Foundation
import SheenRaster
import Testing

@testable import SheenKit

/// A cell that counts how it is made and reused, with a label placed by constraints.
final class CountingCell: UICollectionViewCell {
  nonisolated(unsafe) static var made = 0
  var reuses = 0
  let label = UILabel()

  override init(frame: CGRect) {
    super.init(frame: frame)
    CountingCell.made += 1
    label.translatesAutoresizingMaskIntoConstraints = false
    label.numberOfLines = 0
    contentView.addSubview(label)
    NSLayoutConstraint.activate([
      label.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 4),
      label.trailingAnchor.constraint(equalTo: contentView.trailingAnchor, constant: -4),
      label.topAnchor.constraint(equalTo: contentView.topAnchor, constant: 4),
      label.bottomAnchor.constraint(equalTo: contentView.bottomAnchor, constant: -4),
    ])
  }

  required init?(coder: NSCoder) { return nil }

  override func prepareForReuse() {
    super.prepareForReuse()
    reuses += 1
    label.text = nil
  }
}

/// A data source of `counts[s]` items per section that records what it is asked.
final class Source: NSObject, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout,
  UICollectionViewDataSourcePrefetching
{
  var counts: [Int]
  var asked: [IndexPath] = []
  var displayed: [IndexPath] = []
  var ended: [IndexPath] = []
  var selected: [IndexPath] = []
  var prefetched: [IndexPath] = []
  var text: (IndexPath) -> String = { "\($0.section).\($0.item)" }
  var rogue = false

  init(_ counts: [Int]) { self.counts = counts }

  func numberOfSections(in collectionView: UICollectionView) -> Int { counts.count }
  func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
    counts[section]
  }
  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)
    -> UICollectionViewCell
  {
    asked.append(indexPath)
    if rogue { return UICollectionViewCell(frame: .zero) }
    let cell =
      collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath) as! CountingCell
    cell.label.text = text(indexPath)
    return cell
  }
  func collectionView(
    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
    at indexPath: IndexPath
  ) -> UICollectionReusableView {
    collectionView.dequeueReusableSupplementaryView(
      ofKind: kind, withReuseIdentifier: "header", for: indexPath)
  }
  func collectionView(
    _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
  ) {
    displayed.append(indexPath)
  }
  func collectionView(
    _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell,
    forItemAt indexPath: IndexPath
  ) {
    ended.append(indexPath)
  }
  func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
    selected.append(indexPath)
  }
  func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    prefetched += indexPaths
  }
}

func makeCollectionView(
  _ source: Source, width: CGFloat = 330, height: CGFloat = 200,
  configure: (UICollectionViewFlowLayout) -> Void
) -> UICollectionView {
  let layout = UICollectionViewFlowLayout()
  configure(layout)
  let cv = UICollectionView(
    frame: CGRect(x: 0, y: 0, width: width, height: height), collectionViewLayout: layout)
  cv.register(CountingCell.self, forCellWithReuseIdentifier: "cell")
  cv.register(
    UICollectionReusableView.self, forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
    withReuseIdentifier: "header")
  cv.dataSource = source
  cv.delegate = source
  cv.prefetchDataSource = source
  return cv
}

@Suite(.serialized) struct CollectionViewTests {
  @Test func flowLayoutPlacesAGridByArithmetic() {
    let source = Source([5, 3])
    let cv = makeCollectionView(source) { l in
      l.itemSize = CGSize(width: 100, height: 50)
      l.sectionInset = UIEdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
      l.minimumLineSpacing = 10
      l.minimumInteritemSpacing = 10
      l.headerReferenceSize = CGSize(width: 0, height: 30)
    }
    cv.layoutIfNeeded()
    let layout = cv.collectionViewLayout
    func frame(_ s: Int, _ i: Int) -> CGRect? {
      layout.layoutAttributesForItem(at: IndexPath(item: i, section: s))?.frame
    }
    // 310 points across: two columns of 100 (three would need 320); the 110 left over goes
    // between them: x 10 and 220.
    #expect(frame(0, 0) == CGRect(x: 10, y: 40, width: 100, height: 50))
    #expect(frame(0, 1) == CGRect(x: 220, y: 40, width: 100, height: 50))
    #expect(frame(0, 4) == CGRect(x: 10, y: 160, width: 100, height: 50))
    // Section 0: header 30 + inset 10 + 3 rows (170) + inset 10 = 220; section 1 starts there.
    #expect(
      layout.layoutAttributesForSupplementaryView(
        ofKind: UICollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 1))?.frame
        == CGRect(x: 0, y: 220, width: 330, height: 30))
    #expect(frame(1, 2) == CGRect(x: 10, y: 320, width: 100, height: 50))
    // 220 + 30 + 10 + 2 rows (110) + 10.
    #expect(cv.contentSize == CGSize(width: 330, height: 380))
    #expect(frame(1, 3) == nil && frame(2, 0) == nil)
    // What shows: the 200-point screen holds rows 0-2 of section 0 (y 40-210).
    #expect(cv.indexPathsForVisibleItems == (0..<5).map { IndexPath(item: $0, section: 0) })
    #expect(source.displayed.count == 5)
  }

  @Test func horizontalFlow() {
    let source = Source([7])
    let cv = makeCollectionView(source, width: 130, height: 100) { l in
      l.scrollDirection = .horizontal
      l.itemSize = CGSize(width: 50, height: 40)
      l.minimumLineSpacing = 10
      l.minimumInteritemSpacing = 10
    }
    cv.layoutIfNeeded()
    func frame(_ i: Int) -> CGRect? {
      cv.collectionViewLayout.layoutAttributesForItem(at: IndexPath(item: i, section: 0))?.frame
    }
    // Columns of two (40 + 10 + 40 fits 100; the 20 left goes between): y 0 and 60.
    #expect(frame(0) == CGRect(x: 0, y: 0, width: 50, height: 40))
    #expect(frame(1) == CGRect(x: 0, y: 60, width: 50, height: 40))
    #expect(frame(2) == CGRect(x: 60, y: 0, width: 50, height: 40))
    #expect(frame(6) == CGRect(x: 180, y: 0, width: 50, height: 40))
    #expect(cv.contentSize == CGSize(width: 230, height: 100))
    // 130 points show columns 0-2 (x 0-170 reaches into the third).
    #expect(cv.indexPathsForVisibleItems.map(\.item) == [0, 1, 2, 3, 4, 5])
  }

  @Test func aMillionItemsCostAScreenful() {
    CountingCell.made = 0
    let source = Source([1_000_000])
    let cv = makeCollectionView(source) { l in
      l.itemSize = CGSize(width: 330, height: 44)
      l.minimumLineSpacing = 0
    }
    cv.layoutIfNeeded()
    #expect(cv.contentSize.height == 44_000_000)
    // A 200-point screen shows 5 rows (the fifth in part).
    #expect(source.asked.count == 5 && CountingCell.made == 5)
    // Far down: row 500 000 at the top.
    cv.contentOffset = CGPoint(x: 0, y: 22_000_000)
    cv.layoutIfNeeded()
    #expect(cv.indexPathsForVisibleItems.map(\.item) == Array(500_000..<500_005))
    #expect(CountingCell.made == 5, "cells are reused, not made")
    let cells = cv.visibleCells.compactMap { $0 as? CountingCell }
    #expect(cells.allSatisfy { $0.reuses == 1 })
    #expect(cells.map(\.label.text) == (500_000..<500_005).map { "0.\($0)" })
    #expect(cells.first?.frame == CGRect(x: 0, y: 22_000_000, width: 330, height: 44))
    // Half a row further: one more row shows, reusing nothing new.
    cv.contentOffset = CGPoint(x: 0, y: 22_000_022)
    cv.layoutIfNeeded()
    #expect(cv.indexPathsForVisibleItems.count == 6 && CountingCell.made == 6)
    #expect(source.ended.count == 5)
    // Cells stay in the view, hidden while queued: subviews do not grow with the list.
    #expect(cv.subviews.count <= 8)
    // Prefetching was told about the rows of the next screen.
    #expect(source.prefetched.contains(IndexPath(item: 500_009, section: 0)))
    #expect(source.prefetched.contains(IndexPath(item: 499_995, section: 0)))
  }

  @Test func scrollToItemPutsItWhereAsked() {
    let source = Source([100])
    let cv = makeCollectionView(source) { l in
      l.itemSize = CGSize(width: 330, height: 40)
      l.minimumLineSpacing = 10
    }
    cv.layoutIfNeeded()
    cv.scrollToItem(at: IndexPath(item: 20, section: 0), at: .top, animated: false)
    #expect(cv.contentOffset.y == 1000)
    cv.scrollToItem(at: IndexPath(item: 20, section: 0), at: .centeredVertically, animated: false)
    // The item's middle (1020) at the screen's middle.
    #expect(cv.contentOffset.y == 920)
    cv.scrollToItem(at: IndexPath(item: 20, section: 0), at: .bottom, animated: false)
    // The item's bottom (1040) at the screen's bottom.
    #expect(cv.contentOffset.y == 840)
    // Clamped at the end: 100 items are 4990 points.
    cv.scrollToItem(at: IndexPath(item: 99, section: 0), at: .top, animated: false)
    #expect(cv.contentOffset.y == 4790)
    cv.layoutIfNeeded()
    #expect(cv.indexPathsForVisibleItems.last == IndexPath(item: 99, section: 0))
  }

  @Test func selfSizingCellsTakeTheirContentsHeight() {
    let source = Source([6])
    source.text = { p in
      p.item % 2 == 0 ? "Short" : "A longer text that wraps onto two or more lines in the cell"
    }
    let cv = makeCollectionView(source, width: 200, height: 600) { l in
      l.estimatedItemSize = CGSize(width: 200, height: 30)
      l.minimumLineSpacing = 0
    }
    cv.layoutIfNeeded()
    let cells = cv.visibleCells.compactMap { $0 as? CountingCell }
    #expect(cells.count == 6)
    var y: CGFloat = 0
    for c in cells {
      // The label's height for its width, plus the 4-point insets above and below.
      let label = c.label.sizeThatFits(
        CGSize(width: c.frame.width - 8, height: CGFloat.greatestFiniteMagnitude))
      #expect(abs(c.frame.height - (label.height + 8)) <= 0.5, "\(c.label.text ?? "")")
      #expect(abs(c.frame.minY - y) <= 0.5)
      y = c.frame.maxY
    }
    #expect(abs(cv.contentSize.height - y) <= 0.5)
  }

  @Test func mistakesAreReportedNotCrashing() {
    let before = UICollectionView.reports.withLock { $0 }
    let source = Source([3])
    source.rogue = true
    let cv = makeCollectionView(source) { l in l.itemSize = CGSize(width: 100, height: 40) }
    cv.layoutIfNeeded()
    // The cells the data source made itself are shown, once reported.
    #expect(cv.visibleCells.count == 3)
    // Out of range: refused.
    cv.scrollToItem(at: IndexPath(item: 7, section: 0), at: .top, animated: false)
    cv.scrollToItem(at: IndexPath(item: 0, section: 4), at: .top, animated: false)
    #expect(cv.contentOffset == .zero)
    #expect(cv.cellForItem(at: IndexPath(item: 9, section: 9)) == nil)
    // An identifier nobody registered.
    let plain = cv.dequeueReusableCell(withReuseIdentifier: "nobody", for: IndexPath(item: 0, section: 0))
    #expect(type(of: plain) == UICollectionViewCell.self)
    #expect(UICollectionView.reports.withLock { $0 } - before == 4)
  }

  @Test func tappingSelectsAndHighlights() throws {
    let source = Source([4])
    let cv = makeCollectionView(source, width: 200, height: 200) { l in
      l.itemSize = CGSize(width: 200, height: 50)
    }
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    window.addSubview(cv)
    let surface = try Surface(width: 200, height: 200)
    window.renderFrame(into: surface, time: 0)
    window.dispatch(down(100, 75), time: 0.1)
    #expect(cv.cellForItem(at: IndexPath(item: 1, section: 0))?.isHighlighted == true)
    window.dispatch(up(100, 75), time: 0.2)
    #expect(source.selected == [IndexPath(item: 1, section: 0)])
    #expect(cv.cellForItem(at: IndexPath(item: 1, section: 0))?.isSelected == true)
    #expect(cv.cellForItem(at: IndexPath(item: 1, section: 0))?.isHighlighted == false)
    window.dispatch(down(100, 25), time: 0.3)
    window.dispatch(up(100, 25), time: 0.4)
    #expect(cv.indexPathsForSelectedItems == [IndexPath(item: 0, section: 0)])
  }
}

/// Records a controller's life-cycle calls.
final class RecordingController: UIViewController {
  var calls: [String] = []
  override func loadView() {
    calls.append("loadView")
    super.loadView()
  }
  override func viewDidLoad() {
    super.viewDidLoad()
    calls.append("viewDidLoad")
  }
  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    calls.append("viewWillAppear")
  }
  override func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    calls.append("viewDidAppear")
  }
  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    calls.append("viewWillDisappear")
  }
  override func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
    calls.append("viewDidDisappear")
  }
  override func viewWillLayoutSubviews() {
    super.viewWillLayoutSubviews()
    calls.append("viewWillLayoutSubviews")
  }
  override func viewDidLayoutSubviews() {
    super.viewDidLayoutSubviews()
    calls.append("viewDidLayoutSubviews")
  }
}

@Suite struct ViewControllerTests {
  @Test func lifeCycleComesAtUIKitsMoments() throws {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 120, height: 90))
    let vc = RecordingController()
    #expect(vc.calls.isEmpty && !vc.isViewLoaded)
    window.rootViewController = vc
    #expect(vc.calls == ["loadView", "viewDidLoad", "viewWillAppear"])
    #expect(vc.view.frame == window.bounds && vc.view.next === vc && vc.next === window)
    let surface = try Surface(width: 120, height: 90)
    window.renderFrame(into: surface, time: 0)
    #expect(
      vc.calls == [
        "loadView", "viewDidLoad", "viewWillAppear", "viewWillLayoutSubviews", "viewDidLayoutSubviews",
        "viewDidAppear",
      ])
    // A resize lays out again; the view follows the window.
    vc.calls.removeAll()
    window.frame = CGRect(x: 0, y: 0, width: 200, height: 90)
    window.renderFrame(into: surface, time: 1.0 / 60)
    #expect(vc.calls == ["viewWillLayoutSubviews", "viewDidLayoutSubviews"])
    #expect(vc.view.frame.width == 200)
    // Replaced: the old one disappears.
    vc.calls.removeAll()
    let other = RecordingController()
    window.rootViewController = other
    #expect(vc.calls == ["viewWillDisappear", "viewDidDisappear"])
    #expect(vc.view.superview == nil && other.view.superview === window)
  }

  @Test func childrenAppearWithTheirParent() throws {
    let parent = RecordingController()
    let child = RecordingController()
    parent.addChild(child)
    parent.view.addSubview(child.view)
    child.didMove(toParent: parent)
    #expect(child.parent === parent && parent.children.count == 1)
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
    window.rootViewController = parent
    let surface = try Surface(width: 100, height: 100)
    window.renderFrame(into: surface, time: 0)
    #expect(child.calls.filter { $0.contains("Appear") } == ["viewWillAppear", "viewDidAppear"])
    // A child added to a visible parent appears too.
    let late = RecordingController()
    parent.addChild(late)
    parent.view.addSubview(late.view)
    late.didMove(toParent: parent)
    window.renderFrame(into: surface, time: 1.0 / 60)
    #expect(late.calls.filter { $0.contains("Appear") } == ["viewWillAppear", "viewDidAppear"])
    late.view.removeFromSuperview()
    late.removeFromParent()
    #expect(late.calls.suffix(2) == ["viewWillDisappear", "viewDidDisappear"] && parent.children.count == 1)
  }
}
