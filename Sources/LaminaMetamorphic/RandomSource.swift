/// A seeded source of random choices that gives the same sequence on every
/// machine and toolchain (SplitMix64, with its own range mapping rather
/// than the standard library's, whose algorithm may change), so that a seed
/// names one scene for good.
package struct RandomSource {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  /// A source for a sub-task, independent of how many numbers this one has
  /// drawn so far (relations pick their sites with one).
  package init(seed: UInt64, stream: UInt64) {
    state = seed ^ (stream &* 0xD6E8_FEB8_6659_FD93)
    _ = next()
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in 0..<1 with 53 bits.
  package mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// A whole number in `range`.
  package mutating func int(_ range: ClosedRange<Int>) -> Int {
    let span = UInt64(range.upperBound - range.lowerBound) + 1
    return range.lowerBound + Int(next() % span)
  }

  /// A number in `range`, rounded to `step` (so that it reads back exactly
  /// from a scene file and stays short).
  package mutating func number(_ range: ClosedRange<Double>, step: Double = 0.01) -> Double {
    let v = range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    let rounded = (v / step).rounded() * step
    // Keep a short decimal form: 0.1 * 3 prints as 0.30000000000000004.
    return (rounded * 1e6).rounded() / 1e6
  }

  /// True with probability `p`.
  package mutating func chance(_ p: Double) -> Bool { unit() < p }

  package mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

  /// One of `items`, each as likely as its weight.
  package mutating func weighted<T>(_ items: [(T, Double)]) -> T {
    let total = items.reduce(0) { $0 + $1.1 }
    var x = unit() * total
    for (item, weight) in items {
      if x < weight { return item }
      x -= weight
    }
    return items[items.count - 1].0
  }

  /// A random ordering of `items`.
  package mutating func shuffled<T>(_ items: [T]) -> [T] {
    var out = items
    guard out.count > 1 else { return out }
    for i in stride(from: out.count - 1, to: 0, by: -1) {
      out.swapAt(i, int(0...i))
    }
    return out
  }
}
