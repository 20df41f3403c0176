import Foundation
import Lamina

/// Counts and timings of one frame's building (the `FrameBuilder`'s; what a
/// display presents is counted in `PresentationStatistics`).
public struct FrameBuildStats: Sendable {
  /// Planes depth-sorted in 3D contexts, and the pieces the sort produced.
  public var sortedPlanes = 0, sortedPieces = 0
  /// CPU time spent in depth sorting, in milliseconds.
  public var depthSortMilliseconds = 0.0
  /// Layer visits derived this frame, and visits whose commands were kept
  /// from an earlier frame (their subtrees are not walked at all).
  public var derivedLayers = 0, reusedLayers = 0
  /// Layer visits whose drawing was kept and only their new opacity applied.
  public var fadedLayers = 0
  /// Shape layers derived again whose path items were placed from what
  /// their last visit made (their own values unchanged: `PathItemsMemo`).
  public var placedShapeLayers = 0
  /// Of the layers derived, those derived as plain layers (`derivePlain`:
  /// their own values as at their last derivation, and nothing to draw
  /// but their drawing, their sublayers and their opacity).
  public var plainLayers = 0

  public init() {}
}
