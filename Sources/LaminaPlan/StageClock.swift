import Foundation
import LaminaFrame

/// The monotonic clock the stages of a frame are timed with (`lamina
/// bench`'s split of the CPU time), in nanoseconds: a vDSO call, no system
/// call.
package enum StageClock {
  @inline(__always)
  package static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}
