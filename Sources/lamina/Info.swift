import Foundation
import LaminaRender

/// `lamina info [--json]`: opens the GPU context and prints what the GPU is,
/// its limits, the extensions Lamina uses and how the EGL display was chosen.
/// `arguments` are those after `info`. Returns the exit status.
func runInfo(_ arguments: [String]) -> Int32 {
  var json = false
  for argument in arguments.drop(while: { $0 == "info" }) {
    switch argument {
    case "--json": json = true
    case "-h", "--help":
      print(infoUsage)
      return 0
    default:
      writeError("lamina info: unknown argument '\(argument)'\n\(infoUsage)")
      return 2
    }
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

private let infoUsage = """
  usage: lamina info [--json]
    Prints the GPU, its limits and extensions, and how the EGL display was chosen.
    --json   print the same as JSON
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
