import Foundation
import Lamina
import LaminaScene

/// A command of the control channel (docs/display.md), by its key in the
/// command object: `{"set": {…}}` is `.set`.
enum ControlCommand: String, CaseIterable {
  case set, transaction, add, remove
  case addAnimation = "add-animation"
  case removeAnimation = "remove-animation"
  case replace, get, snapshot, ping
  case auth, subscribe, unsubscribe

  /// Every command's key, scene commands first, as messages list them.
  static let names = ControlCommands.sceneCommands + ControlCommands.channelCommands
}

/// What a client can subscribe to: events the channel sends unasked.
enum ControlTopic: String, CaseIterable, Comparable {
  case taps, frames, stats, reloads

  static func < (a: ControlTopic, b: ControlTopic) -> Bool { a.rawValue < b.rawValue }
}

/// One line of the control channel decoded before anything acts on it: its
/// `id` (echoed in the reply), its command and the command's body.
struct ControlRequest {
  var id: JSON?
  var command: ControlCommand
  var body: JSON

  /// A line that is not a request: the error its reply carries, and the
  /// `id` when the line had a valid one.
  struct Refusal: Error {
    var error: ControlError
    var id: JSON?
  }

  /// The request on `line` (a trailing CR and blank lines already dealt
  /// with by the caller).
  static func decode(_ line: [UInt8]) throws(Refusal) -> ControlRequest {
    let json: JSON
    do {
      json = try SceneLoader.parseJSON(Data(line), fileName: ControlCommands.source)
    } catch {
      throw Refusal(error: ControlError(error, fallbackPath: ""), id: nil)
    }
    var id: JSON?
    if let given = json["id"] {
      switch given {
      case .string(let s) where s.utf8.count <= 256: id = given
      case .number: id = given
      default:
        throw Refusal(
          error: ControlError(
            "command: id: expected a number or a string of at most 256 bytes, found \(given.kindDescription)",
            path: "id"), id: nil)
      }
    }
    guard case .object(let members) = json else {
      throw Refusal(
        error: ControlError(
          "command: expected a command object such as {\"set\": {…}}, found \(json.kindDescription)",
          path: ""), id: id)
    }
    let names = members.map(\.key).filter { $0 != "id" }
    let known = ControlCommand.names
    guard names.count == 1, let name = names.first, let command = ControlCommand(rawValue: name),
      let body = json[name]
    else {
      let unknown = names.first { ControlCommand(rawValue: $0) == nil }
      let message =
        unknown.map {
          "command: unknown command \(MessageText.quoted($0)); expected one of \(known.joined(separator: ", "))"
        } ?? "command: expected exactly one command (\(known.joined(separator: ", "))) and an optional id"
      throw Refusal(error: ControlError(message, path: unknown ?? ""), id: id)
    }
    return ControlRequest(id: id, command: command, body: body)
  }

  /// The topics a `subscribe` or `unsubscribe` body names: one topic or a
  /// list of them.
  func topics() throws(ControlError) -> [ControlTopic] {
    let name = command.rawValue
    let all = ControlTopic.allCases.map(\.rawValue)
    var wanted: [String] = []
    switch body {
    case .string(let s): wanted = [s]
    case .array(let items):
      for (i, item) in items.enumerated() {
        guard case .string(let s) = item else {
          throw ControlError(
            "command: \(name)[\(i)]: expected a topic string, found \(item.kindDescription)",
            path: "\(name)[\(i)]")
        }
        wanted.append(s)
      }
    default:
      throw ControlError(
        "command: \(name): expected a topic or a list of topics (\(all.joined(separator: ", "))), found \(body.kindDescription)",
        path: name)
    }
    var topics: [ControlTopic] = []
    for (i, text) in wanted.enumerated() {
      guard let topic = ControlTopic(rawValue: text) else {
        let place = body == .string(text) ? name : "\(name)[\(i)]"
        throw ControlError(
          "command: \(place): \(MessageText.quoted(text)) is not one of \(all.map { "'\($0)'" }.joined(separator: ", "))",
          path: place)
      }
      topics.append(topic)
    }
    return topics
  }
}
