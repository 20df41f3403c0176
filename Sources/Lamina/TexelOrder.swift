import Foundation

/// The byte order of 8-bit RGBA pixels: in memory, red first, or blue
/// first (Cairo's native order on little-endian machines, and the only one
/// llvmpipe's linear rasterizer draws and samples).
package enum TexelOrder: Equatable, Sendable {
  case rgba, bgra

  /// `pixels` (4 bytes a pixel) with red and blue swapped: the other order.
  package static func swapped(_ pixels: [UInt8]) -> [UInt8] {
    var out = pixels
    out.withUnsafeMutableBytes { raw in
      let words = raw.bindMemory(to: UInt32.self)
      for i in words.indices {
        let w = UInt32(littleEndian: words[i])
        words[i] = ((w & 0xFF00_FF00) | (w & 0xFF) << 16 | (w >> 16) & 0xFF).littleEndian
      }
    }
    return out
  }
}
