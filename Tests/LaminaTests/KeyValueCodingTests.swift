import Lamina
import XCTest

final class RoundedLayer: CALayer {
  override class func defaultValue(forKey key: String) -> Any? {
    switch key {
    case "cornerRadius": return 8.0
    case "backgroundColor": return CGColor.white
    default: return super.defaultValue(forKey: key)
    }
  }
}

final class KeyValueCodingTests: XCTestCase {
  func testNumbersOfEveryType() {
    let layer = CALayer()
    layer.setValue(0.5, forKey: "opacity")
    XCTAssertEqual(layer.opacity, 0.5)
    layer.setValue(3, forKey: "cornerRadius")
    XCTAssertEqual(layer.cornerRadius, 3)
    layer.setValue(Float(2), forKey: "borderWidth")
    XCTAssertEqual(layer.borderWidth, 2)
    layer.setValue(CGFloat(4), forKey: "zPosition")
    XCTAssertEqual(layer.zPosition, 4)
    layer.setValue(NSNumber(value: 0.25), forKey: "shadowOpacity")
    XCTAssertEqual(layer.shadowOpacity, 0.25)
    layer.setValue(true, forKey: "masksToBounds")
    XCTAssertTrue(layer.masksToBounds)
    layer.setValue(1, forKey: "masksToBounds")
    XCTAssertTrue(layer.masksToBounds)
    XCTAssertEqual(layer.value(forKey: "opacity") as? Float, 0.5)
  }

  func testBothSpellingsOfBooleans() {
    let layer = CALayer()
    layer.setValue(true, forKey: "hidden")
    XCTAssertTrue(layer.isHidden)
    layer.setValue(false, forKey: "isHidden")
    XCTAssertFalse(layer.isHidden)
    layer.setValue(false, forKey: "doubleSided")
    XCTAssertFalse(layer.isDoubleSided)
    layer.setValue(true, forKey: "isGeometryFlipped")
    XCTAssertEqual(layer.value(forKey: "geometryFlipped") as? Bool, true)
    let text = CATextLayer()
    text.setValue(true, forKey: "wrapped")
    XCTAssertTrue(text.isWrapped)
  }

  func testGeometryColorsEnumsAndTransforms() {
    let layer = CALayer()
    layer.setValue(CGPoint(x: 1, y: 2), forKey: "position")
    layer.setValue(CGRect(x: 0, y: 0, width: 10, height: 20), forKey: "bounds")
    layer.setValue(CGSize(width: 3, height: 4), forKey: "shadowOffset")
    layer.setValue(CGColor.white, forKey: "backgroundColor")
    layer.setValue("resizeAspect", forKey: "contentsGravity")
    layer.setValue(CALayerContentsFilter.nearest, forKey: "magnificationFilter")
    layer.setValue(CATransform3DMakeScale(2, 2, 1), forKey: "transform")
    XCTAssertEqual(layer.position, CGPoint(x: 1, y: 2))
    XCTAssertEqual(layer.bounds.height, 20)
    XCTAssertEqual(layer.shadowOffset, CGSize(width: 3, height: 4))
    XCTAssertEqual(layer.backgroundColor, .white)
    XCTAssertEqual(layer.contentsGravity, .resizeAspect)
    XCTAssertEqual(layer.magnificationFilter, .nearest)
    XCTAssertEqual(layer.transform, CATransform3DMakeScale(2, 2, 1))
    layer.setValue(nil, forKey: "backgroundColor")
    XCTAssertNil(layer.backgroundColor)
    XCTAssertNil(layer.value(forKey: "backgroundColor"))
    layer.setValue(["minXMinY", "maxXMaxY"], forKey: "maskedCorners")
    XCTAssertEqual(layer.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
  }

  func testTransformKeyPaths() {
    let layer = CALayer()
    layer.setValue(0.5, forKeyPath: "transform.rotation.y")
    XCTAssertEqual(layer.transform, CATransform3DMakeRotation(0.5, 0, 1, 0))
    XCTAssertEqual(
      layer.value(forKeyPath: "transform.rotation.y") as! CGFloat, 0.5, accuracy: 1e-12)
    layer.transform = CATransform3DIdentity
    layer.setValue(0.25, forKeyPath: "transform.rotation")
    XCTAssertEqual(layer.transform, CATransform3DMakeRotation(0.25, 0, 0, 1))
    layer.transform = CATransform3DIdentity
    layer.setValue(2, forKeyPath: "transform.scale")
    XCTAssertEqual(layer.transform, CATransform3DMakeScale(2, 2, 2))
    layer.setValue(3, forKeyPath: "transform.scale.x")
    XCTAssertEqual(layer.transform, CATransform3DMakeScale(3, 2, 2))
    layer.transform = CATransform3DIdentity
    layer.setValue(CGSize(width: 5, height: 6), forKeyPath: "transform.translation")
    XCTAssertEqual(layer.transform, CATransform3DMakeTranslation(5, 6, 0))
    layer.setValue(7, forKeyPath: "transform.translation.z")
    XCTAssertEqual(layer.transform, CATransform3DMakeTranslation(5, 6, 7))
    XCTAssertEqual(
      layer.value(forKeyPath: "transform.translation") as? CGSize, CGSize(width: 5, height: 6))
    // Components combine: a scaled, rotated layer reads both back.
    layer.transform = CATransform3DRotate(CATransform3DMakeScale(2, 2, 1), 0.3, 0, 0, 1)
    XCTAssertEqual(
      layer.value(forKeyPath: "transform.rotation.z") as! CGFloat, 0.3, accuracy: 1e-12)
    XCTAssertEqual(layer.value(forKeyPath: "transform.scale.x") as! CGFloat, 2, accuracy: 1e-12)
    // sublayerTransform works the same way, and keeps its perspective.
    layer.sublayerTransform.m34 = -1.0 / 500
    layer.setValue(0.4, forKeyPath: "sublayerTransform.rotation.x")
    var expected = CATransform3DMakeRotation(0.4, 1, 0, 0)
    expected.m34 = -1.0 / 500
    assertEqual(layer.sublayerTransform, expected)
    layer.setValue(9, forKeyPath: "transform.m41")
    XCTAssertEqual(layer.transform.m41, 9)
  }

  func testStructKeyPaths() {
    let layer = CALayer()
    layer.setValue(10, forKeyPath: "position.x")
    layer.setValue(20, forKeyPath: "position.y")
    XCTAssertEqual(layer.position, CGPoint(x: 10, y: 20))
    layer.setValue(30, forKeyPath: "bounds.size.width")
    layer.setValue(CGPoint(x: 1, y: 2), forKeyPath: "bounds.origin")
    layer.setValue(CGSize(width: 4, height: 5), forKeyPath: "bounds.size")
    XCTAssertEqual(layer.bounds, CGRect(x: 1, y: 2, width: 4, height: 5))
    layer.setValue(0, forKeyPath: "anchorPoint.x")
    XCTAssertEqual(layer.anchorPoint, CGPoint(x: 0, y: 0.5))
    layer.setValue(7, forKeyPath: "shadowOffset.width")
    XCTAssertEqual(layer.shadowOffset, CGSize(width: 7, height: -3))
    layer.setValue(0.5, forKeyPath: "contentsRect.origin.x")
    XCTAssertEqual(layer.contentsRect.origin.x, 0.5)
    XCTAssertEqual(layer.value(forKeyPath: "bounds.size.height") as? CGFloat, 5)
    XCTAssertEqual(layer.value(forKeyPath: "position.y") as? CGFloat, 20)
    let mask = CALayer()
    layer.mask = mask
    layer.setValue(0.5, forKeyPath: "mask.opacity")
    XCTAssertEqual(mask.opacity, 0.5)
  }

  func testArbitraryKeysAreStored() {
    let layer = CALayer()
    XCTAssertNil(layer.value(forKey: "tag"))
    layer.setValue(42, forKey: "tag")
    XCTAssertEqual(layer.value(forKey: "tag") as? Int, 42)
    layer.setValue(nil, forKey: "tag")
    XCTAssertNil(layer.value(forKey: "tag"))
  }

  func testDefaultValues() {
    XCTAssertEqual(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint, CGPoint(x: 0.5, y: 0.5))
    XCTAssertEqual(CALayer.defaultValue(forKey: "opacity") as? Float, 1)
    XCTAssertNil(CALayer.defaultValue(forKey: "nonsense"))
    XCTAssertFalse(CALayer.needsDisplay(forKey: "opacity"))
    let layer = RoundedLayer()
    XCTAssertEqual(layer.cornerRadius, 8)
    XCTAssertEqual(layer.backgroundColor, .white)
    XCTAssertEqual(CALayer().cornerRadius, 0)
    XCTAssertTrue(CAScrollLayer().masksToBounds)
    XCTAssertFalse(CALayer().masksToBounds)
  }

  func testSubclassKeys() {
    let shape = CAShapeLayer()
    XCTAssertEqual(shape.fillColor, .black)
    XCTAssertNil(shape.strokeColor)
    shape.setValue("evenOdd", forKey: "fillRule")
    shape.setValue("round", forKey: "lineCap")
    shape.setValue([4, 2], forKey: "lineDashPattern")
    shape.setValue(0.5, forKey: "strokeEnd")
    XCTAssertEqual(shape.fillRule, .evenOdd)
    XCTAssertEqual(shape.lineCap, .round)
    XCTAssertEqual(shape.lineDashPattern, [4, 2])
    XCTAssertEqual(shape.strokeEnd, 0.5)
    let gradient = CAGradientLayer()
    gradient.setValue([CGColor.white, CGColor.black], forKey: "colors")
    gradient.setValue("radial", forKey: "type")
    XCTAssertEqual(gradient.cgColors, [.white, .black])
    XCTAssertEqual(gradient.type, .radial)
    let replicator = CAReplicatorLayer()
    replicator.setValue(5, forKey: "instanceCount")
    replicator.setValue(-0.1, forKey: "instanceRedOffset")
    XCTAssertEqual(replicator.instanceCount, 5)
    XCTAssertEqual(replicator.instanceRedOffset, -0.1)
    let emitter = CAEmitterLayer()
    emitter.setValue(1234, forKey: "seed")
    emitter.setValue("line", forKey: "emitterShape")
    XCTAssertEqual(emitter.seed, 1234)
    XCTAssertEqual(emitter.emitterShape, .line)
    let cell = CAEmitterCell()
    cell.setValue(300, forKey: "birthRate")
    XCTAssertEqual(cell.birthRate, 300)
    XCTAssertEqual(cell.scale, 1)
    XCTAssertTrue(CAShapeLayer.propertyKeys.contains("lineJoin"))
    XCTAssertTrue(CAShapeLayer.propertyKeys.contains("opacity"))
    XCTAssertFalse(CALayer.propertyKeys.contains("lineJoin"))
    XCTAssertEqual(CALayer.valueKind(forKeyPath: "transform.rotation.y"), .number)
    XCTAssertEqual(CALayer.valueKind(forKeyPath: "bounds.size"), .size)
    XCTAssertNil(CALayer.valueKind(forKeyPath: "fillColor"))
  }

  func testCopyValues() {
    let shape = CAShapeLayer()
    shape.lineWidth = 5
    shape.opacity = 0.5
    let copy = CAShapeLayer(layer: shape)
    XCTAssertEqual(copy.lineWidth, 5)
    XCTAssertEqual(copy.opacity, 0.5)
  }

  func testAnimationsKeepInsertionOrder() {
    let layer = CALayer()
    let a = CABasicAnimation(keyPath: "opacity")
    layer.add(a, forKey: "b")
    layer.add(CABasicAnimation(keyPath: "position"), forKey: nil)
    layer.add(CABasicAnimation(keyPath: "bounds"), forKey: "a")
    XCTAssertEqual(layer.animationKeys()?.count, 3)
    XCTAssertEqual(layer.animationKeys()?.first, "b")
    XCTAssertEqual(layer.animationKeys()?.last, "a")
    XCTAssertEqual((layer.animation(forKey: "b") as? CABasicAnimation)?.keyPath, "opacity")
    layer.removeAnimation(forKey: "b")
    XCTAssertEqual(layer.animationKeys()?.count, 2)
    layer.removeAllAnimations()
    XCTAssertNil(layer.animationKeys())
  }

  func testTimingFunctionsAndSpring() {
    let f = CAMediaTimingFunction(name: .easeInEaseOut)
    XCTAssertEqual(f.controlPoint(at: 1), [0.42, 0])
    XCTAssertEqual(f.controlPoint(at: 2), [0.58, 1])
    XCTAssertEqual(CAMediaTimingFunction(name: .default).controlPoint(at: 1), [0.25, 0.1])
    let spring = CASpringAnimation()
    XCTAssertEqual(spring.mass, 1)
    XCTAssertEqual(spring.stiffness, 100)
    XCTAssertEqual(spring.damping, 10)
    // zeta = 0.5, w0 = 10: the envelope e^(-5t) falls under 0.1 % near 1.4 s.
    XCTAssertEqual(spring.settlingDuration, 1.4, accuracy: 0.15)
  }

  func testCIFilter() {
    XCTAssertNil(CIFilter(name: "CIBogus"))
    let blur = try! XCTUnwrap(CIFilter(name: "CIGaussianBlur"))
    XCTAssertEqual(blur.value(forKey: "inputRadius") as? CGFloat, 10)
    blur.setValue(4, forKey: kCIInputRadiusKey)
    XCTAssertEqual(blur.value(forKey: "inputRadius") as? CGFloat, 4)
    XCTAssertEqual(blur.inputKeys, ["inputImage", "inputRadius"])
    let matrix = try! XCTUnwrap(CIFilter(name: "CIColorMatrix"))
    XCTAssertEqual(
      matrix.value(forKey: "inputGVector") as? CIVector, CIVector(x: 0, y: 1, z: 0, w: 0))
    for name in CIFilter.blendModeNames { XCTAssertNotNil(CIFilter(name: name), name) }
    XCTAssertEqual(CIFilter.blendModeNames.count, 15)
    for name in ["CIColorControls", "CIHueAdjust", "CIColorInvert", "CISepiaTone"] {
      XCTAssertNotNil(CIFilter(name: name), name)
    }
  }

  func testFilterInputKeyPaths() {
    let blur = CIFilter(name: "CIGaussianBlur")!
    blur.name = "soft"
    XCTAssertEqual(blur.filterName, "CIGaussianBlur")
    let layer = CALayer()
    layer.filters = [CIFilter(name: "CIColorInvert")!, blur]
    XCTAssertEqual(layer.value(forKeyPath: "filters.soft.inputRadius") as? CGFloat, 10)
    XCTAssertNil(layer.value(forKeyPath: "filters.CIGaussianBlur.inputRadius"))
    layer.setValue(4, forKeyPath: "filters.soft.inputRadius")
    XCTAssertEqual(layer.value(forKeyPath: "filters.soft.inputRadius") as? CGFloat, 4)
    // The shared filter object is replaced by a copy, not changed in place.
    XCTAssertEqual(blur.value(forKey: "inputRadius") as? CGFloat, 10)
    let replaced = (layer.filters?[1] as? CIFilter)
    XCTAssertFalse(replaced === blur)
    XCTAssertEqual(replaced?.name, "soft")
    XCTAssertEqual(replaced?.filterName, "CIGaussianBlur")
    // A name no filter has changes nothing.
    layer.setValue(9, forKeyPath: "filters.sharp.inputRadius")
    XCTAssertEqual(layer.value(forKeyPath: "filters.soft.inputRadius") as? CGFloat, 4)
    XCTAssertEqual(CALayer.valueKind(forKeyPath: "filters.soft.inputRadius"), .number)
    XCTAssertEqual(CALayer.valueKind(forKeyPath: "backgroundFilters.x.inputRVector"), .numbers)
    XCTAssertNil(CALayer.valueKind(forKeyPath: "filters.soft.inputBogus"))
    XCTAssertNil(CALayer.valueKind(forKeyPath: "filters.inputRadius"))
  }
}
