import Foundation
import XCTest

@testable import Lamina

/// Typed values (`LayerValue`): every described property reads and writes
/// them through its description, key paths reach struct members, and the
/// evaluator's arithmetic keeps working on the shared type.
final class LayerValueTests: XCTestCase {
  static let classes: [CALayer.Type] = [
    CALayer.self, CAShapeLayer.self, CAGradientLayer.self, CATextLayer.self,
    CAReplicatorLayer.self, CAEmitterLayer.self, CAScrollLayer.self, CATiledLayer.self,
    CAOpenGLLayer.self,
  ]

  static let image = CGImage(width: 1, height: 1, rgba: [255, 0, 0, 255])!

  /// A typed value of `p`'s kind that differs from its value on `fresh`, or
  /// nil for the kinds not written here (the tree, `actions`, `style`).
  static func sample(for p: LayerProperty, on fresh: CALayer) -> LayerValue? {
    switch p.kind {
    case .number: return .number(0.375)
    case .integer: return .integer(3)
    case .bool:
      guard case .bool(let b) = p.read(fresh) else { return nil }
      return .bool(!b)
    case .point: return .point(CGPoint(x: 0.25, y: 0.75))
    case .size: return .size(CGSize(width: 3, height: 4))
    case .rect: return .rect(CGRect(x: 1, y: 2, width: 3, height: 4))
    case .transform: return .transform(CATransform3DMakeScale(2, 3, 1))
    case .color: return .color(CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
    case .colors: return .colors([CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1), .black])
    case .numbers: return .numbers([0.5, 1.5])
    case .image: return .image(image)
    case .path: return .path(CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 6)))
    case .string, .text: return .string("sample")
    case .enumeration(let values):
      guard case .string(let current) = p.read(fresh) else { return nil }
      return values.last { $0 != current }.map { .string($0) }
    case .cornerMask: return .cornerMask(CACornerMask(rawValue: 1))
    case .filters: return .filters([CIFilter(name: "CIGaussianBlur")!])
    case .blendMode: return .string("multiplyBlendMode")
    case .emitterCells: return .emitterCells([CAEmitterCell()])
    case .layer, .layers, .object: return nil
    }
  }

  /// Every described property of every class takes a typed value through
  /// its description and reads it back typed, of the case its kind names.
  func testEveryDescribedPropertyRoundTripsTyped() {
    var checked = 0
    for cls in Self.classes {
      let fresh = cls.makeInstance()
      for p in cls.properties {
        guard let value = Self.sample(for: p, on: fresh) else { continue }
        let layer = cls.makeInstance()
        XCTAssertTrue(p.write(layer, value), "\(cls).\(p.key.rawValue) refused \(value)")
        let read = p.read(layer)
        XCTAssertEqual(
          String(describing: read), String(describing: value), "\(cls).\(p.key.rawValue)")
        XCTAssertNotEqual(
          String(describing: read), String(describing: p.read(fresh)),
          "\(cls).\(p.key.rawValue) did not change")
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 150)
  }

  /// Typed values land on the Swift properties with their own types.
  func testTypedValuesSetTheProperties() {
    let shape = CAShapeLayer()
    let path = CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 6))
    XCTAssertTrue(shape.setLayerValue(.path(path), forKeyPath: "path"))
    XCTAssertTrue(shape.path === path)
    XCTAssertTrue(shape.setLayerValue(.numbers([2, 3]), forKeyPath: "lineDashPattern"))
    XCTAssertEqual(shape.lineDashPattern, [2, 3])
    XCTAssertTrue(shape.setLayerValue(.string("round"), forKeyPath: "lineCap"))
    XCTAssertEqual(shape.lineCap, .round)
    XCTAssertTrue(shape.setLayerValue(.none, forKeyPath: "fillColor"))
    XCTAssertNil(shape.fillColor)
    XCTAssertFalse(shape.setLayerValue(.string("#ff0000"), forKeyPath: "strokeColor"))
    XCTAssertFalse(shape.setLayerValue(.none, forKeyPath: "lineWidth"))
    XCTAssertFalse(shape.setLayerValue(.number(1), forKeyPath: "noSuchKey"))

    let replicator = CAReplicatorLayer()
    XCTAssertTrue(replicator.setLayerValue(.integer(7), forKeyPath: "instanceCount"))
    XCTAssertEqual(replicator.instanceCount, 7)
    guard case .integer(7)? = replicator.layerValue(forKeyPath: "instanceCount") else {
      return XCTFail("\(String(describing: replicator.layerValue(forKeyPath: "instanceCount")))")
    }
    let emitter = CAEmitterLayer()
    XCTAssertTrue(emitter.setLayerValue(.integer(4_000_000_000), forKeyPath: "seed"))
    XCTAssertEqual(emitter.seed, 4_000_000_000)
    let gradient = CAGradientLayer()
    XCTAssertTrue(gradient.setLayerValue(.colors([.white, .black]), forKeyPath: "colors"))
    XCTAssertEqual(gradient.colors as? [CGColor], [.white, .black])
    let layer = CALayer()
    XCTAssertTrue(
      layer.setLayerValue(.cornerMask(.layerMaxXMaxYCorner), forKeyPath: "maskedCorners"))
    XCTAssertEqual(layer.maskedCorners, .layerMaxXMaxYCorner)
    XCTAssertTrue(layer.setLayerValue(.bool(true), forKeyPath: "isHidden"))
    XCTAssertTrue(layer.isHidden)
    XCTAssertTrue(layer.setLayerValue(.image(Self.image), forKeyPath: "contents"))
    XCTAssertTrue((layer.contents as? CGImage) === Self.image)
  }

  /// Key paths reach struct members, transform components, the mask,
  /// filter inputs and emitter cells, typed.
  func testKeyPaths() {
    let layer = CALayer()
    XCTAssertTrue(layer.setLayerValue(.number(7), forKeyPath: "position.x"))
    XCTAssertTrue(
      layer.setLayerValue(.size(CGSize(width: 3, height: 4)), forKeyPath: "bounds.size"))
    XCTAssertTrue(layer.setLayerValue(.number(0.5), forKeyPath: "transform.rotation.y"))
    XCTAssertEqual(layer.position.x, 7)
    XCTAssertEqual(layer.bounds.size, CGSize(width: 3, height: 4))
    XCTAssertEqual(layer.transform, CATransform3DMakeRotation(0.5, 0, 1, 0))
    guard case .number(let y)? = layer.layerValue(forKeyPath: "transform.rotation.y") else {
      return XCTFail("no rotation")
    }
    XCTAssertEqual(y, 0.5, accuracy: 1e-9)
    XCTAssertTrue(
      layer.setLayerValue(.point(CGPoint(x: 5, y: 6)), forKeyPath: "transform.translation"))
    XCTAssertEqual(layer.transform.m41, 5)
    XCTAssertEqual(layer.transform.m42, 6)
    XCTAssertFalse(layer.setLayerValue(.number(1), forKeyPath: "position.z"))
    XCTAssertFalse(layer.setLayerValue(.string("a"), forKeyPath: "position.x"))

    layer.mask = CALayer()
    XCTAssertTrue(layer.setLayerValue(.number(0.25), forKeyPath: "mask.opacity"))
    XCTAssertEqual(layer.mask?.opacity, 0.25)

    let blur = CIFilter(name: "CIGaussianBlur")!
    blur.name = "blur"
    layer.filters = [blur]
    XCTAssertTrue(layer.setLayerValue(.number(4), forKeyPath: "filters.blur.inputRadius"))
    XCTAssertEqual((layer.filters?.first as? CIFilter)?.value(forKey: "inputRadius") as? CGFloat, 4)
    // The filter is replaced by a changed copy, never changed in place.
    XCTAssertNotEqual(blur.value(forKey: "inputRadius") as? CGFloat, 4)
    guard case .number(4)? = layer.layerValue(forKeyPath: "filters.blur.inputRadius") else {
      return XCTFail("no radius")
    }

    let emitter = CAEmitterLayer()
    let cell = CAEmitterCell()
    cell.name = "fire"
    cell.birthRate = 3
    emitter.emitterCells = [cell]
    XCTAssertTrue(emitter.setLayerValue(.number(12), forKeyPath: "emitterCells.fire.birthRate"))
    XCTAssertEqual(emitter.emitterCells?.first?.birthRate, 12)
    XCTAssertEqual(cell.birthRate, 3, "the cell is copied, not changed in place")
    XCTAssertFalse(emitter.setLayerValue(.number(1), forKeyPath: "emitterCells.smoke.birthRate"))
  }

  /// A key set by its typed value runs the same implicit action as when
  /// set by KVC (a subclass's key reports its change on the way).
  func testTypedSetOfASubclassKeyAnimatesImplicitly() {
    let root = CALayer()
    let shape = CAShapeLayer()
    root.addSublayer(shape)
    CATransaction.flush()
    XCTAssertTrue(shape.setLayerValue(.number(8), forKeyPath: "lineWidth"))
    XCTAssertNotNil(shape.animation(forKey: "lineWidth"))
  }

  /// `LayerValue(_:)` (what KVC values and animations' values become) and
  /// `boxed` go back and forth.
  func testBoxing() {
    let values: [LayerValue] = [
      .number(1.5), .integer(3), .bool(true), .point(CGPoint(x: 1, y: 2)),
      .size(CGSize(width: 3, height: 4)), .rect(CGRect(x: 1, y: 2, width: 3, height: 4)),
      .transform(CATransform3DMakeScale(2, 2, 1)), .color(.white), .colors([.white, .black]),
      .numbers([1, 2]), .string("a"), .cornerMask(.layerMinXMinYCorner), .image(Self.image),
      .none,
    ]
    for v in values {
      let back = LayerValue(v.boxed)
      // A whole number boxes as Int, which KVC reads as a number.
      let expected = v.asNumber
      XCTAssertEqual(String(describing: back), String(describing: expected), "\(v)")
    }
    XCTAssertEqual(LayerValue.number(2).boxed as? CGFloat, 2)
    XCTAssertEqual(LayerValue.number(2).boxed(like: 1.0 as Double) as? Double, 2)
    XCTAssertEqual(LayerValue.number(2.4).boxed(like: 1 as Int) as? Int, 2)
  }

  /// Whole numbers take part in the arithmetic as numbers.
  func testIntegersInterpolateAsNumbers() {
    guard case .number(let v) = LayerValue.interpolate(.integer(2), .number(4), 0.25) else {
      return XCTFail("not a number")
    }
    XCTAssertEqual(v, 2.5)
    XCTAssertTrue(LayerValue.compatible(.integer(1), .number(2)))
    XCTAssertTrue(LayerValue.none.isSame(as: .none))
    XCTAssertFalse(LayerValue.integer(1).isSame(as: .number(1)))
  }
}
