import Foundation
import Lamina

/// A loaded scene: the canvas, the layer tree and the images it uses.
public struct Scene {
  /// The output's size, scale and background.
  public let canvas: Canvas
  /// The root layer; its bounds default to the canvas, its position to the canvas center.
  public let root: CALayer
  /// The decoded images by their names in the file.
  public let images: [String: CGImage]
  /// Where the scene was read from, when it came from a file.
  public let url: URL?

  public init(canvas: Canvas, root: CALayer, images: [String: CGImage], url: URL?) {
    self.canvas = canvas
    self.root = root
    self.images = images
    self.url = url
  }
}

/// The output of a scene: `width × scale` by `height × scale` pixels.
public struct Canvas: Equatable {
  /// Width in points.
  public var width: CGFloat
  /// Height in points.
  public var height: CGFloat
  /// Pixels per point.
  public var scale: CGFloat
  /// The color behind the root layer; nil for transparent.
  public var background: CGColor?

  public init(width: CGFloat, height: CGFloat, scale: CGFloat = 1, background: CGColor? = nil) {
    self.width = width
    self.height = height
    self.scale = scale
    self.background = background
  }

  /// The output's width in pixels.
  public var pixelWidth: Int { Int((width * scale).rounded()) }
  /// The output's height in pixels.
  public var pixelHeight: Int { Int((height * scale).rounded()) }
}
