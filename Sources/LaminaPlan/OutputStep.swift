import Foundation
import Lamina
import LaminaFrame

/// `rect` of the canvas target holds `tile` of the frame, finished.
package struct OutputStep {
  /// The finished part of the frame (canvas pixels).
  package var tile: PixelRect
  /// Where it is in the canvas target (target pixels).
  package var rect: PixelRect
}
