import Foundation
import Lamina
import LaminaRender
import LaminaScene

/// The control channel of a running display (`lamina show --control`):
/// clients send newline-delimited JSON commands and get one reply line
/// each, in order (docs/display.md, "Driving a display live").
///
/// The display never waits on it. Sockets are read and written on the
/// channel's own thread, non-blocking; a command that touches the scene
/// becomes a `DisplayChange` that the loop applies at its next frame
/// boundary (at most `DisplayLoop.maxChangesPerFrame` a frame), and its
/// reply is queued back. Each client may have `maxInFlight` commands
/// waiting: past that it gets errors, and after `maxRefusals` of them in a
/// row, or with `maxOutputBytes` of replies it does not read, it is
/// disconnected. A line longer than `maxLineBytes` is refused.
public final class ControlServer: @unchecked Sendable {
  /// Commands one client may have waiting for the display.
  public static let maxInFlight = 64
  /// Refusals in a row (a flooding client) before a client is dropped.
  public static let maxRefusals = 64
  /// Replies and events waiting for a client that does not read.
  public static let maxOutputBytes = 4 << 20
  /// The longest command line.
  public static let maxLineBytes = 1 << 20
  /// Clients at once.
  public static let maxClients = 32

  public let address: ControlAddress
  private let listener: Int32
  private weak var loop: DisplayLoop?
  private let commands: ControlCommands
  private let lock = NSLock()
  private var clients: [Int32: Client] = [:]
  private var thread: Thread?
  private var stopping = false
  private let wakeRead: Int32
  private let wakeWrite: Int32
  /// Diagnostics (clients dropped), on the channel's thread.
  public var log: (String) -> Void = { _ in }
  /// A unix socket to remove when the channel closes.
  private let socketPath: String?

  /// One connection.
  final class Client {
    let descriptor: Int32
    var input: [UInt8] = []
    /// Skipping the rest of a line that was too long.
    var discarding = false
    var output: [UInt8] = []
    var outputOffset = 0
    var nextSequence = 0
    var nextToSend = 0
    var replies: [Int: String] = [:]
    var inFlight = 0
    var refusals = 0
    var authorized: Bool
    var topics: Set<ControlTopic> = []
    var closing = false
    var dropped = false

    init(descriptor: Int32, authorized: Bool) {
      self.descriptor = descriptor
      self.authorized = authorized
    }

    var pendingOutput: Int { output.count - outputOffset }
  }

  /// Listens on `address` for commands to `loop`.
  /// - Throws: `ControlSetupError` for an address that is not allowed
  ///   (see `ControlListener.open`) or cannot be listened on.
  public init(
    address: ControlAddress, loop: DisplayLoop, policy: ControlPolicy, allowRemote: Bool = false
  ) throws {
    if !address.isLocal && policy.token == nil {
      throw ControlSetupError(
        "\(address) is not a loopback address: --control-token FILE is required with --control-allow-remote"
      )
    }
    let (fd, bound) = try ControlListener.open(address, allowRemote: allowRemote)
    listener = fd
    self.address = bound
    if case .unix(let path) = address { socketPath = path } else { socketPath = nil }
    self.loop = loop
    commands = ControlCommands(policy: policy)
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    }
    wakeRead = ends[0]
    wakeWrite = ends[1]
    loop.eventHandler = { [weak self, previous = loop.eventHandler] line in
      previous(line)
      self?.tap(line)
    }
    loop.reloadHandler = { [weak self, previous = loop.reloadHandler] file in
      previous(file)
      self?.broadcast(
        .reloads, .object([("event", .string("reload")), ("file", .string(file))]))
    }
    loop.frameHandler = { [weak self, weak loop, previous = loop.frameHandler] time, damage in
      previous(time, damage)
      guard let self, let loop else { return }
      self.frame(time: time, damage: damage, loop: loop)
    }
  }

  deinit {
    close(listener)
    if wakeRead >= 0 { close(wakeRead) }
    if wakeWrite >= 0 { close(wakeWrite) }
    for (fd, _) in clients { close(fd) }
    if let socketPath { unlink(socketPath) }
  }

  /// Starts the channel's thread.
  public func start() {
    let thread = Thread { [weak self] in self?.serve() }
    thread.name = "lamina-control"
    self.thread = thread
    thread.start()
  }

  /// Stops the thread and closes every connection (and the socket file).
  public func stop() {
    lock.lock()
    stopping = true
    lock.unlock()
    wake()
    while true {
      lock.lock()
      let done = thread == nil
      lock.unlock()
      if done { break }
      usleep(1000)
    }
  }

  /// Clients connected now.
  public var clientCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return clients.count
  }

  private func wake() {
    guard wakeWrite >= 0 else { return }
    var one: UInt8 = 1
    _ = write(wakeWrite, &one, 1)
  }

  // MARK: The channel's thread

  private func serve() {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      lock.lock()
      if stopping {
        for (fd, _) in clients { close(fd) }
        clients = [:]
        thread = nil
        lock.unlock()
        return
      }
      var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
      if wakeRead >= 0 { fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)) }
      for (fd, client) in clients {
        var events = Int16(POLLIN)
        if client.pendingOutput > 0 { events |= Int16(POLLOUT) }
        fds.append(pollfd(fd: fd, events: events, revents: 0))
      }
      lock.unlock()
      let count = poll(&fds, nfds_t(fds.count), 1000)
      if count <= 0 { continue }
      for entry in fds where entry.revents != 0 {
        if entry.fd == listener {
          accept()
        } else if entry.fd == wakeRead {
          var bytes = [UInt8](repeating: 0, count: 256)
          while read(wakeRead, &bytes, bytes.count) > 0 {}
        } else {
          service(entry, buffer: &buffer)
        }
      }
      // Flush what the loop queued, drop clients marked for it.
      lock.lock()
      let all = Array(clients.values)
      lock.unlock()
      for client in all { flush(client) }
    }
  }

  private func accept() {
    while true {
      let fd = Glibc.accept(listener, nil, nil)
      guard fd >= 0 else { return }
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      lock.lock()
      let full = clients.count >= Self.maxClients
      if !full {
        clients[fd] = Client(descriptor: fd, authorized: commands.policy.token == nil)
      }
      lock.unlock()
      if full {
        let line = Array(
          (ControlJSON.text(.object([
            ("error", .string("too many clients (\(Self.maxClients)); try again later")),
            ("path", .string("")),
          ])) + "\n").utf8)
        _ = Glibc.send(fd, line, line.count, Int32(MSG_NOSIGNAL))
        close(fd)
      }
    }
  }

  private func service(_ entry: pollfd, buffer: inout [UInt8]) {
    lock.lock()
    guard let client = clients[entry.fd] else {
      lock.unlock()
      return
    }
    lock.unlock()
    if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      let n = recv(entry.fd, &buffer, buffer.count, 0)
      if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
        drop(client, reason: nil)
        return
      }
      if n > 0 { received(buffer[0..<n], from: client) }
    }
    flush(client)
  }

  /// Splits what arrived into lines and handles each.
  private func received(_ bytes: ArraySlice<UInt8>, from client: Client) {
    var start = bytes.startIndex
    for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
      let piece = bytes[start..<i]
      start = i + 1
      if client.discarding {
        client.discarding = false
        client.input = []
        continue
      }
      if client.input.count + piece.count > Self.maxLineBytes {
        client.input = []
        tooLong(client)
        continue
      }
      client.input += piece
      let line = client.input
      client.input = []
      handle(line: line, from: client)
      lock.lock()
      let gone = client.dropped || client.closing
      lock.unlock()
      if gone { return }
    }
    guard !client.discarding else { return }
    client.input += bytes[start...]
    if client.input.count > Self.maxLineBytes {
      client.input = []
      client.discarding = true
      tooLong(client)
    }
  }

  private func tooLong(_ client: Client) {
    fill(
      client, reserve(client),
      error: ControlError(
        "a command line is longer than \(Self.maxLineBytes) bytes; the rest of it is skipped",
        path: ""), id: nil, time: nil)
  }

  /// Takes the next reply slot of `client`.
  private func reserve(_ client: Client) -> Int {
    lock.lock()
    defer { lock.unlock() }
    let sequence = client.nextSequence
    client.nextSequence += 1
    return sequence
  }

  private func handle(line bytes: [UInt8], from client: Client) {
    var line = bytes
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
    let sequence = reserve(client)
    let request: ControlRequest
    do {
      request = try ControlRequest.decode(line)
    } catch {
      fill(client, sequence, error: error.error, id: error.id, time: nil)
      return
    }
    let id = request.id
    if !client.authorized {
      guard request.command == .auth, case .string(let given) = request.body,
        let token = commands.policy.token, Self.same(given, token)
      else {
        fill(
          client, sequence,
          error: ControlError("command: auth: this display needs {\"auth\": TOKEN} first", path: "auth"),
          id: id, time: nil)
        lock.lock()
        client.closing = true
        lock.unlock()
        return
      }
      client.authorized = true
      fill(client, sequence, reply: [], id: id, time: nil)
      return
    }
    switch request.command {
    case .auth:
      fill(client, sequence, reply: [], id: id, time: nil)
    case .subscribe, .unsubscribe:
      let wanted: [ControlTopic]
      do {
        wanted = try request.topics()
      } catch {
        fill(client, sequence, error: error, id: id, time: nil)
        return
      }
      lock.lock()
      if request.command == .subscribe {
        client.topics.formUnion(wanted)
      } else {
        client.topics.subtract(wanted)
      }
      let now = client.topics.sorted()
      lock.unlock()
      fill(
        client, sequence, reply: [("topics", .array(now.map { .string($0.rawValue) }))], id: id,
        time: nil)
    default:
      schedule(request.command, request.body, id: id, sequence: sequence, client: client)
    }
  }

  /// Compares tokens in time independent of where they differ.
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = x.count ^ y.count
    for i in 0..<max(x.count, y.count) {
      difference |= Int((i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0))
    }
    return difference == 0
  }

  /// Sends a command that needs the scene to the loop, unless `client` has
  /// too many waiting.
  private func schedule(
    _ command: ControlCommand, _ body: JSON, id: JSON?, sequence: Int, client: Client
  ) {
    let name = command.rawValue
    lock.lock()
    let full = client.inFlight >= Self.maxInFlight
    if full {
      client.refusals += 1
    } else {
      client.inFlight += 1
      client.refusals = 0
    }
    let refusals = client.refusals
    lock.unlock()
    if full {
      fill(
        client, sequence,
        error: ControlError(
          "command: \(Self.maxInFlight) commands are already waiting for the display; wait for their replies",
          path: name), id: id, time: nil)
      if refusals >= Self.maxRefusals {
        lock.lock()
        client.closing = true
        lock.unlock()
      }
      return
    }
    guard let loop else {
      finish(client, sequence, error: ControlError("command: the display has stopped", path: name), id: id, time: nil)
      return
    }
    let change = makeChange(command, body, id: id, sequence: sequence, client: client)
    if !loop.schedule(change) {
      finish(
        client, sequence,
        error: ControlError("command: the display is busy (too many commands waiting); try again", path: name),
        id: id, time: nil)
    }
  }

  /// The change a command makes, answering on the loop's thread.
  private func makeChange(
    _ command: ControlCommand, _ body: JSON, id: JSON?, sequence: Int, client: Client
  ) -> DisplayChange {
    let commands = self.commands
    let name = command.rawValue
    let change = DisplayChange { [weak self] editor in
      guard let self else { return }
      let time = JSON.number(editor.time)
      do {
        switch command {
        case .ping:
          self.finish(client, sequence, reply: [("frames", .number(Double(editor.framesPresented)))], id: id, time: time)
        case .set, .add, .remove, .addAnimation, .removeAnimation:
          let edit = try commands.edit(.object([(name, body)]), at: "", in: editor)
          // A set may carry its own transaction's settings.
          let settings = try self.settings(command == .set ? body : .object([]), at: name, editor: editor)
          CATransaction.begin()
          settings.apply()
          defer { CATransaction.commit() }
          try commands.checkedApply([edit], in: editor, path: name)
          self.finish(client, sequence, reply: self.added(edit), id: id, time: time)
        case .transaction:
          try self.transaction(body, editor: editor, client: client, sequence: sequence, id: id)
        case .get:
          let (layer, key, presentation) = try commands.get(body, at: name, in: editor)
          editor.afterFrame { editor in
            let source = presentation ? (editor.presentationLayer(for: layer) ?? layer) : layer
            let value = ControlJSON.value(source.value(forKeyPath: key))
            self.finish(client, sequence, reply: [("value", value)], id: id, time: time)
          }
        case .snapshot:
          let url = try commands.snapshotURL(body, at: name)
          editor.afterFrame { editor in
            do {
              guard let image = editor.snapshot() else {
                throw ControlError("command: snapshot: no frame has been drawn yet", path: name)
              }
              try image.writePNG(to: url)
              self.finish(
                client, sequence,
                reply: [
                  ("file", .string(url.path)), ("width", .number(Double(image.width))),
                  ("height", .number(Double(image.height))),
                ], id: id, time: time)
            } catch {
              self.finish(client, sequence, error: ControlError(error, fallbackPath: name), id: id, time: time)
            }
          }
        case .replace:
          let scene = try commands.replacement(body, at: name, in: editor)
          editor.show(scene)
          self.finish(client, sequence, reply: [("file", .string(scene.fileName))], id: id, time: time)
        case .auth, .subscribe, .unsubscribe:
          // Answered by the channel, never scheduled.
          throw ControlError("command: unknown command \(MessageText.quoted(name))", path: name)
        }
      } catch {
        self.finish(client, sequence, error: ControlError(error, fallbackPath: name), id: id, time: time)
      }
    }
    return change
  }

  /// What a reply adds for an edit: nothing, but the path of a layer added.
  private func added(_ edit: ControlEdit) -> [(String, JSON)] {
    guard case .add(let parent, _, let layer) = edit,
      let index = parent.sublayers?.firstIndex(where: { $0 === layer })
    else { return [] }
    return [("index", .number(Double(index)))]
  }

  /// `{"transaction": {"changes": [...], "duration": …}}`: decoded whole,
  /// checked against the limits, then applied in the loop's transaction.
  private func transaction(
    _ body: JSON, editor: DisplayEditor, client: Client, sequence: Int, id: JSON?
  ) throws {
    let here = "transaction"
    _ = try commands.members(
      body, here, "a transaction object",
      allowed: ["changes", "duration", "timingFunction", "disableActions", "completion"])
    let changesJSON = try commands.required(body, "changes", here)
    guard case .array(let items) = changesJSON else {
      throw SceneError.wrongType(
        file: ControlCommands.source, path: "\(here).changes", expected: "a list of edits",
        found: changesJSON.kindDescription)
    }
    guard items.count <= DisplayLoop.maxChangesPerFrame else {
      throw SceneError.limitExceeded(
        file: ControlCommands.source, path: "\(here).changes",
        exceeded: LimitExceeded(
          what: "edits in one transaction", found: items.count,
          limit: DisplayLoop.maxChangesPerFrame, name: "maxChangesPerFrame"))
    }
    let edits = try items.enumerated().map { i, item in
      try commands.edit(item, at: "\(here).changes[\(i)]", in: editor)
    }
    let settings = try self.settings(body, at: here, editor: editor)
    var completion = false
    if let c = body["completion"] {
      guard case .bool(let b) = c else {
        throw SceneError.wrongType(
          file: ControlCommands.source, path: "\(here).completion",
          expected: "true or false", found: c.kindDescription)
      }
      completion = b
    }
    // Limits first, with actions off; nothing has changed if this throws.
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    let undo = commands.apply(edits)
    var violation: Error?
    do {
      try editor.scene.checkLimits(editor.scene.root)
    } catch {
      violation = error
    }
    for step in undo.reversed() { step() }
    CATransaction.commit()
    if let violation {
      if case .limitExceeded(_, let place, let exceeded)? = violation as? SceneError {
        throw ControlError(
          "\(ControlCommands.source): \(here): \(exceeded) (at \(place) once applied)", path: here)
      }
      throw violation
    }
    CATransaction.begin()
    settings.apply()
    if completion {
      let started = editor.time
      CATransaction.setCompletionBlock { [weak self, weak client] in
        guard let self, let client else { return }
        var members: [(String, JSON)] = [("event", .string("finished"))]
        if let id { members.append(("id", id)) }
        members.append(("started", .number(started)))
        self.send(.object(members), to: client)
      }
    }
    commands.apply(edits)
    CATransaction.commit()
    var reply: [(String, JSON)] = [("changes", .number(Double(edits.count)))]
    if completion { reply.append(("completion", .bool(true))) }
    finish(client, sequence, reply: reply, id: id, time: .number(editor.time))
  }

  /// A transaction's settings, as a command gives them.
  struct Settings {
    var duration: Double?
    var timingFunction: CAMediaTimingFunction?
    var disableActions: Bool?

    /// Sets them on the innermost open transaction.
    func apply() {
      if let duration { CATransaction.setAnimationDuration(duration) }
      if let timingFunction { CATransaction.setAnimationTimingFunction(timingFunction) }
      if let disableActions { CATransaction.setDisableActions(disableActions) }
    }
  }

  /// `duration`, `timingFunction` and `disableActions` of `body`.
  private func settings(_ body: JSON, at here: String, editor: DisplayEditor) throws -> Settings {
    let pieces = commands.fragments(editor)
    var settings = Settings()
    if let d = body["duration"] {
      let v = try pieces.number(d, at: "\(here).duration")
      guard v >= 0, v <= Limits.maxTime else {
        throw SceneError.outOfRange(
          file: ControlCommands.source, path: "\(here).duration",
          expected: "a duration ≥ 0 and ≤ \(Scene.seconds(Limits.maxTime)) seconds",
          found: ControlJSON.number(v))
      }
      settings.duration = v
    }
    settings.timingFunction = try body["timingFunction"].map {
      try pieces.timingFunction($0, at: "\(here).timingFunction")
    }
    if let d = body["disableActions"] {
      guard case .bool(let b) = d else {
        throw SceneError.wrongType(
          file: ControlCommands.source, path: "\(here).disableActions",
          expected: "true or false", found: d.kindDescription)
      }
      settings.disableActions = b
    }
    return settings
  }

  // MARK: Replies and events

  /// A reply from the loop: the command is no longer in flight.
  private func finish(_ client: Client, _ sequence: Int, reply: [(String, JSON)], id: JSON?, time: JSON?) {
    lock.lock()
    client.inFlight = max(0, client.inFlight - 1)
    lock.unlock()
    fill(client, sequence, reply: reply, id: id, time: time)
  }

  private func finish(_ client: Client, _ sequence: Int, error: ControlError, id: JSON?, time: JSON?) {
    lock.lock()
    client.inFlight = max(0, client.inFlight - 1)
    lock.unlock()
    fill(client, sequence, error: error, id: id, time: time)
  }

  private func fill(_ client: Client, _ sequence: Int, reply: [(String, JSON)], id: JSON?, time: JSON?) {
    var members: [(key: String, value: JSON)] = [("ok", .bool(true))]
    if let id { members.append(("id", id)) }
    if let time { members.append(("time", time)) }
    for (key, value) in reply { members.append((key, value)) }
    fill(client, sequence, line: ControlJSON.text(.object(members)))
  }

  private func fill(_ client: Client, _ sequence: Int, error: ControlError, id: JSON?, time: JSON?) {
    var members: [(key: String, value: JSON)] = [
      ("error", .string(error.message)), ("path", .string(error.path)),
    ]
    if let id { members.append(("id", id)) }
    if let time { members.append(("time", time)) }
    fill(client, sequence, line: ControlJSON.text(.object(members)))
  }

  /// Puts a reply in its slot and moves the replies now in order to the
  /// client's output.
  private func fill(_ client: Client, _ sequence: Int, line: String) {
    lock.lock()
    client.replies[sequence] = line
    // Replies held back behind ones the display has not given yet: a
    // client that keeps sending while it waits is dropped.
    if client.replies.count > Self.maxInFlight + Self.maxRefusals {
      client.closing = true
      client.replies = [:]
    }
    while let next = client.replies.removeValue(forKey: client.nextToSend) {
      append(next, to: client)
      client.nextToSend += 1
    }
    lock.unlock()
    wake()
  }

  /// Appends a line to the output (under the lock); a client that lets too
  /// much pile up is dropped.
  private func append(_ line: String, to client: Client) {
    guard !client.dropped else { return }
    if client.pendingOutput + line.utf8.count > Self.maxOutputBytes {
      client.closing = true
      client.output = []
      client.outputOffset = 0
      return
    }
    if client.outputOffset > 65536 {
      client.output.removeFirst(client.outputOffset)
      client.outputOffset = 0
    }
    client.output += line.utf8
    client.output.append(UInt8(ascii: "\n"))
  }

  /// An event line for one client.
  private func send(_ event: JSON, to client: Client) {
    lock.lock()
    append(ControlJSON.text(event), to: client)
    lock.unlock()
    wake()
  }

  /// An event line for every client subscribed to `topic`.
  private func broadcast(_ topic: ControlTopic, _ event: JSON) {
    lock.lock()
    let subscribers = clients.values.filter { $0.topics.contains(topic) }
    guard !subscribers.isEmpty else {
      lock.unlock()
      return
    }
    let line = ControlJSON.text(event)
    for client in subscribers { append(line, to: client) }
    lock.unlock()
    wake()
  }

  private func tap(_ line: String) {
    // "tap NAME X Y"
    let parts = line.split(separator: " ")
    guard parts.count >= 4, let x = Double(parts[parts.count - 2]), let y = Double(parts[parts.count - 1])
    else { return }
    let name = parts[1..<(parts.count - 2)].joined(separator: " ")
    broadcast(
      .taps,
      .object([("event", .string("tap")), ("layer", .string(name)), ("x", .number(x)), ("y", .number(y))]))
  }

  private var lastStats = -Double.infinity

  private func frame(time: Double, damage: Int, loop: DisplayLoop) {
    broadcast(
      .frames,
      .object([
        ("event", .string("frame")), ("time", .number(time)),
        ("frame", .number(Double(loop.framesPresented))), ("damage", .number(Double(damage))),
      ]))
    let now = monotonicSeconds()
    guard now - lastStats >= 1 else { return }
    lastStats = now
    let stats = loop.pacer.statistics
    var members: [(key: String, value: JSON)] = [
      ("event", .string("stats")), ("presented", .number(Double(stats.presented))),
      ("missedVblanks", .number(Double(stats.missedVblanks))),
    ]
    if let fps = stats.fps { members.append(("fps", .number(fps))) }
    for (name, p) in [("p50", 0.5), ("p95", 0.95), ("p99", 0.99)] {
      if let ms = stats.frameTime(percentile: p) { members.append((name, .number(ms * 1000))) }
    }
    broadcast(.stats, .object(members))
  }

  /// Writes what is waiting; closes a client marked for it once its last
  /// line is out (or at once when it does not read).
  private func flush(_ client: Client) {
    lock.lock()
    defer { lock.unlock() }
    guard !client.dropped else { return }
    while client.pendingOutput > 0 {
      let n = client.output[client.outputOffset...].withUnsafeBytes { raw in
        Glibc.send(client.descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
      }
      if n > 0 {
        client.outputOffset += n
        continue
      }
      if n < 0 && (errno == EAGAIN || errno == EINTR) { break }
      // The peer is gone.
      dropLocked(client)
      return
    }
    if client.pendingOutput == 0 {
      client.output = []
      client.outputOffset = 0
      if client.closing { dropLocked(client) }
    } else if client.closing && client.output.isEmpty {
      dropLocked(client)
    }
  }

  private func drop(_ client: Client, reason: String?) {
    lock.lock()
    dropLocked(client)
    lock.unlock()
    if let reason { log(reason) }
  }

  private func dropLocked(_ client: Client) {
    guard !client.dropped else { return }
    client.dropped = true
    clients.removeValue(forKey: client.descriptor)
    close(client.descriptor)
  }
}
