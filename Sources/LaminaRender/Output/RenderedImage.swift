import CPNG
import Foundation
import Lamina

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

  /// Writes the image as PNG (straight alpha). The file appears whole or not
  /// at all: the bytes go to a temporary file beside it, renamed at the end.
  public func writePNG(to url: URL) throws {
    try PNGFile.write(straightPixels, width: width, height: height, to: url)
  }
}

/// Why an output file could not be written.
public enum OutputError: Error, CustomStringConvertible, Equatable {
  /// libpng failed; `reason` is its message.
  case pngWrite(path: String, reason: String)
  /// The finished file could not be moved into place.
  case rename(path: String, reason: String)

  public var description: String {
    switch self {
    case .pngWrite(let path, let reason): return "cannot write PNG '\(path)': \(reason)"
    case .rename(let path, let reason): return "cannot write '\(path)': \(reason)"
    }
  }
}

/// PNG encoding with libpng's simplified API.
public enum PNGFile {
  /// Writes straight-alpha RGBA rows atomically (temporary file, then rename).
  public static func write(_ rgba: [UInt8], width: Int, height: Int, to url: URL) throws {
    let path = url.path
    let directory = url.deletingLastPathComponent().path
    let temporary =
      (directory.isEmpty ? "." : directory)
      + "/.\(url.lastPathComponent).\(getpid()).tmp"
    var image = png_image()
    image.version = LAMINA_PNG_IMAGE_VERSION
    image.width = UInt32(width)
    image.height = UInt32(height)
    image.format = LAMINA_PNG_FORMAT_RGBA
    let ok = rgba.withUnsafeBytes { raw in
      png_image_write_to_file(&image, temporary, 0, raw.baseAddress, Int32(width * 4), nil)
    }
    guard ok != 0 else {
      let message = withUnsafeBytes(of: &image.message) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      png_image_free(&image)
      unlink(temporary)
      throw OutputError.pngWrite(path: path, reason: message.isEmpty ? "unknown error" : message)
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw OutputError.rename(path: path, reason: reason)
    }
  }
}
