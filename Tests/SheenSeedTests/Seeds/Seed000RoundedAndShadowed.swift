// Seed 000: "Give your UIViews and UIButtons some rounded edges and a shadow!" (The (not so)
// Weekly Fitz, Thomas Léger), /work/shared/seeds/000_964646c632d987ec.txt.
//
// The article's code, copied verbatim; only `import UIKit` became `import SheenKit`.
// The article shows successive versions of one free function, `makeRoundedAndShadowed(view:)`.
// Three of them are kept; two names at the top level of one module would clash, so the two
// earlier versions are each wrapped in a struct (the `struct ... {` and `}` lines are the only
// lines added). Nothing is set by hand: `@IBDesignable` and `@IBInspectable` compile on Linux
// (Interface Builder just never reads them).

import SheenKit

// The clipped version: the last step before "Where's our damn shadow?".
struct ClippedVersion {
func makeRoundedAndShadowed(view: UIView) {
	view.layer.cornerRadius = 20
	view.layer.masksToBounds = true

	view.layer.shadowColor = UIColor.darkGray.cgColor
	view.layer.shadowOffset = CGSize(width: 2.0, height: 2.0)
	view.layer.shadowOpacity = 0.4
	view.layer.shadowRadius = 5.0
}
}

// The shadow-layer fix ("And low and behold... rounded corners and a shadow!").
struct ShadowLayerVersion {
func makeRoundedAndShadowed(view: UIView) {
    let shadowLayer = CAShapeLayer()
    
    view.layer.cornerRadius = 20
    shadowLayer.path = UIBezierPath(roundedRect: view.bounds,
                                    cornerRadius: view.layer.cornerRadius).cgPath
    shadowLayer.fillColor = view.backgroundColor?.cgColor
    shadowLayer.shadowColor = UIColor.darkGray.cgColor
    shadowLayer.shadowOffset = CGSize(width: 2.0, height: 2.0)
    shadowLayer.shadowOpacity = 0.4
    shadowLayer.shadowRadius = 5.0
	view.layer.insertSublayer(shadowLayer, at: 0)
}
}

// "So here's the actual end result": the shadow layer with a shadowPath.
func makeRoundedAndShadowed(view: UIView) {
    let shadowLayer = CAShapeLayer()
    
    view.layer.cornerRadius = 20
    shadowLayer.path = UIBezierPath(roundedRect: view.bounds,
                                    cornerRadius: view.layer.cornerRadius).cgPath
    shadowLayer.shadowPath = shadowLayer.path
    shadowLayer.fillColor = view.backgroundColor?.cgColor
    shadowLayer.shadowColor = UIColor.darkGray.cgColor
    shadowLayer.shadowOffset = CGSize(width: 2.0, height: 2.0)
    shadowLayer.shadowOpacity = 0.4
    shadowLayer.shadowRadius = 5.0
    view.layer.insertSublayer(shadowLayer, at: 0)
}

protocol ShadowableRoundableView {
    
    var cornerRadius: CGFloat { get set }
    var shadowColor: UIColor { get set }
    var shadowOffsetWidth: CGFloat { get set }
    var shadowOffsetHeight: CGFloat { get set }
    var shadowOpacity: Float { get set }
    var shadowRadius: CGFloat { get set }
    
    var shadowLayer: CAShapeLayer { get }
    
    func setCornerRadiusAndShadow()
}

extension ShadowableRoundableView where Self: UIView {
    func setCornerRadiusAndShadow() {
        layer.cornerRadius = cornerRadius
        shadowLayer.path = UIBezierPath(roundedRect: bounds,
                                            cornerRadius: cornerRadius ).cgPath
        shadowLayer.fillColor = backgroundColor?.cgColor
        shadowLayer.shadowColor = shadowColor.cgColor
        shadowLayer.shadowPath = shadowLayer.path
        shadowLayer.shadowOffset = CGSize(width: shadowOffsetWidth ,
                                          height: shadowOffsetHeight )
        shadowLayer.shadowOpacity = shadowOpacity 
        shadowLayer.shadowRadius = shadowRadius
    }
}

@IBDesignable
class OurCustomView: UIView, ShadowableRoundableView {
    
    @IBInspectable var cornerRadius: CGFloat = 0 {
        didSet {
            self.setNeedsLayout()
        }
    }
    
    @IBInspectable var shadowColor: UIColor = UIColor.darkGray {
        didSet {
            self.setNeedsLayout()
        }
    }
    
    @IBInspectable var shadowOffsetWidth: CGFloat = 3 {
        didSet {
            self.setNeedsLayout()
        }
    }
    
    
    @IBInspectable var shadowOffsetHeight: CGFloat = 3 {
        didSet {
            self.setNeedsLayout()
        }
    }
    
    
    @IBInspectable var shadowOpacity: Float = 0.4 {
        didSet {
            self.setNeedsLayout()
        }
    }
    
    
    @IBInspectable var shadowRadius: CGFloat = 4 {
        didSet {
            self.setNeedsLayout()
        }
    }
    
    private(set) lazy var shadowLayer: CAShapeLayer = {
        let layer = CAShapeLayer()
        self.layer.insertSublayer(layer, at: 0)
        self.setNeedsLayout()
        return layer
    }()
    
    override func layoutSubviews() {
        super.layoutSubviews()
        self.setCornerRadiusAndShadow()
    }
}
