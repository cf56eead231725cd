import Foundation
import SheenRaster

/// How a drawing combines with what is under it (Core Graphics' `CGBlendMode`, same raw values).
public enum CGBlendMode: Int32, Sendable, CaseIterable {
  case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
  case difference, exclusion, hue, saturation, color, luminosity
  case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut
  case destinationAtop, xor, plusDarker, plusLighter

  var sheen: BlendMode { BlendMode(rawValue: Int(rawValue)) ?? .normal }
}

public enum CGLineCap: Int32, Sendable {
  case butt, round, square
  var sheen: LineCap { self == .butt ? .butt : self == .round ? .round : .square }
}

public enum CGLineJoin: Int32, Sendable {
  case miter, round, bevel
  var sheen: LineJoin { self == .miter ? .miter : self == .round ? .round : .bevel }
}

public enum CGPathFillRule: Int, Sendable {
  case winding, evenOdd
  var sheen: FillRule { self == .winding ? .nonZero : .evenOdd }
}

/// What `drawPath(using:)` does.
public enum CGPathDrawingMode: Int32, Sendable {
  case fill, eoFill, stroke, fillStroke, eoFillStroke
}

/// Whether a gradient continues before its start and after its end.
public struct CGGradientDrawingOptions: OptionSet, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
  public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)
}

/// Sheen draws in device RGB (sRGB-naive, as the rest of the renderer): colour spaces are
/// accepted and ignored.
public final class CGColorSpace: Sendable {
  public let name: String
  public init?(name: String) { self.name = name }
  init(named: String) { name = named }
  public static let sRGB = "kCGColorSpaceSRGB"
  public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
  public static let deviceRGB = CGColorSpace(named: "kCGColorSpaceDeviceRGB")
  public var numberOfComponents: Int { 3 }
}

public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { .deviceRGB }

/// A colour ramp (Core Graphics' `CGGradient`), interpolated in unpremultiplied sRGB.
public final class CGGradient: @unchecked Sendable {
  public let gradient: Gradient

  init(_ gradient: Gradient) { self.gradient = gradient }

  /// Colours at `locations` (0...1; evenly spaced when nil). Nil when there are no colours or
  /// the counts differ, as Core Graphics.
  public convenience init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: [CGFloat]?) {
    guard !colors.isEmpty, locations.map({ $0.count == colors.count }) ?? true else { return nil }
    self.init(Gradient(colors: colors.map(\.color), locations: locations?.map { Double($0) }))
  }

  /// `count` colours of four components (red, green, blue, alpha) each.
  public convenience init?(
    colorSpace space: CGColorSpace, colorComponents components: [CGFloat], locations: [CGFloat]?,
    count: Int
  ) {
    guard count > 0, components.count >= 4 * count, locations.map({ $0.count >= count }) ?? true else {
      return nil
    }
    let colors = (0..<count).map { i in
      Color(
        red: Double(components[4 * i]), green: Double(components[4 * i + 1]),
        blue: Double(components[4 * i + 2]), alpha: Double(components[4 * i + 3]))
    }
    self.init(Gradient(colors: colors, locations: locations.map { $0.prefix(count).map { Double($0) } }))
  }
}

extension CGImage {
  /// The pixels (top row first, premultiplied).
  var surface: Surface { rasterImage.surface }

  /// An image of `surface`'s pixels (which must not change afterwards).
  convenience init(surface: Surface) { self.init(RasterImage(surface: surface)) }
}
