import Foundation
import Lamina

/// One step of a frame, in painter's order.
package enum DrawCommand {
  case item(DrawItem)
  case group(GroupPass)

  /// The blend mode the command composites with, or nil for source-over.
  package var blendModeName: String? {
    switch self {
    case .item(let item): if case .composite(let name) = item.blend { return name }
    case .group(let group): if case .composite(let name) = group.blend { return name }
    }
    return nil
  }

  /// Pixels the command can touch.
  package var bounds: PixelRect {
    switch self {
    case .item(let item): return item.bounds
    case .group(let group): return group.bounds
    }
  }

  /// The command cut by half-planes given in another plane's coordinates;
  /// `toPlane` maps target pixels to that plane.
  func clipped(by halfPlanes: [SIMD3<Double>], targetToPlane: Homography) -> DrawCommand {
    switch self {
    case .item(var item):
      let toPlane = Homography(item.matrix).then(targetToPlane)
      item.clipPlanes += halfPlanes.map { toPlane.pullBack($0) }
      return .item(item)
    case .group(let group):
      let copy = group.copy()
      copy.clipPlanes += halfPlanes.map { targetToPlane.pullBack($0) }
      return .group(copy)
    }
  }

  /// True when the command reads what is behind it: a blend mode that
  /// does, or a layer's background filters.
  var blendsWithBackdrop: Bool {
    switch self {
    case .item(let item): return item.blend.readsBackdrop
    // A layer's background filters read what is behind it too.
    case .group(let group): return group.blend.readsBackdrop || group.backdrop
    }
  }

  /// Multiplies the command's straight colors by `tint` (straight RGBA):
  /// premultiplied, that is RGB by tint.rgb × tint.a and alpha by tint.a.
  mutating func multiplyColor(_ tint: SIMD4<Float>) {
    let factor = SIMD4(tint.x * tint.w, tint.y * tint.w, tint.z * tint.w, tint.w)
    switch self {
    case .item(var item):
      item.color *= factor
      self = .item(item)
    case .group(let group):
      // A group composites with one opacity; color tints go to its contents.
      let copy = group.copy()
      for i in copy.commands.indices { copy.commands[i].multiplyColor(tint) }
      self = .group(copy)
    }
  }

  /// Gives the items a new serial (groups' items included) where they
  /// have none: they were derived or changed since they last had one.
  mutating func assignSerials(_ last: inout UInt64) {
    var visited: Set<ObjectIdentifier> = []
    assignSerials(&last, visited: &visited)
  }

  /// Each group once: a group drawn from several places (nested shadows
  /// each draw their subtree) would make the walk exponential in the nesting.
  private mutating func assignSerials(_ last: inout UInt64, visited: inout Set<ObjectIdentifier>) {
    switch self {
    case .item(var item):
      guard item.serial == 0 else { return }
      last += 1
      item.serial = last
      self = .item(item)
    case .group(let group):
      guard visited.insert(ObjectIdentifier(group)).inserted else { return }
      // Groups are made or copied by the derivation that changes them.
      for i in group.commands.indices { group.commands[i].assignSerials(&last, visited: &visited) }
      if let mask = group.mask, visited.insert(ObjectIdentifier(mask)).inserted {
        for i in mask.commands.indices { mask.commands[i].assignSerials(&last, visited: &visited) }
      }
    }
  }

  mutating func multiplyOpacity(_ opacity: Float) {
    switch self {
    case .item(var item):
      item.multiplyOpacity(opacity)
      self = .item(item)
    case .group(let group):
      let copy = group.copy()
      copy.opacity *= opacity
      self = .group(copy)
    }
  }
}
