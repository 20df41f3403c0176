import Foundation
import Lamina
import LaminaScene
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Emitters are a pure function of seed and time.
final class EmitterTests: XCTestCase {
  var scene: URL { RenderTestSupport.fixtures.appendingPathComponent("reftests/emitter.json") }

  func testGoldensAtTwoTimes() throws {
    for time in [0.5, 2] {
      let image = try RenderTestSupport.render(scene, time: time)
      try RenderTestSupport.assertMatches(
        image, golden: "reftests/emitter@t\(time == 2 ? "2" : "0.5").png",
        tolerance: .fuzzy(maxDifference: 2, maxPixels: 0))
    }
  }

  func testColdStartAndSteppingGiveTheSameFrame() throws {
    let cold = try RenderTestSupport.render(scene, time: 2)
    for time in stride(from: 0.0, to: 2, by: 1.0 / 30) {
      _ = try RenderTestSupport.render(scene, time: time)
    }
    let stepped = try RenderTestSupport.render(scene, time: 2)
    XCTAssertTrue(cold == stepped)
  }

  func testParticleCountFollowsBirthRateAndLifetime() throws {
    let emitter = CAEmitterLayer()
    emitter.seed = 42
    let cell = CAEmitterCell()
    cell.birthRate = 100
    cell.lifetime = 2
    cell.contents = CGImage(width: 1, height: 1, rgba: [255, 255, 255, 255])
    emitter.emitterCells = [cell]
    // Born at k/100 s for k = 0…1000; alive when younger than 2 s.
    XCTAssertEqual(EmitterSimulation.particles(of: emitter, at: 10).count, 200)
    XCTAssertEqual(EmitterSimulation.particles(of: emitter, at: 0.5).count, 51)
    emitter.birthRate = 0.5
    XCTAssertEqual(EmitterSimulation.particles(of: emitter, at: 10).count, 100)
    cell.isEnabled = false
    XCTAssertEqual(EmitterSimulation.particles(of: emitter, at: 10).count, 0)
  }

  func testParticlesMoveBallistically() throws {
    let emitter = CAEmitterLayer()
    emitter.emitterPosition = CGPoint(x: 10, y: 20)
    let cell = CAEmitterCell()
    cell.birthRate = 1
    cell.lifetime = 10
    cell.velocity = 30
    cell.emissionLongitude = 0
    cell.yAcceleration = 8
    cell.contents = CGImage(width: 1, height: 1, rgba: [255, 255, 255, 255])
    emitter.emitterCells = [cell]
    // Particle 0, born at 0: x = 10 + 30t, y = 20 + 4t².
    let first = try XCTUnwrap(
      EmitterSimulation.particles(of: emitter, at: 2.5).first { $0.birth == 0 })
    XCTAssertEqual(first.position.x, 10 + 30 * 2.5, accuracy: 1e-9)
    XCTAssertEqual(first.position.y, 20 + 4 * 2.5 * 2.5, accuracy: 1e-9)
  }

  func testParticlesOfOneImageTakeOneDraw() throws {
    let loaded = try SceneLoader.load(contentsOf: scene)
    let renderer = try RenderTestSupport.renderer()
    var builder = FrameBuilder(size: CGSize(width: 200, height: 150), scale: 1)
    builder.time = 2
    let frame = builder.build(root: loaded.root, background: loaded.canvas.background)
    XCTAssertGreaterThan(frame.allItems.count, 100)
    _ = try renderer.render(frame)
    // One draw per emitter: source-over sparks, then additive glow.
    XCTAssertEqual(renderer.counters.drawCalls, 2)
    XCTAssertGreaterThan(frame.allItems.filter { $0.blend == .additive }.count, 10)
    XCTAssertGreaterThan(frame.allItems.filter { $0.blend == .sourceOver }.count, 10)
  }

  func testNestedCellsAreEmittedAlongTheirParentsPaths() throws {
    let emitter = CAEmitterLayer()
    emitter.emitterPosition = CGPoint(x: 50, y: 100)
    emitter.seed = 9
    let rocket = CAEmitterCell()  // no contents: emits without being drawn
    rocket.birthRate = 1
    rocket.lifetime = 1
    rocket.velocity = 100
    rocket.emissionLongitude = -.pi / 2  // straight up
    let spark = CAEmitterCell()
    spark.birthRate = 20
    spark.lifetime = 0.5
    spark.contents = CGImage(width: 1, height: 1, rgba: [255, 255, 255, 255])
    rocket.emitterCells = [spark]
    emitter.emitterCells = [rocket]
    // At 0.75 s the first rocket (born at 0) has climbed 75 points; its
    // sparks of the last half second sit where it was when they were born.
    let particles = EmitterSimulation.particles(of: emitter, at: 0.75)
    XCTAssertEqual(particles.count, 10, "sparks born at 0.3, 0.35, …, 0.75 s")
    for p in particles {
      XCTAssertEqual(p.position.x, 50, accuracy: 1e-9)
      XCTAssertEqual(p.position.y, 100 - 100 * p.birth, accuracy: 1e-9)
    }
    // After the rocket's life, its sparks stop being born and fade out.
    // (The second rocket, born at 1 s, has its own sparks low down.)
    XCTAssertEqual(
      EmitterSimulation.particles(of: emitter, at: 1.2).filter { $0.position.y < 50 }.count, 6)
  }
}
