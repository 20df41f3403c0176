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
    // The first call measures, the second writes.
    var sizing = image()
    var size = 0
    let measured = rgba.withUnsafeBytes { raw in
      png_image_write_to_memory(&sizing, nil, &size, 0, raw.baseAddress, Int32(width * 4), nil)
    }
    guard measured != 0 else { throw failure(&sizing) }
    var data = Data(count: size)
    var writing = image()
    let written = data.withUnsafeMutableBytes { out in
      rgba.withUnsafeBytes { raw in
        png_image_write_to_memory(
          &writing, out.baseAddress, &size, 0, raw.baseAddress, Int32(width * 4), nil)
      }
    }
    guard written != 0 else { throw failure(&writing) }
    data.count = size
    return data
  }
}
