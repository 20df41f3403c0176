import Foundation
import XCTest

@testable import Lamina

/// Every copy a layer or animation is made into (a presentation copy,
/// `init(layer:)`, `copyValues(from:)`, an animation's `copy()`) carries
/// every described property and the values no description names. A
/// layer's copy is plain assignments (it runs on every presentation update
/// of an animated subclass layer: see docs/animation.md), held to the
/// descriptions here; an animation's is the one `CAAnimation.copyValues`
/// over its class's accessors.
final class CopyValuesTests: XCTestCase {
  final class Delegate: NSObject, CALayerDelegate, CAAnimationDelegate {}

  /// A layer of `cls` with every described stored property (and the
  /// undescribed values) set away from its default.
  static func changedLayer(_ cls: CALayer.Type, delegate: Delegate) -> CALayer {
    let fresh = cls.makeInstance()
    let layer = cls.makeInstance()
    for p in cls.properties where p.accessor.isStored {
      guard let v = LayerValueTests.sample(for: p, on: fresh) else { continue }
      XCTAssertTrue(p.write(layer, v), "\(cls).\(p.key.rawValue)")
    }
    layer.actions = ["opacity": NSNull()]
    layer.style = ["cornerRadius": 4.0]
    layer.delegate = delegate
    layer.setValue("tag", forKey: "customKey")
    layer.beginTime = 2
    layer.speed = 3
    layer.wantsExtendedDynamicRangeContent = true
    layer.preferredDynamicRange = .high
    layer.toneMapMode = .never
    layer.contentsHeadroom = 2
    layer.wantsDynamicContentScaling = true
    layer.autoresizingMask = [.layerWidthSizable]
    return layer
  }

  /// The described stored properties and the undescribed values of two
  /// layers, by name, as text.
  static func values(of layer: CALayer, as cls: CALayer.Type) -> [String: String] {
    var out: [String: String] = [:]
    for p in cls.properties where p.accessor.isStored {
      out[p.key.rawValue] = String(describing: p.accessor.get(layer))
    }
    out["delegate"] = String(describing: layer.delegate.map(ObjectIdentifier.init))
    out["customKey"] = String(describing: layer.value(forKey: "customKey"))
    out["beginTime"] = String(layer.beginTime)
    out["speed"] = String(layer.speed)
    out["wantsExtendedDynamicRangeContent"] = String(layer.wantsExtendedDynamicRangeContent)
    out["preferredDynamicRange"] = String(describing: layer.preferredDynamicRange)
    out["toneMapMode"] = String(describing: layer.toneMapMode)
    out["contentsHeadroom"] = String(describing: layer.contentsHeadroom)
    out["wantsDynamicContentScaling"] = String(layer.wantsDynamicContentScaling)
    out["autoresizingMask"] = String(describing: layer.autoresizingMask)
    return out
  }

  func assertCarries(
    _ copy: CALayer, _ source: CALayer, _ cls: CALayer.Type, _ how: String,
    line: UInt = #line
  ) {
    XCTAssertTrue(type(of: copy) == cls, "\(how) of \(cls) is a \(type(of: copy))", line: line)
    let expected = Self.values(of: source, as: cls)
    let fresh = Self.values(of: cls.makeInstance(), as: cls)
    let got = Self.values(of: copy, as: cls)
    var changed = 0
    for (key, value) in expected {
      XCTAssertEqual(got[key], value, "\(how) of \(cls): \(key)", line: line)
      if fresh[key] != value { changed += 1 }
    }
    // Most values differ from a new layer's, so the copy did copy them.
    XCTAssertGreaterThanOrEqual(changed, expected.count - 4, "\(how) of \(cls)", line: line)
  }

  /// A presentation copy, `init(layer:)` and `copyValues(from:)` carry every
  /// described property of each Lamina layer class.
  func testLayerCopiesCarryEveryDescribedProperty() throws {
    let delegate = Delegate()
    let initializers: [ObjectIdentifier: (CALayer) -> CALayer] = [
      ObjectIdentifier(CALayer.self): { CALayer(layer: $0) },
      ObjectIdentifier(CAShapeLayer.self): { CAShapeLayer(layer: $0) },
      ObjectIdentifier(CAGradientLayer.self): { CAGradientLayer(layer: $0) },
      ObjectIdentifier(CATextLayer.self): { CATextLayer(layer: $0) },
      ObjectIdentifier(CAReplicatorLayer.self): { CAReplicatorLayer(layer: $0) },
      ObjectIdentifier(CAEmitterLayer.self): { CAEmitterLayer(layer: $0) },
      ObjectIdentifier(CAScrollLayer.self): { CAScrollLayer(layer: $0) },
      ObjectIdentifier(CATiledLayer.self): { CATiledLayer(layer: $0) },
      ObjectIdentifier(CAOpenGLLayer.self): { CAOpenGLLayer(layer: $0) },
    ]
    XCTAssertEqual(initializers.count, LayerValueTests.classes.count)
    for cls in LayerValueTests.classes {
      let source = Self.changedLayer(cls, delegate: delegate)
      let presented = source.presentationLayer()
      XCTAssertFalse(presented === source)
      assertCarries(presented, source, cls, "presentation copy")
      let initialized = try XCTUnwrap(initializers[ObjectIdentifier(cls)])(source)
      assertCarries(initialized, source, cls, "init(layer:)")
      let copied = cls.makeInstance()
      copied.copyValues(from: source)
      assertCarries(copied, source, cls, "copyValues(from:)")
    }
  }

  /// The state a class keeps beside its descriptions goes with the copy.
  func testClassStateIsCopied() {
    let tiled = CATiledLayer()
    tiled.display()
    XCTAssertEqual(CATiledLayer(layer: tiled).tileGeneration, tiled.tileGeneration)
    XCTAssertNotEqual(tiled.tileGeneration, CATiledLayer().tileGeneration)
    let gl = CAOpenGLLayer()
    gl.setNeedsDisplay()
    gl.display()
    XCTAssertEqual(CAOpenGLLayer(layer: gl).drawGeneration, gl.drawGeneration)
    XCTAssertNotEqual(gl.drawGeneration, CAOpenGLLayer().drawGeneration)
  }

  /// A value for an animation key of `kind` that differs from the class's
  /// initial one.
  static func sample(_ key: String, _ kind: CAValueKind, delegate: Delegate) -> Any? {
    switch key {
    case "timingFunction": return CAMediaTimingFunction(name: .easeIn)
    case "delegate": return delegate
    case "valueFunction": return CAValueFunction(name: .rotateZ)
    case "fromValue", "toValue", "byValue": return CGFloat(key.count)
    case "values": return [CGFloat(1), CGFloat(2)]
    case "timingFunctions": return [CAMediaTimingFunction(name: .easeOut)]
    case "animations": return [CABasicAnimation(keyPath: "opacity")]
    case "filter": return "a filter"
    case "subtype": return "fromLeft"
    case "type": return "push"
    case "rotationMode": return "auto"
    case "fillMode": return "both"
    case "calculationMode": return "paced"
    case "isRemovedOnCompletion": return false
    default: break
    }
    switch kind {
    case .number: return 0.375
    case .bool: return true
    case .string: return "sample"
    case .numbers: return [0.25, 0.75]
    case .path: return CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 6))
    default: return nil
    }
  }

  /// `copy()` of each animation class carries every key of its accessors.
  func testAnimationCopiesCarryEveryKey() {
    let delegate = Delegate()
    let classes: [CAAnimation.Type] = [
      CAAnimation.self, CAPropertyAnimation.self, CABasicAnimation.self,
      CAKeyframeAnimation.self, CASpringAnimation.self, CAAnimationGroup.self,
      CATransition.self,
    ]
    for cls in classes {
      let source = cls.makeInstance()
      let fresh = cls.makeInstance()
      var keys: [String] = []
      for a in cls.animationTable.ordered {
        guard let v = Self.sample(a.key, a.kind, delegate: delegate) else {
          XCTFail("\(cls).\(a.key): no sample")
          continue
        }
        source.setValue(v, forKey: a.key)
        XCTAssertNotEqual(
          String(describing: source.value(forKey: a.key)),
          String(describing: fresh.value(forKey: a.key)), "\(cls).\(a.key) not set")
        keys.append(a.key)
      }
      source.preferredFrameRateRange = CAFrameRateRange(minimum: 30, maximum: 60)
      source.setValue("tag", forKey: "customKey")
      guard let copy = source.copy() as? CAAnimation else { return XCTFail("\(cls)") }
      XCTAssertTrue(type(of: copy) == cls)
      for key in keys + ["customKey"] {
        XCTAssertEqual(
          String(describing: copy.value(forKey: key)),
          String(describing: source.value(forKey: key)), "\(cls).\(key) not copied")
      }
      XCTAssertEqual(copy.preferredFrameRateRange, source.preferredFrameRateRange)
    }
  }
}
