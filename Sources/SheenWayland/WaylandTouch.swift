import SheenPlatform
import SheenRaster

/// Turns `wl_touch` events into `PlatformEvent`s, each for the surface its touch went down on.
/// Pure (generic over what names a surface): recorded sequences can be replayed through it.
///
/// `wl_touch.up` carries no position: a touch ends where it last was. A `cancel` (the compositor
/// took the touches for a gesture of its own) cancels every touch in progress.
struct WaylandTouchTranslator<SurfaceID: Hashable> {
  private var surfaces: [Int32: SurfaceID] = [:]
  private var positions: [Int32: Point] = [:]

  /// Touches in progress.
  var activeCount: Int { surfaces.count }

  mutating func down(id: Int32, surface: SurfaceID, at p: Point) -> (SurfaceID, PlatformEvent) {
    surfaces[id] = surface
    positions[id] = p
    return (surface, .touchDown(id: Int(id), at: p))
  }

  mutating func motion(id: Int32, at p: Point) -> (SurfaceID, PlatformEvent)? {
    guard let surface = surfaces[id] else { return nil }
    positions[id] = p
    return (surface, .touchMove(id: Int(id), at: p))
  }

  mutating func up(id: Int32) -> (SurfaceID, PlatformEvent)? {
    guard let surface = surfaces.removeValue(forKey: id), let p = positions.removeValue(forKey: id) else {
      return nil
    }
    return (surface, .touchUp(id: Int(id), at: p))
  }

  mutating func cancel() -> [(SurfaceID, PlatformEvent)] {
    defer {
      surfaces.removeAll()
      positions.removeAll()
    }
    return surfaces.sorted { $0.key < $1.key }.map { ($0.value, .touchCancel(id: Int($0.key))) }
  }

  /// Forgets the touches on a surface being destroyed.
  mutating func forget(_ surface: SurfaceID) {
    for (id, s) in surfaces where s == surface {
      surfaces[id] = nil
      positions[id] = nil
    }
  }
}
