import Foundation

/// Decoded images by file, shared by every scene that loads through it,
/// within a budget of decoded bytes: each file is decoded once (entries
/// that name the same file by other paths, or links to it, share the
/// decode), its header checked before its pixels are allocated, and the
/// least recently used images are forgotten when the budget would be passed.
///
/// A scene loader makes one per load unless given one; a process that loads
/// many scenes (`lamina batch`, a server) shares one so that images used by
/// many jobs are decoded once:
///
/// ```swift
/// let cache = ImageCache(budgetBytes: 512 << 20)
/// let a = try SceneLoader.load(contentsOf: first, imageCache: cache)
/// let b = try SceneLoader.load(contentsOf: second, imageCache: cache)  // shared images decode once
/// ```
///
/// A file that changed on disk (size, modification time or inode) is decoded
/// again. Forgetting an image does not free it while a scene still holds it;
/// the budget bounds what the cache keeps alive. Safe to use from any thread.
public final class ImageCache: @unchecked Sendable {
  /// The most bytes of decoded pixels the cache keeps.
  public let budgetBytes: Int
  private let lock = NSLock()
  private var entries: [Key: Entry] = [:]
  private var clock: UInt64 = 0
  private var held = 0
  /// Files decoded since the cache was made (a test's way to see reuse).
  public private(set) var decodeCount = 0

  /// A file's identity: which file, and which version of it.
  struct Key: Hashable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64
  }

  struct Entry {
    let image: CGImage
    let format: ImageHeader.Format
    var used: UInt64
  }

  /// A cache that keeps at most `budgetBytes` of decoded pixels.
  public init(budgetBytes: Int = Limits.maxDecodedImageBytes) {
    self.budgetBytes = max(0, budgetBytes)
  }

  /// Bytes of decoded pixels the cache keeps now.
  public var bytes: Int {
    lock.lock()
    defer { lock.unlock() }
    return held
  }

  /// Images the cache keeps now.
  public var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return entries.count
  }

  /// Forgets every image.
  public func removeAll() {
    lock.lock()
    entries.removeAll()
    held = 0
    lock.unlock()
  }

  /// A file's identity, or nil when it cannot be examined (the decoder then
  /// reports why).
  public static func identity(ofFileAt path: String) -> AnyHashable? {
    key(path).map { AnyHashable($0) }
  }

  static func key(_ path: String) -> Key? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Key(
      device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
      size: Int64(truncatingIfNeeded: info.st_size),
      modified: Int64(truncatingIfNeeded: info.st_mtim.tv_sec) &* 1_000_000_000
        &+ Int64(truncatingIfNeeded: info.st_mtim.tv_nsec))
  }

  /// The header of the image file at `path` (from the cache when it holds
  /// the file), read without decoding.
  public func header(ofFileAt path: String) throws -> ImageHeader {
    if let key = Self.key(path) {
      lock.lock()
      let cached = entries[key]
      lock.unlock()
      if let cached {
        return ImageHeader(
          format: cached.format, width: cached.image.width, height: cached.image.height)
      }
    }
    let data = try CGImage.readImageFile(atPath: path)
    return try CGImage.header(of: data, path: path)
  }

  /// The decoded image of the file at `path`: the cached one when this file
  /// was decoded before, else decoded now, its header checked first against
  /// `maxDimension`, `Limits.maxImagePixels` and the cache's budget.
  /// - Parameter admit: sees the header (of a cached image too) before any
  ///   decoding, and throws to refuse it (a caller's own budget).
  public func image(
    atPath path: String, maxDimension: Int = Limits.maxImageSide,
    admit: (ImageHeader) throws -> Void = { _ in }
  ) throws -> CGImage {
    let key = Self.key(path)
    if let key {
      lock.lock()
      if var entry = entries[key] {
        clock += 1
        entry.used = clock
        entries[key] = entry
        lock.unlock()
        let header = ImageHeader(
          format: entry.format, width: entry.image.width, height: entry.image.height)
        try CGImage.check(header, path: path, maxDimension: maxDimension)
        try admit(header)
        return entry.image
      }
      lock.unlock()
    }
    let data = try CGImage.readImageFile(atPath: path)
    let header = try CGImage.header(of: data, path: path)
    try CGImage.check(header, path: path, maxDimension: maxDimension)
    try admit(header)
    guard header.decodedBytes <= budgetBytes else {
      throw ImageError.overBudget(
        path: path, width: header.width, height: header.height, bytes: header.decodedBytes,
        budget: budgetBytes)
    }
    let image = try CGImage.decode(data: data, path: path, maxDimension: maxDimension)
    lock.lock()
    defer { lock.unlock() }
    decodeCount += 1
    guard let key else { return image }
    // The least recently used go until the new image fits.
    while held + header.decodedBytes > budgetBytes,
      let oldest = entries.min(by: { $0.value.used < $1.value.used })
    {
      held -= oldest.value.image.width * oldest.value.image.height * 4
      entries[oldest.key] = nil
    }
    clock += 1
    entries[key] = Entry(image: image, format: header.format, used: clock)
    held += header.decodedBytes
    return image
  }
}
