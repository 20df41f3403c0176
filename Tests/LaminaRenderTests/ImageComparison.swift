import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Pixel comparison as `../shared/reference/README.md` defines it: both
/// images composited over black and over white; a pixel is off when any
/// channel differs by more than `threshold`/255 over either background.
struct ImageComparison {
  var maxChannelDifference = 0
  var pixelsOff = 0
  var fractionOff = 0.0
  var psnr = Double.infinity
  var offMask: [Bool] = []

  init(actual: [UInt8], expected: [UInt8], threshold: Int = 8) {
    precondition(actual.count == expected.count)
    let count = actual.count / 4
    var squared = 0.0
    offMask = [Bool](repeating: false, count: count)
    for i in 0..<count {
      let a = i * 4
      let aa = Double(actual[a + 3]) / 255
      let ea = Double(expected[a + 3]) / 255
      var worst = 0
      for c in 0..<3 {
        let av = Double(actual[a + c]) / 255 * aa
        let ev = Double(expected[a + c]) / 255 * ea
        // Over black: v·a. Over white: v·a + (1 − a).
        let black = abs(av - ev)
        let white = abs((av + 1 - aa) - (ev + 1 - ea))
        squared += black * black + white * white
        worst = max(worst, Int((max(black, white) * 255).rounded()))
      }
      maxChannelDifference = max(maxChannelDifference, worst)
      if worst > threshold {
        pixelsOff += 1
        offMask[i] = true
      }
    }
    fractionOff = Double(pixelsOff) / Double(max(count, 1))
    let mse = squared / Double(max(count * 6, 1))
    psnr = mse == 0 ? .infinity : 10 * log10(1 / mse)
  }

  var summary: String {
    String(
      format: "max diff %d, %d pixels off (%.3f%%), PSNR %.1f dB", maxChannelDifference, pixelsOff,
      fractionOff * 100, psnr)
  }

  /// A picture of the differences: the actual image dimmed, off pixels magenta.
  func diffImage(actual: [UInt8], width: Int, height: Int) -> [UInt8] {
    var out = [UInt8](repeating: 255, count: width * height * 4)
    for i in 0..<(width * height) {
      if offMask[i] {
        out[i * 4] = 255
        out[i * 4 + 1] = 0
        out[i * 4 + 2] = 255
      } else {
        for c in 0..<3 { out[i * 4 + c] = UInt8(128 + Int(actual[i * 4 + c]) * 90 / 255) }
      }
    }
    return out
  }
}
