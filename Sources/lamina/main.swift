import Foundation
import LaminaDraw
import LaminaRender

// lamina: render, inspect and benchmark Lamina scenes. Each subcommand lives
// in its own file and only parses arguments before calling the library.

let usage = """
  usage: lamina render SCENE.json -o OUT.png [--time SECONDS] [--scale S]
         lamina render SCENE.json --frames FIRST..LAST [--fps 60] [--scale S]
                       (-o 'out/frame-%04d.png' | --video OUT.y4m | --video -)
         lamina show SCENE.json [--wayland | --kms] [--drm /dev/dri/cardN] [--connector NAME]
                     [--mode WxH[@HZ]] [--rotate 0|90|180|270] [--show-damage] [--events]
                     [--stats] [--frames N] [--duration SECONDS]
         lamina info [--json]
         lamina bench SCENE.json [--frames N] [--warmup N] [--start SECONDS] [--fps F]
                                 [--size WxH] [--json]
  any command: --verbose   also print what the GL driver and the text libraries say
  """

/// The signal sources of `removeTemporariesOnSignal()`, kept alive.
nonisolated(unsafe) var signalSources: [DispatchSourceSignal] = []

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
case "render":
  // An interrupted render leaves no temporary file behind.
  removeTemporariesOnSignal()
  status = runRender(Array(arguments.dropFirst()))
case "show": status = runShow(Array(arguments.dropFirst()))
case "info": status = runInfo(Array(arguments.dropFirst()))
case "bench": status = runBench(Array(arguments.dropFirst()))
case "-h", "--help", "help":
  print(usage)
  status = 0
default:
  printError(arguments.first.map { "unknown command '\($0)'\n" + usage } ?? usage)
  status = 2
}
exit(status)

/// On SIGINT, SIGTERM or SIGHUP: the outputs' temporary files go, then the
/// process ends as the signal would have ended it.
func removeTemporariesOnSignal() {
  for number in [SIGINT, SIGTERM, SIGHUP] {
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler {
      OutputFile.removeAllTemporaries()
      signal(number, SIG_DFL)
      raise(number)
    }
    source.resume()
    signalSources.append(source)
  }
}
