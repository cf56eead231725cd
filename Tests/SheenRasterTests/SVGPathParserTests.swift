import Foundation
import Testing

@testable import SheenRaster

@Suite("SVGPathParser")
struct SVGPathParserTests {
  func elements(_ d: String) throws -> [PathElement] {
    try Path(svgData: d).elements
  }

  func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

  // MARK: Commands

  @Test func emptyDataIsAnEmptyPath() throws {
    #expect(try Path(svgData: "").isEmpty)
    #expect(try Path(svgData: " \t\n ").isEmpty)
  }

  @Test func moveAndLine() throws {
    #expect(try elements("M10 20 L30 40") == [.move(p(10, 20)), .line(p(30, 40))])
    #expect(try elements("m10 20 l5 5") == [.move(p(10, 20)), .line(p(15, 25))])
  }

  @Test func extraPairsAfterAMoveAreLines() throws {
    #expect(try elements("M10 20 30 40 50 60") == [.move(p(10, 20)), .line(p(30, 40)), .line(p(50, 60))])
    #expect(try elements("m10 20 5 5 5 5") == [.move(p(10, 20)), .line(p(15, 25)), .line(p(20, 30))])
  }

  @Test func relativeMoveIsRelativeToTheCurrentPoint() throws {
    #expect(
      try elements("M10 10 L20 20 m5 5 l1 0") == [
        .move(p(10, 10)), .line(p(20, 20)), .move(p(25, 25)), .line(p(26, 25)),
      ])
  }

  @Test func horizontalAndVertical() throws {
    #expect(
      try elements("M1 2 H10 V20 h-5 v-5") == [
        .move(p(1, 2)), .line(p(10, 2)), .line(p(10, 20)), .line(p(5, 20)), .line(p(5, 15)),
      ])
    #expect(try elements("M0 0 H1 2 3") == [.move(p(0, 0)), .line(p(1, 0)), .line(p(2, 0)), .line(p(3, 0))])
  }

  @Test func cubic() throws {
    #expect(
      try elements("M0 0 C1 2 3 4 5 6 c1 1 2 2 3 3") == [
        .move(p(0, 0)),
        .cubic(control1: p(1, 2), control2: p(3, 4), to: p(5, 6)),
        .cubic(control1: p(6, 7), control2: p(7, 8), to: p(8, 9)),
      ])
  }

  @Test func smoothCubicReflectsThePreviousControlPoint() throws {
    #expect(
      try elements("M0 0 C0 10 10 10 10 0 S20 -10 20 0 s10 10 10 0") == [
        .move(p(0, 0)),
        .cubic(control1: p(0, 10), control2: p(10, 10), to: p(10, 0)),
        .cubic(control1: p(10, -10), control2: p(20, -10), to: p(20, 0)),
        .cubic(control1: p(20, 10), control2: p(30, 10), to: p(30, 0)),
      ])
  }

  @Test func smoothCubicWithoutAPreviousCubicStartsAtTheCurrentPoint() throws {
    #expect(
      try elements("M5 5 S10 10 20 5") == [
        .move(p(5, 5)), .cubic(control1: p(5, 5), control2: p(10, 10), to: p(20, 5)),
      ])
    // A quadratic's control point is not reflected by `S`.
    #expect(
      try elements("M0 0 Q5 5 10 0 S15 5 20 0").last
        == .cubic(control1: p(10, 0), control2: p(15, 5), to: p(20, 0)))
  }

  @Test func quadratic() throws {
    #expect(
      try elements("M0 0 Q5 10 10 0 q5 10 10 0") == [
        .move(p(0, 0)), .quad(control: p(5, 10), to: p(10, 0)), .quad(control: p(15, 10), to: p(20, 0)),
      ])
  }

  @Test func smoothQuadraticReflectsThePreviousControlPoint() throws {
    #expect(
      try elements("M0 0 Q5 10 10 0 T20 0 t10 0") == [
        .move(p(0, 0)),
        .quad(control: p(5, 10), to: p(10, 0)),
        .quad(control: p(15, -10), to: p(20, 0)),
        .quad(control: p(25, 10), to: p(30, 0)),
      ])
    #expect(try elements("M0 0 L5 5 T10 0").last == .quad(control: p(5, 5), to: p(10, 0)))
    // A cubic's control point is not reflected by `T`.
    #expect(try elements("M0 0 C1 1 2 2 3 0 T6 0").last == .quad(control: p(3, 0), to: p(6, 0)))
  }

  @Test func closeReturnsToTheSubpathStart() throws {
    #expect(
      try elements("M1 1 L10 1 Z L1 10 z m2 2 l1 1") == [
        .move(p(1, 1)), .line(p(10, 1)), .close,
        .move(p(1, 1)), .line(p(1, 10)), .close,
        .move(p(3, 3)), .line(p(4, 4)),
      ])
  }

  // MARK: Arcs

  /// The on-curve end points of every cubic.
  func curveEnds(_ path: Path) -> [Point] {
    path.elements.compactMap { e in
      if case .cubic(_, _, let to) = e { return to }
      return nil
    }
  }

  @Test func arcIsASemicircleThroughTheRightSide() throws {
    let path = try Path(svgData: "M0 0 A10 10 0 0 1 20 0")
    let ends = curveEnds(path)
    #expect(ends.count == 2)
    #expect(ends.last == p(20, 0))
    // Sweep flag 1 turns clockwise on screen, so the arc bulges up (y grows downwards).
    #expect(abs(ends[0].x - 10) < 1e-9 && abs(ends[0].y + 10) < 1e-9)
    // The curve stays on the circle: check the midpoint of each cubic.
    var from = p(0, 0)
    for e in path.elements {
      guard case .cubic(let c1, let c2, let to) = e else { continue }
      let mid = from * 0.125 + c1 * 0.375 + c2 * 0.375 + to * 0.125
      #expect(abs((mid - p(10, 0)).length - 10) < 0.01)
      from = to
    }
  }

  @Test func arcFlagsPickTheEllipse() throws {
    // Large arc, sweep 0: three quarters of a circle of radius 10 around (10, 10).
    let ends = curveEnds(try Path(svgData: "M0 10 A10 10 0 1 0 10 0"))
    #expect(ends.count == 3)
    #expect(ends.last == p(10, 0))
    #expect(abs(ends[0].x - 10) < 1e-9 && abs(ends[0].y - 20) < 1e-9)
  }

  @Test func arcRadiiTooSmallAreScaledUp() throws {
    let small = curveEnds(try Path(svgData: "M0 0 A1 1 0 0 1 20 0"))
    let exact = curveEnds(try Path(svgData: "M0 0 A10 10 0 0 1 20 0"))
    #expect(small.count == exact.count)
    for (a, b) in zip(small, exact) { #expect((a - b).length < 1e-9) }
  }

  @Test func rotatedEllipticalArcEndsOnItsEndPoint() throws {
    let path = try Path(svgData: "M3 4 a25 10 -30 0 1 50 -25")
    #expect(path.currentPoint == p(53, -21))
    #expect(curveEnds(path).count >= 1)
  }

  @Test func zeroRadiusArcIsALine() throws {
    #expect(try elements("M0 0 A0 5 0 0 1 20 0") == [.move(p(0, 0)), .line(p(20, 0))])
    #expect(try elements("M0 0 a5 0 0 0 1 20 0") == [.move(p(0, 0)), .line(p(20, 0))])
  }

  @Test func arcToTheCurrentPointIsOmitted() throws {
    #expect(try elements("M5 5 A5 5 0 0 1 5 5") == [.move(p(5, 5))])
  }

  @Test func compactArcFlags() throws {
    #expect(try elements("M0 0 a12 12 0 0112 12") == elements("M0 0 a12 12 0 0 1 12 12"))
    #expect(try elements("M0 0 a12,12,0,1,0,12,12") == elements("M0 0 a12 12 0 1 0 12 12"))
    #expect(try Path(svgData: "M0 0 a12 12 0 0112 12").currentPoint == p(12, 12))
  }

  // MARK: Number grammar

  @Test func numbersNeedNoSeparators() throws {
    #expect(try elements("M10-5") == [.move(p(10, -5))])
    #expect(try elements("M.5.5") == [.move(p(0.5, 0.5))])
    #expect(try elements("M1e2-1E-1") == [.move(p(100, -0.1))])
    #expect(try elements("M-.5,+.5") == [.move(p(-0.5, 0.5))])
    #expect(try elements("M5.e1 2.") == [.move(p(50, 2))])
    #expect(try elements("M0,0L1,2,3,4") == [.move(p(0, 0)), .line(p(1, 2)), .line(p(3, 4))])
    #expect(try elements("\tM 1 , 2\nL3\r\n4 ") == [.move(p(1, 2)), .line(p(3, 4))])
  }

  // MARK: Errors

  @Test(arguments: [
    ("M 10 10 L", 9, "expected a number"),
    ("M10 10 X", 7, "unknown command 'X'"),
    ("L10 10", 0, "path data must begin with a move ('M' or 'm')"),
    ("  z", 2, "path data must begin with a move ('M' or 'm')"),
    ("10 10", 0, "path data must begin with a move ('M' or 'm')"),
    ("M10,10 A -5 5 0 0 1 20 20", 9, "negative arc radius"),
    ("M10,10 A 5 -5 0 0 1 20 20", 11, "negative arc radius"),
    ("M 1e999 0", 2, "number out of range"),
    ("M 0 -1e400", 4, "number out of range"),
    ("M10 10 A5 5 0 2 1 20 20", 14, "expected an arc flag (0 or 1)"),
    ("M10 10 A5 5 0 0 -1 20 20", 16, "expected an arc flag (0 or 1)"),
    ("M10 10 L20,", 11, "expected a number"),
    ("M10 10 L20 20,", 14, "expected a number"),
    ("M10 10 L20 20, L", 15, "expected a number"),
    ("M,10 10", 1, "expected a number"),
    ("M10 10 L 1e", 10, "expected a number"),
    ("M10 10 Z 5", 9, "expected a command"),
    ("M10 10 \u{e9}", 7, "expected a command"),
    ("M10 10 C1 2 3 4 5", 17, "expected a number"),
    ("M10 10 L - 5", 9, "expected a number"),
  ])
  func malformedDataNamesTheOffset(data: String, offset: Int, message: String) {
    #expect(throws: SVGPathError(offset: offset, message: message)) {
      try Path(svgData: data)
    }
  }

  @Test func errorDescription() {
    let e = SVGPathError(offset: 7, message: "expected a number")
    #expect(e.description == "invalid path data at offset 7: expected a number")
  }
}
