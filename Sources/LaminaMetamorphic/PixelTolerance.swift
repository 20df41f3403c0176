import Foundation
import LaminaRender

/// How far two renderings may differ and still count as the same: at most
/// `maxPixels` pixels may have a premultiplied channel (alpha included)
/// more than `maxDifference`/255 apart. `why` says what makes the
/// difference allowed.
package struct PixelTolerance: CustomStringConvertible, Sendable {
  package var maxDifference: Int
  package var maxPixels: Int
  package var why: String

  package init(maxDifference: Int, maxPixels: Int, why: String) {
    self.maxDifference = maxDifference
    self.maxPixels = maxPixels
    self.why = why
  }

  /// Byte for byte: the same frame drawn by the same code (the scene format
  /// promises identical bytes for the same scene on the same machine).
  package static let exact = PixelTolerance(
    maxDifference: 0, maxPixels: 0, why: "the same frame must give the same bytes")

  /// Two trees Core Animation draws the same but whose draw lists differ
  /// (a container layer, a split sibling list, invisible layers): matrices
  /// are products of different factors, so an edge's coverage can move by
  /// a rounding step; a renderer may also isolate a group in one tree and
  /// not the other, which rounds through an 8-bit target once more. Both
  /// stay within 2/255; no pixel may differ by more.
  package static let structural = PixelTolerance(
    maxDifference: 2, maxPixels: 0,
    why: "float products in another order and one more 8-bit rounding of a group stay within 2/255")

  package var description: String { "fuzzy(\(maxDifference),\(maxPixels))" }
}

/// How two images of the same size differ.
package struct PixelDifference: CustomStringConvertible, Sendable {
  /// The largest premultiplied channel difference, in 1/255.
  package var maxDifference = 0
  /// Pixels whose difference is above the tolerance's threshold.
  package var pixelsOff = 0
  /// The first such pixel, in reading order.
  package var firstOff: (x: Int, y: Int)?
  package var width = 0
  package var height = 0

  /// Compares `a` and `b` where `include` (if given) is true; a pixel is
  /// off when a channel differs by more than `threshold`.
  package init(
    _ a: RenderedImage, _ b: RenderedImage, threshold: Int, include: [Bool]? = nil
  ) {
    width = a.width
    height = a.height
    guard a.width == b.width, a.height == b.height else {
      maxDifference = 255
      pixelsOff = max(a.width * a.height, b.width * b.height)
      return
    }
    let p = a.premultipliedPixels
    let q = b.premultipliedPixels
    for i in 0..<(a.width * a.height) {
      if let include, !include[i] { continue }
      var worst = 0
      for c in 0..<4 { worst = max(worst, abs(Int(p[i * 4 + c]) - Int(q[i * 4 + c]))) }
      maxDifference = max(maxDifference, worst)
      if worst > threshold {
        pixelsOff += 1
        if firstOff == nil { firstOff = (i % a.width, i / a.width) }
      }
    }
  }

  package func accepted(by tolerance: PixelTolerance) -> Bool { pixelsOff <= tolerance.maxPixels }

  package var description: String {
    var text = "max diff \(maxDifference)/255, \(pixelsOff) of \(width * height) pixels off"
    if let f = firstOff { text += ", first at (\(f.x), \(f.y))" }
    return text
  }
}

extension RenderedImage {
  /// The image at half the size: each pixel the mean of a 2×2 block
  /// (premultiplied, as a GPU's box downsample is).
  func halved() -> RenderedImage {
    let w = width / 2
    let h = height / 2
    var out = [UInt8](repeating: 0, count: w * h * 4)
    let p = premultipliedPixels
    for y in 0..<h {
      for x in 0..<w {
        let top = ((2 * y) * width + 2 * x) * 4
        let bottom = top + width * 4
        for c in 0..<4 {
          var sum = Int(p[top + c]) + Int(p[top + 4 + c])
          sum += Int(p[bottom + c]) + Int(p[bottom + 4 + c])
          out[(y * w + x) * 4 + c] = UInt8((sum + 2) / 4)
        }
      }
    }
    return RenderedImage(width: w, height: h, premultipliedPixels: out)
  }

  /// The image with each pixel the mean of its 3×3 neighbourhood (edges
  /// clamped): a comparison that forgives edges half a pixel apart.
  func boxBlurred() -> RenderedImage {
    let w = width
    let h = height
    var rows = [Int](repeating: 0, count: w * h * 4)
    var out = [UInt8](repeating: 0, count: w * h * 4)
    premultipliedPixels.withUnsafeBufferPointer { p in
      rows.withUnsafeMutableBufferPointer { r in
        for y in 0..<h {
          for x in 0..<w {
            let l = (y * w + max(x - 1, 0)) * 4
            let m = (y * w + x) * 4
            let rr = (y * w + min(x + 1, w - 1)) * 4
            for c in 0..<4 { r[m + c] = Int(p[l + c]) + Int(p[m + c]) + Int(p[rr + c]) }
          }
        }
      }
    }
    rows.withUnsafeBufferPointer { r in
      out.withUnsafeMutableBufferPointer { o in
        for y in 0..<h {
          let up = max(y - 1, 0) * w
          let down = min(y + 1, h - 1) * w
          for x in 0..<w {
            let m = (y * w + x) * 4
            for c in 0..<4 {
              let sum = r[(up + x) * 4 + c] + r[m + c] + r[(down + x) * 4 + c]
              o[m + c] = UInt8((sum + 4) / 9)
            }
          }
        }
      }
    }
    return RenderedImage(width: w, height: h, premultipliedPixels: out)
  }

  /// Which pixels have any alpha, grown by `radius` pixels in every direction.
  func coverage(grownBy radius: Int) -> [Bool] {
    let p = premultipliedPixels
    var covered = [Bool](repeating: false, count: width * height)
    for y in 0..<height {
      for x in 0..<width where p[(y * width + x) * 4 + 3] != 0 {
        for sy in max(0, y - radius)...min(height - 1, y + radius) {
          for sx in max(0, x - radius)...min(width - 1, x + radius) {
            covered[sy * width + sx] = true
          }
        }
      }
    }
    return covered
  }
}
