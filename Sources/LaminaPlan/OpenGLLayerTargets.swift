import Foundation
import Lamina
import LaminaFrame

/// Framebuffers of `CAOpenGLLayer`s, kept across frames by the model
/// layer's serial (`CALayer.serial`, never reused), dropped once their
/// layer is freed.
final class OpenGLLayerTargets {
  struct Entry {
    var target: RenderTarget
    var generation: Int
    var time: Double
    /// The layer the framebuffer belongs to: the entry goes when it does.
    weak var owner: CALayer?
  }
  var targets: [UInt64: Entry] = [:]

  /// The framebuffer of `pass`'s layer, when it is of its size.
  func current(_ pass: GLLayerPass) -> Entry? {
    guard let entry = targets[pass.key],
      entry.target.width == pass.width, entry.target.height == pass.height
    else { return nil }
    return entry
  }

  /// Whether the layer needs to draw: its framebuffer is new or resized, it
  /// called `setNeedsDisplay()`, or it is asynchronous and time moved on.
  func needsDrawing(_ pass: GLLayerPass) -> Bool {
    guard let entry = current(pass) else { return true }
    return entry.generation != pass.generation
      || (pass.layer.isAsynchronous && entry.time != pass.time)
  }

  /// Drops the framebuffers of layers that were freed.
  func dropFreed() {
    targets = targets.filter { $0.value.owner != nil }
  }
}

extension PlanExecutor {
  /// Draws a `CAOpenGLLayer` into its framebuffer (made or resized first,
  /// cleared to transparent), on this renderer's context; then takes the
  /// context's state back, since the layer may have changed any of it.
  func drawOpenGLLayer(
    _ step: OpenGLLayerStep, _ plan: FramePlan, _ bound: inout Bound
  ) throws {
    let pass = step.pass
    let target: RenderTarget
    if let entry = openGLLayers.current(pass) {
      target = entry.target
    } else {
      target = try RenderTarget(width: pass.width, height: pass.height, samples: 1, device: device)
      // Transparent until the layer can draw.
      device.bindFramebuffer(target.drawFramebuffer)
      device.setScissor(nil)
      device.clear(.zero)
    }
    openGLLayers.targets[pass.key] = .init(
      target: target, generation: pass.generation, time: pass.time, owner: pass.model)
    bound.targets[step.target.index] = target
    guard pass.layer.canDraw(atLayerTime: pass.time) else { return }
    if device.debugOutput { device.pushDebugGroup("CAOpenGLLayer \(pass.layer.name ?? "")") }
    defer { if device.debugOutput { device.popDebugGroup() } }
    device.bindFramebuffer(target.drawFramebuffer)
    device.setViewport(target.rect)
    device.setScissor(nil)
    device.setBlending(false)
    device.clear(.zero)
    pass.layer.draw(atLayerTime: pass.time)
    device.reset()
    device.counters.offscreenPasses += 1
  }
}
