import Foundation
import Lamina
import LaminaRender
import LaminaScene

/// Loads generated scenes and renders them with two long-lived renderers
/// (on the process's one GL context), whose state carries from case to
/// case as a server's does; `first-frame`, `after-other-scene`,
/// `other-renderer`, `fresh-renderer` and `repeat` check that state on
/// purpose. (A renderer per case would make every case independent, but a
/// released `Renderer` keeps its programs and textures on the context,
/// about 10 MB each on llvmpipe: see the findings.)
package final class Harness {
  /// The GL context every renderer shares.
  package let context: GPUContext
  /// The renderer every case is drawn with.
  package let renderer: Renderer
  /// Another renderer on the same context (`other-renderer`).
  package let second: Renderer
  /// The largest image side the GPU accepts (images are checked against it
  /// when scenes load, as `lamina render` does).
  package var maxTextureSize: Int { renderer.maxTextureSize }
  /// The folder the scenes' image paths are relative to.
  package var imageBase: URL

  package init() throws {
    context = try GPUContext.shared()
    renderer = try Renderer(context: context)
    second = try Renderer(context: context)
    imageBase = Self.imageBase
  }

  /// The folder holding `images/` (this module's resources).
  package static var imageBase: URL { Bundle.module.resourceURL ?? Bundle.module.bundleURL }

  /// A renderer that has drawn nothing yet (it is never released: see above).
  package func makeRenderer() throws -> Renderer { try Renderer(context: context) }

  /// Loads `scene` (image paths relative to `imageBase`); a scene the
  /// loader refuses throws `InvalidScene`.
  package func load(_ scene: JSON) throws -> Scene {
    do {
      return try SceneLoader.load(
        data: Data(scene.compact().utf8), baseURL: imageBase, fileName: "generated.json",
        maxImageDimension: maxTextureSize)
    } catch {
      throw InvalidScene(message: "\(error)")
    }
  }

  /// The frame of `scene` at `time`, at the canvas scale or `scale`, built
  /// with `caches` (the renderer's that draws it, or a set of its own).
  package func frame(
    _ scene: JSON, time: Double, scale: CGFloat? = nil, caches: RenderCaches = RenderCaches()
  ) throws -> DrawList {
    let loaded = try load(scene)
    var builder = FrameBuilder(
      size: CGSize(width: loaded.canvas.width, height: loaded.canvas.height),
      scale: scale ?? loaded.canvas.scale, caches: caches)
    builder.time = time
    Renderer.commit(loaded.root)
    let root = PresentationTree(root: loaded.root).update(time: time)
    return builder.build(root: root, background: loaded.canvas.background)
  }

  /// Renders `scene` at `time` with `renderer`.
  package func render(
    _ scene: JSON, time: Double, scale: CGFloat? = nil, with renderer: Renderer
  ) throws -> RenderedImage {
    try renderer.render(frame(scene, time: time, scale: scale, caches: renderer.caches))
  }
}

/// A scene the loader refused: for a generated scene a bug of the generator
/// (or of a relation's transformation), and never a rendering failure.
package struct InvalidScene: Error, CustomStringConvertible {
  package var message: String
  package var description: String { "invalid scene: \(message)" }
}
