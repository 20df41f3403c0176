import CJPEG
import CPNG
import Foundation

/// An immutable bitmap: 8-bit RGBA pixels, straight (non-premultiplied)
/// alpha, rows top to bottom. Decoded from PNG or JPEG with libpng and
/// libjpeg-turbo, or made from pixels.
public final class CGImage: @unchecked Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width * height * 4` bytes of RGBA.
  public var pixels: [UInt8] { straight.value }
  /// The same pixels premultiplied, when the image was made from
  /// premultiplied pixels (drawn content): the renderer uploads them as they
  /// are, and the straight ones are computed only if someone asks.
  package let premultipliedPixels: [UInt8]?
  private let straight: LazyPixels
  /// True when every pixel's alpha is 255 (lets the renderer skip blending).
  public let isOpaque: Bool
  /// A number unique to this image for the life of the process; the
  /// renderer's texture cache keys uploads by it.
  public let identifier: UInt64

  public var bitsPerComponent: Int { 8 }
  public var bitsPerPixel: Int { 32 }
  public var bytesPerRow: Int { width * 4 }
  /// sRGB.
  public var colorSpace: CGColorSpace? { CGColorSpace() }
  /// Alpha last, not premultiplied (as `pixels` hold it).
  public var alphaInfo: CGImageAlphaInfo { .last }
  public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(rawValue: alphaInfo.rawValue) }
  /// Images are color images, never masks.
  public var isMask: Bool { false }
  /// Whether the image is smoothed when scaled (the layer's filters decide here).
  public var shouldInterpolate: Bool { true }
  public var renderingIntent: CGColorRenderingIntent { .defaultIntent }

  /// The part of the image inside `rect` (pixels, rounded out to whole
  /// ones and clipped to the image); nil when nothing is left.
  public func cropping(to rect: CGRect) -> CGImage? {
    let r = rect.standardized.integral.intersection(
      CGRect(x: 0, y: 0, width: width, height: height))
    guard !r.isNull, r.width >= 1, r.height >= 1 else { return nil }
    let x0 = Int(r.minX)
    let y0 = Int(r.minY)
    let w = Int(r.width)
    let h = Int(r.height)
    let source = pixels
    var out = [UInt8](repeating: 0, count: w * h * 4)
    for y in 0..<h {
      let from = ((y0 + y) * width + x0) * 4
      out.replaceSubrange(y * w * 4..<(y + 1) * w * 4, with: source[from..<from + w * 4])
    }
    return CGImage(width: w, height: h, rgba: out)
  }

  /// The image itself (images are immutable).
  public func copy() -> CGImage? { self }

  /// An image from `width * height * 4` bytes of straight-alpha RGBA; nil
  /// when the sizes do not match or are not positive.
  public init?(width: Int, height: Int, rgba: [UInt8]) {
    guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16,
      rgba.count == width * height * 4
    else { return nil }
    self.width = width
    self.height = height
    straight = LazyPixels(rgba)
    premultipliedPixels = nil
    isOpaque = Self.allOpaque(rgba)
    identifier = ImageIdentifiers.next()
  }

  /// An image from `width * height * 4` bytes of premultiplied RGBA (what a
  /// 2D library draws); nil when the sizes do not match or are not positive.
  package init?(width: Int, height: Int, premultipliedRGBA rgba: [UInt8]) {
    guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16,
      rgba.count == width * height * 4
    else { return nil }
    self.width = width
    self.height = height
    premultipliedPixels = rgba
    straight = LazyPixels { Self.unpremultiplied(rgba) }
    isOpaque = Self.allOpaque(rgba)
    identifier = ImageIdentifiers.next()
  }

  private static func allOpaque(_ rgba: [UInt8]) -> Bool {
    var i = 3
    while i < rgba.count {
      if rgba[i] != 255 { return false }
      i += 4
    }
    return true
  }

  /// Straight color, rounded: `(c·255 + a/2) / a`.
  package static func unpremultiplied(_ rgba: [UInt8]) -> [UInt8] {
    var out = rgba
    out.withUnsafeMutableBufferPointer { p in
      var i = 0
      while i < p.count {
        let a = UInt32(p[i + 3])
        if a != 255 && a != 0 {
          for c in 0..<3 { p[i + c] = UInt8(min((UInt32(p[i + c]) * 255 + a / 2) / a, 255)) }
        }
        i += 4
      }
    }
    return out
  }
}

/// Pixels computed once, on first use, by any thread.
private final class LazyPixels: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [UInt8]?
  private var make: (() -> [UInt8])?

  init(_ pixels: [UInt8]) { stored = pixels }
  init(_ make: @escaping () -> [UInt8]) { self.make = make }

  var value: [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    if let stored { return stored }
    let made = make!()
    stored = made
    make = nil
    return made
  }
}

/// Why an image could not be read.
public enum ImageError: Error, Equatable, CustomStringConvertible {
  /// The file could not be opened or read.
  case unreadable(path: String, reason: String)
  /// The bytes are neither PNG nor JPEG.
  case unknownFormat(path: String)
  /// The decoder rejected the data.
  case corrupt(path: String, reason: String)
  /// The image has more pixels than allowed.
  case tooLarge(path: String, width: Int, height: Int, limit: Int)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): return "cannot read image '\(path)': \(reason)"
    case .unknownFormat(let path): return "image '\(path)' is neither PNG nor JPEG"
    case .corrupt(let path, let reason): return "image '\(path)' is corrupt: \(reason)"
    case .tooLarge(let path, let width, let height, let limit):
      return
        "image '\(path)' is \(width)x\(height) pixels, larger than the limit of \(limit) on a side"
    }
  }
}

extension CGImage {
  /// Reads a PNG or JPEG file (told apart by their signatures).
  /// - Parameter maxDimension: the largest width or height accepted, checked
  ///   from the header before pixel memory is allocated.
  public static func decode(fileAt path: String, maxDimension: Int = 16384) throws -> CGImage {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let reason = FileManager.default.fileExists(atPath: path) ? "unreadable" : "no such file"
      throw ImageError.unreadable(path: path, reason: reason)
    }
    return try decode(data: data, path: path, maxDimension: maxDimension)
  }

  /// Decodes PNG or JPEG bytes; `path` names the source in errors.
  public static func decode(data: Data, path: String = "<data>", maxDimension: Int = 16384)
    throws -> CGImage
  {
    let bytes = [UInt8](data)
    if bytes.starts(with: [0x89, 0x50, 0x4e, 0x47]) {
      return try decodePNG(bytes, path: path, maxDimension: maxDimension)
    }
    if bytes.starts(with: [0xff, 0xd8]) {
      return try decodeJPEG(bytes, path: path, maxDimension: maxDimension)
    }
    throw ImageError.unknownFormat(path: path)
  }

  private static func decodePNG(_ bytes: [UInt8], path: String, maxDimension: Int) throws
    -> CGImage
  {
    var image = png_image()
    image.version = LAMINA_PNG_IMAGE_VERSION
    let began = bytes.withUnsafeBytes { raw in
      png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
    }
    guard began != 0 else {
      throw ImageError.corrupt(path: path, reason: pngMessage(&image))
    }
    let width = Int(image.width)
    let height = Int(image.height)
    guard width <= maxDimension, height <= maxDimension else {
      png_image_free(&image)
      throw ImageError.tooLarge(path: path, width: width, height: height, limit: maxDimension)
    }
    image.format = LAMINA_PNG_FORMAT_RGBA
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    let finished = pixels.withUnsafeMutableBytes { raw in
      png_image_finish_read(&image, nil, raw.baseAddress, Int32(width * 4), nil)
    }
    guard finished != 0 else {
      let message = pngMessage(&image)
      png_image_free(&image)
      throw ImageError.corrupt(path: path, reason: message)
    }
    guard let result = CGImage(width: width, height: height, rgba: pixels) else {
      throw ImageError.corrupt(path: path, reason: "empty image")
    }
    return result
  }

  private static func pngMessage(_ image: inout png_image) -> String {
    withUnsafeBytes(of: &image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }

  private static func decodeJPEG(_ bytes: [UInt8], path: String, maxDimension: Int) throws
    -> CGImage
  {
    var out: UnsafeMutablePointer<UInt8>?
    var width: UInt32 = 0
    var height: UInt32 = 0
    var message = [CChar](repeating: 0, count: 512)
    let status = bytes.withUnsafeBufferPointer { buffer in
      lamina_jpeg_decode(
        buffer.baseAddress, UInt(buffer.count), UInt(maxDimension * maxDimension),
        &out, &width, &height, &message)
    }
    let text = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if status == 2 {
      throw ImageError.tooLarge(
        path: path, width: Int(width), height: Int(height), limit: maxDimension)
    }
    guard status == 0, let out else {
      throw ImageError.corrupt(path: path, reason: text.isEmpty ? "cannot decode" : text)
    }
    defer { free(out) }
    guard Int(width) <= maxDimension, Int(height) <= maxDimension else {
      throw ImageError.tooLarge(
        path: path, width: Int(width), height: Int(height), limit: maxDimension)
    }
    let count = Int(width) * Int(height) * 4
    let pixels = [UInt8](UnsafeBufferPointer(start: out, count: count))
    guard let result = CGImage(width: Int(width), height: Int(height), rgba: pixels) else {
      throw ImageError.corrupt(path: path, reason: "empty image")
    }
    return result
  }
}

/// Hands out image identifiers; a lock keeps it safe from any thread.
enum ImageIdentifiers {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var last: UInt64 = 0
  static func next() -> UInt64 {
    lock.lock()
    defer { lock.unlock() }
    last += 1
    return last
  }
}

/// Where an image's alpha is and whether its colors are premultiplied.
public enum CGImageAlphaInfo: UInt32, Sendable {
  case none, premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst,
    alphaOnly
}

/// An image's layout: its alpha info in the low bits.
public struct CGBitmapInfo: OptionSet, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
}
