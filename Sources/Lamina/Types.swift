// `import Lamina` brings Foundation's geometry (CGFloat, CGPoint, CGSize,
// CGRect), URL, Data and NSNumber into scope, as `import QuartzCore` does
// on Apple platforms (it re-exports Core Graphics and Foundation).
@_exported import Foundation

/// A time interval in seconds (Core Foundation's name, missing on Linux).
public typealias CFTimeInterval = Double

/// How a layer places its contents image in its bounds. As in Core Animation
/// (whose gravity names assume a y axis that grows upward), `top` means the
/// edge with the larger y, which on an iOS-style screen is the bottom.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let center = Self(rawValue: "center")
  public static let top = Self(rawValue: "top")
  public static let bottom = Self(rawValue: "bottom")
  public static let left = Self(rawValue: "left")
  public static let right = Self(rawValue: "right")
  public static let topLeft = Self(rawValue: "topLeft")
  public static let topRight = Self(rawValue: "topRight")
  public static let bottomLeft = Self(rawValue: "bottomLeft")
  public static let bottomRight = Self(rawValue: "bottomRight")
  public static let resize = Self(rawValue: "resize")
  public static let resizeAspect = Self(rawValue: "resizeAspect")
  public static let resizeAspectFill = Self(rawValue: "resizeAspectFill")
  /// The twelve values Core Animation defines.
  public static let all: [Self] = [
    .center, .top, .bottom, .left, .right, .topLeft, .topRight, .bottomLeft, .bottomRight,
    .resize, .resizeAspect, .resizeAspectFill,
  ]
}

/// How contents are sampled when drawn larger or smaller than their pixels.
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let linear = Self(rawValue: "linear")
  public static let nearest = Self(rawValue: "nearest")
  /// Linear between mipmap levels (minification only; like linear when magnifying).
  public static let trilinear = Self(rawValue: "trilinear")
  public static let all: [Self] = [.linear, .nearest, .trilinear]
}

/// The corners `cornerRadius` rounds.
public struct CACornerMask: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
  public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
  public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
  public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
  public static let all: CACornerMask = [
    .layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner,
  ]
  /// Scene-file names of the corners, in bit order.
  public static let names: [(String, CACornerMask)] = [
    ("minXMinY", .layerMinXMinYCorner), ("maxXMinY", .layerMaxXMinYCorner),
    ("minXMaxY", .layerMinXMaxYCorner), ("maxXMaxY", .layerMaxXMaxYCorner),
  ]
}

/// The edges of a layer that `allowsEdgeAntialiasing` antialiases.
public struct CAEdgeAntialiasingMask: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  /// The minimum x edge.
  public static let layerLeftEdge = Self(rawValue: 1)
  /// The maximum x edge.
  public static let layerRightEdge = Self(rawValue: 2)
  /// The minimum y edge.
  public static let layerBottomEdge = Self(rawValue: 4)
  /// The maximum y edge.
  public static let layerTopEdge = Self(rawValue: 8)
  /// All four edges.
  public static let all: Self = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]
}

/// The curve of a layer's rounded corners.
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Quarter circles of `cornerRadius`.
  public static let circular = Self(rawValue: "circular")
  /// Apple's continuous ("squircle") curve; Lamina draws circular corners.
  public static let continuous = Self(rawValue: "continuous")
  public static let all: [Self] = [.circular, .continuous]
}

/// The pixel format of a layer's backing store.
public struct CALayerContentsFormat: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let RGBA8Uint = Self(rawValue: "RGBA8")
  public static let RGBA16Float = Self(rawValue: "RGBAh")
  public static let gray8Uint = Self(rawValue: "Gray8")
  /// The format the content needs (RGBA8 here).
  public static let automatic = Self(rawValue: "automatic")
  public static let all: [Self] = [.RGBA8Uint, .RGBA16Float, .gray8Uint, .automatic]
}

/// A vector in two dimensions, Core Graphics' `CGVector`.
public struct CGVector: Equatable, Hashable, Sendable, CustomStringConvertible {
  public var dx: CGFloat
  public var dy: CGFloat
  public init() {
    dx = 0
    dy = 0
  }
  public init(dx: CGFloat, dy: CGFloat) {
    self.dx = dx
    self.dy = dy
  }
  public init(dx: Double, dy: Double) {
    self.dx = CGFloat(dx)
    self.dy = CGFloat(dy)
  }
  public init(dx: Int, dy: Int) {
    self.dx = CGFloat(dx)
    self.dy = CGFloat(dy)
  }
  /// The vector (0, 0).
  public static let zero = CGVector()
  public var description: String { "(\(dx), \(dy))" }
}

/// The dynamic range a layer would like its contents shown in (a hint).
public struct CADynamicRange: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let automatic = Self(rawValue: "automatic")
  public static let standard = Self(rawValue: "standard")
  public static let constrainedHigh = Self(rawValue: "constrainedHigh")
  public static let high = Self(rawValue: "high")
}

/// How extended-range contents are tone mapped (a hint).
public struct CAToneMapMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let automatic = Self(rawValue: "automatic")
  public static let never = Self(rawValue: "never")
  public static let ifSupported = Self(rawValue: "ifSupported")
}

/// Which parts of a layer's frame stretch when its superlayer's size
/// changes (`autoresizingMask`).
public struct CAAutoresizingMask: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  public static let layerNotSizable: Self = []
  /// The margin to the superlayer's minimum x edge is flexible.
  public static let layerMinXMargin = Self(rawValue: 1 << 0)
  public static let layerWidthSizable = Self(rawValue: 1 << 1)
  public static let layerMaxXMargin = Self(rawValue: 1 << 2)
  public static let layerMinYMargin = Self(rawValue: 1 << 3)
  public static let layerHeightSizable = Self(rawValue: 1 << 4)
  public static let layerMaxYMargin = Self(rawValue: 1 << 5)
}

/// Action keys run when a layer is added to a tree (`onOrderIn`) and
/// removed from one (`onOrderOut`): give a layer `actions[kCAOnOrderIn]`.
public let kCAOnOrderIn = "onOrderIn"
public let kCAOnOrderOut = "onOrderOut"
