import Foundation
import Lamina

/// The particles of a `CAEmitterLayer` at a time, as a pure function of the
/// emitter's values, its `seed` and the time: rendering time t gives the same
/// particles from a cold start or after any other frame.
///
/// Cell particle k is born at k / rate seconds (rate = the cell's birthRate
/// times the layer's) and lives for its own lifetime; every random choice of
/// a particle comes from a hash of (seed, cell, k), so nothing carries over
/// from frame to frame and only the living particles are ever computed.
struct EmitterSimulation {
  /// One living particle, in the emitter layer's bounds space.
  struct Particle {
    var cell: CAEmitterCell
    var image: CGImage
    var position: SIMD3<Double>
    /// Size on screen in points (the image's, scaled).
    var size: CGSize
    var rotation: Double
    /// Straight RGBA, each clamped to 0…1.
    var color: SIMD4<Float>
    var birth: Double
  }

  /// The most particles one emitter produces in a frame.
  static let maxParticles = 200_000

  /// The particles alive at `time` seconds of the emitter's life, in the
  /// order its `renderMode` draws them. Cells nested in a cell are emitted
  /// by each of its particles, from where that particle is, for as long as
  /// it lives (a cell without contents emits without being drawn).
  static func particles(of emitter: CAEmitterLayer, at time: Double) -> [Particle] {
    guard time >= 0, let cells = emitter.emitterCells else { return [] }
    var out: [Particle] = []
    emit(cells, of: emitter, at: time, parent: nil, path: 0, into: &out)
    switch emitter.renderMode {
    case .oldestLast: out.sort { $0.birth > $1.birth }
    case .oldestFirst: out.sort { $0.birth < $1.birth }
    case .backToFront: out.sort { $0.position.z < $1.position.z }
    default: break  // unordered and additive: cell by cell, oldest first
    }
    return out
  }

  /// Everything a particle's life depends on, drawn once from its random
  /// stream: its state at any age follows.
  struct Spawn {
    var cell: CAEmitterCell
    var birth: Double
    var lifetime: Double
    var start: SIMD3<Double>
    var velocity: SIMD3<Double>
    var acceleration: SIMD3<Double>
    var scale: Double
    var spin: Double
    var color: SIMD4<Float>

    func position(at age: Double) -> SIMD3<Double> {
      start + velocity * age + acceleration * (0.5 * age * age)
    }
  }

  /// Emits `cells` — from the emitter's shape, or from `parent`'s path while
  /// it lives — appending the particles alive at `time`.
  private static func emit(
    _ cells: [CAEmitterCell], of emitter: CAEmitterLayer, at time: Double, parent: Spawn?,
    path: UInt64, into out: inout [Particle]
  ) {
    let lifeScale = Double(emitter.lifetime)
    for (index, cell) in cells.enumerated() where cell.isEnabled {
      let rate = Double(cell.birthRate) * (parent == nil ? Double(emitter.birthRate) : 1)
      let longest = (Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * lifeScale
      // Descendants can outlive this cell's particles: look back as far as they reach.
      let reach = longest + Self.longestLife(cell.emitterCells ?? [], lifeScale)
      guard rate > 0, rate.isFinite, longest > 0 else { continue }
      let origin = parent?.birth ?? 0
      // Births at origin + k / rate, within the parent's life and up to now.
      var last = time
      if let parent { last = min(time, parent.birth + parent.lifetime) }
      let births = -1...Int(Int32.max)
      let newest = Int(clamping: (last - origin) * rate, to: births, rounding: .down)
      // At most the newest `maxParticles` births are looked at (the scene
      // limits keep real emitters far below).
      let oldest = max(
        0, newest - maxParticles,
        Int(clamping: (time - reach - origin) * rate, to: births, rounding: .up))
      guard newest >= oldest else { continue }
      let cellPath = path &* 31 &+ UInt64(index + 1)
      for k in oldest...newest {
        if out.count >= maxParticles { return }
        let birth = origin + Double(k) / rate
        // Top-level cells keep the simple stream (cell, k); nested ones mix
        // in their parent's identity.
        var random =
          parent == nil
          ? ParticleRandom(seed: emitter.seed, cell: UInt32(index), index: UInt64(k))
          : ParticleRandom(
            seed: emitter.seed, cell: UInt32(truncatingIfNeeded: cellPath),
            index: UInt64(k) ^ (cellPath << 32))
        let lifetime =
          (Double(cell.lifetime) + Double(cell.lifetimeRange) * random.signed()) * lifeScale
        let start = parent.map { $0.position(at: birth - $0.birth) }
        let spawn = Self.spawn(
          cell, emitter: emitter, birth: birth, lifetime: lifetime, start: start, random: &random)
        let age = time - birth
        if age >= 0, age < lifetime, let image = cell.contents as? CGImage,
          let particle = Self.particle(spawn, image: image, age: age)
        {
          out.append(particle)
        }
        if let nested = cell.emitterCells, !nested.isEmpty {
          emit(
            nested, of: emitter, at: time, parent: spawn, path: cellPath &* 1_000_003 &+ UInt64(k),
            into: &out)
        }
      }
    }
  }

  /// The longest life among `cells` and their descendants, chained.
  private static func longestLife(_ cells: [CAEmitterCell], _ lifeScale: Double) -> Double {
    cells.map {
      (Double($0.lifetime) + abs(Double($0.lifetimeRange))) * lifeScale
        + longestLife($0.emitterCells ?? [], lifeScale)
    }.max() ?? 0
  }

  private static func spawn(
    _ cell: CAEmitterCell, emitter: CAEmitterLayer, birth: Double, lifetime: Double,
    start: SIMD3<Double>?, random: inout ParticleRandom
  ) -> Spawn {
    let point = emissionPoint(emitter, &random)
    let direction = emissionDirection(
      longitude: Double(cell.emissionLongitude), latitude: Double(cell.emissionLatitude),
      range: Double(cell.emissionRange), random.unit(), random.unit())
    let speed =
      (Double(cell.velocity) + Double(cell.velocityRange) * random.signed())
      * Double(emitter.velocity)
    let velocity = direction * speed
    let acceleration = SIMD3(
      Double(cell.xAcceleration), Double(cell.yAcceleration), Double(cell.zAcceleration))
    let scale =
      (Double(cell.scale) + Double(cell.scaleRange) * random.signed()) * Double(emitter.scale)
    let spin = (Double(cell.spin) + Double(cell.spinRange) * random.signed()) * Double(emitter.spin)
    let base = cell.color ?? .white
    let ranges = SIMD4(cell.redRange, cell.greenRange, cell.blueRange, cell.alphaRange)
    let jitter = SIMD4(
      Float(random.signed()), Float(random.signed()), Float(random.signed()), Float(random.signed())
    )
    let color =
      SIMD4(Float(base.red), Float(base.green), Float(base.blue), Float(base.alpha)) + ranges
      * jitter
    return Spawn(
      cell: cell, birth: birth, lifetime: lifetime, start: start ?? point, velocity: velocity,
      acceleration: acceleration, scale: scale, spin: spin, color: color)
  }

  /// The direction a particle flies off in, as Apple documents it: the
  /// emission angle has its longitude (azimuth) in the layer's x-y plane,
  /// from +x toward +y, and its latitude out of that plane toward +z (the
  /// viewer); `emissionRange` is the angle of a cone around it (half of it
  /// each side of the axis: 2π is every direction), across which directions
  /// are uniformly distributed (uniform over the cone's cap of the unit
  /// sphere). `u` and `v` are uniform in 0…1.
  static func emissionDirection(
    longitude: Double, latitude: Double, range: Double, _ u: Double, _ v: Double
  ) -> SIMD3<Double> {
    let axis = SIMD3(
      cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
    let half = min(max(range, 0) / 2, .pi)
    guard half > 0 else { return axis }
    // Two directions square to the axis: along the longitude in the plane,
    // and toward the latitude's pole.
    let across = SIMD3(-sin(longitude), cos(longitude), 0)
    let up = SIMD3(
      -sin(latitude) * cos(longitude), -sin(latitude) * sin(longitude), cos(latitude))
    let cosTheta = 1 - u * (1 - cos(half))
    let sinTheta = (max(0, 1 - cosTheta * cosTheta)).squareRoot()
    let phi = 2 * Double.pi * v
    return axis * cosTheta + (across * cos(phi) + up * sin(phi)) * sinTheta
  }

  /// A spawn drawn at `age`, or nil when it is invisible then.
  private static func particle(_ s: Spawn, image: CGImage, age: Double) -> Particle? {
    let cell = s.cell
    let speeds = SIMD4(cell.redSpeed, cell.greenSpeed, cell.blueSpeed, cell.alphaSpeed)
    var color = s.color + speeds * Float(age)
    color = color.replacing(with: 0, where: color .< 0).replacing(with: 1, where: color .> 1)
    let scale = s.scale + Double(cell.scaleSpeed) * age
    guard color.w > 0, scale > 0 else { return nil }
    let contentsScale = cell.contentsScale > 0 ? cell.contentsScale : 1
    let size = CGSize(
      width: CGFloat(image.width) * abs(cell.contentsRect.width) / contentsScale * CGFloat(scale),
      height: CGFloat(image.height) * abs(cell.contentsRect.height) / contentsScale * CGFloat(scale)
    )
    return Particle(
      cell: cell, image: image, position: s.position(at: age), size: size, rotation: s.spin * age,
      color: color, birth: s.birth)
  }

  /// Where a particle starts, by `emitterShape` and `emitterMode`.
  private static func emissionPoint(_ e: CAEmitterLayer, _ random: inout ParticleRandom) -> SIMD3<
    Double
  > {
    let c = SIMD3(
      Double(e.emitterPosition.x), Double(e.emitterPosition.y), Double(e.emitterZPosition))
    let w = Double(e.emitterSize.width)
    let h = Double(e.emitterSize.height)
    let d = Double(e.emitterDepth)
    let mode = e.emitterMode
    switch e.emitterShape {
    case .line:
      return c + SIMD3(w * (random.unit() - 0.5), 0, 0)
    case .rectangle, .cuboid:
      let depth = e.emitterShape == .cuboid ? d : 0
      if mode == .points {
        // The corners.
        let corner = Int(saturating: random.unit() * 4) % 4
        return c + SIMD3(corner % 2 == 0 ? -w / 2 : w / 2, corner < 2 ? -h / 2 : h / 2, 0)
      }
      if mode == .outline {
        // Uniformly along the perimeter.
        var s = random.unit() * 2 * (w + h)
        if s < w { return c + SIMD3(s - w / 2, -h / 2, 0) }
        s -= w
        if s < h { return c + SIMD3(w / 2, s - h / 2, 0) }
        s -= h
        if s < w { return c + SIMD3(w / 2 - s, h / 2, 0) }
        return c + SIMD3(-w / 2, h / 2 - (s - w), 0)
      }
      return c
        + SIMD3(w * (random.unit() - 0.5), h * (random.unit() - 0.5), depth * (random.unit() - 0.5))
    case .circle, .sphere:
      let r = w / 2
      let angle = random.unit() * 2 * .pi
      if mode == .points { return c }
      let radius = mode == .outline ? r : r * random.unit().squareRoot()
      return c + SIMD3(radius * cos(angle), radius * sin(angle), 0)
    default:  // point
      return c
    }
  }
}

/// A counter-based random generator: the values of particle (seed, cell,
/// index) are fixed, whatever else was computed before.
struct ParticleRandom {
  private var state: UInt64

  init(seed: UInt32, cell: UInt32, index: UInt64) {
    state =
      UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(cell) &* 0xC2B2_AE3D_27D4_EB4F
      ^ index &* 0x1656_67B1_9E37_79F9
  }

  /// SplitMix64.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// Uniform in [−1, 1).
  mutating func signed() -> Double { unit() * 2 - 1 }
}
