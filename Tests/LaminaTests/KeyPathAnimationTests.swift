import Foundation
import XCTest

@testable import Lamina

/// Every key path Core Animation animates, animated; the key paths iOS
/// code uses that Apple does not list (`transform.scale.xy`); a warning for
/// a key path that animates nothing; group children without a duration;
/// additive `byValue`; value functions; emitter cell key paths.
final class KeyPathAnimationTests: XCTestCase {
  /// `layer` with a 0→10 (or `from`→`to`) animation of `keyPath` over 1 s,
  /// presented at 0.5 s.
  func halfway(_ layer: CALayer, _ keyPath: String, from: Any, to: Any) -> CALayer {
    let a = CABasicAnimation(keyPath: keyPath)
    a.fromValue = from
    a.toValue = to
    a.duration = 1
    layer.add(a, forKey: "a")
    return PresentationTree(root: layer).update(time: 0.5)
  }

  /// Every number key, and every number member of a point, size, rect or
  /// transform key, of every layer class, animated half way.
  func testEveryNumericKeyPathOfEveryClassAnimates() {
    let classes: [CALayer.Type] = [
      CALayer.self, CAShapeLayer.self, CAGradientLayer.self, CATextLayer.self,
      CAReplicatorLayer.self, CAEmitterLayer.self, CAScrollLayer.self, CATiledLayer.self,
    ]
    var checked = 0
    for cls in classes {
      for key in cls.propertyKeys {
        var paths: [String] = []
        switch cls.valueKind(forKeyPath: key) {
        case .number?: paths = [key]
        case .point?: paths = ["\(key).x", "\(key).y"]
        case .size?: paths = ["\(key).width", "\(key).height"]
        case .rect?:
          paths = ["origin.x", "origin.y", "size.width", "size.height"].map { "\(key).\($0)" }
        case .transform?:
          paths = [
            "rotation", "rotation.x", "rotation.y", "rotation.z", "scale", "scale.x", "scale.y",
            "scale.z", "scale.xy", "translation.x", "translation.y", "translation.z", "m34",
          ].map { "\(key).\($0)" }
        default: continue
        }
        for path in paths {
          // Durations and speeds of the layer's own timing are not animated values.
          if ["beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration"]
            .contains(key)
          {
            continue
          }
          let shown = halfway(cls.makeInstance(), path, from: 0.2, to: 0.6)
          let raw = shown.value(forKeyPath: path)
          let value =
            (raw as? CGFloat) ?? (raw as? Float).map { CGFloat($0) }
            ?? (raw as? Double).map { CGFloat($0) }
          XCTAssertEqual(
            value ?? -1, 0.4, accuracy: 1e-6, "\(cls).\(path) at half way")
          checked += 1
        }
      }
    }
    XCTAssertGreaterThan(checked, 120)
  }

  func testTransformScaleXYScalesBothAxes() {
    let layer = CALayer()
    let shown = halfway(layer, "transform.scale.xy", from: 1, to: 3)
    XCTAssertEqual(shown.transform.m11, 2, accuracy: 1e-9)
    XCTAssertEqual(shown.transform.m22, 2, accuracy: 1e-9)
    XCTAssertEqual(shown.transform.m33, 1, accuracy: 1e-9)
    layer.setValue(0.5, forKeyPath: "transform.scale.xy")
    XCTAssertEqual(layer.transform.m22, 0.5, accuracy: 1e-9)
    XCTAssertEqual(
      layer.value(forKeyPath: "transform.scale.xy") as? CGFloat ?? 0, 0.5, accuracy: 1e-9)
  }

  func testStructMembersOfEveryKindAnimate() {
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
    let shown = halfway(layer, "bounds.size.width", from: 100, to: 200)
    XCTAssertEqual(shown.bounds.width, 150)
    XCTAssertEqual(shown.bounds.height, 50)
    let shadow = halfway(CALayer(), "shadowOffset.height", from: 0, to: 10)
    XCTAssertEqual(shadow.shadowOffset, CGSize(width: 0, height: 5))
    let gradient = halfway(CAGradientLayer(), "startPoint.x", from: 0, to: 1) as! CAGradientLayer
    XCTAssertEqual(gradient.startPoint, CGPoint(x: 0.5, y: 0))
    let replicator =
      halfway(CAReplicatorLayer(), "instanceTransform.rotation.z", from: 0, to: 1)
      as! CAReplicatorLayer
    XCTAssertEqual(
      replicator.value(forKeyPath: "instanceTransform.rotation.z") as? CGFloat ?? 0, 0.5,
      accuracy: 1e-9)
    let masked = CALayer()
    masked.mask = CALayer()
    let withMask = halfway(masked, "mask.position.x", from: 0, to: 20)
    XCTAssertEqual(withMask.mask?.position.x, 10)
  }

  /// One presentation tree across updates (its still subtrees are left
  /// alone): a `mask.…` animation moves the presented mask each update,
  /// and once removed the mask is the model's again.
  func testAMaskKeyPathAnimationOverUpdatesAndAfterItsRemoval() {
    let masked = CALayer()
    let mask = CALayer()
    mask.position = CGPoint(x: 3, y: 4)
    masked.mask = mask
    let a = CABasicAnimation(keyPath: "mask.position.x")
    a.fromValue = 0
    a.toValue = 20
    a.duration = 1
    masked.add(a, forKey: "a")
    let tree = PresentationTree(root: masked)
    XCTAssertEqual(tree.update(time: 0.25).mask?.position.x, 5)
    XCTAssertEqual(tree.update(time: 0.5).mask?.position.x, 10)
    XCTAssertEqual(tree.update(time: 0.5).mask?.position.x, 10)
    masked.removeAnimation(forKey: "a")
    XCTAssertEqual(tree.update(time: 0.75).mask?.position, CGPoint(x: 3, y: 4))
  }

  func testUnknownKeyPathIsAWarningAtAddTime() {
    var warnings: [String] = []
    Diagnostics.handler = { warnings.append($0) }
    defer { Diagnostics.handler = nil }
    let layer = CALayer()
    layer.name = "needle"
    layer.add(CABasicAnimation(keyPath: "transform.scale.xy"), forKey: "ok")
    layer.add(CABasicAnimation(keyPath: "position.x"), forKey: nil)
    XCTAssertEqual(warnings, [])
    layer.add(CABasicAnimation(keyPath: "transform.scale.xyz"), forKey: "pulse")
    XCTAssertEqual(
      warnings,
      [
        "CABasicAnimation 'pulse' added to <CALayer 'needle'>: 'transform.scale.xyz' is not a key path CALayer animates; the animation does nothing"
      ])
    // Inside a group too; a key the layer holds a value for is animatable.
    warnings = []
    layer.setValue(0.0, forKey: "progress")
    let group = CAAnimationGroup()
    group.animations = [
      CABasicAnimation(keyPath: "progress"), CABasicAnimation(keyPath: "strokeEnd"),
    ]
    layer.add(group, forKey: "both")
    XCTAssertEqual(warnings.count, 1)
    XCTAssertTrue(
      warnings[0].contains("'strokeEnd' is not a key path CALayer animates"), warnings[0])
    // On a shape layer, strokeEnd is.
    warnings = []
    CAShapeLayer().add(CABasicAnimation(keyPath: "strokeEnd"), forKey: nil)
    XCTAssertEqual(warnings, [])
  }

  func testGroupChildrenWithoutADurationSpanTheGroup() {
    let layer = CALayer()
    let move = CABasicAnimation(keyPath: "position.x")
    move.fromValue = 0
    move.toValue = 100
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 1
    fade.toValue = 0
    fade.duration = 1  // has its own
    let group = CAAnimationGroup()
    group.animations = [move, fade]
    group.duration = 4
    layer.add(group, forKey: "group")
    let tree = PresentationTree(root: layer)
    // Apple's guide: the children run over the group's 4 s, not 0.25 s.
    XCTAssertEqual(tree.update(time: 2).position.x, 50, accuracy: 1e-9)
    XCTAssertEqual(tree.update(time: 1).position.x, 25, accuracy: 1e-9)
    XCTAssertEqual(tree.update(time: 0.5).opacity, 0.5, accuracy: 1e-6)
    // At the top level, 0 still means 0.25 s.
    let alone = CALayer()
    let quick = CABasicAnimation(keyPath: "position.x")
    quick.fromValue = 0
    quick.toValue = 100
    quick.fillMode = .forwards
    alone.add(quick, forKey: nil)
    XCTAssertEqual(PresentationTree(root: alone).update(time: 0.125).position.x, 50, accuracy: 1e-9)
  }

  /// `../shared/repros/additive-by.json`: a byValue-only additive animation
  /// adds its offset to the model value once.
  func testAdditiveByValueAddsTheOffsetOnce() {
    let layer = CALayer()
    layer.position = CGPoint(x: 100, y: 30)
    let nudge = CABasicAnimation(keyPath: "position.x")
    nudge.byValue = -40
    nudge.isAdditive = true
    nudge.duration = 1
    layer.add(nudge, forKey: nil)
    let tree = PresentationTree(root: layer)
    XCTAssertEqual(tree.update(time: 0.5).position.x, 80, accuracy: 1e-9)
    XCTAssertEqual(tree.update(time: 0).position.x, 100, accuracy: 1e-9)
    // From-only and to-only additive values are offsets too.
    let to = CALayer()
    to.position = CGPoint(x: 100, y: 0)
    let shake = CABasicAnimation(keyPath: "position")
    shake.toValue = CGPoint(x: 10, y: 4)
    shake.isAdditive = true
    shake.duration = 1
    to.add(shake, forKey: nil)
    XCTAssertEqual(PresentationTree(root: to).update(time: 0.5).position, CGPoint(x: 105, y: 2))
    // Not additive: byValue is relative to the current value, once.
    let plain = CALayer()
    plain.position = CGPoint(x: 100, y: 0)
    let by = CABasicAnimation(keyPath: "position.x")
    by.byValue = -40
    by.duration = 1
    plain.add(by, forKey: nil)
    XCTAssertEqual(PresentationTree(root: plain).update(time: 0.5).position.x, 80, accuracy: 1e-9)
  }

  func testValueFunctionsTurnNumbersIntoTransforms() {
    let layer = CALayer()
    let spin = CABasicAnimation(keyPath: "transform")
    spin.valueFunction = CAValueFunction(name: .rotateZ)
    spin.fromValue = 0
    spin.toValue = 2 * CGFloat.pi
    spin.duration = 1
    layer.add(spin, forKey: "spin")
    let tree = PresentationTree(root: layer)
    // Three quarters of a full turn: a matrix interpolation could not get there.
    let shown = tree.update(time: 0.75).transform
    XCTAssertEqual(shown.m11, 0, accuracy: 1e-9)
    XCTAssertEqual(shown.m12, -1, accuracy: 1e-9)
    let grow = CALayer()
    let scale = CABasicAnimation(keyPath: "transform")
    scale.valueFunction = CAValueFunction(name: .scale)
    scale.toValue = [3.0, 2.0, 1.0]
    scale.duration = 1
    grow.add(scale, forKey: nil)
    let grown = PresentationTree(root: grow).update(time: 0.5).transform
    XCTAssertEqual(grown.m11, 2, accuracy: 1e-9, "from the identity scale 1 to 3")
    XCTAssertEqual(grown.m22, 1.5, accuracy: 1e-9)
    XCTAssertNil(CAValueFunction(name: CAValueFunctionName("twist")))
  }

  func testEmitterCellKeyPaths() {
    let emitter = CAEmitterLayer()
    let fire = CAEmitterCell()
    fire.name = "fire"
    fire.birthRate = 10
    let spark = CAEmitterCell()
    spark.name = "spark"
    spark.velocity = 5
    fire.emitterCells = [spark]
    emitter.emitterCells = [fire]
    XCTAssertEqual(CAEmitterLayer.valueKind(forKeyPath: "emitterCells.fire.birthRate"), .number)
    XCTAssertEqual(emitter.value(forKeyPath: "emitterCells.fire.birthRate") as? Float, 10)
    XCTAssertEqual(
      emitter.value(forKeyPath: "emitterCells.fire.emitterCells.spark.velocity") as? CGFloat, 5)
    let ramp = CABasicAnimation(keyPath: "emitterCells.fire.birthRate")
    ramp.fromValue = 0
    ramp.toValue = 100
    ramp.duration = 1
    emitter.add(ramp, forKey: nil)
    let shown = PresentationTree(root: emitter).update(time: 0.5) as! CAEmitterLayer
    XCTAssertEqual(shown.emitterCells?.first?.birthRate, 50)
    XCTAssertEqual(fire.birthRate, 10, "the model's cell is left alone")
    emitter.setValue(0, forKeyPath: "emitterCells.fire.emitterCells.spark.velocity")
    XCTAssertEqual(emitter.emitterCells?[0].emitterCells?[0].velocity, 0)
  }
}
