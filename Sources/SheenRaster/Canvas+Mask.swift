extension Canvas {
  /// Intersects the clip with a device-space alpha mask (outside the mask everything is clipped
  /// out): Core Graphics' `clip(to:mask:)`.
  public func clip(to mask: AlphaMask) {
    let area = state.clipBounds.intersection(mask.deviceBounds)
    if !area.isEmpty { resolveClip(for: Rect(area)) }
    guard !area.isEmpty, let m = takeMask(area) else {
      state.clipBounds = IntRect(x: state.clipBounds.x, y: state.clipBounds.y, width: 0, height: 0)
      state.clipMask = nil
      state.pendingRect = nil
      return
    }
    for y in 0..<area.height {
      m.row(y).update(from: mask.row(area.y + y - mask.originY) + (area.x - mask.originX), count: area.width)
    }
    m.findSolidRuns()
    intersectClip(with: m, area: area)
  }
}
