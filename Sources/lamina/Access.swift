import Foundation
import Lamina
import LaminaBatch
import LaminaRender
import LaminaScene

/// The options of every command that loads scenes (`render`, `batch`,
/// `show`, `bench`): which files a scene may read beyond its own folder
/// (docs/security.md).
enum AccessOptions {
  static let valued: Set<String> = ["--assets"]
  static let switches: Set<String> = ["--allow-any-path"]

  /// Their lines in a subcommand's usage.
  static let usage = """
      --assets DIR            let scenes read the files in DIR and below too
                              (repeatable); by default a scene reads only files in
                              its own folder and below: no absolute paths, no '..'
                              or links leading out, no URLs
      --allow-any-path        let scenes read any file the process can (trusted
                              input only)
    """

  /// The policy the options ask for; an `--assets` that is not a folder is
  /// a usage error.
  static func policy(_ options: Options) throws -> FileAccessPolicy {
    var folders: [URL] = []
    for path in options.strings("--assets") {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
      else { throw UsageError("--assets: '\(path)' is not a folder") }
      folders.append(URL(fileURLWithPath: path))
    }
    return FileAccessPolicy(
      assetFolders: folders, allowsAnyPath: options.has("--allow-any-path"))
  }
}

extension SceneRoot {
  /// `--scene-root DIR`, which must be a folder.
  init?(_ options: Options) throws {
    guard let path = options.string("--scene-root") else { return nil }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
    else { throw UsageError("--scene-root: '\(path)' is not a folder") }
    self.init(folder: URL(fileURLWithPath: path))
  }
}

extension OutputRoot {
  /// `--output-root DIR`, which must be a folder.
  init?(_ options: Options) throws {
    guard let path = options.string("--output-root") else { return nil }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
    else { throw UsageError("--output-root: '\(path)' is not a folder") }
    self.init(folder: URL(fileURLWithPath: path))
  }
}
