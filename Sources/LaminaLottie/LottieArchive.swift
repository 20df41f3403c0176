import CZip
import CZlib
import Foundation
import Lamina
import LaminaScene

/// How a Lottie animation is packaged, told by its first bytes (never by
/// its file name): a zip archive is a dotLottie, a gzip stream a Telegram
/// sticker, anything else a Lottie JSON document.
public enum LottieFileKind: String {
  /// A Lottie (Bodymovin) JSON document.
  case json
  /// A dotLottie archive (`.lottie`): a zip with `manifest.json`, the
  /// animations under `animations/` (or `a/`) and images under `images/`
  /// (or `i/`).
  case dotLottie
  /// A Telegram animated sticker (`.tgs`): a Lottie document, gzip-compressed.
  case telegramSticker

  /// The kind of the bytes `data` start with.
  public init(sniffing data: Data) {
    if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
      self = .dotLottie
    } else if data.starts(with: [0x1F, 0x8B]) {
      self = .telegramSticker
    } else {
      self = .json
    }
  }
}

/// The limits on archives (docs/limits.md, "Archives"): an entry's name,
/// size and compression ratio are checked from the archive's directory
/// before it is inflated, and inflating stops at the size it declared, so
/// that neither a zip nor a gzip bomb can take more than these bounds.
public enum LottieArchiveLimits {
  /// The largest archive file (`.lottie` or `.tgs`), compressed.
  public static let maxArchiveBytes = 64 << 20
  /// The most entries in a dotLottie archive.
  public static let maxEntries = 1024
  /// The largest inflated JSON entry (the animation, the manifest) or
  /// `.tgs` document: a scene file's limit.
  public static let maxDocumentBytes = Limits.maxSceneFileBytes
  /// The largest inflated image entry.
  public static let maxImageBytes = 32 << 20
  /// The most bytes inflated from one archive, every entry together.
  public static let maxTotalBytes = 128 << 20
  /// The largest ratio of inflated to compressed size of an entry over
  /// `ratioFloorBytes` (zip bombs reach 1000 and more; JSON about 5 to 20).
  public static let maxCompressionRatio = 200
  /// Entries up to this many inflated bytes are not held to the ratio.
  public static let ratioFloorBytes = 1 << 20
}

/// Why an archive was refused: names the archive file and the entry.
public struct LottieArchiveError: Error, CustomStringConvertible, Equatable {
  public let file: String
  public let entry: String?
  public let message: String

  public init(file: String, entry: String? = nil, message: String) {
    self.file = file
    self.entry = entry
    self.message = message
  }

  public var description: String {
    "\(file): " + (entry.map { "entry '\($0)': " } ?? "") + message
  }
}

extension LottieAnimation {
  /// Loads a Lottie JSON document, a dotLottie archive or a `.tgs` sticker
  /// from a file, told apart by content (`LottieFileKind`). The file is
  /// refused past its kind's size limit before it is read whole.
  public static func load(contentsOf url: URL, options: LottieOptions = LottieOptions()) throws
    -> LottieAnimation
  {
    let name = url.lastPathComponent
    let data = try readBounded(url, limit: LottieArchiveLimits.maxArchiveBytes, name: name)
    return try load(
      data: data, name: name, baseDirectory: url.deletingLastPathComponent(), options: options)
  }

  /// Loads a Lottie JSON document, a dotLottie archive or a `.tgs` sticker
  /// from its bytes. An archive's images are read from the archive (its
  /// `assetData`), never from `baseDirectory`.
  public static func load(
    data: Data, name: String, baseDirectory: URL?, options: LottieOptions = LottieOptions()
  ) throws -> LottieAnimation {
    switch LottieFileKind(sniffing: data) {
    case .json:
      guard data.count <= LottieArchiveLimits.maxDocumentBytes else {
        throw LottieArchiveError(
          file: name,
          message:
            "the document is \(data.count) bytes, over the limit of \(LottieArchiveLimits.maxDocumentBytes) (maxSceneFileBytes)"
        )
      }
      return try LottieAnimation(
        data: data, name: name, baseDirectory: baseDirectory, options: options)
    case .telegramSticker:
      let json = try Gzip.inflate(data, name: name, limit: LottieArchiveLimits.maxDocumentBytes)
      return try LottieAnimation(
        data: json, name: name, baseDirectory: baseDirectory, options: options)
    case .dotLottie:
      let archive = try DotLottie(data: data, name: name)
      var options = options
      options.assetData = { try archive.asset($0) }
      return try LottieAnimation(
        data: archive.animation, name: "\(name):\(archive.animationEntry)", baseDirectory: nil,
        options: options)
    }
  }

  /// The bytes of `url`, refused past `limit` before they are read (a
  /// pipe is read up to the limit).
  static func readBounded(_ url: URL, limit: Int, name: String) throws -> Data {
    var info = stat()
    guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR,
      let handle = FileHandle(forReadingAtPath: url.path)
    else {
      throw LottieArchiveError(
        file: name, message: errno == ENOENT ? "no such file" : "permission denied or not a file")
    }
    defer { try? handle.close() }
    if (info.st_mode & S_IFMT) == S_IFREG, Int(truncatingIfNeeded: info.st_size) > limit {
      throw LottieArchiveError(
        file: name,
        message: "the file is \(info.st_size) bytes, over the limit of \(limit) (maxArchiveBytes)")
    }
    let data = (try? handle.read(upToCount: limit + 1)) ?? Data()
    guard data.count <= limit else {
      throw LottieArchiveError(
        file: name, message: "the file is over the limit of \(limit) bytes (maxArchiveBytes)")
    }
    return data
  }
}

/// A dotLottie archive read into memory through libzip: the animation to
/// play (the manifest's active one, else the first) and every image entry,
/// each checked before it is inflated.
struct DotLottie {
  let name: String
  let animationEntry: String
  let animation: Data
  private let images: [String: Data]

  init(data: Data, name: String) throws {
    self.name = name
    let entries = try Zip.read(data, name: name) { entry in
      entry.name == "manifest.json" || Self.isAnimation(entry.name) || Self.isImage(entry.name)
    }
    var animations = entries.keys.filter(Self.isAnimation).sorted()
    guard !animations.isEmpty else {
      throw LottieArchiveError(
        file: name, message: "no animation in the archive (animations/NAME.json or a/NAME.json)")
    }
    if let manifest = entries["manifest.json"], let id = Self.activeAnimation(manifest) {
      let named = animations.filter { ($0 as NSString).lastPathComponent == id + ".json" }
      guard let first = named.first else {
        throw LottieArchiveError(
          file: name, entry: "manifest.json",
          message: "the active animation '\(id)' is not in the archive (it has "
            + animations.joined(separator: ", ") + ")")
      }
      animations = [first]
    }
    animationEntry = animations[0]
    animation = entries[animationEntry] ?? Data()
    images = entries.filter { Self.isImage($0.key) }
  }

  static func isAnimation(_ entry: String) -> Bool {
    (entry.hasPrefix("animations/") || entry.hasPrefix("a/")) && entry.hasSuffix(".json")
  }

  static func isImage(_ entry: String) -> Bool {
    (entry.hasPrefix("images/") || entry.hasPrefix("i/")) && !entry.hasSuffix("/")
  }

  /// The id the manifest plays first: `activeAnimationId` (dotLottie 1),
  /// `initial.animation` (dotLottie 2), else the first of `animations`.
  static func activeAnimation(_ manifest: Data) -> String? {
    guard let json = try? SceneLoader.parseJSON(manifest, fileName: "manifest.json") else {
      return nil
    }
    if case .string(let id)? = json["activeAnimationId"] { return id }
    if case .string(let id)? = json["initial"]?["animation"] { return id }
    if case .array(let list)? = json["animations"], case .string(let id)? = list.first?["id"] {
      return id
    }
    return nil
  }

  /// The image an asset names (`u` + `p`: `/images/img_0.png`,
  /// `images/img_0.png`, or the file name alone), from the archive only.
  func asset(_ path: String) throws -> Data {
    guard let relative = Zip.safeName(path.hasPrefix("/") ? String(path.dropFirst()) : path) else {
      throw LottieArchiveError(
        file: name, entry: path, message: "an asset path that leads outside the archive")
    }
    let file = (relative as NSString).lastPathComponent
    for candidate in [relative, "images/" + file, "i/" + file] {
      if let data = images[candidate] { return data }
    }
    throw LottieArchiveError(
      file: name, entry: path,
      message: "no such image in the archive (it has "
        + (images.isEmpty ? "none" : images.keys.sorted().joined(separator: ", ")) + ")")
  }
}

/// Zip archives through libzip, read from memory, every entry untrusted.
enum Zip {
  struct Entry {
    let index: UInt64
    let name: String
    let size: Int
    let compressedSize: Int
  }

  /// `name` when it names a place inside the archive: relative, no `..`
  /// component, no backslash, no NUL; nil otherwise.
  static func safeName(_ name: String) -> String? {
    guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0"),
      !name.contains(":")
    else { return nil }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    guard !parts.contains(where: { $0 == ".." }) else { return nil }
    return parts.filter { $0 != "." && !$0.isEmpty }.joined(separator: "/")
  }

  /// The entries of the archive `data` that `wanted` picks, inflated. Every
  /// entry's name is checked (none leads outside the archive), and each
  /// wanted one's declared size and compression ratio before it is inflated;
  /// inflating stops past the declared size (a lying header).
  static func read(_ data: Data, name: String, wanted: (Entry) -> Bool) throws -> [String: Data] {
    func refuse(_ message: String, entry: String? = nil) -> LottieArchiveError {
      LottieArchiveError(file: name, entry: entry, message: message)
    }
    guard data.count <= LottieArchiveLimits.maxArchiveBytes else {
      throw refuse("the archive is over the limit of \(LottieArchiveLimits.maxArchiveBytes) bytes")
    }
    return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [String: Data] in
      var error = zip_error_t()
      zip_error_init(&error)
      defer { zip_error_fini(&error) }
      guard let source = zip_source_buffer_create(bytes.baseAddress, UInt64(bytes.count), 0, &error)
      else { throw refuse("not a zip archive: \(String(cString: zip_error_strerror(&error)))") }
      guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
        zip_source_free(source)
        throw refuse("not a readable zip archive: \(String(cString: zip_error_strerror(&error)))")
      }
      defer { zip_discard(archive) }
      let count = zip_get_num_entries(archive, 0)
      guard count >= 0, count <= Int64(LottieArchiveLimits.maxEntries) else {
        throw refuse(
          "entries in the archive: \(count), over the limit of \(LottieArchiveLimits.maxEntries) (maxEntries)"
        )
      }
      var entries: [Entry] = []
      for index in 0..<UInt64(count) {
        var info = zip_stat_t()
        zip_stat_init(&info)
        guard zip_stat_index(archive, index, 0, &info) == 0, let raw = info.name,
          info.valid & UInt64(ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE)
            == UInt64(ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE)
        else {
          throw refuse("entry \(index) cannot be read: \(String(cString: zip_strerror(archive)))")
        }
        let entryName = String(cString: raw)
        guard let safe = safeName(entryName), safe == entryName || entryName.hasSuffix("/") else {
          throw refuse("a name that leads outside the archive", entry: entryName)
        }
        entries.append(
          Entry(
            index: index, name: entryName, size: Int(clamping: info.size),
            compressedSize: Int(clamping: info.comp_size)))
      }
      var result: [String: Data] = [:]
      var total = 0
      for entry in entries where wanted(entry) {
        let limit =
          entry.name.hasSuffix(".json")
          ? LottieArchiveLimits.maxDocumentBytes : LottieArchiveLimits.maxImageBytes
        guard entry.size <= limit else {
          throw refuse(
            "inflates to \(entry.size) bytes, over the limit of \(limit)", entry: entry.name)
        }
        if entry.size > LottieArchiveLimits.ratioFloorBytes,
          entry.size / max(entry.compressedSize, 1) > LottieArchiveLimits.maxCompressionRatio
        {
          throw refuse(
            "compressed \(entry.size / max(entry.compressedSize, 1)):1, over the limit of "
              + "\(LottieArchiveLimits.maxCompressionRatio):1 (maxCompressionRatio)",
            entry: entry.name)
        }
        total += entry.size
        guard total <= LottieArchiveLimits.maxTotalBytes else {
          throw refuse(
            "the entries inflate to more than \(LottieArchiveLimits.maxTotalBytes) bytes (maxTotalBytes)",
            entry: entry.name)
        }
        guard let file = zip_fopen_index(archive, entry.index, 0) else {
          throw refuse(
            "cannot be opened: \(String(cString: zip_strerror(archive)))", entry: entry.name)
        }
        defer { zip_fclose(file) }
        // One byte more than declared: a header that lies is caught.
        var buffer = [UInt8](repeating: 0, count: entry.size + 1)
        var filled = 0
        while filled < buffer.count {
          let read = buffer.withUnsafeMutableBytes {
            zip_fread(file, $0.baseAddress! + filled, UInt64($0.count - filled))
          }
          guard read >= 0 else {
            throw refuse(
              "cannot be inflated: \(String(cString: zip_file_strerror(file)))", entry: entry.name)
          }
          if read == 0 { break }
          filled += Int(read)
        }
        guard filled == entry.size else {
          throw refuse(
            "inflates to \(filled > entry.size ? "more" : "fewer") bytes than its header says (\(entry.size))",
            entry: entry.name)
        }
        result[entry.name] = Data(buffer[0..<filled])
      }
      return result
    }
  }
}

/// gzip streams through zlib, inflated into a bounded buffer.
enum Gzip {
  /// The inflated bytes of the gzip stream `data`; refused when its trailer
  /// declares more than `limit` bytes or a ratio over the limit (before
  /// inflating), and when inflating goes past `limit` (a trailer that lies).
  static func inflate(_ data: Data, name: String, limit: Int) throws -> Data {
    func refuse(_ message: String) -> LottieArchiveError {
      LottieArchiveError(file: name, message: message)
    }
    guard data.count >= 18 else { throw refuse("a gzip stream too short to hold anything") }
    // ISIZE: the inflated size modulo 2³², little-endian, in the last 4 bytes.
    let tail = Array(data.suffix(4))
    let declared = Int(tail[0]) | Int(tail[1]) << 8 | Int(tail[2]) << 16 | Int(tail[3]) << 24
    guard declared <= limit else {
      throw refuse(
        "inflates to \(declared) bytes, over the limit of \(limit) (maxSceneFileBytes)")
    }
    if declared > LottieArchiveLimits.ratioFloorBytes,
      declared / data.count > LottieArchiveLimits.maxCompressionRatio
    {
      throw refuse(
        "compressed \(declared / data.count):1, over the limit of "
          + "\(LottieArchiveLimits.maxCompressionRatio):1 (maxCompressionRatio)")
    }
    var stream = z_stream()
    guard lamina_inflate_init_gzip(&stream) == Z_OK else { throw refuse("zlib cannot start") }
    defer { inflateEnd(&stream) }
    var output = Data()
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    var input = [UInt8](data)
    let status: Int32 = input.withUnsafeMutableBufferPointer { source in
      stream.next_in = source.baseAddress
      stream.avail_in = UInt32(source.count)
      while true {
        let code = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
          stream.next_out = out.baseAddress
          stream.avail_out = UInt32(out.count)
          return CZlib.inflate(&stream, Z_NO_FLUSH)
        }
        let produced = chunk.count - Int(stream.avail_out)
        if output.count + produced > limit { return Z_BUF_ERROR + 1000 }
        output.append(contentsOf: chunk[0..<produced])
        if code == Z_STREAM_END { return code }
        guard code == Z_OK else { return code }
        if produced == 0 && stream.avail_in == 0 { return Z_DATA_ERROR }
      }
    }
    input.removeAll()
    if status == Z_BUF_ERROR + 1000 {
      throw refuse("inflates to more than the limit of \(limit) bytes (maxSceneFileBytes)")
    }
    guard status == Z_STREAM_END else {
      throw refuse(
        "not a valid gzip stream (zlib: \(stream.msg.map { String(cString: $0) } ?? "error \(status)"))"
      )
    }
    return output
  }
}
