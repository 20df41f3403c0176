import Foundation
import Lamina
import LaminaFrame

/// Where a scene's canvas goes on a display: scaled uniformly to fit the
/// panel (turned by `rotation` first), centered, the rest letterboxed.
/// Canvas pixels are the renderer's (top-down rows); panel pixels are the
/// display's, also top-down.
public struct DisplayPlacement: Equatable, Sendable {
  public let panelWidth: Int
  public let panelHeight: Int
  public let rotation: DisplayRotation
  /// The canvas in pixels: the scene's size times `scale`.
  public let canvasWidth: Int
  public let canvasHeight: Int
  /// Canvas pixels per scene point.
  public let scale: Double
  /// The canvas's top-left corner in the turned panel (letterbox margins).
  public let offsetX: Int
  public let offsetY: Int

  /// Fits a scene of `sceneWidth`×`sceneHeight` points on the panel.
  public init(
    sceneWidth: Double, sceneHeight: Double, panelWidth: Int, panelHeight: Int,
    rotation: DisplayRotation = .none
  ) {
    self.panelWidth = panelWidth
    self.panelHeight = panelHeight
    self.rotation = rotation
    let (availableWidth, availableHeight) = rotation.canvasSize(
      panelWidth: panelWidth, height: panelHeight)
    let scale = min(
      Double(availableWidth) / max(sceneWidth, 1e-9),
      Double(availableHeight) / max(sceneHeight, 1e-9))
    self.scale = scale
    canvasWidth = max(1, min(availableWidth, Int(saturating: sceneWidth * scale, rounding: .toNearestOrAwayFromZero)))
    canvasHeight = max(1, min(availableHeight, Int(saturating: sceneHeight * scale, rounding: .toNearestOrAwayFromZero)))
    offsetX = (availableWidth - canvasWidth) / 2
    offsetY = (availableHeight - canvasHeight) / 2
  }

  /// Canvas pixels to panel pixels.
  public var canvasToPanel: CGAffineTransform {
    CGAffineTransform(translationX: CGFloat(offsetX), y: CGFloat(offsetY))
      .concatenating(rotation.canvasToPanel(panelWidth: panelWidth, height: panelHeight))
  }

  /// The panel pixels covering canvas pixels `rect`.
  public func panelRect(_ rect: PixelRect) -> PixelRect {
    let t = canvasToPanel
    let corners = [
      CGPoint(x: rect.x, y: rect.y), CGPoint(x: rect.x + rect.width, y: rect.y + rect.height),
    ].map { $0.applying(t) }
    let x0 = Int(saturating: min(corners[0].x, corners[1].x), rounding: .toNearestOrAwayFromZero)
    let y0 = Int(saturating: min(corners[0].y, corners[1].y), rounding: .toNearestOrAwayFromZero)
    let x1 = Int(saturating: max(corners[0].x, corners[1].x), rounding: .toNearestOrAwayFromZero)
    let y1 = Int(saturating: max(corners[0].y, corners[1].y), rounding: .toNearestOrAwayFromZero)
    return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Whether canvas pixels are panel pixels (no turn, no letterbox).
  public var isIdentity: Bool {
    rotation == .none && canvasWidth == panelWidth && canvasHeight == panelHeight
  }

  /// The whole panel.
  public var panel: PixelRect { PixelRect(x: 0, y: 0, width: panelWidth, height: panelHeight) }

  /// The scene point under panel point (`x`, `y`) (pixels, top-down), or
  /// nil in the letterbox.
  public func scenePoint(panelX x: Double, panelY y: Double) -> CGPoint? {
    let canvas = CGPoint(x: x, y: y).applying(canvasToPanel.inverted())
    guard canvas.x >= 0, canvas.y >= 0, canvas.x < CGFloat(canvasWidth),
      canvas.y < CGFloat(canvasHeight)
    else { return nil }
    return CGPoint(x: canvas.x / CGFloat(scale), y: canvas.y / CGFloat(scale))
  }
}
