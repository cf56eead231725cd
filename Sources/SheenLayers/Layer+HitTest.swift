import SheenRaster

extension Layer {
  /// The frontmost layer of this subtree containing `point` (in the superlayer's coordinates),
  /// as `CALayer.hitTest(_:)`: transforms are honoured, hidden layers and their subtrees are
  /// skipped, and with `masksToBounds` a point outside the rounded bounds misses the whole
  /// subtree.
  public func hitTest(_ point: Point) -> Layer? {
    if isHidden { return nil }
    guard let inverse = transformToSuperlayer.inverted else { return nil }
    let p = inverse.apply(point)
    let inside = containsInRoundedBounds(p)
    if masksToBounds && !inside { return nil }
    for sub in sublayers.reversed() {
      if let hit = sub.hitTest(p) { return hit }
    }
    return inside ? self : nil
  }

  /// Whether a point in the layer's own coordinates lies inside its bounds rounded by the
  /// effective corner radii.
  public func containsInRoundedBounds(_ p: Point) -> Bool {
    let b = bounds
    guard p.x >= 0, p.y >= 0, p.x < b.width, p.y < b.height else { return false }
    let r = effectiveCornerRadii
    // Each corner's quarter disc: outside it (in the corner square) is outside the shape.
    func outside(_ cx: Double, _ cy: Double, _ radius: Double) -> Bool {
      let dx = p.x - cx
      let dy = p.y - cy
      return dx * dx + dy * dy > radius * radius
    }
    if p.x < r.topLeft && p.y < r.topLeft && outside(r.topLeft, r.topLeft, r.topLeft) { return false }
    if p.x > b.width - r.topRight && p.y < r.topRight && outside(b.width - r.topRight, r.topRight, r.topRight)
    {
      return false
    }
    if p.x > b.width - r.bottomRight && p.y > b.height - r.bottomRight
      && outside(b.width - r.bottomRight, b.height - r.bottomRight, r.bottomRight)
    {
      return false
    }
    if p.x < r.bottomLeft && p.y > b.height - r.bottomLeft
      && outside(r.bottomLeft, b.height - r.bottomLeft, r.bottomLeft)
    {
      return false
    }
    return true
  }
}
