import Foundation
import Lamina

/// Group passes: commands drawn offscreen together, then composited once
/// (opacity over overlapping content, masks, filters, blends, clips,
/// shadows, transitions). Each group gets the next id of the frame.
extension FrameBuilder {
  /// A new group pass over `commands`; `bounds` is their union unless given.
  mutating func makeGroup(
    _ commands: [DrawCommand], bounds: PixelRect? = nil, opacity: Float = 1, reason: String
  ) -> GroupPass {
    nextGroupID += 1
    let bounds =
      bounds ?? commands.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.bounds) }
    let group = GroupPass(
      id: nextGroupID, bounds: bounds, opacity: opacity, commands: commands, reason: reason)
    group.instances = instanceIndices
    return group
  }

  /// Replaces the commands from `start` to the end by one group pass of
  /// them (`makeGroup`); `configure` sets what the group does.
  mutating func wrapTail(
    of commands: inout [DrawCommand], from start: Int, bounds: PixelRect? = nil,
    opacity: Float = 1, reason: String, _ configure: (GroupPass) -> Void = { _ in }
  ) {
    let group = makeGroup(
      Array(commands[start...]), bounds: bounds, opacity: opacity, reason: reason)
    configure(group)
    commands.replaceSubrange(start..., with: [.group(group)])
  }
}
