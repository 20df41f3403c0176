import CSPNG
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

/// How hard PNG files are compressed (`lamina render --png-compression`):
/// zlib's level and the row filters libspng tries. Measured on a 1080p
/// frame of a benchmark scene (Benchmarks/results.md): `fast` is what a
/// server writing frames for a video or a preview wants (level 1, sub),
/// `default` zlib's level 6 as Pillow writes it, `best` level 9 with every
/// filter tried, the smallest files.
public enum PNGCompression: String, CaseIterable, Sendable {
  case fast, `default`, best

  /// zlib's compression level.
  var level: Int32 {
    switch self {
    case .fast: return 1
    case .default: return 6
    case .best: return 9
    }
  }

  /// The row filters libspng chooses among (`spng_filter_choice`). On
  /// rendered frames the adaptive choice among all five picks Paeth for
  /// nearly every row (the same bytes on a 1080p benchmark frame), so
  /// `default` tries only Paeth, in three quarters of the time; `best`
  /// tries all.
  var filters: Int32 {
    switch self {
    case .fast: return Int32(SPNG_FILTER_CHOICE_SUB.rawValue)
    case .default: return Int32(SPNG_FILTER_CHOICE_PAETH.rawValue)
    case .best: return Int32(SPNG_FILTER_CHOICE_ALL.rawValue)
    }
  }
}

/// PNG encoding with libspng.
package enum PNGFile {
  /// How PNG files of this process are compressed unless told otherwise
  /// (the command sets it from `--png-compression` before any is written).
  package nonisolated(unsafe) static var compression = PNGCompression.default

  /// Writes straight-alpha RGBA rows to `url` through an `OutputFile`.
  package static func write(_ rgba: [UInt8], width: Int, height: Int, to url: URL) throws {
    let data = try encode(rgba, width: width, height: height, path: url.path)
    let output = try OutputFile(path: url.path)
    try output.write(data)
    try output.commit()
  }

  /// Straight-alpha RGBA rows encoded as PNG (8 bits, RGBA, not
  /// interlaced) at `compression`; `path` names the output in errors.
  package static func encode(
    _ rgba: [UInt8], width: Int, height: Int, path: String,
    compression: PNGCompression = PNGFile.compression
  ) throws -> Data {
    func failure(_ code: Int32) -> OutputError {
      let message = spng_strerror(code).map { String(cString: $0) } ?? "error \(code)"
      return OutputError.pngWrite(path: path, reason: message)
    }
    guard width > 0, height > 0, rgba.count == width * height * 4,
      let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue))
    else { throw OutputError.pngWrite(path: path, reason: "no encoder for a \(width)x\(height) image") }
    defer { spng_ctx_free(context) }
    var code = spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1)
    if code == 0 { code = spng_set_option(context, SPNG_IMG_COMPRESSION_LEVEL, compression.level) }
    if code == 0 { code = spng_set_option(context, SPNG_FILTER_CHOICE, compression.filters) }
    // zlib's default strategy, as Pillow and libpng compress (libspng's own
    // default, Z_FILTERED, took longer for no smaller files here).
    if code == 0 { code = spng_set_option(context, SPNG_IMG_COMPRESSION_STRATEGY, 0) }
    var header = spng_ihdr()
    header.width = UInt32(width)
    header.height = UInt32(height)
    header.bit_depth = 8
    header.color_type = UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue)
    if code == 0 { code = spng_set_ihdr(context, &header) }
    if code == 0 {
      code = rgba.withUnsafeBytes { raw in
        spng_encode_image(
          context, raw.baseAddress, raw.count, Int32(SPNG_FMT_PNG.rawValue),
          Int32(SPNG_ENCODE_FINALIZE.rawValue))
      }
    }
    guard code == 0 else { throw failure(code) }
    var length = 0
    var error: Int32 = 0
    guard let buffer = spng_get_png_buffer(context, &length, &error), error == 0 else {
      throw failure(error)
    }
    // The buffer is the caller's to free (libspng's documentation).
    defer { free(buffer) }
    return Data(bytes: buffer, count: length)
  }
}
