import Foundation
import Lamina
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

/// `lamina batch --scene-root DIR`: every job's scene file, and every
/// inline scene's `base` (or the working directory), must lie in DIR, by
/// the rule scenes read by. A scene file is read beneath DIR in one step;
/// a base is checked before the job runs.
struct SceneRoot {
  let folder: URL

  /// `--scene-root DIR`, which must be a folder.
  init?(_ options: Options) throws {
    guard let path = options.string("--scene-root") else { return nil }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
    else { throw UsageError("--scene-root: '\(path)' is not a folder") }
    folder = URL(fileURLWithPath: path)
  }

  /// The job with its scene taken from inside the folder: a scene file
  /// read beneath it now; throws, naming the job's place, when the scene
  /// or the base is outside it, missing or unreadable (one message).
  func confine(_ job: RenderJob, place: String) throws -> RenderJob {
    var job = job
    let access = FileAccessPolicy(assetFolders: [folder])
    switch job.source {
    case .file(let url):
      let written = url.relativePath
      do {
        // By its absolute path: one only an asset folder (DIR) may hold.
        let data = try access.read(
          url.path, from: nil, file: place, jsonPath: "scene", maxBytes: Limits.maxSceneFileBytes)
        job.source = .data(data, base: url.deletingLastPathComponent(), name: url.lastPathComponent)
      } catch FileAccessError.tooLarge(_, _, _, let bytes, let limit) {
        throw SceneError.limitExceeded(
          file: url.lastPathComponent, path: "the file",
          exceeded: LimitExceeded(
            what: "bytes of the scene file", found: bytes, limit: limit,
            name: "maxSceneFileBytes"))
      } catch {
        throw refused(place, "scene", written)
      }
    case .inline(_, let base, _):
      let path = base?.path ?? FileManager.default.currentDirectoryPath
      guard FileAccessPolicy.allowsReading(folder: path, in: folder) else {
        throw refused(place, "base", base?.relativePath ?? ".")
      }
    case .data: break
    }
    return job
  }

  private func refused(_ place: String, _ key: String, _ path: String) -> BatchJob.Invalid {
    BatchJob.Invalid(
      description:
        "\(place): \(key): cannot read '\(path)': not inside --scene-root \(folder.path), missing"
        + " or unreadable (no absolute paths elsewhere, no '..' or links that lead out)")
  }
}

/// `lamina batch --output-root DIR`: every job's output must lie in DIR, by
/// the rule scenes read by (no absolute path elsewhere, no `..` or link
/// leading out), checked before the job runs.
struct OutputRoot {
  let folder: URL

  /// `--output-root DIR`, which must be a folder.
  init?(_ options: Options) throws {
    guard let path = options.string("--output-root") else { return nil }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
    else { throw UsageError("--output-root: '\(path)' is not a folder") }
    folder = URL(fileURLWithPath: path)
  }

  /// Throws, naming the job's place, when `job` would write outside the
  /// folder (the same message whether the path exists or not).
  func check(_ job: RenderJob, output: String, place: String) throws {
    let refused = BatchJob.Invalid(
      description:
        "\(place): output: cannot write '\(output)': not inside --output-root \(folder.path)"
        + " (no absolute paths elsewhere, no '..' or links that lead out, no links or"
        + " special files as the output itself)")
    var path = output
    if case .sequence(let range, _, let pattern?, _) = job.output {
      // The frame number in a folder's name would make folders no check saw.
      guard !pattern.suffix.contains("/") else { throw refused }
      path = pattern.path(range.first)
    }
    guard FileAccessPolicy.allowsWriting(path, in: folder) else { throw refused }
  }
}
