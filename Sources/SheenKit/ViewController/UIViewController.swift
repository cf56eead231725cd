import Foundation

/// Manages one view and its life cycle (UIKit's `UIViewController`): the view is made when first
/// asked for (`loadView`, then `viewDidLoad`); appearance (`viewWillAppear`, `viewDidAppear`, and
/// their disappearing twins) follows the view into and out of a window; `viewWillLayoutSubviews`
/// and `viewDidLayoutSubviews` come around the view's own `layoutSubviews`. Child view
/// controllers (`addChild`, `removeFromParent`) get appearance calls with their parent's.
///
/// Unlike UIKit: there are no storyboards or nibs (`nibName` is ignored), no presentation,
/// navigation or transitions; `viewDidAppear` comes after the first layout of the view in its
/// window, when it is about to be drawn.
open class UIViewController: UIResponder {
  /// Where appearance stands.
  enum Appearance { case disappeared, appearing, appeared, disappearing }

  private var viewStorage: UIView?
  /// Whether any controller ever had a view: until then no view tree needs walking for them.
  nonisolated(unsafe) static var controllersHaveViews = false
  var appearance = Appearance.disappeared
  public private(set) weak var parent: UIViewController?
  public private(set) var children: [UIViewController] = []
  open var title: String?
  /// Whether appearance calls reach the children by themselves (they do, as in UIKit).
  open var shouldAutomaticallyForwardAppearanceMethods: Bool { true }
  /// Stored; Sheen lays the view out over its whole window.
  open var preferredContentSize = CGSize.zero
  open var additionalSafeAreaInsets = UIEdgeInsets.zero

  public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
    super.init()
  }

  public convenience override init() { self.init(nibName: nil, bundle: nil) }

  /// Unlike UIKit, there are no archives: this always returns nil.
  public required init?(coder: NSCoder) { return nil }

  // MARK: The view

  /// The controller's view, loaded on first access.
  open var view: UIView! {
    get {
      loadViewIfNeeded()
      return viewStorage
    }
    set {
      viewStorage?.viewController = nil
      viewStorage = newValue
      newValue?.viewController = self
      if newValue != nil { UIViewController.controllersHaveViews = true }
    }
  }

  open var isViewLoaded: Bool { viewStorage != nil }
  open var viewIfLoaded: UIView? { viewStorage }

  /// Makes the view: a plain `UIView` the size of the window (override to make your own; do not
  /// call `super` then).
  open func loadView() {
    view = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
  }

  open func loadViewIfNeeded() {
    guard viewStorage == nil else { return }
    loadView()
    if viewStorage == nil { view = UIView(frame: .zero) }
    viewDidLoad()
  }

  /// Called once, after the view is made.
  open func viewDidLoad() {}

  open func viewWillAppear(_ animated: Bool) { forwardAppearance { $0.beginAppearance(true) } }
  open func viewDidAppear(_ animated: Bool) { forwardAppearance { $0.endAppearance() } }
  open func viewWillDisappear(_ animated: Bool) { forwardAppearance { $0.beginAppearance(false) } }
  open func viewDidDisappear(_ animated: Bool) { forwardAppearance { $0.endAppearance() } }

  /// Called before the view's `layoutSubviews`.
  open func viewWillLayoutSubviews() {}
  /// Called after the view's `layoutSubviews` (its subviews are laid out after).
  open func viewDidLayoutSubviews() {}

  /// Called when the view's constraints are updated; call `super` last.
  open func updateViewConstraints() {}

  open override var next: UIResponder? { viewStorage?.superview }

  // MARK: Appearance

  /// Starts appearing (or disappearing) unless already there.
  func beginAppearance(_ appearing: Bool) {
    switch (appearing, appearance) {
    case (true, .disappeared), (true, .disappearing):
      appearance = .appearing
      viewWillAppear(false)
    case (false, .appeared), (false, .appearing):
      appearance = .disappearing
      viewWillDisappear(false)
    default: break
    }
  }

  /// Finishes the appearance transition that began.
  func endAppearance() {
    switch appearance {
    case .appearing:
      appearance = .appeared
      viewDidAppear(false)
    case .disappearing:
      appearance = .disappeared
      viewDidDisappear(false)
    default: break
    }
  }

  /// Children whose views are in this controller's view get the same call.
  private func forwardAppearance(_ call: (UIViewController) -> Void) {
    guard shouldAutomaticallyForwardAppearanceMethods, let v = viewStorage else { return }
    for c in children where c.viewStorage?.isDescendant(of: v) == true { call(c) }
  }

  // MARK: Children

  /// Adds a child controller (its view is yours to add); calls `willMove(toParent:)`.
  open func addChild(_ childController: UIViewController) {
    guard childController.parent !== self else { return }
    childController.removeFromParent()
    childController.willMove(toParent: self)
    children.append(childController)
    childController.parent = self
  }

  /// Removes this controller from its parent (its view is yours to remove); calls
  /// `didMove(toParent: nil)`.
  open func removeFromParent() {
    guard let p = parent else { return }
    p.children.removeAll { $0 === self }
    parent = nil
    didMove(toParent: nil)
  }

  open func willMove(toParent parent: UIViewController?) {}
  open func didMove(toParent parent: UIViewController?) {}
}

extension UIView {
  /// The view (and its subtree) came into a window: controllers whose views these are begin to
  /// appear; the window ends the transition after its next layout.
  func notifyAppearance(_ appearing: Bool, window: UIWindow) {
    guard UIViewController.controllersHaveViews else { return }
    func walk(_ v: UIView) {
      // A parent forwards to its children; a child met again here is already on its way.
      if let c = v.viewController {
        c.beginAppearance(appearing)
        window.pendingAppearance.append(c)
      }
      for s in v.subviews { walk(s) }
    }
    walk(self)
  }
}
