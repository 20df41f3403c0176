import Foundation
import Lamina
import LaminaRender
import LaminaScene

/// `lamina batch --scene-root DIR`: every job's scene file, and every
/// inline scene's `base` (or the working directory), must lie in DIR, by
/// the rule scenes read by. A scene file is read beneath DIR in one step;
/// a base is checked before the job runs.
package struct SceneRoot {
  package let folder: URL

  /// The folder `folder` (the command checks that it is one: `--scene-root`).
  package init(folder: URL) {
    self.folder = folder
  }

  /// The job with its scene taken from inside the folder: a scene file
  /// read beneath it now; throws, naming the job's place, when the scene
  /// or the base is outside it, missing or unreadable (one message).
  package func confine(_ job: RenderJob, place: String) throws -> RenderJob {
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
          file: url.lastPathComponent, path: "the scene file",
          exceeded: LimitExceeded(
            what: "size in bytes", found: bytes, limit: limit,
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
package struct OutputRoot {
  package let folder: URL

  /// The folder `folder` (the command checks that it is one: `--output-root`).
  package init(folder: URL) {
    self.folder = folder
  }

  /// Throws, naming the job's place, when `job` would write outside the
  /// folder (the same message whether the path exists or not).
  package func check(_ job: RenderJob, output: String, place: String) throws {
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
