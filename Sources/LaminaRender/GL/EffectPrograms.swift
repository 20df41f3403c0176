import CGLES3
import Foundation

/// The effect shader (`effect.frag`, `masked.frag`) specialized per
/// combination of what an item needs, compiled the first time it is met.
/// On llvmpipe a branch whose condition differs across a block of pixels
/// runs both ways, so one shader with every feature behind `if`s would make
/// every rounded corner pay for shadows and clips; variants pay only for
/// their own work.
final class EffectPrograms {
  struct Variant: Hashable {
    /// 0 none, 1 fill, 2 ring, 3 blurred in closed form, 4 blurred and integrated.
    var shapeMode: Int
    var textured: Bool
    var clip: Bool
    var masked: Bool
  }

  private var programs: [Variant: GLProgram] = [:]

  func program(_ variant: Variant) throws -> GLProgram {
    if let program = programs[variant] { return program }
    var defines: [String] = []
    if variant.clip { defines.append("CLIP") }
    let program: GLProgram
    if variant.masked {
      program = try GLProgram(
        vertex: "effect.vert.glsl", fragment: "masked.frag.glsl", defines: defines)
    } else {
      defines.append("SHAPE_MODE \(variant.shapeMode)")
      if variant.textured { defines.append("TEXTURED") }
      program = try GLProgram(
        vertex: "effect.vert.glsl", fragment: "effect.frag.glsl", defines: defines)
    }
    programs[variant] = program
    return program
  }

  /// The variant an item needs.
  static func variant(for item: DrawItem) -> Variant {
    var mode = 0
    if let shape = item.shape {
      switch shape.mode {
      case .fill: mode = 1
      case .ring: mode = 2
      case .blur:
        // See shape.glsl: the closed forms hold unless the blur is about
        // as wide as a tenth to 0.6 of the radius.
        let r = shape.shape.radii.max()
        mode = r > 0 && shape.width > 0.1 * r && shape.width < 0.6 * r ? 4 : 3
      }
    }
    let masked: Bool
    let textured: Bool
    switch item.material {
    case .solid: (masked, textured) = (false, false)
    case .masked: (masked, textured) = (true, true)
    default: (masked, textured) = (false, true)
    }
    return Variant(shapeMode: mode, textured: textured, clip: item.clip != nil, masked: masked)
  }

  deinit {
    for program in programs.values { glDeleteProgram(program.id) }
  }
}
