import Foundation
import LaminaBatch
import LaminaDisplay
import LaminaRender
import LaminaScene

let ctlUsage = """
  usage: lamina ctl ADDRESS COMMAND [ARGUMENTS] [--token-file FILE]

  Sends one command to a display started with 'lamina show --control ADDRESS'
  and prints its reply line (exit status 1 when the reply is an error).
  ADDRESS is unix:PATH or tcp:HOST:PORT.

  commands:
    set LAYER.KEY VALUE [--animate SECONDS] [--timing NAME] [--no-animation]
                            set a key path of a layer found by name (or by JSON
                            path: root.sublayers[1].opacity); VALUE is JSON, or
                            text for a text key (price.string 3.99); it animates
                            as Core Animation's implicit animation would
    get LAYER.KEY [--presentation]
                            print the model value (or what is on screen)
    add PARENT LAYER-JSON [--index N]
                            add a scene-format layer under PARENT
    remove LAYER            remove a layer
    replace FILE.json       show another scene file (beside the shown one)
    snapshot FILE.png       write the current frame beneath --output-root
    subscribe TOPIC...      print events (taps, frames, stats, reloads) until
                            interrupted
    send JSON               send one command line as it is (- reads lines from
                            standard input and prints a reply for each)
    ping                    check that the display answers

  options:
    --animate SECONDS       set: the transaction's duration (default 0.25 s, Core
                            Animation's)
    --timing NAME           set: the timing function (linear, easeIn, easeOut,
                            easeInEaseOut, default)
    --no-animation          set: change at once (disableActions)
    --presentation          get: the value on screen now, not the model's
    --index N               add: the index among the parent's sublayers
    --token-file FILE       send {"auth": TOKEN} first (a display started with
                            --control-token)
    -h, --help              print this help

  example:
    lamina ctl unix:/run/kiosk/control.sock set price.string 3.99 --animate 0.4
  """

/// `lamina ctl ADDRESS COMMAND …`: a small client of the control channel.
func runCtl(_ arguments: [String]) -> Int32 {
  exitStatus {
    let options = try Options(
      arguments, valued: ["--animate", "--timing", "--index", "--token-file"],
      switches: ["--presentation", "--no-animation"], command: "ctl", usage: ctlUsage)
    let words = options.positional
    guard words.count >= 2 else { throw UsageError("ctl needs an address and a command\n" + ctlUsage) }
    let address: ControlAddress
    do {
      address = try ControlAddress(words[0])
    } catch {
      throw UsageError("\(error)")
    }
    let command = words[1]
    let rest = Array(words.dropFirst(2))
    func needs(_ count: Int, _ shape: String) throws {
      guard rest.count == count else { throw UsageError("ctl \(command) expects \(shape)") }
    }
    var lines: [String] = []
    var streaming = false
    switch command {
    case "set":
      try needs(2, "LAYER.KEY VALUE")
      let (layer, key) = try splitKeyPath(rest[0])
      var body: [(String, String)] = [
        ("layer", jsonString(layer)), ("key", jsonString(key)), ("text", jsonString(rest[1])),
      ]
      if let seconds = try options.number("--animate", range: 0...1e9) {
        body.append(("duration", ControlJSON.number(seconds)))
      }
      if let timing = options.string("--timing") { body.append(("timingFunction", jsonString(timing))) }
      if options.has("--no-animation") { body.append(("disableActions", "true")) }
      lines = ["{\"set\": {" + body.map { "\(jsonString($0.0)): \($0.1)" }.joined(separator: ", ") + "}}"]
    case "get":
      try needs(1, "LAYER.KEY")
      let (layer, key) = try splitKeyPath(rest[0])
      lines = [
        "{\"get\": {\"layer\": \(jsonString(layer)), \"key\": \(jsonString(key)), \"presentation\": \(options.has("--presentation"))}}"
      ]
    case "add":
      try needs(2, "PARENT LAYER-JSON")
      let index = try options.integer("--index", range: 0...Int(Int32.max)).map { ", \"index\": \($0)" } ?? ""
      lines = ["{\"add\": {\"parent\": \(jsonString(rest[0])), \"layer\": \(rest[1])\(index)}}"]
    case "remove":
      try needs(1, "LAYER")
      lines = ["{\"remove\": {\"layer\": \(jsonString(rest[0]))}}"]
    case "replace":
      try needs(1, "FILE.json")
      lines = ["{\"replace\": {\"file\": \(jsonString(rest[0]))}}"]
    case "snapshot":
      try needs(1, "FILE.png")
      lines = ["{\"snapshot\": {\"file\": \(jsonString(rest[0]))}}"]
    case "subscribe":
      guard !rest.isEmpty else { throw UsageError("ctl subscribe expects one or more topics") }
      lines = ["{\"subscribe\": [" + rest.map(jsonString).joined(separator: ", ") + "]}"]
      streaming = true
    case "ping":
      try needs(0, "no arguments")
      lines = ["{\"ping\": {}}"]
    case "send":
      try needs(1, "one JSON command (or - for standard input)")
      if rest[0] == "-" {
        while let line = readLine() { lines.append(line) }
      } else {
        lines = [rest[0]]
      }
    default:
      throw UsageError(
        "unknown ctl command '\(command)'; expected set, get, add, remove, replace, snapshot, subscribe, send or ping"
      )
    }
    let fd = try ControlListener.connect(address)
    defer { close(fd) }
    let reader = ControlLineReader(descriptor: fd)
    if let tokenFile = options.string("--token-file") {
      let token = try ControlListener.token(at: tokenFile)
      try sendLine("{\"auth\": \(jsonString(token))}", to: fd)
      guard let reply = reader.next(), reply.hasPrefix("{\"ok\"") else {
        printError("ctl: the display refused the token")
        return 1
      }
    }
    var failed = false
    for line in lines where !line.trimmingCharacters(in: .whitespaces).isEmpty {
      try sendLine(line, to: fd)
      guard let reply = reader.next() else {
        printError("ctl: the display closed the connection")
        return 1
      }
      print(reply)
      if !reply.hasPrefix("{\"ok\"") { failed = true }
    }
    fflush(stdout)
    if streaming && !failed {
      while let event = reader.next() {
        print(event)
        fflush(stdout)
      }
    }
    return failed ? 1 : 0
  }
}

/// `price.string` → ("price", "string"); `root.sublayers[1].position.x` →
/// ("root.sublayers[1]", "position.x").
func splitKeyPath(_ text: String) throws -> (String, String) {
  if text == "root" || text.hasPrefix("root.") {
    var rest = Substring(text.dropFirst(4))
    var layer = "root"
    while true {
      if rest.hasPrefix(".mask.") {
        layer += ".mask"
        rest = rest.dropFirst(5)
      } else if rest.hasPrefix(".sublayers["), let close = rest.firstIndex(of: "]") {
        layer += rest[..<rest.index(after: close)]
        rest = rest[rest.index(after: close)...]
      } else {
        break
      }
    }
    guard rest.hasPrefix("."), rest.count > 1 else {
      throw UsageError("'\(text)' names no key: write LAYER.KEY (root.sublayers[0].opacity)")
    }
    return (layer, String(rest.dropFirst()))
  }
  guard let dot = text.firstIndex(of: "."), dot != text.startIndex,
    text.index(after: dot) != text.endIndex
  else {
    throw UsageError("'\(text)' names no key: write LAYER.KEY (price.string)")
  }
  return (String(text[..<dot]), String(text[text.index(after: dot)...]))
}

func sendLine(_ line: String, to fd: Int32) throws {
  let bytes = Array((line + "\n").utf8)
  var offset = 0
  while offset < bytes.count {
    let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    if n < 0 && errno == EINTR { continue }
    guard n > 0 else { throw UsageError("ctl: the display closed the connection") }
    offset += n
  }
}

/// Lines read from a socket, blocking.
final class ControlLineReader {
  let descriptor: Int32
  private var buffer: [UInt8] = []

  init(descriptor: Int32) { self.descriptor = descriptor }

  func next() -> String? {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      let n = recv(descriptor, &chunk, chunk.count, 0)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return nil }
      buffer += chunk[..<n]
    }
  }
}
