import Foundation
import LaminaFrame
import LaminaPlan

/// Time spent inside GL calls, by kind, in nanoseconds. On llvmpipe the
/// calling thread shades vertices and bins triangles inside the draw calls
/// and waits there for a target still being rasterized, so this is the
/// driver's share of a frame's CPU time; what remains of the encoding is
/// Lamina's own.
public struct GLCallTimes: Equatable, Sendable {
  /// Vertex, index, instance and texture data (`glBufferData`, `glTexImage2D`, mipmaps).
  public var uploads: UInt64 = 0
  /// Draws, clears and blits.
  public var draws: UInt64 = 0
  /// Binds, uniforms, viewport, scissor, blending and the other state calls.
  public var state: UInt64 = 0

  public init() {}

  public var total: UInt64 { uploads + draws + state }
}

extension GLDevice {
  /// Runs `body` (GL calls), adding the time it takes to `callTimes[kind]`
  /// when `timesCalls` is on (`lamina bench`); a branch otherwise.
  @inline(__always)
  func timed<T>(_ kind: WritableKeyPath<GLCallTimes, UInt64>, _ body: () throws -> T) rethrows
    -> T
  {
    guard timesCalls else { return try body() }
    let start = StageClock.now()
    defer { callTimes[keyPath: kind] &+= StageClock.now() &- start }
    return try body()
  }
}
