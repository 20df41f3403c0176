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

/// Where the signal handler of `removeTemporariesOnSignal()` writes.
nonisolated(unsafe) var signalPipe: Int32 = -1

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
/// process ends as the signal would have ended it. The handler only writes
/// the signal's number to a pipe (all a handler may safely do); a thread
/// reading it does the rest.
func removeTemporariesOnSignal() {
  var ends: [Int32] = [-1, -1]
  guard pipe(&ends) == 0 else { return }
  signalPipe = ends[1]
  let readEnd = ends[0]
  let thread = Thread {
    var number: UInt8 = 0
    while read(readEnd, &number, 1) != 1 {}
    OutputFile.removeAllTemporaries()
    signal(Int32(number), SIG_DFL)
    raise(Int32(number))
  }
  thread.name = "lamina.signals"
  thread.start()
  for number in [SIGINT, SIGTERM, SIGHUP] {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { received in
      var byte = UInt8(truncatingIfNeeded: received)
      _ = write(signalPipe, &byte, 1)
    }
    sigemptyset(&action.sa_mask)
    sigaction(number, &action, nil)
  }
}
