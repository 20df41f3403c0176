import Foundation
import LaminaRender
import LaminaScene

// Relations that render the same scene another way: again, in another
// renderer, after another scene, partially, with other renderer settings.
extension Relation {
  static let determinism: [Relation] = [firstFrame, freshRenderer, afterOtherScene, otherRenderer]

  static let renderer: [Relation] = [partialRedraw, blendFallback, poolOfOne, noBatching]

  /// The first rendering of a frame against the second, in the renderer
  /// that drew the previous case: a first draw of new content (uploads,
  /// programs compiled mid-frame, masks cached) must not differ from the
  /// draws after it, nor be changed by what the previous case left.
  static let firstFrame = Relation(
    name: "first-frame", summary: "the first rendering of a frame against the second",
    transformsScene: false
  ) { s in
    s.compare("first-frame", s.first, .exact)
  }

  /// The frame drawn as the first frame of a new renderer. Checked on one
  /// seed in `freshRendererEvery` (each renderer made stays on the context).
  static let freshRenderer = Relation(
    name: "fresh-renderer",
    summary: "the frame as a new renderer's first frame (one seed in freshRendererEvery)",
    transformsScene: false
  ) { s in
    guard s.testCase.seed % freshRendererEvery == 0 else { return .notApplicable }
    do {
      let fresh = try s.harness.makeRenderer()
      return s.compare(
        "fresh-renderer", try s.harness.render(s.scene, time: s.time, with: fresh), .exact)
    } catch {
      return s.threw("fresh-renderer", error)
    }
  }

  /// One seed in how many checks `fresh-renderer` (16 in the test suite;
  /// `lamina-metamorphic --fresh-every` sets it for long runs).
  nonisolated(unsafe) package static var freshRendererEvery: UInt64 = 16

  /// Another scene drawn in between by the same renderer must leave
  /// nothing behind (textures, cached masks and rasterizations, pooled
  /// targets, bound state).
  static let afterOtherScene = Relation(
    name: "after-other-scene", summary: "the frame rendered right after an unrelated scene",
    transformsScene: false
  ) { s in
    let other = SceneGenerator.generate(seed: s.testCase.seed &+ 0x5EED_0001, maxLayers: 6)
    // The other scene's own failures are found when it is a case itself.
    guard (try? s.render(other.scene, time: other.time)) != nil else { return .notApplicable }
    do {
      return s.compare("after-other-scene", try s.render(), .exact, transformed: other.scene)
    } catch {
      return s.threw("after-other-scene", error, transformed: other.scene)
    }
  }

  /// A second renderer on the same GL context drawing another scene in
  /// between (as `lamina show` and a headless renderer may share one) must
  /// not change what the first draws.
  static let otherRenderer = Relation(
    name: "other-renderer",
    summary: "the frame rendered after another renderer on the same context drew another scene",
    transformsScene: false
  ) { s in
    let other = SceneGenerator.generate(seed: s.testCase.seed &+ 0x0DD_0002, maxLayers: 6)
    guard (try? s.harness.render(other.scene, time: other.time, with: s.harness.second)) != nil
    else { return .notApplicable }
    do {
      return s.compare("other-renderer", try s.render(), .exact, transformed: other.scene)
    } catch {
      return s.threw("other-renderer", error, transformed: other.scene)
    }
  }

  /// The frame drawn again by its renderer after everything the other
  /// relations drew with it (checked last, and shrunk with the others run
  /// first): state left by any of those draws must not change it.
  static let repeatRender = Relation(
    name: "repeat", summary: "the frame rendered again after every other relation's renderings",
    transformsScene: false
  ) { s in
    do {
      return s.compare("repeat", try s.render(), .exact)
    } catch {
      return s.threw("repeat", error)
    }
  }

  /// Partial redraw (`render(_:updating:damage:)`) from an earlier frame —
  /// the scene at another time, or with one layer changed — gives, pixel
  /// for pixel, the full redraw (as its documentation promises).
  static let partialRedraw = Relation(
    name: "partial-redraw",
    summary: "the frame redrawn over the previous frame's image where the damage says",
    transformsScene: false
  ) { s in
    var random = s.random(8)
    let previous = Self.previousScene(s, &random)
    do {
      let renderer = s.renderer
      let before = try s.harness.frame(
        previous.scene, time: previous.time, caches: renderer.caches)
      let image = try renderer.render(before)
      let frame = try s.harness.frame(s.scene, time: s.time, caches: renderer.caches)
      let damage = Damage(from: before, to: frame)
      let partial = try renderer.render(frame, updating: image, damage: damage)
      return s.compare("partial-redraw", partial, .exact, transformed: previous.scene)
    } catch {
      return s.threw("partial-redraw", error, transformed: previous.scene)
    }
  }

  /// The frame a display would have shown before this one: the same scene a
  /// little earlier, or with one layer removed, recolored, moved or hidden.
  static func previousScene(_ s: Subject, _ random: inout RandomSource) -> (
    scene: JSON, time: Double
  ) {
    let animated = s.scene.compact().contains("\"animations\"")
    if animated, random.chance(0.5) {
      return (s.scene, max(0, s.time - Double(random.int(1...30)) / 60))
    }
    let layers = s.testCase.root.layerPaths().filter { !$0.path.steps.isEmpty }
    guard !layers.isEmpty else { return (s.scene, s.time + 0.5) }
    let (path, _) = random.pick(layers)
    let root = s.testCase.root.replacingLayer(at: path) { layer in
      switch random.int(0...3) {
      case 0: return layer.settingLast("backgroundColor", .string("#ff00ff"))
      case 1: return layer.settingLast("isHidden", .bool(true))
      case 2:
        return layer.settingLast("transform.translation.x", .number(Double(random.int(-9...9))))
      default: return .object([("bounds", .array([0, 0, 0, 0].map(JSON.number)))])
      }
    }
    return (s.testCase.withRoot(root).scene, s.time)
  }

  /// Blend modes drawn by the shader from a copy of the backdrop against
  /// the GPU's advanced blend equations. The shader reads the layer back
  /// from an 8-bit offscreen rendering and un-premultiplies it, where the
  /// equations blend the unrounded fragment: where the layer is
  /// translucent the division magnifies the 1/255 rounding (by 1/alpha),
  /// and the non-separable modes (hue, saturation, color, luminosity) mix
  /// the channels, so a few levels of difference are expected, and more at
  /// antialiased edges of low alpha (0.2% of the pixels may go beyond); a
  /// missing or wrongly blended layer differs by far more, over its area.
  static let blendFallback = Relation(
    name: "blend-fallback",
    summary: "blend modes by the shader fallback against the blend equations",
    transformsScene: false
  ) { s in
    guard s.scene.compact().contains("\"compositingFilter\""),
      s.renderer.usesBlendEquations
    else { return .notApplicable }
    do {
      let image = try s.withSettings({ $0.usesBlendEquations = false }) {
        try s.render()
      }
      let allowed = PixelTolerance(
        maxDifference: blendTolerance.maxDifference,
        maxPixels: s.base.width * s.base.height / 500, why: blendTolerance.why)
      return s.compare("blend-fallback", image, allowed)
    } catch {
      return s.threw("blend-fallback", error)
    }
  }

  static let blendTolerance = PixelTolerance(
    maxDifference: 6, maxPixels: 0,
    why:
      "the fallback un-premultiplies an 8-bit copy: 1/255 grows by up to 1/alpha; 0.2% of the pixels (edges of low alpha) may differ more"
  )

  /// The offscreen pool kept at one idle target: every pass that would
  /// reuse a target makes one instead, so a pass that reads a target it
  /// did not write (or one still in use) shows.
  static let poolOfOne = Relation(
    name: "pool-one", summary: "the offscreen pool at one target against the default",
    transformsScene: false
  ) { s in
    do {
      let image = try s.withSettings({ $0.offscreenPoolLimit = 1 }) {
        try s.render()
      }
      return s.compare("pool-one", image, .exact)
    } catch {
      return s.threw("pool-one", error)
    }
  }

  /// Every item in its own draw call: the same vertices through the same
  /// programs, so the same bytes.
  static let noBatching = Relation(
    name: "no-batching", summary: "every item in its own draw call against batched draws",
    transformsScene: false
  ) { s in
    do {
      let image = try s.withSettings({ $0.batchesDraws = false }) {
        try s.render()
      }
      return s.compare("no-batching", image, .exact)
    } catch {
      return s.threw("no-batching", error)
    }
  }
}
