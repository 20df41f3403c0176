import Foundation
import LaminaFrame
import LaminaGL
import LaminaPlan

/// A lost or wedged context: found, reported with the frame it spoiled, and
/// replaced before the next one (docs/rendering.md, "A lost context").
///
/// A context is lost when EGL will not make it current (a GPU reset, a
/// power event, the context or its surface destroyed under the renderer),
/// when the driver reports a reset (`glGetGraphicsResetStatus`, on a context
/// made with a reset notification strategy), or when it wedges: a frame ends
/// with another context current, or none, so its calls went nowhere (every
/// `glCheckFramebufferStatus` answers 0). The frame that finds it throws
/// `RendererError.contextLost` naming what was lost; nothing it drew is
/// returned. Everything that lives on a context (programs, textures, path
/// buffers, cached rasters and masks, the target pool, the canvas) is
/// dropped with it and made again lazily on the new one: nothing made on
/// one context is used on another.
extension Renderer {
  /// Makes the context current and takes its GL state back (another
  /// renderer, or the application, may have used it since); first replaces
  /// a context found lost since the last frame.
  ///
  /// - Throws: `RendererError.contextLost` when the context cannot be made
  ///   current (the next call replaces it), or when it was lost and cannot
  ///   be replaced (`replacesLostContext` is false, or no new one could be
  ///   made).
  package func begin() throws {
    try replaceContextIfLost()
    if let reason = context.makeCurrentFailure() { throw lose(reason) }
    device.reset()
  }

  /// Runs `body`, the GL work of one frame: when it fails, or ends without
  /// this renderer's context current, because the context was lost or
  /// wedged, throws `RendererError.contextLost` naming why, instead of what
  /// the lost context made of the frame (an incomplete framebuffer, a GL
  /// error), and marks the context for replacement.
  func guardingContext<T>(_ body: () throws -> T) throws -> T {
    let result: T
    do {
      result = try body()
    } catch {
      if let reason = lossReason(after: error) { throw lose(reason) }
      throw error
    }
    if let reason = lossReason(after: nil) { throw lose(reason) }
    return result
  }

  /// Why the context can no longer be trusted after a frame that threw
  /// `error` (nil: that ended well), or nil when it still can.
  private func lossReason(after error: Error?) -> String? {
    if case .contextLost(let reason) = error as? RendererError { return reason }
    if !context.isCurrent {
      return "the context was no longer current at the end of the frame (other code made"
        + " another context, or none, current during it: the frame drew nowhere)"
    }
    if let reset = device.resetReason() { return reset }
    guard let error = error as? RendererError else { return nil }
    if case .incompleteFramebuffer(status: 0, let width, let height) = error {
      // Only an error makes glCheckFramebufferStatus answer 0; with the
      // arguments the device gives, that is a lost or broken context.
      return "the context is wedged: glCheckFramebufferStatus answered 0 for a"
        + " \(width)x\(height) target (\(device.lostContextReason() ?? "no GL error left"))"
    }
    return error.meansContextLost ? error.description : nil
  }

  /// Marks the context lost for `reason` (the next frame replaces it) and
  /// gives the error that says so.
  func lose(_ reason: String) -> RendererError {
    markContextLost(reason)
    return .contextLost(reason: reason)
  }

  /// Marks the context lost for `reason`, found by the caller (an error of
  /// a frame that meant a loss): the next frame replaces it.
  package func markContextLost(_ reason: String) {
    if lostContext == nil { lostContext = reason }
  }

  /// Replaces the context now when it was found lost (else the next frame
  /// would): for a caller that reports the replacement on its own, as
  /// `lamina batch` does before it retries a job.
  package func replaceContextIfLost() throws {
    if let reason = lostContext { try replaceContext(lost: reason) }
  }

  /// Drops the lost context and everything on it, and makes a new context
  /// and runner with the same settings.
  private func replaceContext(lost reason: String) throws {
    // A window's context is replaced with its window: a new offscreen one
    // could not present.
    guard replacesLostContext, !context.isWindow else {
      throw RendererError.contextLost(
        reason: reason + "; this renderer was given its context: its owner must make a new one")
    }
    // Whoever asks for the shared context next gets a new one.
    GPUContext.forgetShared(context)
    let made: GPUContext
    do {
      made = try GPUContext.create()
    } catch {
      throw RendererError.contextLost(reason: "\(reason); no new context could be made: \(error)")
    }
    let info = made.info
    guard info.maxTextureSize >= maxTextureSize, max(1, info.maxSamples) >= samples,
      info.maxRenderbufferSize >= maxTileSize
    else {
      throw RendererError.contextLost(
        reason: "\(reason); the new context offers smaller limits than the lost one")
    }
    made.device.reset()
    let fresh = try FrameRunner(
      device: made.device, samples: samples, maxTextureSize: maxTextureSize, caches: caches)
    fresh.pool.limit = pool.limit
    fresh.pool.byteBudget = pool.byteBudget
    fresh.executor.textures.budgetBytes = textures.budgetBytes
    // The old runner goes first: its objects are deleted on the old context
    // where EGL still lets it be made current, and left to die with it
    // where not (never deleted by name in the new one).
    runner = fresh
    context = made
    made.makeCurrent()
    lostContext = nil
    contextsReplaced += 1
  }
}
