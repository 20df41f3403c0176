import CGLES3
import Foundation
import LaminaFrame
import LaminaPlan

/// Questions to the current context that change no state: its strings,
/// limits and extensions (`GPUInfo`, context probing, feature checks).
enum GLQuery {
  /// `glGetString`, or "" when GL has no answer.
  static func string(_ name: Int32) -> String {
    guard let value = glGetString(GLenum(name)) else { return "" }
    return String(cString: value)
  }

  /// `glGetIntegerv` for a value of `count` integers.
  static func integers(_ name: Int32, count: Int = 1) -> [Int] {
    var values = [GLint](repeating: 0, count: max(count, 4))
    glGetIntegerv(GLenum(name), &values)
    return values.prefix(count).map(Int.init)
  }

  /// The current context's extensions (`glGetStringi`, the ES 3 way).
  static func extensions() -> Set<String> {
    var count: GLint = 0
    glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &count)
    var names = Set<String>()
    for index in 0..<max(0, Int(count)) {
      if let name = glGetStringi(GLenum(GL_EXTENSIONS), GLuint(index)) {
        names.insert(String(cString: name))
      }
    }
    return names
  }
}
