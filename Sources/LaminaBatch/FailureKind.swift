import Foundation
import Lamina
import LaminaRender
import LaminaScene

/// Whose fault a failed job is, as its result line says (`"kind"`), so a
/// service that runs jobs for others can answer a client's mistake apart
/// from its own failure (docs/servers.md, the render service).
package enum FailureKind: String {
  /// The job or its document: malformed, out of range, over a limit, a
  /// file it may not read. Running it again fails again.
  case input
  /// The machine: no GL context, a lost one, ffmpeg missing or failing,
  /// an output that cannot be written. The same job may succeed elsewhere.
  case service

  /// The kind of `error`, looking through a frame's wrapper.
  package init(of error: Error) {
    switch error {
    case let frame as FrameError:
      self.init(of: frame.underlying)
    case let renderer as RendererError:
      switch renderer {
      // What the document asks for is more than a renderer holds.
      case .canvasTooLarge, .imageTooLarge, .offscreenBudgetExceeded: self = .input
      default: self = .service
      }
    case let video as VideoError:
      switch video {
      case .unknownExtension, .setting, .oddSize: self = .input
      default: self = .service
      }
    case is GPUContextError, is OutputError, is BatchError:
      self = .service
    case is CocoaError, is POSIXError:
      self = .service
    default:
      // The scene, Lottie, job, limit, path, image and access errors.
      self = .input
    }
  }
}
