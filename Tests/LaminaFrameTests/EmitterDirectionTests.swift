import Foundation
import Lamina
import XCTest

@testable import LaminaFrame

/// Where particles go, measured against Apple's documentation of
/// CAEmitterCell: `emissionLongitude` is the emission angle's orientation
/// in the x-y plane (the azimuth), `emissionLatitude` its orientation out
/// of that plane toward z, `emissionRange` a cone around it across which
/// cells are uniformly distributed; `velocity` and the accelerations move
/// a particle ballistically; sub-cells are emitted by their parents'
/// particles, from where those are.
final class EmitterDirectionTests: XCTestCase {
  let dot = CGImage(width: 1, height: 1, rgba: [255, 255, 255, 255])

  /// An emitter at (100, 100, 0) with one cell of `velocity` 100, the
  /// particle born at time 0 seen at time 1 (`age` 1 s).
  func firstParticle(_ configure: (CAEmitterCell) -> Void) throws -> SIMD3<Double> {
    let emitter = CAEmitterLayer()
    emitter.emitterPosition = CGPoint(x: 100, y: 100)
    let cell = CAEmitterCell()
    cell.birthRate = 1
    cell.lifetime = 10
    cell.velocity = 100
    cell.contents = dot
    configure(cell)
    emitter.emitterCells = [cell]
    let first = try XCTUnwrap(
      EmitterSimulation.particles(of: emitter, at: 1).first { $0.birth == 0 })
    return first.position - SIMD3(100, 100, 0)
  }

  func assertClose(
    _ a: SIMD3<Double>, _ b: SIMD3<Double>, _ message: String, line: UInt = #line
  ) {
    for i in 0..<3 {
      XCTAssertEqual(a[i], b[i], accuracy: 1e-9, "\(message): \(a) vs \(b)", line: line)
    }
  }

  func testLongitudeTurnsInTheXYPlaneFromXTowardY() throws {
    assertClose(try firstParticle { _ in }, SIMD3(100, 0, 0), "longitude 0: along +x")
    assertClose(
      try firstParticle { $0.emissionLongitude = .pi / 2 }, SIMD3(0, 100, 0),
      "π/2: along +y (down an iOS screen)")
    assertClose(try firstParticle { $0.emissionLongitude = .pi }, SIMD3(-100, 0, 0), "π: along −x")
    assertClose(
      try firstParticle { $0.emissionLongitude = -.pi / 2 }, SIMD3(0, -100, 0), "−π/2: up")
  }

  func testLatitudeTiltsOutOfThePlaneTowardZ() throws {
    assertClose(
      try firstParticle { $0.emissionLatitude = .pi / 2 }, SIMD3(0, 0, 100),
      "latitude π/2: straight toward the viewer")
    let tilted = try firstParticle {
      $0.emissionLatitude = .pi / 4
      $0.emissionLongitude = .pi / 2
    }
    let s = 100 / 2.0.squareRoot()
    assertClose(tilted, SIMD3(0, s, s), "latitude π/4 at longitude π/2")
  }

  func testVelocityAndAccelerationsAreBallistic() throws {
    // y = v·t·sin(lon) + ½·a·t² at t = 1.
    let thrown = try firstParticle {
      $0.emissionLongitude = -.pi / 2
      $0.yAcceleration = 60
      $0.xAcceleration = -20
      $0.zAcceleration = 10
    }
    assertClose(thrown, SIMD3(-10, -100 + 30, 5), "thrown up, falling back")
    let dropped = try firstParticle {
      $0.velocity = 0
      $0.yAcceleration = 20
    }
    assertClose(dropped, SIMD3(0, 10, 0), "dropped: ½·20·1²")
    // The layer's velocity multiplies the cell's.
    let emitter = CAEmitterLayer()
    emitter.velocity = 2
    let cell = CAEmitterCell()
    cell.birthRate = 1
    cell.lifetime = 5
    cell.velocity = 10
    cell.contents = dot
    emitter.emitterCells = [cell]
    let doubled = try XCTUnwrap(EmitterSimulation.particles(of: emitter, at: 1).first)
    XCTAssertEqual(doubled.position.x, 20, accuracy: 1e-9)
  }

  /// Directions of 4000 particles: all inside the cone, uniformly spread
  /// over it (on the unit sphere, cos θ to the axis is uniform over the
  /// cap: its mean is (1 + cos(range/2)) / 2).
  func directions(range: CGFloat, longitude: CGFloat = 0) -> [SIMD3<Double>] {
    let emitter = CAEmitterLayer()
    emitter.seed = 7
    let cell = CAEmitterCell()
    cell.birthRate = 4000
    cell.lifetime = 10
    cell.velocity = 1
    cell.emissionRange = range
    cell.emissionLongitude = longitude
    cell.contents = dot
    emitter.emitterCells = [cell]
    return EmitterSimulation.particles(of: emitter, at: 0.99975).compactMap { p in
      let age = 0.99975 - p.birth
      guard age > 0.01 else { return nil }
      return p.position / age
    }
  }

  func testEmissionRangeIsAConeWithUniformlySpreadDirections() {
    let quarter = directions(range: .pi / 2, longitude: .pi / 2)
    XCTAssertGreaterThan(quarter.count, 3900)
    let axis = SIMD3<Double>(0, 1, 0)
    let cosines = quarter.map { ($0 * axis).sum() }
    XCTAssertGreaterThanOrEqual(cosines.min() ?? 0, cos(.pi / 4) - 1e-9, "inside a 45° half-angle")
    let mean = cosines.reduce(0, +) / Double(cosines.count)
    XCTAssertEqual(mean, (1 + cos(.pi / 4)) / 2, accuracy: 0.005)
    // Symmetric about the axis: in x and, out of the plane, in z.
    XCTAssertEqual(quarter.map(\.x).reduce(0, +) / Double(quarter.count), 0, accuracy: 0.02)
    XCTAssertEqual(quarter.map(\.z).reduce(0, +) / Double(quarter.count), 0, accuracy: 0.02)
    XCTAssertGreaterThan(
      quarter.map { abs($0.z) }.max() ?? 0, 0.6, "a cone, not a fan in the plane")
    // 2π: every direction, uniformly (|z| is uniform in 0…1 on the sphere).
    let all = directions(range: 2 * .pi)
    XCTAssertEqual(all.map(\.x).reduce(0, +) / Double(all.count), 0, accuracy: 0.03)
    XCTAssertEqual(all.map(\.y).reduce(0, +) / Double(all.count), 0, accuracy: 0.03)
    XCTAssertEqual(all.map { abs($0.z) }.reduce(0, +) / Double(all.count), 0.5, accuracy: 0.02)
    for d in all.prefix(100) { XCTAssertEqual((d * d).sum(), 1, accuracy: 1e-9) }
  }

  func testSubCellsFlyFromTheirParentsInTheirOwnDirections() throws {
    let emitter = CAEmitterLayer()
    emitter.emitterPosition = CGPoint(x: 0, y: 0)
    let shell = CAEmitterCell()
    shell.birthRate = 0.5  // one shell at 0 s, the next at 2 s
    shell.lifetime = 2
    shell.velocity = 50
    shell.emissionLongitude = 0  // along +x
    let spark = CAEmitterCell()
    spark.birthRate = 4
    spark.lifetime = 1
    spark.velocity = 10
    spark.emissionLongitude = .pi / 2  // along +y, whatever the parent does
    spark.contents = dot
    shell.emitterCells = [spark]
    emitter.emitterCells = [shell]
    // At 1.6 s: the first shell's sparks born at 0.75, 1, 1.25, 1.5 s are alive.
    let sparks = EmitterSimulation.particles(of: emitter, at: 1.6)
    XCTAssertEqual(sparks.count, 4)
    for s in sparks {
      let age = 1.6 - s.birth
      XCTAssertEqual(s.position.x, 50 * s.birth, accuracy: 1e-9, "born where the shell was")
      XCTAssertEqual(s.position.y, 10 * age, accuracy: 1e-9, "then off along +y")
    }
  }
}
