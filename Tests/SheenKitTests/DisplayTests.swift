import Foundation
import SheenRaster
import Testing

@testable import SheenKit

/// A view that fills its bounds with a colour in `draw(_:)` and counts the calls.
final class DrawCountingView: UIView {
  var draws = 0
  var rects: [CGRect] = []
  var color = UIColor.red

  override func draw(_ rect: CGRect) {
    draws += 1
    rects.append(rect)
    color.setFill()
    UIRectFill(rect)
  }
}

final class CountingLayer: CALayer {
  var draws = 0
  override func draw(in ctx: CGContext) {
    draws += 1
    ctx.setFillColor(UIColor.blue.cgColor)
    ctx.fill(bounds)
  }
}

final class LayerPainter: CALayerDelegate {
  var draws = 0
  func draw(_ layer: CALayer, in ctx: CGContext) {
    draws += 1
    ctx.setFillColor(UIColor.green.cgColor)
    ctx.fill(layer.bounds)
  }
}

@Suite struct DisplayTests {
  @Test func drawRunsOnceWhenShownThenOnlyWhenMarked() throws {
    let (window, surface) = try makeWindow(width: 100, height: 60)
    let a = DrawCountingView(frame: CGRect(x: 10, y: 10, width: 30, height: 20))
    let b = DrawCountingView(frame: CGRect(x: 50, y: 10, width: 30, height: 20))
    b.color = .blue
    window.addSubview(a)
    window.addSubview(b)
    #expect(a.draws == 0)  // not before it shows
    window.renderFrame(into: surface, time: 0)
    #expect(a.draws == 1 && b.draws == 1)
    #expect(
      surface[20, 20] == 0xFFFF_0000 && surface[60, 20] == 0xFF00_00FF && surface[45, 20] == 0xFF00_0000)
    for i in 1...10 { window.renderFrame(into: surface, time: Double(i) / 60) }
    #expect(a.draws == 1 && b.draws == 1)
    // Marking one view redraws that view only.
    a.color = .green
    a.setNeedsDisplay()
    a.setNeedsDisplay()
    window.renderFrame(into: surface, time: 1)
    #expect(a.draws == 2 && b.draws == 1)
    #expect(surface[20, 20] == UIColor.green.color.premultiplied)
    // Moving does not redraw; resizing redraws only with contentMode = .redraw.
    a.frame = CGRect(x: 12, y: 10, width: 30, height: 20)
    a.bounds.size = CGSize(width: 40, height: 20)
    window.renderFrame(into: surface, time: 2)
    #expect(a.draws == 2)
    // The kept bitmap is stretched over the new bounds (about the same centre) meanwhile.
    #expect(a.frame.minX == 7 && surface[45, 20] == UIColor.green.color.premultiplied)
    a.contentMode = .redraw
    a.bounds.size = CGSize(width: 36, height: 20)
    window.renderFrame(into: surface, time: 3)
    #expect(a.draws == 3 && a.rects.last == CGRect(x: 0, y: 0, width: 36, height: 20))
  }

  @Test func partialRedrawKeepsTheRest() throws {
    let (window, surface) = try makeWindow(width: 100, height: 60)
    let v = DrawCountingView(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
    window.addSubview(v)
    window.renderFrame(into: surface, time: 0)
    v.color = .blue
    v.setNeedsDisplay(CGRect(x: 0, y: 0, width: 10, height: 20))
    window.renderFrame(into: surface, time: 1)
    #expect(v.draws == 2 && v.rects.last == CGRect(x: 0, y: 0, width: 10, height: 20))
    #expect(surface[5, 10] == 0xFF00_00FF && surface[30, 10] == 0xFFFF_0000)
  }

  @Test func backingStoreIsAtTheWindowsScale() throws {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
    window.scale = 2
    let surface = try Surface(width: 100, height: 100)
    let v = DrawCountingView(frame: CGRect(x: 5, y: 5, width: 21, height: 13))
    window.addSubview(v)
    window.renderFrame(into: surface, time: 0)
    // The drawing is the layer's contents, an image at the window's scale.
    let store = try #require(v.layer.sheenLayer.contents)
    #expect(store.width == 42 && store.height == 26 && v.layer.sheenLayer.contentsScale == 2)
    #expect(
      surface[10, 10] == 0xFFFF_0000 && surface[51, 35] == 0xFFFF_0000 && surface[52, 36] == 0xFF00_0000)
  }

  @Test func viewsThatDoNotDrawGetNoBackingStore() throws {
    let (window, surface) = try makeWindow()
    let plain = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
    plain.backgroundColor = .red
    window.addSubview(plain)
    window.renderFrame(into: surface, time: 0)
    #expect(plain.layer.sheenLayer.contents == nil && window.layer.sheenLayer.contents == nil)
    // An image someone set stays: the display pass only replaces what it drew.
    let picture = UIGraphicsImageRenderer(size: CGSize(width: 4, height: 4)).image { ctx in
      UIColor.blue.setFill()
      ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
    }
    let imageView = UIImageView(frame: CGRect(x: 60, y: 0, width: 40, height: 40))
    imageView.image = picture
    window.addSubview(imageView)
    window.renderFrame(into: surface, time: 1)
    #expect(imageView.layer.sheenLayer.contents != nil && surface[80, 20] == 0xFF00_00FF)
  }

  @Test func layersDrawThroughDrawInAndTheirDelegate() throws {
    let (window, surface) = try makeWindow(width: 60, height: 20)
    let own = CountingLayer()
    own.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
    let painter = LayerPainter()
    let delegated = CALayer()
    delegated.delegate = painter
    delegated.frame = CGRect(x: 20, y: 0, width: 20, height: 20)
    delegated.needsDisplayOnBoundsChange = true
    window.layer.addSublayer(own)
    window.layer.addSublayer(delegated)
    window.renderFrame(into: surface, time: 0)
    // As Core Animation: a layer draws only once asked to.
    #expect(own.draws == 0 && painter.draws == 0)
    own.setNeedsDisplay()
    delegated.setNeedsDisplay()
    #expect(own.needsDisplay())
    window.renderFrame(into: surface, time: 1)
    #expect(own.draws == 1 && painter.draws == 1 && !own.needsDisplay())
    #expect(surface[10, 10] == 0xFF00_00FF && surface[30, 10] == UIColor.green.color.premultiplied)
    window.renderFrame(into: surface, time: 2)
    delegated.bounds = CGRect(x: 0, y: 0, width: 30, height: 20)
    own.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
    window.renderFrame(into: surface, time: 3)
    #expect(own.draws == 1 && painter.draws == 2)
    // displayIfNeeded draws at once.
    own.setNeedsDisplay()
    own.displayIfNeeded()
    #expect(own.draws == 2)
  }

  @Test func renderInAndDrawHierarchyDrawTheTree() throws {
    let root = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
    root.backgroundColor = .white
    let child = DrawCountingView(frame: CGRect(x: 10, y: 10, width: 10, height: 10))
    root.addSubview(child)
    let viaLayer = UIGraphicsImageRenderer(size: root.bounds.size).image { ctx in
      root.layer.render(in: ctx.cgContext)
    }
    let viaView = UIGraphicsImageRenderer(size: root.bounds.size).image { _ in
      _ = root.drawHierarchy(in: root.bounds, afterScreenUpdates: true)
    }
    let a = try #require(viaLayer.cgImage?.surface)
    let b = try #require(viaView.cgImage?.surface)
    #expect(a.pixels == b.pixels && child.draws == 1)
    #expect(a[15, 15] == 0xFFFF_0000 && a[5, 5] == 0xFFFF_FFFF)
    let snapshot = try #require(root.snapshotView(afterScreenUpdates: true))
    #expect(snapshot.bounds.size == root.bounds.size)
    let again = UIGraphicsImageRenderer(size: root.bounds.size).image { ctx in
      snapshot.layer.render(in: ctx.cgContext)
    }
    #expect(again.cgImage?.surface.pixels == a.pixels)
  }
}

/// Redraws at an unchanged size draw into the bitmap they replace instead of a new one, unless
/// something else holds it.
@Suite struct BackingStoreReuseTests {
  @Test func aRedrawOfTheSameSizeReusesTheBitmap() throws {
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 60))
    let surface = try Surface(width: 100, height: 60)
    let v = DrawCountingView(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
    window.addSubview(v)
    window.renderFrame(into: surface, time: 0)
    // (Only its identity is kept: holding the bitmap would keep it from being reused.)
    let firstID = ObjectIdentifier(try #require(v.layer.sheenLayer.contents?.surface))
    v.color = .blue
    v.setNeedsDisplay()
    window.renderFrame(into: surface, time: 1)
    let second = try #require(v.layer.sheenLayer.contents)
    #expect(ObjectIdentifier(second.surface) == firstID, "the bitmap is reused")
    #expect(second.surface[5, 5] == 0xFF00_00FF && surface[5, 5] == 0xFF00_00FF)
    // A snapshot keeps the kept image alive: the next redraw leaves it alone.
    let held = second
    v.color = .green
    v.setNeedsDisplay()
    window.renderFrame(into: surface, time: 2)
    let third = try #require(v.layer.sheenLayer.contents)
    #expect(ObjectIdentifier(third.surface) != firstID)
    #expect(held.surface[5, 5] == 0xFF00_00FF, "an image once shown never changes")
    // Another size: a new bitmap.
    v.frame = CGRect(x: 0, y: 0, width: 30, height: 20)
    v.setNeedsDisplay()
    window.renderFrame(into: surface, time: 3)
    #expect(v.layer.sheenLayer.contents?.width == 30)
  }
}
