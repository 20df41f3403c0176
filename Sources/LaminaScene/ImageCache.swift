import Foundation
import Lamina

/// Decoded images shared by many scene loads (a `lamina batch` process keeps
/// one for all its jobs, `lamina show` one across reloads): each file is
/// decoded once, its header checked before its pixels are allocated, and
/// kept while the cache's decoded bytes stay within `budgetBytes`; past it,
/// the least recently used images are dropped first. Entries that name one
/// file by other paths, or links to it, share the decode. A file that
/// changed since it was decoded (size, modification time or inode) is
/// decoded again.
///
/// A scene that is rendering holds its own images, so an image dropped here
/// lives on until that scene goes; one larger than the whole budget is
/// decoded, handed out and not kept. What one scene may decode in all is
/// `sceneBudgetBytes`, checked from the headers before decoding.
///
/// ```swift
/// let images = ImageCache(budgetBytes: 256 << 20)
/// for url in scenes {
///   let scene = try SceneLoader.load(contentsOf: url, imageCache: images)
///   ...
/// }
/// ```
///
/// Safe to use from any thread.
public final class ImageCache: @unchecked Sendable {
  /// The most decoded bytes (width × height × 4 per image) kept.
  public let budgetBytes: Int
  /// The most decoded bytes one scene loaded through this cache may use
  /// (`Limits.maxDecodedImageBytes` unless given).
  public let sceneBudgetBytes: Int
  /// Which file, decoded for which largest side.
  private struct Key: Hashable {
    var file: FileIdentity
    var maxDimension: Int
  }
  private struct Entry {
    var image: CGImage
    var format: ImageHeader.Format
    var stamp: FileStamp
    var bytes: Int
    var used: UInt64
    /// The paths it was asked for by (standardized).
    var paths: Set<String>
  }
  /// Which file (a link and its target are one).
  private struct FileIdentity: Hashable {
    var device: UInt64, inode: UInt64
  }
  /// Which version of the file, without reading it.
  private struct FileStamp: Equatable {
    var size: Int64, seconds: Int, nanoseconds: Int
  }
  private var entries: [Key: Entry] = [:]
  /// The entry each path gave last: a file replaced at a path (a new inode)
  /// drops the image of the old one.
  private var byPath: [String: Key] = [:]
  private var clock: UInt64 = 0
  private let lock = NSLock()
  private var held = 0
  private var decoded = 0
  private var found = 0

  /// A cache that keeps at most `budgetBytes` of decoded pixels.
  public init(
    budgetBytes: Int = Limits.maxDecodedImageBytes,
    sceneBudgetBytes: Int = Limits.maxDecodedImageBytes
  ) {
    self.budgetBytes = max(0, budgetBytes)
    self.sceneBudgetBytes = max(0, sceneBudgetBytes)
  }

  /// Decoded bytes held now.
  public var bytes: Int { locked { held } }
  /// Images decoded since the cache was made (misses).
  public var decodes: Int { locked { decoded } }
  /// Images handed out from the cache (hits).
  public var hits: Int { locked { found } }
  /// Images held now.
  public var count: Int { locked { entries.count } }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  /// A file's identity (links resolved), or nil when it cannot be examined
  /// (the decoder then reports why): entries of one scene with the same
  /// identity share one image.
  public static func identity(ofFileAt path: String) -> AnyHashable? {
    examine(path).map { AnyHashable($0.0) }
  }

  /// The identity of a file opened through a `FileAccessPolicy`, as
  /// `identity(ofFileAt:)` gives it.
  public static func identity(of file: AllowedFile) -> AnyHashable {
    AnyHashable(FileIdentity(device: file.device, inode: file.inode))
  }

  private static func examine(_ path: String) -> (FileIdentity, FileStamp)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (
      FileIdentity(
        device: UInt64(truncatingIfNeeded: info.st_dev),
        inode: UInt64(truncatingIfNeeded: info.st_ino)),
      FileStamp(
        size: Int64(truncatingIfNeeded: info.st_size), seconds: info.st_mtim.tv_sec,
        nanoseconds: info.st_mtim.tv_nsec)
    )
  }

  /// The image in the file at `path`, decoded now or earlier: a path given
  /// by trusted code, read with no `FileAccessPolicy` (a document's paths
  /// go through one: `image(_:maxDimension:admit:)`). Its header is
  /// checked first (a cached image's too) against `maxDimension` and
  /// `Limits.maxImagePixels`, then handed to `admit`.
  /// - Parameter admit: sees the header before anything is decoded, and
  ///   throws to refuse it (a scene's own budget).
  /// - Throws: what `CGImage.decode(data:path:maxDimension:)` throws, and
  ///   what `admit` throws.
  public func image(
    atPath path: String, maxDimension: Int = Limits.maxImageSide,
    admit: (ImageHeader) throws -> Void = { _ in }
  ) throws -> CGImage {
    guard let file = AllowedFile.trusted(path: path) else {
      throw ImageError.unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    return try image(file, maxDimension: maxDimension, admit: admit)
  }

  /// The image in `file` (opened through a `FileAccessPolicy`), decoded now
  /// or earlier; read through its descriptor, never by its path again.
  /// Errors name it by its path as the document wrote it.
  public func image(
    _ file: AllowedFile, maxDimension: Int = Limits.maxImageSide,
    admit: (ImageHeader) throws -> Void = { _ in }
  ) throws -> CGImage {
    let path = file.reference
    let key = Key(
      file: FileIdentity(device: file.device, inode: file.inode), maxDimension: maxDimension)
    let stamp = FileStamp(
      size: Int64(file.size), seconds: file.modified.seconds,
      nanoseconds: file.modified.nanoseconds)
    let name = file.path
    lock.lock()
    clock &+= 1
    if var entry = entries[key], entry.stamp == stamp {
      entry.used = clock
      if entry.paths.insert(name).inserted { byPath[name] = key }
      entries[key] = entry
      found += 1
      lock.unlock()
      let header = ImageHeader(
        format: entry.format, width: entry.image.width, height: entry.image.height)
      try CGImage.check(header, path: path, maxDimension: maxDimension)
      try admit(header)
      return entry.image
    }
    lock.unlock()
    // Decoding runs unlocked: another thread may decode the same file at
    // the same time, and the last one in stays.
    guard file.size <= Limits.maxImageFileBytes,
      let data = try file.read(maxBytes: Limits.maxImageFileBytes)
    else {
      throw ImageError.fileTooLarge(
        path: path, bytes: max(file.size, Limits.maxImageFileBytes + 1),
        limit: Limits.maxImageFileBytes)
    }
    let header = try CGImage.header(of: data, path: path)
    try CGImage.check(header, path: path, maxDimension: maxDimension)
    try admit(header)
    let image = try CGImage.decode(data: data, path: path, maxDimension: maxDimension)
    lock.lock()
    defer { lock.unlock() }
    decoded += 1
    drop(key)
    if let previous = byPath[name], previous.file != key.file { drop(previous) }
    let size = image.width * image.height * 4
    guard size <= budgetBytes else { return image }
    clock &+= 1
    entries[key] = Entry(
      image: image, format: header.format, stamp: stamp, bytes: size, used: clock, paths: [name])
    byPath[name] = key
    held += size
    while held > budgetBytes, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
      drop(oldest.key)
    }
    return image
  }

  /// Forgets the entry at `key` and the paths that led to it (locked).
  private func drop(_ key: Key) {
    guard let old = entries.removeValue(forKey: key) else { return }
    held -= old.bytes
    for name in old.paths where byPath[name] == key { byPath[name] = nil }
  }

  /// Drops every image.
  public func removeAll() {
    lock.lock()
    defer { lock.unlock() }
    entries.removeAll()
    byPath.removeAll()
    held = 0
  }
}
