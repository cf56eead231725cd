// SheenKit: UIKit's names and shapes over SheenLayers, so that UIKit styling code runs on Linux
// with only its import line changed.
//
// Design:
// - One layer model. `CALayer` and its subclasses are thin faces over SheenLayers' real layers:
//   every property reads and writes the real layer; nothing is copied. A layer keeps its face
//   alive through `Layer.owner`, so `sublayers` hands back the very objects that were inserted.
// - `UIView` owns one face (`layer`). Animatable view properties (frame, bounds, center, alpha,
//   transform, backgroundColor) keep their model value in the view; the real layer shows the
//   presentation value while an animation runs, as Core Animation's model and presentation trees.
// - Time comes from one clock: the host (`UIWindow`) hands every event and frame its time, and
//   animations and scroll physics are closed-form functions of that time. Nothing reads the wall
//   clock, so a headless run on a virtual clock is deterministic.
// - Unlike UIKit, views are not `@MainActor`-isolated: seed code written as free functions
//   compiles in Swift 6 mode unchanged. Use a view tree from one thread at a time.

@_exported import Foundation
