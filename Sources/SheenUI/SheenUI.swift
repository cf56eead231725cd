// SheenUI: SwiftUI's names and rules over SheenKit, so that SwiftUI code runs on Linux with only
// its import line changed (`import SheenUI` for `import SwiftUI`).
//
// Design:
// - Views are values. `View`, `@ViewBuilder`, `ViewModifier` and `Shape` are SwiftUI's; the
//   structs a body returns are read once per update and thrown away.
// - What persists is a tree of nodes (`Node`), one per view that takes part in layout or drawing,
//   with its identity given by its place in the structure (its type and position in its parent's
//   builder block, the branch of an `if`/`switch`) or by its `ForEach` id. An update walks the new
//   values against the nodes: a node whose view value and environment did not change is not
//   asked for its body again, and a node keeps the UIKit-shaped view (`UIView`, `UILabel`, a shape
//   layer) it drew with last time, so the layer tree and every cache under it stay warm.
// - Layout is SwiftUI's: a parent proposes a size, the child chooses its own, the parent places
//   it. Layout runs only after a change; a steady frame does no SheenUI work at all.
// - State (`@State`) lives in its node, not in the struct: the struct holds a location the node
//   connects to its storage. A change marks the node, and the next layout pass (before the next
//   frame) asks only marked nodes, and the nodes whose inputs they changed, for new bodies.
// - Motion is SheenKit's: `withAnimation` and `.animation` run the placement of what changed in a
//   `UIView.animate` block, so springs and curves are the same closed-form functions of the host's
//   clock as the UIKit demo's.
// - Like SheenKit's views, and unlike SwiftUI's, views are not `@MainActor`-isolated: use a tree
//   from one thread at a time.

@_exported import SheenKit
