import Foundation
import Lamina

/// Watches a scene file for a display that runs for months: each `poll()`
/// (once per frame is cheap: one `stat`) notices a change on disk and loads
/// the file again. A valid edit replaces the scene; an invalid one (a
/// typo, or a file caught half-written) is reported once and the last good
/// scene keeps running, so a kiosk never goes black because of a bad edit.
public final class SceneWatcher {
  /// What a poll found.
  public enum Change {
    /// The file is as it was when last loaded (or last failed to load).
    case unchanged
    /// The file changed and loaded: show this scene from now on.
    case reloaded(Scene)
    /// The file changed and does not load; the current scene stays.
    case failed(SceneError)
  }

  public let url: URL
  /// The scene to show: the last one that loaded.
  public private(set) var scene: Scene
  /// The decoded images every load shares: an edit that keeps its images
  /// decodes none of them again (and the renderer uploads none again).
  public let imageCache: ImageCache
  private let maxImageDimension: Int
  /// Which image files each load may read.
  public let access: FileAccessPolicy
  private var stamp: Stamp?
  /// Loads the file: the scene loader, unless the watcher was given
  /// another (the command's, which also reads Lottie documents).
  private let load: (URL, Int, ImageCache) throws -> Scene

  /// What identifies a version of the file without reading it.
  struct Stamp: Equatable {
    let modified: Date?
    let size: Int?
    let inode: Int?
  }

  /// Loads the scene at `url` (throwing its error when it does not load:
  /// there is no earlier scene to fall back on yet). Every load, the
  /// reloads too, reads only the image files `access` allows. `load` reads
  /// the file (url, maximum image side, image cache; it must keep to
  /// `access` itself); nil: `SceneLoader.load`.
  public init(
    url: URL, maxImageDimension: Int = SceneLoader.defaultMaxImageDimension,
    imageCache: ImageCache = ImageCache(), access: FileAccessPolicy = .confined,
    load: ((URL, Int, ImageCache) throws -> Scene)? = nil
  ) throws {
    self.url = url
    self.maxImageDimension = maxImageDimension
    self.imageCache = imageCache
    self.access = access
    self.load =
      load ?? { url, side, cache in
        try SceneLoader.load(
          contentsOf: url, maxImageDimension: side, imageCache: cache, access: access)
      }
    stamp = Self.stamp(of: url)
    scene = try self.load(url, maxImageDimension, imageCache)
  }

  /// Checks the file and loads it again when it changed since the last look.
  public func poll() -> Change {
    let now = Self.stamp(of: url)
    guard now != stamp else { return .unchanged }
    stamp = now
    do {
      scene = try load(url, maxImageDimension, imageCache)
      return .reloaded(scene)
    } catch let error as SceneError {
      return .failed(error)
    } catch {
      return .failed(.unreadable(file: url.lastPathComponent, reason: "\(error)"))
    }
  }

  static func stamp(of url: URL) -> Stamp? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
      return nil
    }
    return Stamp(
      modified: attributes[.modificationDate] as? Date,
      size: (attributes[.size] as? NSNumber)?.intValue,
      inode: (attributes[.systemFileNumber] as? NSNumber)?.intValue)
  }
}
