import CFileAccess
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Which files an untrusted document (a scene file, an inline batch scene,
/// a Lottie document) may read when it names one: by default only files in
/// its own folder and below (docs/security.md).
///
/// A path is refused before anything is read when it is absolute (unless
/// it lies in an asset folder), when its `..` leave the allowed folders, when a symbolic link on the way leads out
/// of them, or when it is a URL (`http:`, `file:`, …: nothing is ever
/// fetched; data URIs are for the caller to decode). The check and the
/// open are one step (`openat2` with `RESOLVE_BENEATH`, or a walk that
/// opens each component without following links where the kernel lacks
/// it), so a link swapped in between cannot lead out. Hard links cannot be
/// told apart from the file itself.
///
/// A refused path and one that is missing or unreadable give the same
/// error, so that a document cannot learn what exists outside its folder.
///
/// ```swift
/// let access = FileAccessPolicy(assetFolders: [URL(fileURLWithPath: "/srv/shared-assets")])
/// let scene = try SceneLoader.load(contentsOf: url, access: access)
/// let bytes = try access.read("images/a.png", from: folder, file: "doc.json",
///                             jsonPath: "assets[0].p", maxBytes: Limits.maxImageFileBytes)
/// ```
public struct FileAccessPolicy: Sendable, Equatable {
  /// Folders beyond the document's own whose files (and those below) it
  /// may read (`--assets DIR`).
  public var assetFolders: [URL]
  /// Every path the process can read is allowed (`--allow-any-path`: for
  /// trusted input only).
  public var allowsAnyPath: Bool

  /// How paths beneath a folder are opened: `openat2` when the kernel has
  /// it, else the walk; tests force the walk.
  package enum Resolution: Sendable { case automatic, walk }
  package var resolution = Resolution.automatic

  /// The document's own folder and below, and `assetFolders`.
  public init(assetFolders: [URL] = [], allowsAnyPath: Bool = false) {
    self.assetFolders = assetFolders
    self.allowsAnyPath = allowsAnyPath
  }

  /// Only the document's own folder and below: the default for anything
  /// loaded from a file or from bytes.
  public static let confined = FileAccessPolicy()
  /// Any path (trusted input).
  public static let anyPath = FileAccessPolicy(allowsAnyPath: true)

  /// Opens the file that `reference` (a path as the document wrote it)
  /// names, relative to `base` (the document's folder; the working
  /// directory when nil), if this policy allows it.
  /// - Parameters:
  ///   - file: the document's name, and `jsonPath` the key that holds the
  ///     path, both for the error.
  /// - Throws: `FileAccessError.refused` when the path is not allowed, is
  ///   missing, unreadable or not a regular file (one message for all).
  public func open(_ reference: String, from base: URL?, file: String, jsonPath: String) throws
    -> AllowedFile
  {
    let refusal = FileAccessError.refused(
      file: file, jsonPath: jsonPath, reference: reference, confined: !allowsAnyPath)
    guard !reference.isEmpty, !reference.utf8.contains(0), !Self.isURL(reference) else {
      throw refusal
    }
    let folder = Self.absolute(base?.path ?? ".")
    let target = Self.normalize(reference.hasPrefix("/") ? reference : folder + "/" + reference)
    let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
    var descriptor: Int32 = -1
    if allowsAnyPath {
      descriptor = Self.retrying { Glibc.open(target, flags) }
    } else {
      // An absolute path may name a file only in a folder the caller
      // named (an asset folder), never in the document's own.
      let roots =
        (reference.hasPrefix("/") ? [] : [folder]) + assetFolders.map { Self.absolute($0.path) }
      for root in roots {
        guard let rest = Self.path(target, beneath: root) else { continue }
        descriptor = openBeneath(root, rest, flags: flags)
        if descriptor >= 0 { break }
      }
    }
    guard descriptor >= 0 else { throw refusal }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(descriptor)
      throw refusal
    }
    return AllowedFile(
      descriptor: descriptor, info: info, path: target, reference: reference, error: refusal)
  }

  /// The bytes of the file `reference` names (see `open`), refused past
  /// `maxBytes` before they are read.
  /// - Throws: `FileAccessError.refused`, or `.tooLarge`.
  public func read(
    _ reference: String, from base: URL?, file: String, jsonPath: String, maxBytes: Int
  ) throws -> Data {
    let opened = try open(reference, from: base, file: file, jsonPath: jsonPath)
    let tooLarge = { (bytes: Int) in
      FileAccessError.tooLarge(
        file: file, jsonPath: jsonPath, reference: reference, bytes: bytes, limit: maxBytes)
    }
    guard opened.size <= maxBytes else { throw tooLarge(opened.size) }
    guard let data = try opened.read(maxBytes: maxBytes) else { throw tooLarge(maxBytes + 1) }
    return data
  }

  /// Whether a file may be written at `path` (absolute, or relative to
  /// the working directory) under the same rule, confined to the folder
  /// `root` (`lamina batch --output-root`): it lies beneath `root`, its
  /// folders that exist open beneath `root` with no link leading out (those
  /// missing are made later, as plain folders), and the name itself, when
  /// it exists, is a regular file, not a link. A check before the write:
  /// whoever can make links inside `root` while the write runs can still
  /// redirect it (docs/security.md).
  public static func allowsWriting(_ path: String, in root: URL) -> Bool {
    let folder = absolute(root.path)
    guard let rest = Self.path(absolute(path), beneath: folder) else { return false }
    let parts = rest.split(separator: "/").map(String.init)
    guard let last = parts.last else { return false }
    let top = retrying { Glibc.open(folder, LAMINA_O_PATH | O_DIRECTORY | O_CLOEXEC) }
    guard top >= 0 else { return false }
    defer { close(top) }
    var parent = top
    defer { if parent != top { close(parent) } }
    if parts.count > 1 {
      let fd = openFolder(parts.dropLast().joined(separator: "/"), beneath: top)
      if fd < 0 {
        // A folder still to make: only links (or files) on the way refuse.
        guard errno == ENOENT else { return false }
        var prefix: [String] = []
        for part in parts.dropLast() {
          prefix.append(part)
          var info = stat()
          let found = fstatat(top, prefix.joined(separator: "/"), &info, AT_SYMLINK_NOFOLLOW)
          if found != 0 { return errno == ENOENT }
          guard (info.st_mode & S_IFMT) == S_IFDIR else { return false }
        }
        return false
      }
      parent = fd
    }
    var info = stat()
    guard fstatat(parent, last, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return errno == ENOENT }
    return (info.st_mode & S_IFMT) == S_IFREG
  }

  /// Whether the folder at `path` (absolute, or relative to the working
  /// directory) is `root` or lies beneath it by this rule (`lamina batch
  /// --scene-root`: an inline scene's base). A check before the reads,
  /// which then confine themselves to that folder.
  public static func allowsReading(folder path: String, in root: URL) -> Bool {
    let top = absolute(root.path)
    let target = absolute(path)
    if target == top { return true }
    guard let rest = Self.path(target, beneath: top) else { return false }
    let folder = retrying { Glibc.open(top, LAMINA_O_PATH | O_DIRECTORY | O_CLOEXEC) }
    guard folder >= 0 else { return false }
    defer { close(folder) }
    let fd = openFolder(rest, beneath: folder)
    guard fd >= 0 else { return false }
    close(fd)
    return true
  }

  /// A descriptor (`O_PATH`) of the folder `rest` beneath `folder`, with
  /// no link leading out, or -1 with errno set.
  private static func openFolder(_ rest: String, beneath folder: Int32) -> Int32 {
    let flags = LAMINA_O_PATH | O_DIRECTORY | O_CLOEXEC
    let fd = lamina_open_beneath(folder, rest, flags)
    guard fd < 0, errno == ENOSYS else { return fd }
    return walk(folder, rest + "/.", flags: flags)
  }

  // MARK: Opening beneath a folder

  /// A descriptor of `rest` (relative, normalized) opened beneath the folder
  /// `root`, or -1.
  private func openBeneath(_ root: String, _ rest: String, flags: Int32) -> Int32 {
    let folder = Self.retrying { Glibc.open(root, LAMINA_O_PATH | O_DIRECTORY | O_CLOEXEC) }
    guard folder >= 0 else { return -1 }
    defer { close(folder) }
    if resolution == .automatic {
      // EAGAIN: a rename elsewhere raced the lookup; the kernel asks for a retry.
      var attempts = 0
      while true {
        let fd = lamina_open_beneath(folder, rest, flags)
        if fd >= 0 { return fd }
        attempts += 1
        guard (errno == EAGAIN || errno == EINTR) && attempts < 16 else { break }
      }
      // Only a kernel (or a sandbox) without openat2 falls back to the walk.
      guard errno == ENOSYS else { return -1 }
    }
    return Self.walk(folder, rest, flags: flags)
  }

  /// Opens `rest` one component at a time from `folder`, following no link
  /// (each folder opened with `O_NOFOLLOW`, relative to the one before): a
  /// link anywhere on the way is refused, even one that stays inside.
  static func walk(_ folder: Int32, _ rest: String, flags: Int32) -> Int32 {
    let parts = rest.split(separator: "/").map(String.init)
    guard let last = parts.last else { return -1 }
    var current = folder
    defer { if current != folder { close(current) } }
    for part in parts.dropLast() {
      let next = retrying {
        openat(current, part, LAMINA_O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      }
      guard next >= 0 else { return -1 }
      var info = stat()
      guard fstat(next, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
        close(next)
        return -1
      }
      if current != folder { close(current) }
      current = next
    }
    return retrying { openat(current, last, flags | O_NOFOLLOW) }
  }

  private static func retrying(_ body: () -> Int32) -> Int32 {
    while true {
      let fd = body()
      if fd >= 0 || errno != EINTR { return fd }
    }
  }

  // MARK: Paths

  /// Whether `reference` starts with a URL scheme (`http:`, `file:`,
  /// `data:`: two or more letters, digits, `+`, `-` or `.` before a colon).
  public static func isURL(_ reference: String) -> Bool {
    guard let colon = reference.firstIndex(of: ":") else { return false }
    let scheme = reference[..<colon]
    guard scheme.count >= 2, let first = scheme.unicodeScalars.first, first.isASCII,
      CharacterSet.letters.contains(first)
    else { return false }
    return scheme.unicodeScalars.allSatisfy {
      ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "+-.".unicodeScalars.contains($0)
    }
  }

  /// `path` made absolute against the working directory and normalized.
  static func absolute(_ path: String) -> String {
    normalize(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
  }

  /// An absolute path without `.`, `..` (taken lexically, as a browser
  /// resolves a relative URL) or empty components.
  static func normalize(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// `target` relative to `root` when it lies strictly beneath it (both
  /// normalized), else nil.
  static func path(_ target: String, beneath root: String) -> String? {
    let prefix = root == "/" ? "/" : root + "/"
    guard target.hasPrefix(prefix), target.count > prefix.count else { return nil }
    return String(target.dropFirst(prefix.count))
  }
}

/// A regular file that a `FileAccessPolicy` allowed and opened: read it
/// through this (never by its path again, which could lead elsewhere by now).
public final class AllowedFile: @unchecked Sendable {
  /// The path as the document wrote it.
  public let reference: String
  /// The absolute path it was found at (lexically normalized).
  public let path: String
  /// Its size in bytes when it was opened.
  public let size: Int
  /// Device and inode: two names of one file (links) have the same.
  public let device: UInt64, inode: UInt64
  /// Its modification time, seconds and nanoseconds.
  public let modified: (seconds: Int, nanoseconds: Int)
  private let descriptor: Int32
  private let error: FileAccessError

  init(descriptor: Int32, info: stat, path: String, reference: String, error: FileAccessError) {
    self.descriptor = descriptor
    self.path = path
    self.reference = reference
    self.error = error
    size = Int(truncatingIfNeeded: info.st_size)
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
    modified = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
  }

  /// Opens the file at `path` with no policy (trusted callers: a path
  /// given in Swift code); nil with errno set when it cannot be opened or
  /// is not a regular file.
  static func trusted(path: String) -> AllowedFile? {
    var fd: Int32
    repeat {
      fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    } while fd < 0 && errno == EINTR
    guard fd >= 0 else { return nil }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      errno = EINVAL
      return nil
    }
    return AllowedFile(
      descriptor: fd, info: info, path: path, reference: path,
      error: .refused(file: path, jsonPath: "", reference: path, confined: false))
  }

  deinit { close(descriptor) }

  /// The whole file, or nil when it holds more than `maxBytes` (it may
  /// have grown since it was opened: at most `maxBytes + 1` are read).
  /// - Throws: `FileAccessError.refused` when reading fails.
  public func read(maxBytes: Int) throws -> Data? {
    let limit = max(0, maxBytes)
    var data = Data(count: min(size, limit) + 1)
    var filled = 0
    while true {
      if filled == data.count {
        guard data.count <= limit else { return nil }
        data.count = min(limit + 1, data.count * 2)
      }
      let n = data.withUnsafeMutableBytes { raw -> Int in
        guard let start = raw.baseAddress else { return 0 }
        return pread(descriptor, start + filled, raw.count - filled, off_t(filled))
      }
      if n < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw error
      }
      if n == 0 { break }
      filled += n
    }
    guard filled <= limit else { return nil }
    data.count = filled
    return data
  }
}

/// Why a document may not read a file it names.
public enum FileAccessError: Error, Equatable, CustomStringConvertible {
  /// The path is not allowed (absolute, `..` or a link leading out, a
  /// URL), or is missing, unreadable or not a regular file: one message
  /// for all, so that it tells nothing of what exists. `confined`: the
  /// message states the rule and how to allow more.
  case refused(file: String, jsonPath: String, reference: String, confined: Bool)
  /// The file (allowed) is larger than the caller's limit.
  case tooLarge(file: String, jsonPath: String, reference: String, bytes: Int, limit: Int)

  /// The rule, as messages and docs state it.
  public static let rule =
    "a document reads only files in its own folder and below (no absolute paths, no '..' or"
    + " links that lead out, no URLs); pass --assets DIR to allow another folder, or"
    + " --allow-any-path for trusted input"

  public var description: String {
    switch self {
    case .refused(let file, let jsonPath, let reference, let confined):
      let place = jsonPath.isEmpty ? "\(file): " : "\(file): \(jsonPath): "
      guard confined else {
        return place + "cannot read '\(reference)': missing, unreadable or not a regular file"
      }
      return place
        + "cannot read '\(reference)': not allowed, missing or unreadable; \(Self.rule)"
    case .tooLarge(let file, let jsonPath, let reference, let bytes, let limit):
      return
        "\(file): \(jsonPath): '\(reference)' is a file of \(bytes) bytes, more than the limit of \(limit)"
    }
  }
}
