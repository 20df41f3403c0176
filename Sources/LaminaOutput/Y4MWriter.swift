import Foundation
import Lamina
import LaminaFrame

/// A YUV4MPEG2 stream (what ffmpeg, x264 and most encoders read):
/// 4:2:0 chroma (`C420jpeg`: chroma sited between the four luma samples it
/// covers), BT.601 limited-range ("studio swing", Y 16…235, Cb/Cr 16…240)
/// from the sRGB-encoded pixel values, as `XCOLORRANGE=LIMITED` in the
/// header says. Video has no alpha: pixels are composited over black.
/// Odd sizes round the chroma planes up.
package struct Y4MWriter {
  package let width: Int
  package let height: Int

  package init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The stream header for `fps` frames per second.
  package func header(fps: Double) -> Data {
    let (num, den) = Self.rational(fps)
    return Data(
      "YUV4MPEG2 W\(width) H\(height) F\(num):\(den) Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n".utf8)
  }

  /// `fps` as a ratio of whole numbers (30000/1001 → 30000:1001, 29.97 →
  /// 29970:1000, 60 → 60:1).
  package static func rational(_ fps: Double) -> (Int, Int) { FFmpeg.rational(fps) }

  /// One `FRAME` of `image` (premultiplied RGBA, which is the image over black).
  package func frame(_ image: RenderedImage) -> Data {
    let w = width
    let h = height
    let cw = (w + 1) / 2
    let ch = (h + 1) / 2
    var out = [UInt8](repeating: 0, count: 6 + w * h + 2 * cw * ch)
    for (i, c) in "FRAME\n".utf8.enumerated() { out[i] = c }
    image.premultipliedPixels.withUnsafeBufferPointer { px in
      out.withUnsafeMutableBufferPointer { o in
        let yBase = 6
        let uBase = 6 + w * h
        let vBase = uBase + cw * ch
        for y in 0..<h {
          for x in 0..<w {
            let i = (y * w + x) * 4
            let r = Int(px[i])
            let g = Int(px[i + 1])
            let b = Int(px[i + 2])
            // Y = 16 + (65.481 R + 128.553 G + 24.966 B)/255, in 1/65536 fixed point.
            let luma = (16_829 * r + 33_039 * g + 6_416 * b + (16 << 16) + 32_768) >> 16
            o[yBase + y * w + x] = UInt8(clamping: luma)
          }
        }
        for cy in 0..<ch {
          for cx in 0..<cw {
            var r = 0
            var g = 0
            var b = 0
            var n = 0
            for dy in 0..<2 where cy * 2 + dy < h {
              for dx in 0..<2 where cx * 2 + dx < w {
                let i = ((cy * 2 + dy) * w + cx * 2 + dx) * 4
                r += Int(px[i])
                g += Int(px[i + 1])
                b += Int(px[i + 2])
                n += 1
              }
            }
            // Cb = 128 + (−37.797 R − 74.203 G + 112 B)/255,
            // Cr = 128 + (112 R − 93.786 G − 18.214 B)/255, on the block's mean.
            let scale = Double(65_536 * n)
            let cb = Double(-9_714 * r - 19_070 * g + 28_784 * b) / scale
            let cr = Double(28_784 * r - 24_103 * g - 4_681 * b) / scale
            o[uBase + cy * cw + cx] = UInt8(
              clamping: 128 + Int(saturating: cb, rounding: .toNearestOrAwayFromZero))
            o[vBase + cy * cw + cx] = UInt8(
              clamping: 128 + Int(saturating: cr, rounding: .toNearestOrAwayFromZero))
          }
        }
      }
    }
    return Data(out)
  }
}
