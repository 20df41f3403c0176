import Foundation
import LaminaRender
import LaminaScene

/// A frame of a scene that could not be rendered: names the file and the frame.
package struct FrameError: Error, CustomStringConvertible {
  package let file: String
  package let frame: Int?
  package let time: Double
  package let underlying: Error

  package var description: String {
    let which =
      frame.map { "frame \($0) (t=\(Scene.seconds(time)) s)" }
      ?? "frame at t=\(Scene.seconds(time)) s"
    return "\(file): \(which): \(underlying)"
  }
}

extension FrameError {
  /// Runs `body`, the drawing of one frame: its errors come out as
  /// `FrameError`s naming the file and the frame, except a `SceneError`
  /// (which names them already) and a lost GL context (as it is, so that
  /// `lamina batch` retries the job on a new context).
  package static func naming<T>(file: String, frame: Int?, time: Double, _ body: () throws -> T)
    throws
    -> T
  {
    do {
      return try body()
    } catch let error as SceneError {
      throw error
    } catch let error as RendererError where error.meansContextLost {
      throw error
    } catch {
      throw FrameError(file: file, frame: frame, time: time, underlying: error)
    }
  }
}
