import Foundation
import Lamina
import LaminaScene

/// What building one document makes, counted against its `LottieLimits`
/// as it is made (the decoder checks what one value asks for; this, what
/// all of them together make): values and path elements sampled from
/// keyframes, layers made for shapes, paths drawn by fills and strokes.
final class BuildBudget {
  let file: String
  let limits: LottieLimits
  private(set) var sampledValues = 0
  private(set) var sampledPathElements = 0
  private(set) var shapeLayers = 0
  private(set) var styledPaths = 0

  init(file: String, limits: LottieLimits) {
    self.file = file
    self.limits = limits
  }

  /// Counts the values sampled at every frame from `a` to `b` (of
  /// `elements` path elements each) before they are made.
  func sampled(from a: Double, to b: Double, elements: Int, path: String) throws {
    let frames = Int(saturating: min(max(b - a, 0), Double(limits.maxSampledFrames))) + 2
    sampledValues += frames
    try check(
      path, "values sampled from keyframes", sampledValues, limits.maxSampledValues,
      "maxSampledValues")
    sampledPathElements += frames * elements
    try check(
      path, "path elements sampled from keyframes", sampledPathElements,
      limits.maxSampledPathElements, "maxSampledPathElements")
  }

  /// Counts `count` layers made for shapes.
  func madeShapeLayers(_ count: Int, _ path: String) throws {
    shapeLayers += count
    try check(path, "layers made for shapes", shapeLayers, limits.maxShapeLayers, "maxShapeLayers")
  }

  /// Counts the paths a style draws.
  func styled(_ count: Int, _ path: String) throws {
    styledPaths += count
    try check(
      path, "paths drawn by fills and strokes", styledPaths, limits.maxStyledPaths, "maxStyledPaths"
    )
  }

  private func check(_ path: String, _ what: String, _ found: Int, _ limit: Int, _ name: String)
    throws
  {
    if found > limit {
      throw LottieError.limitExceeded(
        file: file, path: path,
        exceeded: LimitExceeded(what: what, found: found, limit: limit, name: name))
    }
  }
}
