// Seed 003: "UICollectionViewCell with Rounded Corners and Drop Shadow in Swift",
// /work/shared/seeds/003_e406ea6dbbef22b5.txt: the combined cell.
//
// The article's code, copied verbatim; `import SheenKit` is added (the article shows none). Set
// by hand: `awakeFromNib()` runs when a cell comes out of a nib, and Sheen has no nibs, so the
// tests call it themselves after `init(frame:)`, as loading the nib would.

import SheenKit

class BaseStylizedCollectionViewCell: UICollectionViewCell {
    var cornerRadius: CGFloat = 5.0

    override func awakeFromNib() {
        super.awakeFromNib()
            
        // Apply rounded corners to contentView
        contentView.layer.cornerRadius = cornerRadius
        contentView.layer.masksToBounds = true
        
        // Set masks to bounds to false to avoid the shadow
        // from being clipped to the corner radius
        layer.cornerRadius = cornerRadius
        layer.masksToBounds = false
        
        // Apply a shadow
        layer.shadowRadius = 8.0
        layer.shadowOpacity = 0.10
        layer.shadowColor = UIColor.black.cgColor
        layer.shadowOffset = CGSize(width: 0, height: 5)
    }
    
    override func layoutSubviews() {
        super.layoutSubviews()
        
        // Improve scrolling performance with an explicit shadowPath
        layer.shadowPath = UIBezierPath(
            roundedRect: bounds,
            cornerRadius: cornerRadius
        ).cgPath
    }
}
