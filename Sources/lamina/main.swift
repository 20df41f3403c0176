import Foundation
import LaminaBatch
import LaminaDraw
import LaminaRender

// lamina: render, inspect and benchmark Lamina scenes. Each subcommand lives
// in its own file, with its usage text, and only parses arguments before
// calling the library; this file dispatches and answers help and --version.

let subcommands: [Subcommand] = [
  Subcommand(
    name: "render",
    summary: "render a scene or Lottie animation to a PNG, numbered PNGs or a video (mp4, webm, gif…)",
    usage: renderUsage, run: runRender),
  Subcommand(
    name: "batch", summary: "render many jobs (JSON lines) in one process, one result line each",
    usage: batchUsage, run: runBatch),
  Subcommand(
    name: "show", summary: "show a scene full-screen (Wayland window or DRM/KMS), animated",
    usage: showUsage, run: runShow),
  Subcommand(
    name: "ctl", summary: "send a command to a display started with 'show --control' (set, get, snapshot…)",
    usage: ctlUsage, run: runCtl),
  Subcommand(
    name: "info",
    summary: "print the GPU, its limits and how the EGL display was chosen; or describe a file",
    usage: infoUsage, run: runInfo),
  Subcommand(
    name: "bench", summary: "measure how fast this machine composites a scene",
    usage: benchUsage, run: runBench),
]

/// The usage of the program or of one subcommand, for `lamina help [NAME]`.
func help(_ name: String?) -> Int32 {
  guard let name else {
    print(overview(subcommands))
    return 0
  }
  if let command = subcommands.first(where: { $0.name == name }) {
    print(command.usage)
    return 0
  }
  printError(unknownCommand(name))
  return 2
}

func unknownCommand(_ name: String) -> String {
  let suggestion = closest(to: name, in: subcommands.map(\.name) + ["help"])
  return "unknown command '\(name)'"
    + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    + "\nrun 'lamina help' for the commands"
}

var arguments = Array(CommandLine.arguments.dropFirst())
// Standard error is the command's: a successful run prints nothing there
// unless --verbose asks for the libraries' messages too.
let verbose = arguments.contains("--verbose")
arguments.removeAll { $0 == "--verbose" }
if verbose {
  LibraryLog.sink = { printError("\($0)") }
} else {
  // Mesa's loader, EGL and driver notices ("MESA-LOADER: failed to open
  // ..."), unless the user set these.
  setenv("EGL_LOG_LEVEL", "fatal", 0)
  setenv("LIBGL_DEBUG", "quiet", 0)
  setenv("MESA_DEBUG", "silent", 0)
  LibraryLog.install()
}

let status: Int32
switch arguments.first {
case nil:
  printError("no command given\n" + overview(subcommands))
  status = 2
case "-h", "--help", "help":
  status = help(arguments.dropFirst().first)
case "--version", "version":
  print(versionReport())
  status = 0
case let name?:
  if let command = subcommands.first(where: { $0.name == name }) {
    // An interrupted render leaves no temporary file behind (batch finishes
    // its running job on SIGTERM itself).
    if name == "render" { removeTemporariesOnSignal() }
    status = command.run(Array(arguments.dropFirst()))
  } else {
    printError(unknownCommand(name))
    status = 2
  }
}
exit(status)
