import Foundation
import LaminaBatch
import LaminaRender

/// Minimal option parsing: positional arguments and `--flag value` pairs.
struct Options {
  var positional: [String] = []
  private var values: [String: String] = [:]
  /// Every value of each valued option, in order (`--assets A --assets B`).
  private var repeated: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// - Parameters:
  ///   - valued: options that take a value (`-o`, `--time`, …).
  ///   - switches: options that take none (`--json`).
  ///   - usage: the subcommand's usage: `-h`/`--help` anywhere asks for it
  ///     (a `HelpRequest`), and an unknown option points to it, naming the
  ///     closest known option.
  init(
    _ arguments: [String], valued: Set<String>, switches: Set<String> = [], command: String,
    usage: String
  ) throws {
    if arguments.contains("-h") || arguments.contains("--help") { throw HelpRequest(usage: usage) }
    var i = 0
    while i < arguments.count {
      let argument = arguments[i]
      if valued.contains(argument) {
        guard i + 1 < arguments.count else { throw UsageError("\(argument) needs a value") }
        values[argument] = arguments[i + 1]
        repeated[argument, default: []].append(arguments[i + 1])
        i += 2
      } else if switches.contains(argument) {
        flags.insert(argument)
        i += 1
      } else if argument.hasPrefix("-") && argument.count > 1 {
        let known = (valued.union(switches)).sorted() + ["--help"]
        let suggestion = closest(to: argument, in: known)
        throw UsageError(
          "unknown option '\(argument)' for \(command)"
            + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
            + "\nrun 'lamina help \(command)' for its options")
      } else {
        positional.append(argument)
        i += 1
      }
    }
  }

  /// The option's value (the last one when it is given more than once).
  func string(_ name: String) -> String? { values[name] }
  /// Every value of an option that may be repeated.
  func strings(_ name: String) -> [String] { repeated[name] ?? [] }
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// A finite number, or nil when the option is absent.
  func number(_ name: String, range: ClosedRange<Double>) throws -> Double? {
    guard let text = values[name] else { return nil }
    guard let value = Double(text), value.isFinite else {
      throw UsageError("\(name) expects a number, got '\(text)'")
    }
    guard range.contains(value) else {
      throw UsageError(
        "\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(text)")
    }
    return value
  }

  /// A whole number, or nil when the option is absent.
  func integer(_ name: String, range: ClosedRange<Int>) throws -> Int? {
    guard let text = values[name] else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        "\(name) expects a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'"
      )
    }
    return value
  }

  /// `WxH` in pixels, or nil when the option is absent.
  func size(_ name: String) throws -> (Int, Int)? {
    guard let text = values[name] else { return nil }
    let parts = text.split(separator: "x").map { Int($0) }
    guard parts.count == 2, let w = parts[0], let h = parts[1], w > 0, h > 0, w <= 16384, h <= 16384
    else { throw UsageError("\(name) expects WIDTHxHEIGHT (each 1...16384), got '\(text)'") }
    return (w, h)
  }
}

/// Runs a subcommand's body and turns what it throws into an exit status
/// and a message: 2 for a usage error, 1 for any other failure.
func exitStatus(_ body: () throws -> Int32) -> Int32 {
  do {
    return try body()
  } catch let request as HelpRequest {
    print(request.usage)
    return 0
  } catch let error as UsageError {
    printError(error.description)
    return 2
  } catch {
    printError("\(error)")
    return 1
  }
}
