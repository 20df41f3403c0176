import CPNG
import Foundation
import Lamina
import LaminaFrame

/// A rendered canvas: 8-bit premultiplied RGBA, rows top to bottom.
public struct RenderedImage: Equatable {
  public let width: Int
  public let height: Int
  public let premultipliedPixels: [UInt8]

  public init(width: Int, height: Int, premultipliedPixels: [UInt8]) {
    self.width = width
    self.height = height
    self.premultipliedPixels = premultipliedPixels
  }

  /// Straight-alpha RGBA, as PNG stores it.
  public var straightPixels: [UInt8] { CGImage.unpremultiplied(premultipliedPixels) }

  /// The straight-alpha RGBA of the pixel at (x, y).
  public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let i = (y * width + x) * 4
    let p = premultipliedPixels
    let a = Int(p[i + 3])
    func un(_ v: UInt8) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (Int(v) * 255 + a / 2) / a)) }
    return (un(p[i]), un(p[i + 1]), un(p[i + 2]), p[i + 3])
  }

  /// Writes the image as PNG (straight alpha) through an `OutputFile`: a
  /// regular file appears whole or not at all (written beside it, renamed
  /// at the end), a symbolic link's target is written, a device or FIFO is
  /// written through.
  public func writePNG(to url: URL) throws {
    try PNGFile.write(straightPixels, width: width, height: height, to: url)
  }

  /// The image encoded as PNG (straight alpha).
  public func pngData() throws -> Data {
    try PNGFile.encode(straightPixels, width: width, height: height, path: "<memory>")
  }
}

/// Why an output file could not be written.
public enum OutputError: Error, CustomStringConvertible, Equatable {
  /// libpng failed; `reason` is its message.
  case pngWrite(path: String, reason: String)
  /// The finished file could not be moved into place.
  case rename(path: String, reason: String)
  /// The output could not be opened (or made beside its target).
  case open(path: String, reason: String)
  /// Writing to the output failed.
  case write(path: String, reason: String)

  public var description: String {
    switch self {
    case .pngWrite(let path, let reason): return "cannot write PNG '\(path)': \(reason)"
    case .rename(let path, let reason): return "cannot write '\(path)': \(reason)"
    case .open(let path, let reason): return "cannot write '\(path)': \(reason)"
    case .write(let path, let reason): return "cannot write '\(path)': \(reason)"
    }
  }
}

/// PNG encoding with libpng's simplified API.
package enum PNGFile {
  /// Writes straight-alpha RGBA rows to `url` through an `OutputFile`.
  package static func write(_ rgba: [UInt8], width: Int, height: Int, to url: URL) throws {
    let data = try encode(rgba, width: width, height: height, path: url.path)
    let output = try OutputFile(path: url.path)
    try output.write(data)
    try output.commit()
  }

  /// An upper bound on the PNG of a `width`×`height` RGBA image as libpng's
  /// simplified API writes it (png.h's PNG_IMAGE_PNG_SIZE_MAX: the rows
  /// with their filter bytes through zlib's worst case, one IDAT header
  /// per 8 KiB, and the fixed chunks).
  static func sizeBound(width: Int, height: Int) -> Int {
    let rows = (width * 4 + 1) * height
    let compressed = rows + (rows + 7) >> 3 + (rows + 63) >> 6 + 11
    return 8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / 8192) + compressed
  }

  /// Straight-alpha RGBA rows encoded as PNG; `path` names the output in errors.
  package static func encode(_ rgba: [UInt8], width: Int, height: Int, path: String) throws
    -> Data
  {
    func image() -> png_image {
      var image = png_image()
      image.version = LAMINA_PNG_IMAGE_VERSION
      image.width = UInt32(width)
      image.height = UInt32(height)
      image.format = LAMINA_PNG_FORMAT_RGBA
      return image
    }
    func failure(_ image: inout png_image) -> OutputError {
      let message = withUnsafeBytes(of: &image.message) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      png_image_free(&image)
      return OutputError.pngWrite(path: path, reason: message.isEmpty ? "unknown error" : message)
    }
    // One pass into a buffer of libpng's bound for the image (its
    // PNG_IMAGE_PNG_SIZE_MAX, which Swift cannot import): each image is
    // compressed once. A buffer found too small (a zlib other than zlib
    // itself) is grown to the size libpng then reports, and written again.
    var size = Self.sizeBound(width: width, height: height)
    var data = Data(count: size)
    var writing = image()
    var written = data.withUnsafeMutableBytes { out in
      rgba.withUnsafeBytes { raw in
        png_image_write_to_memory(
          &writing, out.baseAddress, &size, 0, raw.baseAddress, Int32(width * 4), nil)
      }
    }
    if written == 0, size > data.count {
      data = Data(count: size)
      writing = image()
      written = data.withUnsafeMutableBytes { out in
        rgba.withUnsafeBytes { raw in
          png_image_write_to_memory(
            &writing, out.baseAddress, &size, 0, raw.baseAddress, Int32(width * 4), nil)
        }
      }
    }
    guard written != 0 else { throw failure(&writing) }
    data.count = size
    return data
  }
}
