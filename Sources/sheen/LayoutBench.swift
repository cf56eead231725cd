import Foundation
import SheenKit

/// A list cell as apps write them: a title and a two-line subtitle beside a button, placed with
/// anchors inside the content view's margins (eleven constraints, and the labels' and button's
/// intrinsic sizes).
private final class BenchCell: UICollectionViewCell {
  let title = UILabel()
  let subtitle = UILabel()
  let button = UIButton(type: .system)

  override init(frame: CGRect) {
    super.init(frame: frame)
    subtitle.numberOfLines = 2
    subtitle.font = .systemFont(ofSize: 13)
    button.setTitle("Open", for: .normal)
    for v in [title, subtitle, button] as [UIView] {
      v.translatesAutoresizingMaskIntoConstraints = false
      contentView.addSubview(v)
    }
    let m = contentView.layoutMarginsGuide
    NSLayoutConstraint.activate([
      title.leadingAnchor.constraint(equalTo: m.leadingAnchor),
      title.topAnchor.constraint(equalTo: m.topAnchor),
      title.trailingAnchor.constraint(lessThanOrEqualTo: button.leadingAnchor, constant: -8),
      subtitle.leadingAnchor.constraint(equalTo: title.leadingAnchor),
      subtitle.topAnchor.constraint(equalTo: title.bottomAnchor, constant: 4),
      subtitle.trailingAnchor.constraint(equalTo: button.leadingAnchor, constant: -8),
      subtitle.bottomAnchor.constraint(lessThanOrEqualTo: m.bottomAnchor),
      button.trailingAnchor.constraint(equalTo: m.trailingAnchor),
      button.centerYAnchor.constraint(equalTo: m.centerYAnchor),
      button.widthAnchor.constraint(greaterThanOrEqualToConstant: 60),
      contentView.heightAnchor.constraint(greaterThanOrEqualToConstant: 0),
    ])
  }

  required init?(coder: NSCoder) { return nil }

  func configure(_ i: Int) {
    configure(title: BenchCell.title(i), subtitle: BenchCell.subtitle(i))
  }

  /// What a data source does with a reused cell: the item's texts (kept by the model) go into
  /// the labels.
  func configure(title: String, subtitle: String) {
    self.title.text = title
    self.subtitle.text = subtitle
  }

  static func title(_ i: Int) -> String { "Item \(i)" }
  static func subtitle(_ i: Int) -> String {
    "A subtitle long enough to wrap onto a second line in a cell of a phone's width, \(i)."
  }
}

/// `sheen bench layout`: Auto Layout on a screen of list cells (a 390x844 phone screen of 88-point
/// rows: 10 cells): solving them from scratch, re-solving after the screen's width changes, and
/// reusing a cell for another item at the same size (prepareForReuse, new texts, layout; median
/// of `runs`, and allocations per reuse when the allocation counter is preloaded).
func benchLayout(runs: Int) {
  let cellCount = 10
  func screen() -> (UIView, [BenchCell]) {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
    var cells: [BenchCell] = []
    for i in 0..<cellCount {
      let c = BenchCell(frame: CGRect(x: 0, y: CGFloat(i) * 88, width: 390, height: 88))
      c.autoresizingMask = [.flexibleWidth]
      c.configure(i)
      root.addSubview(c)
      cells.append(c)
    }
    return (root, cells)
  }
  func median(_ body: () -> Double) -> (median: Double, min: Double) {
    var times = (0..<max(1, runs)).map { _ in body() }
    times.sort()
    return (times[times.count / 2], times[0])
  }
  func time(_ body: () -> Void) -> Double {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
  }
  // From scratch: a new screen's constraints are in the engine; the first layout solves them.
  let first = median {
    let (root, _) = screen()
    return time { root.layoutIfNeeded() }
  }
  // A width change: every cell's frame moves its pinned constants; the engine re-solves.
  let (root, cells) = screen()
  root.layoutIfNeeded()
  var wide = false
  let resize = median {
    wide.toggle()
    root.frame = CGRect(x: 0, y: 0, width: wide ? 414 : 390, height: 844)
    return time { root.layoutIfNeeded() }
  }
  // Reuse at the same size, as a collection view reuses a cell scrolled in: prepareForReuse,
  // another item's texts (of other widths: the labels' intrinsic sizes change and the engine
  // re-solves their constants), and the layout. Items 0-9 and 10-19 take turns; their strings
  // are the model's, made once.
  let titles = (0..<2 * cellCount).map(BenchCell.title)
  let subtitles = (0..<2 * cellCount).map(BenchCell.subtitle)
  var turn = 0
  func reuseScreen() {
    turn = 1 - turn
    for (k, c) in cells.enumerated() {
      c.prepareForReuse()
      c.configure(title: titles[turn * cellCount + k], subtitle: subtitles[turn * cellCount + k])
    }
    root.layoutIfNeeded()
  }
  // Both turns seen once (text layouts cached), as in steady scrolling.
  reuseScreen()
  reuseScreen()
  let reuse = median { time { reuseScreen() } / Double(cellCount) }
  let check = cells[0].subtitle.frame
  print(
    String(
      format:
        "Auto Layout, a screen of %d cells (11 constraints each, and three intrinsic sizes): solve %.3f ms "
        + "(min %.3f), re-solve after a width change %.3f ms (min %.3f), a cell's layout on reuse %.4f ms",
      cellCount, first.median, first.min, resize.median, resize.min, reuse.median))
  if let per = allocationsPerFrame(frames: 100, reuseScreen) {
    print(String(format: "allocations per reuse layout of a screen: %.2f", per))
  }
  // What was solved: the subtitle beside the button, inside the margins (8 + 306 + 8 + button).
  print("first cell's subtitle: \(check)")
}
