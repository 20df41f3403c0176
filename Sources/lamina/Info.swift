import Foundation
import LaminaRender

/// `lamina info [--json]`: opens the GPU context and prints what the GPU is,
/// its limits, the extensions Lamina uses and how the EGL display was chosen.
/// `lamina info FILE.json [--json]` describes a document instead
/// (`describeDocument`). `arguments` are those after `info`. Returns the
/// exit status.
func runInfo(_ arguments: [String]) -> Int32 {
  let json: Bool
  do {
    let options = try Options(
      Array(arguments.drop(while: { $0 == "info" })), valued: ExpressionOptions.valued,
      switches: ["--json"],
      command: "info", usage: infoUsage)
    guard options.positional.count <= 1 else {
      throw UsageError("info takes one file at most\n" + infoUsage)
    }
    json = options.has("--json")
    if let file = options.positional.first {
      let expressions = try ExpressionOptions.policy(options)
      return exitStatus { try describeDocument(file, json: json, expressions: expressions) }
    }
  } catch {
    return exitStatus { throw error }
  }

  let context: GPUContext
  do {
    context = try GPUContext.shared()
  } catch {
    if json {
      print(jsonObject(["error": "\(error)"]))
    }
    writeError("lamina info: \(error)")
    return 1
  }

  guard json else {
    print(context.info.report())
    return 0
  }
  do {
    print(try context.info.json())
    return 0
  } catch {
    writeError("lamina info: cannot encode JSON: \(error)")
    return 1
  }
}

let infoUsage = """
  usage: lamina info [--json]
         lamina info FILE.json [--json] [--expressions POLICY]

  Prints which EGL platform was chosen and why (GBM on the first working
  /dev/dri/renderD*, then hardware EGL devices, then Mesa's surfaceless
  platform), the GL renderer, its limits, MSAA samples and the extensions
  Lamina uses.

  With a file, describes it instead (no GPU needed): a Lottie animation
  (.json, .lottie, .tgs) by its size, frame rate, frames and duration,
  layers, markers and every feature the import left out with its JSON
  path; a scene by its canvas, layers and animations.

  options:
    --json                  print the same as JSON
  \(ExpressionOptions.usage)
    -h, --help              print this help

  environment:
    LAMINA_EGL_PLATFORM=gbm|device|surfaceless   try only that EGL platform
    LAMINA_GL_DEBUG=1                            write KHR_debug messages to stderr
  """

private func writeError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

private func jsonObject(_ fields: [String: String]) -> String {
  let data =
    (try? JSONSerialization.data(
      withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
  return String(decoding: data, as: UTF8.self)
}
