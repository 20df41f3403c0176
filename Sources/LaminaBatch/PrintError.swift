import Foundation

/// Writes a message to standard error, prefixed with the command's name.
package func printError(_ message: String) {
  FileHandle.standardError.write(Data(("lamina: " + message + "\n").utf8))
}
