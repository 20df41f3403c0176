import Foundation
import Lamina

/// Everything the GL backend needs to draw one frame: the target size, the
/// background, and the draw list.
public struct DrawList {
  /// Target size in pixels.
  public var width: Int, height: Int
  /// Premultiplied background color.
  public var background: SIMD4<Float>
  public var commands: [DrawCommand]
  /// What building the frame took.
  public var stats = FrameBuildStats()

  /// Every item, groups included, depth first.
  public var allItems: [DrawItem] {
    var items: [DrawItem] = []
    func walk(_ commands: [DrawCommand]) {
      for command in commands {
        switch command {
        case .item(let item): items.append(item)
        case .group(let group): walk(group.commands)
        }
      }
    }
    walk(commands)
    return items
  }

  /// Every offscreen group, depth first.
  public var allGroups: [GroupPass] {
    var groups: [GroupPass] = []
    func walk(_ commands: [DrawCommand]) {
      for case .group(let group) in commands {
        groups.append(group)
        walk(group.commands)
      }
    }
    walk(commands)
    return groups
  }
}

/// The old name of `FrameBuildStats`.
@available(*, deprecated, renamed: "FrameBuildStats")
public typealias FrameStats = FrameBuildStats

@available(*, deprecated, renamed: "DrawList")
public typealias Frame = DrawList
