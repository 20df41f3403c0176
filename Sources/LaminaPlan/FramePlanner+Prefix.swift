import Foundation
import Lamina
import LaminaFrame

/// The canvas's unchanged bottom. A frame whose first commands draw what
/// they drew the frame before (a background, a static scene under a moving
/// character) draws them once into a target the cache keeps, and each frame
/// after copies that target into the canvas and draws only the rest: one
/// copy instead of their fill (nepenthe's two background images alone are
/// 2-3 ms a frame on llvmpipe). The target is the canvas's size, cleared to
/// the frame's background and drawn as the canvas would be, so the copy
/// holds the canvas's own bytes (the first frame, drawn whole, and the
/// later ones give the same image).
extension FramePlanner {
  /// The commands as the canvas pass draws them: groups that only group
  /// (no offscreen pass, no opacity of their own) opened, so that a
  /// prefix can end inside a precomposition.
  static func prefixElements(_ commands: [DrawCommand]) -> [DrawCommand] {
    var out: [DrawCommand] = []
    func walk(_ commands: [DrawCommand]) {
      for command in commands {
        if case .group(let group) = command, case .none(let inner) = isolation(of: group),
          inner >= 1
        {
          walk(group.commands)
        } else {
          out.append(command)
        }
      }
    }
    walk(commands)
    return out
  }

  /// The key of each prefix of `elements` (element i: the first i + 1),
  /// with the frame's size and background and the options that decide its
  /// pixels, up to the first that is not among `last` (the last frame's):
  /// a prefix grows by one element a frame at most, and a frame that
  /// changes early hashes little. (Without the options, a prefix drawn
  /// with the blend modes' fallback was taken by a frame drawn with the
  /// equations: metamorphic pool-one seed 5500548, 1/255.)
  static func prefixKeys(
    _ elements: [DrawCommand], region: PixelRect, background: SIMD4<Float>?,
    options: PlanOptions = PlanOptions(), last: [Int]
  ) -> [Int] {
    var hasher = Hasher()
    hasher.combine("canvas prefix")
    RasterSignature.combine(region, &hasher)
    hasher.combine(background)
    hasher.combine(options.blendEquations)
    hasher.combine(options.edgeCoverage)
    hasher.combine(options.cpuPaths)
    hasher.combine(options.cpuGroups)
    hasher.combine(options.pathMasks)
    hasher.combine(options.texelOrder == .bgra)
    hasher.combine(options.samples)
    var keys: [Int] = []
    for (i, element) in elements.enumerated() {
      RasterSignature.combine([element], groupBase: 0, into: &hasher)
      let key = hasher.finalize()
      keys.append(key)
      if i >= last.count || last[i] != key { break }
    }
    return keys
  }

  /// How many of `elements` the canvas takes from a kept target: the
  /// longest prefix that the last frame drew too (`last`, its keys), cut
  /// where no run of paths goes on across (a run is one bitmap: split,
  /// its parts would blend in another order), when it covers at least
  /// half the region and draws more than solid rects on whole pixels
  /// (else it is cheaper drawn than copied). 0: none.
  func unchangedPrefix(
    _ elements: [DrawCommand], keys: [Int], last: [Int], region: PixelRect
  ) -> Int {
    var k = 0
    while k < min(keys.count, last.count), keys[k] == last[k] { k += 1 }
    func breaksRuns(_ command: DrawCommand) -> Bool {
      if case .item(let item) = command { return !item.isPath }
      return false
    }
    while k > 0 && k < elements.count && !breaksRuns(elements[k - 1]) && !breaksRuns(elements[k]) {
      k -= 1
    }
    guard k > 0 else { return 0 }
    var area = 0
    var costly = false
    for element in elements[..<k] {
      area += element.bounds.intersection(region).area
      costly = costly || !Self.drawsAsCheaplyAsACopy(element, region: region)
    }
    return costly && area * 2 >= region.area ? k : 0
  }

  /// A solid rect on whole pixels: drawn by `solid_plain` in llvmpipe's
  /// linear rasterizer, it costs what the copy would.
  static func drawsAsCheaplyAsACopy(_ command: DrawCommand, region: PixelRect) -> Bool {
    guard case .item(let item) = command, case .solid = item.material, item.shape == nil,
      item.clip == nil, item.clippedPolygon == nil, item.clipPlanes.isEmpty
    else { return false }
    let mask = item.antialiased ? item.edgeMask : 0
    return VertexBuilder.exactCorners(item.rect, item.matrix, mask: mask, region: region) != nil
  }

  /// Plans the canvas tile `region` of `frame` from the kept prefix when
  /// there is one worth it (`unchangedPrefix`); false: plan it whole. The
  /// kept target holds the prefix over the frame's background, and a copy
  /// replaces the canvas's pixels with it (llvmpipe copies a same-format
  /// blit as memory: 0.05-0.1 ms at 512×512).
  mutating func planCanvasFromPrefix(_ frame: DrawList, region: PixelRect, label: String) -> Bool {
    let elements = Self.prefixElements(frame.commands)
    let keys = Self.prefixKeys(
      elements, region: region, background: frame.background, options: options,
      last: lastPrefixKeys)
    plan.prefixKeys = keys
    let k = unchangedPrefix(elements, keys: keys, last: lastPrefixKeys, region: region)
    guard k > 0 else { return false }
    let key = keys[k - 1]
    let rest = Array(elements[k...])
    let what = "canvas prefix: \(k) of \(elements.count) commands"
    // One canvas tile a frame: the key is new to this plan.
    let hit = caches.holdsRaster(key)
    prepare(hit ? rest : elements, region: region)
    let kept = addTarget(
      width: region.width, height: region.height, role: .raster(key: key, hit: hit), label: what)
    if !hit {
      drawList(
        Array(elements[..<k]), into: kept, region: region, clear: frame.background, label: what)
    }
    plan.steps.append(
      .copy(
        CopyPass(
          source: kept, rect: PixelRect(x: 0, y: 0, width: region.width, height: region.height),
          destination: FramePlan.canvas, label: what)))
    drawList(rest, into: FramePlan.canvas, region: region, clear: nil, label: label)
    return true
  }
}
