import CJPEG
import CPNG
import CWebP
import Foundation

/// An immutable bitmap: 8-bit RGBA pixels, straight (non-premultiplied)
/// alpha, rows top to bottom. Decoded from PNG, JPEG or WebP with libpng,
/// libjpeg-turbo and libwebp, or made from pixels.
public final class CGImage: @unchecked Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width * height * 4` bytes of RGBA.
  public var pixels: [UInt8] { straight.value }
  /// The same pixels premultiplied, in RGBA order, when the image was made
  /// from premultiplied pixels (drawn content); computed on first use from
  /// `premultiplied` when that is BGRA.
  package var premultipliedPixels: [UInt8]? {
    guard let premultiplied else { return nil }
    return premultipliedOrder == .rgba ? premultiplied : premultipliedRGBA?.value
  }
  /// The premultiplied pixels as the image was made with them, in
  /// `premultipliedOrder`: the renderer uploads them as they are when its
  /// textures have that order, and the straight ones are computed only if
  /// someone asks.
  package let premultiplied: [UInt8]?
  package let premultipliedOrder: TexelOrder
  private let premultipliedRGBA: LazyPixels?
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
    premultiplied = nil
    premultipliedOrder = .rgba
    premultipliedRGBA = nil
    isOpaque = Self.allOpaque(rgba)
    identifier = Serials.next()
  }

  /// An image from `width * height * 4` bytes of premultiplied RGBA (what a
  /// 2D library draws); nil when the sizes do not match or are not positive.
  package convenience init?(width: Int, height: Int, premultipliedRGBA rgba: [UInt8]) {
    self.init(width: width, height: height, premultiplied: rgba, order: .rgba)
  }

  /// An image from `width * height * 4` bytes of premultiplied pixels in
  /// `order` (BGRA: what Cairo draws, as llvmpipe's textures want it).
  package init?(width: Int, height: Int, premultiplied pixels: [UInt8], order: TexelOrder) {
    guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16,
      pixels.count == width * height * 4
    else { return nil }
    self.width = width
    self.height = height
    premultiplied = pixels
    premultipliedOrder = order
    if order == .rgba {
      premultipliedRGBA = nil
      straight = LazyPixels { Self.unpremultiplied(pixels) }
    } else {
      let rgba = LazyPixels { TexelOrder.swapped(pixels) }
      premultipliedRGBA = rgba
      straight = LazyPixels { Self.unpremultiplied(rgba.value) }
    }
    isOpaque = Self.allOpaque(pixels)
    identifier = Serials.next()
  }

  /// Whether every pixel's alpha (its fourth byte) is 255: eight pixels a
  /// step (a canvas-sized run with an opaque background is read whole).
  private static func allOpaque(_ pixels: [UInt8]) -> Bool {
    pixels.withUnsafeBytes { raw in
      let count = raw.count / 4
      // The fourth byte of each word, in the machine's byte order.
      let alpha = SIMD8<UInt32>(repeating: UInt32(0xff00_0000).littleEndian)
      var i = 0
      // Sixty-four pixels a test (comparing vectors goes lane by lane).
      while i + 64 <= count {
        var all = SIMD8<UInt32>(repeating: .max)
        for j in Swift.stride(from: i, to: i + 64, by: 8) {
          all &= raw.loadUnaligned(fromByteOffset: j * 4, as: SIMD8<UInt32>.self)
        }
        if all & alpha != alpha { return false }
        i += 64
      }
      while i + 8 <= count {
        let words = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
        if words & alpha != alpha { return false }
        i += 8
      }
      while i < count {
        if raw[i * 4 + 3] != 255 { return false }
        i += 1
      }
      return true
    }
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
  /// The bytes are not PNG, JPEG or WebP.
  case unknownFormat(path: String)
  /// The decoder rejected the data (truncated, corrupt, a lying header).
  case corrupt(path: String, reason: String)
  /// The image is wider or taller than allowed (its header says so).
  case tooLarge(path: String, width: Int, height: Int, limit: Int)
  /// The image has more pixels than allowed (its header says so).
  case tooManyPixels(path: String, width: Int, height: Int, limit: Int)
  /// A progressive JPEG with more scans than allowed.
  case tooManyScans(path: String, limit: Int)
  /// The file is larger than allowed.
  case fileTooLarge(path: String, bytes: Int, limit: Int)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): return "cannot read image '\(path)': \(reason)"
    case .unknownFormat(let path): return "image '\(path)' is not PNG, JPEG or WebP"
    case .corrupt(let path, let reason): return "image '\(path)' is corrupt: \(reason)"
    case .tooLarge(let path, let width, let height, let limit):
      return
        "image '\(path)' is \(width)x\(height) pixels, larger than the limit of \(limit) on a side"
    case .tooManyPixels(let path, let width, let height, let limit):
      return
        "image '\(path)' is \(width)x\(height) pixels, more than the limit of \(limit) pixels (maxImagePixels)"
    case .tooManyScans(let path, let limit):
      return
        "image '\(path)' is a progressive JPEG of more than \(limit) scans, over the limit (maxJPEGScans)"
    case .fileTooLarge(let path, let bytes, let limit):
      return
        "image '\(path)' is a file of \(bytes) bytes, more than the limit of \(limit) (maxImageFileBytes)"
    }
  }
}

/// What an image file's header says, read without decoding its pixels.
public struct ImageHeader: Equatable, Sendable {
  public enum Format: String, Sendable { case png, jpeg, webp }
  public let format: Format
  /// Width and height in pixels, as the image decodes.
  public let width: Int
  public let height: Int
  /// What the decoded RGBA pixels take.
  public var decodedBytes: Int { width * height * 4 }

  public init(format: Format, width: Int, height: Int) {
    self.format = format
    self.width = width
    self.height = height
  }
}

extension CGImage {
  /// Reads a PNG, JPEG or WebP file (told apart by their signatures).
  /// - Parameter maxDimension: the largest width or height accepted. Every
  ///   limit (`maxDimension`, `Limits.maxImagePixels`) is checked from the
  ///   header before pixel memory is allocated.
  public static func decode(fileAt path: String, maxDimension: Int = Limits.maxImageSide) throws
    -> CGImage
  {
    let data = try readImageFile(atPath: path)
    return try decode(data: data, path: path, maxDimension: maxDimension)
  }

  /// The bytes of an image file, refused beyond `Limits.maxImageFileBytes`
  /// before they are read.
  public static func readImageFile(atPath path: String) throws -> Data {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw ImageError.unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw ImageError.unreadable(path: path, reason: "not a regular file")
    }
    let size = Int(truncatingIfNeeded: info.st_size)
    guard size <= Limits.maxImageFileBytes else {
      throw ImageError.fileTooLarge(path: path, bytes: size, limit: Limits.maxImageFileBytes)
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ImageError.unreadable(path: path, reason: "unreadable")
    }
  }

  /// The header of PNG, JPEG or WebP bytes: format and size, nothing decoded.
  public static func header(of data: Data, path: String = "<data>") throws -> ImageHeader {
    try data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      if bytes.starts(with: [0x89, 0x50, 0x4e, 0x47]) { return try pngHeader(bytes, path: path) }
      if bytes.starts(with: [0xff, 0xd8]) { return try jpegHeader(bytes, path: path) }
      if isWebP(bytes) { return try webpHeader(bytes, path: path) }
      throw ImageError.unknownFormat(path: path)
    }
  }

  /// Decodes PNG, JPEG or WebP bytes; `path` names the source in errors. The
  /// header is read first and checked against `maxDimension` and
  /// `Limits.maxImagePixels`; only then are the pixels allocated and decoded.
  public static func decode(
    data: Data, path: String = "<data>", maxDimension: Int = Limits.maxImageSide
  ) throws -> CGImage {
    let header = try self.header(of: data, path: path)
    try check(header, path: path, maxDimension: maxDimension)
    return try data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      switch header.format {
      case .png: return try decodePNG(bytes, header: header, path: path)
      case .jpeg: return try decodeJPEG(bytes, header: header, path: path)
      case .webp: return try decodeWebP(bytes, header: header, path: path)
      }
    }
  }

  /// Throws when `header` is beyond `maxDimension` on a side or beyond
  /// `Limits.maxImagePixels`.
  public static func check(_ header: ImageHeader, path: String, maxDimension: Int) throws {
    let side = min(maxDimension, Limits.maxImageSide)
    guard header.width <= side, header.height <= side else {
      throw ImageError.tooLarge(path: path, width: header.width, height: header.height, limit: side)
    }
    guard header.width * header.height <= Limits.maxImagePixels else {
      throw ImageError.tooManyPixels(
        path: path, width: header.width, height: header.height, limit: Limits.maxImagePixels)
    }
    guard header.width > 0, header.height > 0 else {
      throw ImageError.corrupt(path: path, reason: "empty image")
    }
  }

  private static func pngHeader(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws
    -> ImageHeader
  {
    var image = png_image()
    image.version = LAMINA_PNG_IMAGE_VERSION
    guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
      throw ImageError.corrupt(path: path, reason: pngMessage(&image))
    }
    defer { png_image_free(&image) }
    return ImageHeader(format: .png, width: Int(image.width), height: Int(image.height))
  }

  private static func decodePNG(
    _ bytes: UnsafeBufferPointer<UInt8>, header: ImageHeader, path: String
  ) throws -> CGImage {
    var image = png_image()
    image.version = LAMINA_PNG_IMAGE_VERSION
    guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
      throw ImageError.corrupt(path: path, reason: pngMessage(&image))
    }
    guard Int(image.width) == header.width, Int(image.height) == header.height else {
      png_image_free(&image)
      throw ImageError.corrupt(path: path, reason: "dimensions changed between reads")
    }
    image.format = LAMINA_PNG_FORMAT_RGBA
    // The pixel buffer is the size the checked header gave: a stream that
    // inflates to more is cut off by libpng at the image's end.
    var pixels = [UInt8](repeating: 0, count: header.decodedBytes)
    let finished = pixels.withUnsafeMutableBytes { raw in
      png_image_finish_read(&image, nil, raw.baseAddress, Int32(header.width * 4), nil)
    }
    guard finished != 0 else {
      let message = pngMessage(&image)
      png_image_free(&image)
      throw ImageError.corrupt(path: path, reason: message)
    }
    guard let result = CGImage(width: header.width, height: header.height, rgba: pixels) else {
      throw ImageError.corrupt(path: path, reason: "empty image")
    }
    return result
  }

  private static func pngMessage(_ image: inout png_image) -> String {
    withUnsafeBytes(of: &image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }

  private static func jpegHeader(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws
    -> ImageHeader
  {
    var width: UInt32 = 0
    var height: UInt32 = 0
    var progressive: Int32 = 0
    var message = [CChar](repeating: 0, count: 512)
    let status = lamina_jpeg_header(
      bytes.baseAddress, UInt(bytes.count), &width, &height, &progressive, &message)
    guard status == 0 else {
      throw ImageError.corrupt(path: path, reason: jpegMessage(message))
    }
    return ImageHeader(format: .jpeg, width: Int(width), height: Int(height))
  }

  private static func decodeJPEG(
    _ bytes: UnsafeBufferPointer<UInt8>, header: ImageHeader, path: String
  ) throws -> CGImage {
    var message = [CChar](repeating: 0, count: 512)
    var pixels = [UInt8](repeating: 0, count: header.decodedBytes)
    // libjpeg's working memory (a progressive file keeps every coefficient:
    // about 2 bytes a pixel a component) is bounded too.
    let workingMemory = header.width * header.height * 8 + (16 << 20)
    let status = pixels.withUnsafeMutableBytes { raw in
      lamina_jpeg_decode(
        bytes.baseAddress, UInt(bytes.count),
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(header.width),
        UInt32(header.height), Int32(Limits.maxJPEGScans), workingMemory, &message)
    }
    if status == 2 { throw ImageError.tooManyScans(path: path, limit: Limits.maxJPEGScans) }
    guard status == 0 else {
      throw ImageError.corrupt(path: path, reason: jpegMessage(message))
    }
    guard let result = CGImage(width: header.width, height: header.height, rgba: pixels) else {
      throw ImageError.corrupt(path: path, reason: "empty image")
    }
    return result
  }

  private static func jpegMessage(_ message: [CChar]) -> String {
    let text = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.isEmpty ? "cannot decode" : text
  }
}

extension CGImage {
  /// A RIFF container of WebP: "RIFF", a size, "WEBP".
  fileprivate static func isWebP(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.count >= 12 && bytes.starts(with: [0x52, 0x49, 0x46, 0x46])
      && Array(bytes[8..<12]) == [0x57, 0x45, 0x42, 0x50]
  }

  /// The header of WebP bytes (`WebPGetFeatures`: the bitstream's headers,
  /// no pixels). Animated WebP is refused: it has no single picture.
  fileprivate static func webpHeader(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws
    -> ImageHeader
  {
    var features = WebPBitstreamFeatures()
    let status = lamina_webp_features(bytes.baseAddress, bytes.count, &features)
    guard status == VP8_STATUS_OK else {
      throw ImageError.corrupt(path: path, reason: webpMessage(status))
    }
    guard features.has_animation == 0 else {
      throw ImageError.corrupt(path: path, reason: "an animated WebP (only still images are read)")
    }
    return ImageHeader(format: .webp, width: Int(features.width), height: Int(features.height))
  }

  /// Decodes WebP (lossy, lossless, with or without alpha) into a buffer
  /// of the size the checked header gave: libwebp writes into it and
  /// nowhere else.
  fileprivate static func decodeWebP(
    _ bytes: UnsafeBufferPointer<UInt8>, header: ImageHeader, path: String
  ) throws -> CGImage {
    var pixels = [UInt8](repeating: 0, count: header.decodedBytes)
    let written = pixels.withUnsafeMutableBytes { raw in
      WebPDecodeRGBAInto(
        bytes.baseAddress, bytes.count, raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
        raw.count, Int32(header.width * 4))
    }
    guard written != nil else {
      throw ImageError.corrupt(
        path: path, reason: "libwebp cannot decode it (truncated or damaged)")
    }
    guard let result = CGImage(width: header.width, height: header.height, rgba: pixels) else {
      throw ImageError.corrupt(path: path, reason: "empty image")
    }
    return result
  }

  private static func webpMessage(_ status: VP8StatusCode) -> String {
    switch status {
    case VP8_STATUS_NOT_ENOUGH_DATA: return "truncated WebP"
    case VP8_STATUS_BITSTREAM_ERROR: return "a damaged WebP bitstream"
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "a WebP feature libwebp does not support"
    case VP8_STATUS_INVALID_PARAM: return "an invalid WebP header"
    default: return "cannot read the WebP header (status \(status.rawValue))"
    }
  }
}

/// Hands out numbers that are never handed out again in the process (image
/// identifiers, layer and mesh serials): keys that cannot outlive what they
/// name. A lock keeps it safe from any thread.
package enum Serials {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var last: UInt64 = 0
  package static func next() -> UInt64 {
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
