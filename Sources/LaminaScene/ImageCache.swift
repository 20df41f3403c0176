import Foundation
import Lamina

/// Decoded images shared by many scene loads (a `lamina batch` process keeps
/// one for all its jobs): each file is decoded once and kept while the
/// cache's decoded bytes stay within `budgetBytes`; past it, the least
/// recently used images are dropped first. A file that changed since it was
/// decoded (size, modification time or inode) is decoded again.
///
/// A scene that is rendering holds its own images, so an image dropped here
/// lives on until that scene goes; one larger than the whole budget is
/// decoded, handed out and not kept.
///
/// ```swift
/// let images = ImageCache(budgetBytes: 256 << 20)
/// for url in scenes {
///   let scene = try SceneLoader.load(contentsOf: url, imageCache: images)
///   ...
/// }
/// ```
public final class ImageCache: @unchecked Sendable {
  /// The most decoded bytes (width × height × 4 per image) kept.
  public let budgetBytes: Int
  private struct Key: Hashable {
    var path: String
    var maxDimension: Int
  }
  private struct Entry {
    var image: CGImage
    var stamp: FileStamp
    var bytes: Int
    var used: UInt64
  }
  /// What identifies a file's contents without reading it.
  private struct FileStamp: Equatable {
    var size: Int64, seconds: Int, nanoseconds: Int, inode: UInt64, device: UInt64
  }
  private var entries: [Key: Entry] = [:]
  private var clock: UInt64 = 0
  private let lock = NSLock()
  /// Decoded bytes held now.
  public private(set) var bytes = 0
  /// Images decoded since the cache was made (misses).
  public private(set) var decodes = 0
  /// Images handed out from the cache (hits).
  public private(set) var hits = 0

  public init(budgetBytes: Int) {
    self.budgetBytes = max(0, budgetBytes)
  }

  /// Images held now.
  public var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return entries.count
  }

  /// The image in the file at `path`, decoded now or earlier.
  /// - Throws: what `CGImage.decode(fileAt:maxDimension:)` throws.
  public func image(atPath path: String, maxDimension: Int) throws -> CGImage {
    let key = Key(
      path: URL(fileURLWithPath: path).standardizedFileURL.path, maxDimension: maxDimension)
    let stamp = Self.stamp(key.path)
    lock.lock()
    clock &+= 1
    if var entry = entries[key], let stamp, entry.stamp == stamp {
      entry.used = clock
      entries[key] = entry
      hits += 1
      lock.unlock()
      return entry.image
    }
    lock.unlock()
    // Decoding runs unlocked: another thread may decode the same file at
    // the same time, and the last one in stays.
    let image = try CGImage.decode(fileAt: path, maxDimension: maxDimension)
    lock.lock()
    defer { lock.unlock() }
    decodes += 1
    if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
    let size = image.width * image.height * 4
    guard let stamp, size <= budgetBytes else { return image }
    clock &+= 1
    entries[key] = Entry(image: image, stamp: stamp, bytes: size, used: clock)
    bytes += size
    while bytes > budgetBytes, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
      bytes -= oldest.value.bytes
      entries[oldest.key] = nil
    }
    return image
  }

  /// Drops every image.
  public func removeAll() {
    lock.lock()
    defer { lock.unlock() }
    entries.removeAll()
    bytes = 0
  }

  private static func stamp(_ path: String) -> FileStamp? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileStamp(
      size: Int64(info.st_size), seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec,
      inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
  }
}
