import Foundation
import Lamina
import LaminaMetamorphic
import LaminaScene
import XCTest

/// The generator: the same seed gives the same scene, every scene loads,
/// and the fixed seeds reach every key and value of the scene format.
final class GeneratorTests: XCTestCase {
  static let seeds = FixedSeedTests.seeds

  func testTheSameSeedGivesTheSameScene() {
    XCTAssertEqual(
      SceneGenerator.generate(seed: 7).scene.serialized(),
      SceneGenerator.generate(seed: 7).scene.serialized())
    XCTAssertEqual(SceneGenerator.generate(seed: 7).time, SceneGenerator.generate(seed: 7).time)
    XCTAssertNotEqual(
      SceneGenerator.generate(seed: 7).scene.serialized(),
      SceneGenerator.generate(seed: 8).scene.serialized())
  }

  /// The fixed seeds' scenes as this generator writes them, by a hash of
  /// their text: a change to the generator changes what every seed means
  /// (and the known failures of the fixed seeds), so it must be a conscious one.
  func testTheFixedSeedsScenesAreStable() {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for seed in Self.seeds {
      let generated = SceneGenerator.generate(seed: seed)
      for byte in (generated.scene.compact() + "@\(generated.time)").utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
      }
    }
    XCTAssertEqual(
      String(hash, radix: 16), FixedSeedTests.generatorFingerprint,
      "the generator changed: update FixedSeedTests.generatorFingerprint and known-failures.txt")
  }

  func testEveryGeneratedSceneLoads() throws {
    for seed in Self.seeds {
      let scene = SceneGenerator.generate(seed: seed).scene
      XCTAssertNoThrow(
        try SceneLoader.load(
          data: Data(scene.compact().utf8), baseURL: Harness.imageBase, fileName: "seed \(seed)"),
        "seed \(seed)")
    }
  }

  func testScenesReadBackFromTheirText() throws {
    for seed: UInt64 in [1, 2, 3, 50, 99] {
      let scene = SceneGenerator.generate(seed: seed).scene
      XCTAssertEqual(try JSON.parse(scene.serialized()), scene, "seed \(seed)")
    }
  }

  /// Every layer class, key, enumeration value, filter input, blend mode,
  /// transform form, animation class and key, and color form of the spec
  /// appears in the fixed seeds' scenes.
  func testTheFixedSeedsUseEveryKeyOfTheFormat() {
    let scenes = Self.seeds.map { SceneGenerator.generate(seed: $0).scene }
    let missing = Coverage.specified.subtracting(Coverage.tokens(of: scenes))
    XCTAssertEqual(missing.sorted(), [], "never generated")
  }

  /// The spec's keys, as `SpecKeys` lists them, are keys the library knows
  /// (so that a misspelt list entry cannot pass the coverage test).
  func testTheListedKeysAreKeysOfTheLayerClasses() {
    let structural: Set<String> = ["class", "sublayers", "animations", "mask"]
    for key in SpecKeys.layer where !structural.contains(key) {
      XCTAssertNotNil(CALayer.valueKind(forKeyPath: key), key)
    }
    let types: [String: CALayer.Type] = [
      "CALayer": CALayer.self, "CATransformLayer": CATransformLayer.self,
      "CAGradientLayer": CAGradientLayer.self, "CAShapeLayer": CAShapeLayer.self,
      "CATextLayer": CATextLayer.self, "CAReplicatorLayer": CAReplicatorLayer.self,
      "CAScrollLayer": CAScrollLayer.self, "CAEmitterLayer": CAEmitterLayer.self,
    ]
    for (name, keys) in SpecKeys.classes {
      guard let type = types[name] else {
        XCTFail("no class \(name)")
        continue
      }
      for key in keys { XCTAssertNotNil(type.valueKind(forKeyPath: key), "\(name).\(key)") }
    }
    XCTAssertEqual(Set(SpecKeys.blendModes), Set(CIFilter.blendModeNames))
    XCTAssertEqual(Set(SpecKeys.filters.map(\.name)), Set(CIFilter.filterNames))
  }
}
