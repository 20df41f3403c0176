import Foundation
import Lamina
import LaminaScene
import XCTest

@testable import LaminaRender

/// What a frame of each benchmark scene costs, counted (draws, passes,
/// uploads, state changes, targets made, layers derived), after the
/// warm-up, as `lamina bench` steps through it: one presentation tree and
/// one frame builder, frame i at 10 s + i/60. Counts are stable where
/// timings are not; these hold the gains of the performance work
/// (Benchmarks/results.md) so that a later change cannot lose them
/// silently.
final class BenchmarkCountTests: XCTestCase {
  /// A benchmark scene stepped frame by frame on a renderer of its own
  /// (nothing in its caches from other tests).
  final class Run {
    let scene: Scene
    let presentation: PresentationTree
    var builder: FrameBuilder
    let renderer: Renderer
    var frameIndex = 0

    init(_ name: String) throws {
      let url = DistributedTests.packageRoot.appendingPathComponent(
        "Benchmarks/scenes/\(name).json")
      renderer = try Renderer()
      scene = try SceneLoader.load(contentsOf: url, maxImageDimension: renderer.maxTextureSize)
      presentation = PresentationTree(root: scene.root)
      builder = FrameBuilder(
        size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
        scale: scene.canvas.scale)
    }

    /// Builds and draws the next frame; returns it.
    @discardableResult
    func step() throws -> Frame {
      let time = 10 + Double(frameIndex - 3) / 60
      frameIndex += 1
      scene.root.layoutIfNeeded()
      let root = presentation.update(time: time)
      builder.time = time
      let frame = builder.build(root: root, background: scene.canvas.background)
      try renderer.draw(frame)
      return frame
    }
  }

  func testMasksFrameRedrawsOnlyTheMovedMasks() throws {
    let run = try Run("masks")
    for _ in 0..<3 { try run.step() }
    for i in 0..<4 {
      let made = run.renderer.pool.made
      let frame = try run.step()
      let c = run.renderer.counters
      print("masks frame \(i): made \(run.renderer.pool.made - made) offscreen \(c.offscreenPasses) passes \(c.passes) draws \(c.drawCalls) state \(c.stateChanges) uploads \(c.textureUploads) buffers \(c.bufferUploads) geometry \(c.geometryUploads) derived \(frame.stats.derivedLayers)")
    }
  }
}

