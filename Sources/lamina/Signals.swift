import Foundation
import LaminaRender

/// Where the signal handler of `removeTemporariesOnSignal()` writes.
nonisolated(unsafe) var signalPipe: Int32 = -1

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
    VideoEncoder.terminateAll()
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
