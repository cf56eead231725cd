// Seed 001: "Rounded corners and a shadow on UIKit cells" (cyberbarker.xyz),
// /work/shared/seeds/001_52ee3c2d1fb874ae.txt: the final version.
//
// The article's code, copied verbatim; `import SheenKit` is added (the article shows none).
// Set by hand: Sheen has no Auto Layout, so the `NSLayoutConstraint.activate` call that pins the
// card to the content view's four edges is kept below as a comment, and in its place the card's
// frame is set to the content view's bounds with a flexible width and height (the same layout,
// following size changes).
// Not compiled: `CardsViewController` needs `UIViewController` and `UICollectionView`, which
// Sheen does not have (and the article elides the collection view's creation); it is kept as a
// comment, and the tests apply its four shadow lines to a clear container view.

import SheenKit

final class CardCell: UICollectionViewCell {
    let card = UIView()

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .clear
        contentView.backgroundColor = .clear

        card.backgroundColor = .white
        card.layer.cornerRadius = 16
        card.clipsToBounds = true
        card.translatesAutoresizingMaskIntoConstraints = false
        contentView.addSubview(card)
        // Set by hand for Sheen (no Auto Layout); the seed's constraints were:
        // NSLayoutConstraint.activate([
        //     card.leadingAnchor.constraint(equalTo: contentView.leadingAnchor),
        //     card.trailingAnchor.constraint(equalTo: contentView.trailingAnchor),
        //     card.topAnchor.constraint(equalTo: contentView.topAnchor),
        //     card.bottomAnchor.constraint(equalTo: contentView.bottomAnchor),
        // ])
        card.frame = contentView.bounds
        card.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    }

    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}

// Not compiled (no UIViewController or UICollectionView in Sheen):
// final class CardsViewController: UIViewController {
//     var collectionView: UICollectionView!
//
//     override func viewDidLoad() {
//         super.viewDidLoad()
//         // … create the collection view and register CardCell
//         collectionView.backgroundColor = .clear
//     }
//
//     override func viewDidLayoutSubviews() {
//         super.viewDidLayoutSubviews()
//         collectionView.layer.shadowColor = UIColor.black.cgColor
//         collectionView.layer.shadowOpacity = 0.35
//         collectionView.layer.shadowOffset = CGSize(width: 0, height: 4)
//         collectionView.layer.shadowRadius = 8
//     }
// }
